"""A tournament player moved from one of its tables to another takes his chips with him
(MO-97/2010 art.4(2): no chips leave the table; table balancing moves players, never
their chips).

A move is judged only where the records show it, each condition a fact of the stored
hands of the tournament:

* the player joined the session's table: a hand of the session (``arrived``) deals him in
  and the consecutive hand before it does not;
* his latest hand in the tournament before ``arrived`` (``left``) is at another of its
  tables, and he left that table with chips;
* he left that table there: its next hand (``gone``) is consecutive with ``left`` and does
  not deal him in, and starts within ``SessionRules.max_gap`` of ``arrived`` (the move is
  between those hands; a hand of his at a table whose hands are not stored would lie
  further apart).

Then his stack in ``arrived`` is what ``left`` left him (``continuity.move_findings``).
Where the records do not show the move (a player's own file holds no other table's hands;
a table's hands missing), the player is not compared: leaving a table is never read as
chips vanishing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from replayer.sessions.chaining import CHAINED, SessionRules, in_play_order, link
from replayer.sessions.hands import HandSummary


@dataclass(frozen=True)
class Move:
    """A player seen leaving one table of a tournament and joining another."""

    player: str
    left: HandSummary
    gone: HandSummary
    arrived: HandSummary


def _next_at_table(hands: Sequence[HandSummary]) -> dict[str, HandSummary]:
    """hand id -> the next hand at its table, in play order."""
    tables: dict[tuple[str, str], list[HandSummary]] = {}
    for hand in hands:
        tables.setdefault(hand.at_table, []).append(hand)
    following: dict[str, HandSummary] = {}
    for table in tables.values():
        for before, after in pairwise(in_play_order(table)):
            following[before.hand_id] = after
    return following


def _latest_before(
    hands: Sequence[HandSummary], player: str, when: HandSummary
) -> HandSummary | None:
    """The player's latest hand in play order before ``when`` among ``hands``."""
    earlier = [
        h
        for h in hands
        if (h.started, h.hand_id) < (when.started, when.hand_id) and h.seat_of(player)
    ]
    return max(earlier, key=lambda h: (h.started, h.hand_id), default=None)


def moves_into(
    session: Sequence[HandSummary], tournament: Sequence[HandSummary], rules: SessionRules
) -> Iterator[Move]:
    """The moves the records show into ``session`` (one table's consecutive hands, in play
    order) from the other tables among ``tournament``'s hands (module docstring)."""
    if not session or session[0].tournament_id is None:
        return
    own = session[0].at_table
    others = [h for h in tournament if h.tournament_id == session[0].tournament_id]
    following = _next_at_table(others)
    for before, arrived in pairwise(session):
        if link(before, arrived, rules) not in CHAINED:
            continue
        for seat in arrived.seats:
            if before.seat_of(seat.player) is not None:
                continue
            left = _latest_before(others, seat.player, arrived)
            gone = following.get(left.hand_id) if left is not None else None
            if left is None or gone is None or left.at_table == own:
                continue
            carried = left.seat_of(seat.player)
            if (
                carried is not None
                and carried.end > 0
                and gone.seat_of(seat.player) is None
                and link(left, gone, rules) in CHAINED
                and abs(arrived.started - gone.started) <= rules.max_gap
            ):
                yield Move(seat.player, left, gone, arrived)


def moved_from(
    session: Sequence[HandSummary], tournament: Sequence[HandSummary], rules: SessionRules
) -> list[HandSummary]:
    """The other tables' hands the moves into ``session`` are read from (each ``left``
    and ``gone``), in play order: what a session's verdict needs beside its own hands."""
    wanted = {
        h.hand_id: h for m in moves_into(session, tournament, rules) for h in (m.left, m.gone)
    }
    return in_play_order(list(wanted.values()))
