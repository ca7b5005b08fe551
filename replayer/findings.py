"""Findings: what the replayer reports when a hand, round or machine departs from its rules.

Every finding names its kind (``FindingKind``, one meaning each), its subject,
the rule it cites, what was expected, what was recorded, the difference and a one-line
reason. Its id is derived from its content, so replaying the same events twice gives
byte-identical findings (no clocks, no randomness).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from replayer.frozen import rebuilt_by_init


class FindingKind(StrEnum):
    """The shared finding vocabulary. A kind has one meaning; add kinds, never overload."""

    MISPAID_POT = "mispaid_pot"
    RAKE_CAP_BREACH = "rake_cap_breach"
    RAKE_RATE_OUT_OF_BAND = "rake_rate_out_of_band"
    ILLEGAL_ACTION = "illegal_action"
    INVALID_DEAL = "invalid_deal"
    VOID_HAND_NOT_REFUNDED = "void_hand_not_refunded"
    MISPAID_BET = "mispaid_bet"
    METER_DISCREPANCY = "meter_discrepancy"
    COLLUSION_SUSPECTED = "collusion_suspected"
    REFUND_MISMATCH = "refund_mismatch"
    CHAIN_BROKEN = "chain_broken"
    DATA_QUALITY = "data_quality"
    NO_RULEBOOK = "no_rulebook"
    WRONG_DRAW = "wrong_draw"
    WRONG_PLACE = "wrong_place"
    """A tournament finishing place that departs from the elimination rules."""
    MISPAID_BOUNTY = "mispaid_bounty"
    """A bounty paid to the wrong players or in the wrong amounts."""
    MISPAID_PRIZE = "mispaid_prize"
    """A prize paid in the wrong form or amount (e.g. a satellite seat instead of T$)."""
    RETURN_OUT_OF_BAND = "return_out_of_band"
    """A slot machine's return (theoretical or metered) outside what the rules allow."""
    PAST_POSTED_BET = "past_posted_bet"
    """A bet recorded after the point where the rules close betting (first card dealt,
    ball launched), judged by its place in the event sequence whatever flag it carries."""
    TERMS_MISSING = "terms_missing"
    """A subject whose judgement needs the table's declared terms (e.g. the rake where the
    rulebook leaves it to the table), and none were declared in force at its start."""
    TERMS_OUTSIDE_RULEBOOK = "terms_outside_rulebook"
    """Terms a table or machine declares that the rulebook does not allow (e.g. a rake
    rate outside MO-97/2010 art.16's 3-5%, a banker commission above the rule's rate)."""
    CONFLICTING_VERSIONS = "conflicting_versions"
    """An event the operator sent in another version than the stored one (or two files of
    one ingest disagree about it): the stored event stands, the others are quarantined."""
    FEE_NOT_ALLOWED = "fee_not_allowed"
    """A deduction from a pot other than rake (a jackpot drop, ``FeeTaken``) of a kind the
    rulebook and the table's terms do not allow, or above their maximum. Its money is
    inside the hand's ``mispaid_pot``, like rake above its bounds."""
    CHIPS_VANISHED = "chips_vanished"
    """A player's chips fell between two consecutive hands of a table session, at the same
    seat, with no leave or cash-out recorded (``replayer.sessions.continuity``)."""
    RECORD_CONTRADICTS_ITSELF = "record_contradicts_itself"
    """A room's record that disagrees with itself across hands: a hand paying the whole pot
    with no rake line while the winner's next stack is net of a rake."""
    BUTTON_NOT_ROTATED = "button_not_rotated"
    """The dealer button did not pass clockwise between two consecutive hands."""
    SHOE_COMPOSITION = "shoe_composition"
    """A shoe (sabot) whose rounds, taken together, show what its decks cannot hold: a card
    more often than the decks have it, more cards than the shoe holds, decks or a cut card
    other than the rules' (``replayer.casino.shoes``)."""
    PAST_LAST_COUP = "past_last_coup"
    """A round dealt from a shoe after its last coup: after the round in which the cut card
    (chemin de fer: the warning card) came out, before the cards were shuffled again."""
    ACTED_OUT_OF_TIME = "acted_out_of_time"
    """An action other than a fold or a check taken after the player's time to act and
    largest time bank ran out, by the events' own times (GG-2022 time limit, time bank,
    disconnections): the room folds him (checks him when he faces no bet)."""
    TOURNAMENT_CHIPS_UNBALANCED = "tournament_chips_unbalanced"
    """A tournament's chip count that covers every player still in and does not add up
    to the chips its entries brought (chips left the tournament, or came from nowhere,
    between hands: MO-97/2010 art.4(2))."""
    ELIMINATION_CONTRADICTS_CHIPS = "elimination_contradicts_chips"
    """A tournament elimination the chip counts contradict: a player counted with chips
    after his elimination, or a finishing place other than the number of players in
    when he went out."""
    LATE_ENTRY_AFTER_ITM = "late_entry_after_itm"
    """A tournament entry taken after the field reached the paid places, when the rules
    close late registration (GG-2022 Política de torneios)."""
    ENTRY_NOT_PERSONAL = "entry_not_personal"
    """Tournament chips played, or an elimination recorded, for a player who holds no
    entry of his own: someone took another's place (PT-217/2007 n.º 117)."""
    DEAL_OUTSIDE_RULES = "deal_outside_rules"
    """A tournament deal the rules do not allow: not every remaining player a party to it
    (GG-2022 Política de negociação), made before the final table (PT-217/2007 n.º 119),
    or sharing other than the prizes left to win."""
    JACKPOT_CONTRIBUTION = "jackpot_contribution"
    """A slot machine's jackpot deduction other than its declared fixed share of the wagers
    played (PT-217/2007 III.3), or a machine of a superjackpot whose link or share the
    other linked machines do not state (III.4) (``replayer.slots.jackpot``)."""
    JACKPOT_LIABILITY = "jackpot_liability"
    """A jackpot read as holding another amount than its contributions less its awards
    and transfers since the reading before: the operator holds it in trust (III.5)."""
    JACKPOT_TRANSFER = "jackpot_transfer"
    """An unawarded jackpot moved otherwise than whole to a machine of the same model and
    bets that records receiving it (PT-217/2007 III.6)."""
    UNAPPROVED_CONFIGURATION = "unapproved_configuration"
    """A slot machine configured with characteristics no approval on record lists
    (PT-217/2007 III.8)."""
    TOURNAMENT_CHIPS_VANISHED = "tournament_chips_vanished"
    """A player's tournament chips fell between two consecutive hands at a tournament's
    table, at the same seat (MO-97/2010 art.4(2): no chips leave the table;
    ``replayer.sessions.continuity``). Chips, never money."""
    TOURNAMENT_CHIPS_APPEARED = "tournament_chips_appeared"
    """A player's tournament chips rose between two consecutive hands at a tournament's
    table with no rebuy or add-on recorded: chips from nowhere. Chips, never money."""
    BUTTON_NOT_TO_WINNER = "button_not_to_winner"
    """In a win-the-button tournament, the button did not go to the previous hand's winner
    (on a tie, the winner first left of the marker) between two consecutive hands
    (PT-217/2007 n.º 124; ``replayer.sessions.win_button``)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One departure from the rules.

    ``expected``, ``recorded`` and ``difference`` are JSON-able values (integers of minor
    units, card lists, or small dicts keyed by seat/player); never floats for money.
    ``detail`` carries optional structured evidence (pot index, event sequence, ...).
    """

    kind: FindingKind
    subject: str
    citation: str
    reason: str
    expected: Any = None
    recorded: Any = None
    difference: Any = None
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def finding_id(self) -> str:
        """Content hash: the same finding always has the same id."""
        return hashlib.sha256(self.canonical_json().encode()).hexdigest()[:24]

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": str(self.kind),
            "subject": self.subject,
            "citation": self.citation,
            "reason": self.reason,
            "expected": self.expected,
            "recorded": self.recorded,
            "difference": self.difference,
            "detail": self.detail,
        }

    def canonical_json(self) -> str:
        """Sorted-key compact JSON: the byte-stable form used for ids and exports."""
        return json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))

    def to_record(self) -> dict[str, Any]:
        """The exported form: the content plus its id."""
        return {"finding_id": self.finding_id, **self.as_dict()}

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


def tally_kinds(findings: Iterable[Finding], counts: MutableMapping[str, int]) -> None:
    """Add one to ``counts[kind]`` for each finding: the findings-by-kind figure every
    summary prints.

    >>> counts = {}
    >>> tally_kinds([], counts); counts
    {}
    """
    for finding in findings:
        kind = str(finding.kind)
        counts[kind] = counts.get(kind, 0) + 1
