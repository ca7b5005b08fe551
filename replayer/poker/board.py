"""The board: community cards dealt round by round as the rulebook schedules them, and burns.

``book.board_schedule`` is the number of board cards due before each betting round
((0, 3, 1, 1) in hold'em and omaha: flop, turn, river; cited by ``book.cite.board``).
Betting while board cards are still due, more cards at once than are due, or more board
cards than the game has is ``invalid_deal``; a board dealt while players still owe an
action in the open round is a data-quality issue. The replay continues as recorded.
"""

from __future__ import annotations

from replayer.poker.betting import QUALITY, Betting, Issue
from replayer.poker.deal import INVALID
from replayer.rulebooks.poker import PokerRulebook

_STANDARD_STREETS = ("preflop", "flop", "turn", "river")


class Board:
    """Board and burnt cards of one hand, and how many board cards are still due."""

    __slots__ = ("burns", "cards", "citation", "needed", "round", "schedule", "street_names")

    def __init__(self, book: PokerRulebook) -> None:
        schedule = book.board_schedule
        self.schedule = schedule
        self.citation = book.cite.board
        self.cards: list[str] = []
        self.burns: list[str] = []
        # The betting round the board dealt so far leads to (0: before any board card).
        self.round = 0
        # Board cards still due before that betting round can start.
        self.needed = schedule[0]
        self.street_names = (
            _STANDARD_STREETS
            if schedule == (0, 3, 1, 1)
            else tuple(f"round {i + 1}" for i in range(len(schedule)))
        )

    def street(self, betting_round: int) -> str:
        """Name of a betting round: preflop, flop, turn, river (else "round N")."""
        names = self.street_names
        return names[min(betting_round, len(names) - 1)]

    def open_round(self, betting: Betting) -> None:
        """Start the betting round this board leads to, whatever is still due."""
        self.needed = 0
        betting.start_round(self.round)

    def before_action(self, betting: Betting, issues: list[Issue]) -> None:
        """An action while board cards are due is ``invalid_deal``; the round opens anyway."""
        if self.needed:
            issues.append(
                Issue(
                    INVALID,
                    self.citation,
                    f"betting before {self.needed} more board card(s)",
                    self.needed,
                    0,
                )
            )
            self.open_round(betting)

    def deal(
        self, cards: list[str], betting: Betting, seat_of: tuple[int, ...], issues: list[Issue]
    ) -> None:
        """Board cards dealt (CardsDealt to the board), checked against the schedule."""
        if not self.needed:
            betting.start_round(betting.round)
            pending = betting.pending()
            if pending and betting.in_hand() > 1:
                issues.append(
                    Issue(
                        QUALITY,
                        self.citation,
                        "board dealt before the betting round closed",
                        [],
                        [seat_of[p] for p in pending],
                    )
                )
            self.round += 1
            if self.round >= len(self.schedule):
                issues.append(
                    Issue(
                        INVALID,
                        self.citation,
                        "more board cards than the game",
                        sum(self.schedule),
                        len(self.cards) + len(cards),
                    )
                )
                self.cards.extend(cards)
                return
            self.needed = self.schedule[self.round]
        if len(cards) > self.needed:
            issues.append(
                Issue(
                    INVALID,
                    self.citation,
                    f"{len(cards)} board cards dealt where {self.needed} were due",
                    self.needed,
                    len(cards),
                )
            )
        self.cards.extend(cards)
        self.needed = max(0, self.needed - len(cards))
        if not self.needed:
            self.open_round(betting)
