"""The order of the showdown (``PokerRulebook.showdown_order_by``: PT-217/2007 n.º 62).

N.º 62: "O jogador que iniciou o último turno de apostas é o primeiro a mostrar as suas
cartas, no que será seguido, sucessivamente, pelos restantes jogadores, com início
naquele que se encontra sentado imediatamente à sua esquerda": the player who opened the
last betting round shows first, then each player in turn clockwise from his left.

The opener of a round is the player of its first ``ActionTaken``: the first action after
the hole cards, then after each board dealing that was followed by betting (when every
player is all-in before the last card, the last betting round is the last one played).
Each ``CardsShown`` (shown or mucked: a player in turn either shows or concedes) must not
come from a seat nearer clockwise to the opener than a seat that already showed; one
that does is ``illegal_action`` citing the article. A seat showing again (a hand first
shown in part, then whole) is not a new turn. Seats run clockwise (n.º 6, 99: numbered
from the dealer's left), so the distance is counted in the table's positions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from replayer.findings import FindingKind
from replayer.poker.betting import Issue
from replayer.poker.table import Table


class Opener:
    """The seat that opened the last betting round of the events seen so far."""

    __slots__ = ("round_open", "seat")

    def __init__(self) -> None:
        self.seat: Any = None
        self.round_open = True

    def see(self, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if kind == "CardsDealt" and event.get("target") == "board":
            self.round_open = True
        elif kind == "ActionTaken" and self.round_open:
            self.seat = event.get("seat")
            self.round_open = False


def last_round_opener(events: Iterable[Mapping[str, Any]]) -> Any:
    """The seat that opened the last betting round of ``events``, or None (no action).

    >>> last_round_opener([{"type": "ActionTaken", "seat": 3},
    ...                    {"type": "ActionTaken", "seat": 1},
    ...                    {"type": "CardsDealt", "target": "board"},
    ...                    {"type": "ActionTaken", "seat": 1}])
    1
    """
    opener = Opener()
    for event in events:
        opener.see(event)
    return opener.seat


class ShowdownOrder:
    """Follows one hand's events and judges the order of its ``CardsShown``."""

    __slots__ = ("citation", "last", "opener", "shown", "table")

    def __init__(self, citation: str, table: Table) -> None:
        self.citation = citation
        self.table = table
        self.opener = Opener()
        self.last: int | None = None
        self.shown: set[int] = set()

    def see(self, event: Mapping[str, Any]) -> list[Issue]:
        """The issues of one event, in sequence order (see the module docstring).

        >>> from replayer.poker.table import seat_table
        >>> seats = [{"seat": s, "player_id": f"p{s}", "stack": 100} for s in (1, 2, 3, 4)]
        >>> table = seat_table({"seats": seats, "button": 4, "smallest_chip": 1,
        ...                     "big_blind": 2, "min_bet": 2, "small_blind": 1})
        >>> order = ShowdownOrder("PT-217/2007 n.º 62", table)
        >>> order.see({"type": "CardsDealt", "target": "board", "cards": ["2c"]})
        []
        >>> order.see({"type": "ActionTaken", "seat": 2, "action": "check"})
        []
        >>> order.see({"type": "CardsShown", "seat": 4, "cards": ["As", "Kd"]})
        []
        >>> [issue.recorded for issue in order.see({"type": "CardsShown", "seat": 3})]
        [{'after_seat': 4}]
        """
        if event.get("type") == "CardsShown":
            return self._shown(event.get("seat"))
        self.opener.see(event)
        return []

    def _shown(self, seat: Any) -> list[Issue]:
        table = self.table
        pos = table.position.get(seat)
        start = table.position.get(self.opener.seat)
        if pos is None or start is None or pos in self.shown:
            return []
        self.shown.add(pos)
        n = len(table.seat_of)
        distance = (pos - start) % n
        last, self.last = self.last, distance if self.last is None else max(self.last, distance)
        if last is None or distance >= last:
            return []
        opener = table.seat_of[start]
        before = table.seat_of[(start + last) % n]
        return [
            Issue(
                FindingKind.ILLEGAL_ACTION,
                self.citation,
                f"shows after seat {before}: the showdown begins with seat {opener}, who "
                "opened the last betting round, then goes clockwise",
                {"first": opener, "then": "clockwise"},
                {"after_seat": before},
            )
        ]
