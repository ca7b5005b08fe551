"""The state of one hand while its events are replayed.

``Hand`` holds the table (``table``), the betting state machine (``betting``), the board
(``board``), the cards dealt and shown, and what the operator recorded about the outcome
(awards, rake, finishing stacks, void). ``dispatch`` changes it one event at a time and
``settlement`` reads it at the end. A departure found on the way waits in ``issues``
until ``replay`` turns it into a finding of the event that raised it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replayer.events import HeldEvent
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
    opening: HeldEvent
    """The hand's first event in sequence order."""
    commitment: Any
    """HandStarted.shuffle_commitment (None: no commitment)."""
    holes: list[list[str]]
    mucked: list[bool]
    awards: list[int]
    """PotAwarded chips per position."""
    shown: dict[int, list[str]]
    awards_by_pot: dict[tuple[int, int], int]
    """(pot index, position) -> chips, from PotAwarded events that name their pot."""
    awarded: bool
    rake_recorded: int
    finishing: list[int] | None
    """HandEnded.finishing_stacks in HandStarted's seat order, when recorded."""
    ended: bool
    void: str | None
    """The event type that voided the hand (HandVoided, HandReverted), else None."""
    revealed: tuple[list[str], str] | None
    """DeckRevealed (order, salt)."""
    fees: list[Fee]
    """FeeTaken from the pot (no seat), in event order."""
    paid_outside: list[tuple[int, str, int]]
    """(position, kind, amount) of each FeeTaken a player paid outside the pot."""
    cashouts: list[tuple[int, int]]
    """(position, amount) of each CashoutPaid: the house paid outside the pot."""
    issues: list[Issue]

    def __init__(
        self,
        hand_id: str,
        book: PokerRulebook,
        rake_terms: RakeTerms | None,
        fee_terms: FeeTerms | None,
        game: Game,
        table: Table,
        betting: Betting,
        board: Board,
        opening: HeldEvent,
        commitment: Any,
        holes: list[list[str]],
        mucked: list[bool],
        awards: list[int],
    ) -> None:
        # Written out (``dataclass`` would generate it): mypyc compiles this one to direct
        # slot stores, where the generated ``__init__`` runs interpreted. The fields after
        # ``awards`` start empty.
        self.hand_id = hand_id
        self.book = book
        self.rake_terms = rake_terms
        self.fee_terms = fee_terms
        self.game = game
        self.table = table
        self.betting = betting
        self.board = board
        self.opening = opening
        self.commitment = commitment
        self.holes = holes
        self.mucked = mucked
        self.awards = awards
        self.shown = {}
        self.awards_by_pot = {}
        self.awarded = False
        self.rake_recorded = 0
        self.finishing = None
        self.ended = False
        self.void = None
        self.revealed = None
        self.fees = []
        self.paid_outside = []
        self.cashouts = []
        self.issues = []

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
    start: HeldEvent,
    opening: HeldEvent,
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
