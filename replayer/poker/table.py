"""The seated table of one hand: who sits where, in dealing order, and the stakes.

Players are addressed by *position* inside the engine (``betting``): positions run
clockwise from the first seat left of the button (0) to the button (n - 1); without a
button, in HandStarted's order. Findings name *seats*; ``Table`` maps between the two.
Too few players (MO-97/2010 art.2(3); PT-217/2007 n.º 24) or more than the table's seats
(PT-217/2007 n.º 6, 99) is ``invalid_deal`` (``seating_issues``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replayer.events import HeldEvent
from replayer.frozen import rebuilt_by_init
from replayer.poker.betting import Issue
from replayer.poker.deal import INVALID
from replayer.rulebooks.poker import PokerRulebook


@dataclass(frozen=True, slots=True)
class Table:
    """Seats, stacks and stakes of one hand as HandStarted records them."""

    listed: tuple[int, ...]
    """Seats in HandStarted's order (the order of HandEnded.finishing_stacks)."""
    seat_of: tuple[int, ...]
    """Position -> seat."""
    position: dict[int, int]
    """Seat -> position."""
    by_seat: tuple[int, ...]
    """Positions in seat order."""
    seats_sorted: tuple[int, ...]
    """Seats in seat order."""
    starting: tuple[int, ...]
    """Position -> chips at the start of the hand."""
    chip: int
    """Smallest chip in play (at least 1), minor units."""
    big_blind: int
    min_bet: int
    small_blind: int
    ante: int

    def seated(self, value: Any) -> Any:
        """Replace {"position": p} by {"seat": s} in an issue's expected/recorded value."""
        if isinstance(value, dict) and "position" in value:
            value = dict(value)
            value["seat"] = self.seat_of[value.pop("position")]
        return value

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


def seat_table(start: HeldEvent) -> Table:
    """The table of a HandStarted event; raises KeyError/TypeError/ValueError if unreadable.

    >>> start = {"seats": [{"seat": s, "player_id": f"p{s}", "stack": 100 * s} for s in (1, 3, 6)],
    ...          "button": 3, "smallest_chip": 1, "big_blind": 2, "min_bet": 2, "small_blind": 1}
    >>> table = seat_table(start)
    >>> table.seat_of, table.starting  # seat 6 is left of the button, the button acts last
    ((6, 1, 3), (600, 100, 300))
    """
    # Seats and stacks stay the objects read (``_whole``), not unboxed and boxed again.
    listed = [(_whole(s["seat"]), str(s["player_id"]), _whole(s["stack"])) for s in start["seats"]]
    button = start.get("button")
    if button is not None:
        by_seat = sorted(listed)
        after = [entry for entry in by_seat if entry[0] > button]
        by_seat = after + [entry for entry in by_seat if entry[0] <= button]
        # Seats right of the button come first in seat order: positions len(after) onwards.
        split = len(after)
        in_seat_order = tuple([split + i for i in range(len(by_seat) - split)] + list(range(split)))
    else:
        by_seat = listed
        in_seat_order = tuple(sorted(range(len(listed)), key=[e[0] for e in listed].__getitem__))
    seats: list[Any] = []
    starting: list[Any] = []
    position: dict[Any, int] = {}
    for seat, _, stack in by_seat:
        position[seat] = len(seats)
        seats.append(seat)
        starting.append(stack)
    seat_of = tuple(seats)
    return Table(
        tuple([seat for seat, _, _ in listed]),
        seat_of,
        position,
        in_seat_order,
        tuple([seat_of[p] for p in in_seat_order]),
        tuple(starting),
        max(1, _whole(start["smallest_chip"])),
        _whole(start["big_blind"]),
        _whole(start["min_bet"]),
        _whole(start["small_blind"]),
        _whole(start.get("ante") or 0),
    )


def _whole(value: Any) -> Any:
    """``int(value)``, without the call when ``value`` is an ``int`` already (a ``bool``
    is converted); typed ``Any`` so that compiled code passes the object on as it is."""
    return value if type(value) is int else int(value)


def seating_issues(book: PokerRulebook, table: Table) -> list[Issue]:
    """Too few players dealt in (``book.cite.min_players``) or too many (``max_seats``)."""
    n = len(table.seat_of)
    issues = []
    if n < book.min_players:
        issues.append(
            Issue(
                INVALID,
                book.cite.min_players,
                f"hand dealt to {n} players",
                {"at_least": book.min_players},
                n,
            )
        )
    if book.max_seats is not None and n > book.max_seats:
        issues.append(
            Issue(
                INVALID,
                book.cite.max_seats,
                f"hand dealt to {n} players",
                {"at_most": book.max_seats},
                n,
            )
        )
    return issues
