"""The data-quality suites, one per event family and frame, as plain data.

A ``Check`` names a Great Expectations expectation class and its arguments; the runner
(``pipelines.quality``) turns the checks of a frame into a GX ExpectationSuite, so this
module never imports great_expectations (its import takes seconds). Each check carries
the sentence an inspector reads when it fails; the finding cites
``casino-audit data quality: <expectation>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipelines.expectations.frames import END_TYPES, ROUND_OUTCOMES

CARD_PATTERN = r"^(?:[2-9TJQKA][cdhs]|\?\?)$"
CITATION_PREFIX = "casino-audit data quality"
MAX_SEATS = 23  # the largest table any rulebook allows (52 cards, 2 hole cards, board of 5)


@dataclass(frozen=True)
class Check:
    """One expectation over one frame; a failing row is a finding about its subject."""

    name: str
    """Short stable name, e.g. ``poker.completeness``."""
    expectation: str
    """Great Expectations class name, e.g. ``ExpectColumnValuesToBeUnique``."""
    kwargs: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    """One line for the finding: what the failing row means."""

    @property
    def citation(self) -> str:
        return f"{CITATION_PREFIX}: {self.name}"


def _non_negative(column: str, name: str, reason: str) -> Check:
    return Check(name, "ExpectColumnValuesToBeBetween", {"column": column, "min_value": 0}, reason)


def _known(column: str, name: str, reason: str) -> Check:
    return Check(
        name, "ExpectColumnValuesToBeInSet", {"column": column, "value_set": [True]}, reason
    )


_UNIQUE_EVENT_IDS = Check(
    "event_id.unique",
    "ExpectColumnValuesToBeUnique",
    {"column": "event_id"},
    "event id used more than once",
)
_UNIQUE_SEQUENCE = Check(
    "sequence.unique",
    "ExpectCompoundColumnsToBeUnique",
    {"column_list": ["subject", "sequence"]},
    "two events share a sequence number",
)
_CARDS_VALID = Check(
    "cards.valid",
    "ExpectColumnValuesToMatchRegex",
    {"column": "card", "regex": CARD_PATTERN},
    "card is not rank+suit (e.g. 'As') or '??'",
)

SUITES: dict[str, dict[str, tuple[Check, ...]]] = {
    "poker": {
        "events": (
            _UNIQUE_EVENT_IDS,
            _UNIQUE_SEQUENCE,
            _non_negative("amount", "amount.non_negative", "amount is negative"),
            Check(
                "seat.in_range",
                "ExpectColumnValuesToBeBetween",
                {"column": "seat", "min_value": 1, "max_value": MAX_SEATS},
                f"seat outside 1..{MAX_SEATS}",
            ),
            _known("start_known", "hand.started", "event of a hand with no HandStarted"),
            _known("seat_known", "seat.dealt_in", "event names a seat not dealt in at HandStarted"),
        ),
        "hands": (
            Check(
                "hand.completeness",
                "ExpectColumnValuesToBeInSet",
                {"column": "end_type", "value_set": list(END_TYPES)},
                "hand started but neither ended, was voided nor reverted",
            ),
            Check(
                "hand.chips_conserved",
                "ExpectColumnPairValuesAToBeGreaterThanB",
                {
                    "column_A": "odd_chips_allowed",
                    "column_B": "unaccounted",
                    "or_equal": True,
                    "ignore_row_if": "either_value_is_missing",
                },
                "chips went missing: paid out plus rake is less than what went in",
            ),
            _non_negative(
                "unaccounted",
                "hand.chips_not_created",
                "chips appeared: paid out plus rake is more than what went in",
            ),
            _non_negative("min_stack", "stack.non_negative", "a starting stack is negative"),
            _non_negative("big_blind", "blind.non_negative", "the big blind is negative"),
        ),
        "cards": (_CARDS_VALID,),
        "known_cards": (
            Check(
                "cards.dealt_once",
                "ExpectCompoundColumnsToBeUnique",
                {"column_list": ["subject", "card"]},
                "the same card dealt twice in one hand",
            ),
        ),
    },
    "banked": {
        "events": (
            _UNIQUE_EVENT_IDS,
            _UNIQUE_SEQUENCE,
            _non_negative("amount", "amount.non_negative", "amount is negative"),
            _known("start_known", "round.opened", "event of a round with no RoundOpened"),
            _known("bet_known", "bet.placed", "settles a bet_id never placed in the round"),
            _known("player_matches", "bet.player", "pays or refunds someone else than the bettor"),
        ),
        "rounds": (
            Check(
                "round.completeness",
                "ExpectColumnValuesToBeInSet",
                {"column": "outcome", "value_set": list(ROUND_OUTCOMES)},
                "round opened but has no outcome, settlement or void",
            ),
        ),
        "cards": (_CARDS_VALID,),
    },
    "slots": {
        "events": (
            _UNIQUE_EVENT_IDS,
            _UNIQUE_SEQUENCE,
            _non_negative("amount", "amount.non_negative", "amount is negative"),
            _non_negative("wager", "wager.non_negative", "wager is negative"),
            _non_negative("win", "win.non_negative", "win is negative"),
            _known("start_known", "machine.configured", "event before MachineConfigured"),
        ),
        "meters": (_non_negative("value", "meter.non_negative", "a meter reading is negative"),),
    },
    "tournament": {
        "events": (
            _UNIQUE_EVENT_IDS,
            _UNIQUE_SEQUENCE,
            _non_negative("amount", "amount.non_negative", "amount is negative"),
            _known(
                "start_known",
                "tournament.announced",
                "event of a tournament with no TournamentAnnounced",
            ),
            _known(
                "player_known",
                "player.registered",
                "names a player never registered in the tournament",
            ),
        ),
    },
}
