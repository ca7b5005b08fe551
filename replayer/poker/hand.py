"""The state of one hand while its events are replayed.

``Hand`` holds the table (``table``), the betting state machine (``betting``), the board
(``board``), the cards dealt and shown, and what the operator recorded about the outcome
(awards, rake, finishing stacks, void). ``dispatch`` changes it one event at a time and
``settlement`` reads it at the end. A departure found on the way waits in ``issues``
until ``replay`` turns it into a finding of the event that raised it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from replayer.events import FlatEvent
from replayer.poker.betting import QUALITY, Betting, Issue
from replayer.poker.board import Board
from replayer.poker.fees import Fee
from replayer.poker.table import Table, seat_table
from replayer.rulebooks.poker import VARIANTS, FeeTerms, Game, PokerRulebook, RakeTerms
from replayer.terms import fees_in_force, rake_in_force

SCHEMA = "schemas/poker_hand.avsc"


@dataclass(slots=True)
class Hand:
    """One hand being replayed (see the module docstring); positions, not seats."""

    hand_id: str
    book: PokerRulebook
    rake_terms: RakeTerms | None
    """The rake the hand is judged by (``replayer.terms.rake_in_force``)."""
    fee_terms: FeeTerms | None
    """The fees other than rake it is judged by (``replayer.terms.fees_in_force``)."""
    game: Game
    table: Table
    betting: Betting
    board: Board
    opening: FlatEvent
    """The hand's first event in sequence order."""
    commitment: Any
    """HandStarted.shuffle_commitment (None: no commitment)."""
    holes: list[list[str]]
    mucked: list[bool]
    awards: list[int]
    """PotAwarded chips per position."""
    shown: dict[int, list[str]] = field(default_factory=dict)
    awards_by_pot: dict[tuple[int, int], int] = field(default_factory=dict)
    """(pot index, position) -> chips, from PotAwarded events that name their pot."""
    awarded: bool = False
    rake_recorded: int = 0
    finishing: list[int] | None = None
    """HandEnded.finishing_stacks in HandStarted's seat order, when recorded."""
    ended: bool = False
    void: str | None = None
    """The event type that voided the hand (HandVoided, HandReverted), else None."""
    revealed: tuple[list[str], str] | None = None
    """DeckRevealed (order, salt)."""
    fees: list[Fee] = field(default_factory=list)
    """FeeTaken from the pot (no seat), in event order."""
    paid_outside: list[tuple[int, str, int]] = field(default_factory=list)
    """(position, kind, amount) of each FeeTaken a player paid outside the pot."""
    cashouts: list[tuple[int, int]] = field(default_factory=list)
    """(position, amount) of each CashoutPaid: the house paid outside the pot."""
    issues: list[Issue] = field(default_factory=list)

    def position_of(self, seat: Any) -> int | None:
        """Position of a seat dealt in; None (and a data-quality issue) for any other."""
        pos = self.table.position.get(seat)
        if pos is None:
            self.issues.append(
                Issue(
                    QUALITY,
                    f"{SCHEMA} seat",
                    f"seat {seat!r} is not dealt in",
                    list(self.table.seat_of),
                    seat,
                )
            )
        return pos


def open_hand(
    book: PokerRulebook,
    start: FlatEvent,
    opening: FlatEvent,
    hand_id: str,
    rake_terms: RakeTerms | None,
    fee_terms: FeeTerms | None = None,
) -> Hand:
    """The hand as HandStarted deals it; raises KeyError/TypeError/ValueError if unreadable."""
    judged_rake = rake_in_force(book.rake, rake_terms)
    structure, game = VARIANTS[start["variant"]]
    table = seat_table(start)
    betting = Betting(
        book,
        structure,
        list(table.starting),
        table.small_blind,
        table.big_blind,
        table.ante,
        table.min_bet,
    )
    n = len(table.seat_of)
    return Hand(
        hand_id=hand_id,
        book=book,
        rake_terms=judged_rake,
        fee_terms=fees_in_force(book.fees, fee_terms),
        game=game,
        table=table,
        betting=betting,
        board=Board(book),
        opening=opening,
        commitment=start.get("shuffle_commitment"),
        holes=[[] for _ in range(n)],
        mucked=[False] * n,
        awards=[0] * n,
    )
