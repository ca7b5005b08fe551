"""The board: community cards dealt round by round as the rulebook schedules them, and burns.

``book.board_schedule`` is the number of board cards due before each betting round
((0, 3, 1, 1) in hold'em and omaha: flop, turn, river; cited by ``book.cite.board``).
Betting while board cards are still due, more cards at once than are due, or more board
cards than the game has is ``invalid_deal``, except that where the rulebook says so
(``extra_board_card_by``: PT-217/2007 n.º 110, sintético) cards turned before their time
lose the betting rounds they skip, as many rounds as cards; a board dealt while players still owe an
action in the open round is a data-quality issue. The replay continues as recorded.

Boards run more than once after an all-in (``BoardRun``, ``start_run``): the board dealt
before the first BoardRun is common to every run; each run then deals from that point
on, by the same schedule, to its own full board (``run_boards``).
"""

from __future__ import annotations

from replayer.poker.betting import QUALITY, Betting, Issue
from replayer.poker.deal import INVALID
from replayer.rulebooks.poker import PokerRulebook

_STANDARD_STREETS = ("preflop", "flop", "turn", "river")


class Board:
    """Board and burnt cards of one hand, and how many board cards are still due."""

    __slots__ = (
        "burns",
        "cards",
        "citation",
        "common",
        "early",
        "needed",
        "round",
        "run",
        "runs",
        "schedule",
        "street_names",
    )

    def __init__(self, book: PokerRulebook) -> None:
        schedule = book.board_schedule
        self.schedule = schedule
        self.citation = book.cite.board
        self.early = book.extra_board_card_by is not None
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
        # Run-it-twice: the common board's length, round and cards due at the first
        # BoardRun; the run being dealt (0: none); each run's (cards, round, needed).
        self.common: tuple[int, int, int] | None = None
        self.run = 0
        self.runs: dict[int, tuple[list[str], int, int]] = {}

    def start_run(self, run: int) -> None:
        """A BoardRun: the board cards dealt next belong to run ``run`` (1, 2, ...)."""
        if self.common is None:
            self.common = (len(self.cards), self.round, self.needed)
        elif self.run:
            self.runs[self.run] = (self.cards, self.round, self.needed)
        length, common_round, common_needed = self.common
        cards, self.round, self.needed = self.runs.get(
            run, (self.cards[:length], common_round, common_needed)
        )
        self.cards = list(cards)
        self.run = run
        self.runs[run] = (self.cards, self.round, self.needed)

    def run_boards(self) -> list[list[str]]:
        """Each run's full board (common cards, then the run's own), in run order; empty
        when the board was run once."""
        if self.run:
            self.runs[self.run] = (self.cards, self.round, self.needed)
        return [list(self.runs[run][0]) for run in sorted(self.runs)]

    def all_cards(self) -> list[str]:
        """Every board card dealt: the common board, then each run's own cards."""
        if self.common is None:
            return self.cards
        length = self.common[0]
        boards = self.run_boards()
        return boards[0][:length] + [card for board in boards for card in board[length:]]

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
        if self.early:
            self._skip_rounds(len(cards))
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

    def _skip_rounds(self, dealt: int) -> None:
        """Cards beyond those due lose the rounds they skip (n.º 110): the board leads to
        the round their schedule reaches; what is still beyond the game stays excess."""
        extra = dealt - self.needed
        schedule = self.schedule
        while extra > 0 and self.round + 1 < len(schedule) and schedule[self.round + 1] <= extra:
            self.round += 1
            extra -= schedule[self.round]
            self.needed += schedule[self.round]
