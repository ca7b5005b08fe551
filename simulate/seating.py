"""Who plays where: colluding groups, the day's table assignments, and table sessions.

* Groups (``plan_groups``) are drawn once per seed from the venues' pools, so the same
  people collude on every day of a window.
* Each day (``assign_tables``) about 60% of a venue's players come to play; a live
  player (Macau, Portugal) sits at one table that day, an online player at one or two.
  A colluding group comes together and is sent to the same tables.
* At a table (``TableSession``) players come and go: each leaves after about his style's
  session length, busted players rebuy or leave, empty seats fill from the table's
  candidates, and a group sits down and stands up together (or, ``groups_stay``, keeps
  its seats all day). The button moves to the next occupied seat clockwise every hand
  (unless held: a planted fault).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from simulate.manifest import CollusionGroup
from simulate.players import Player
from simulate.strategy import CHIP_DUMPING, METHODS, SOFT_PLAY, WHIPSAW
from simulate.tables import TableSpec

#: Share of the hands in which each method is applied when the group sits together.
INTENSITY = {CHIP_DUMPING: 0.35, SOFT_PLAY: 1.0, WHIPSAW: 0.7}

GroupSpec = tuple[str, int]
"""(method, number of players)."""


def group_specs(colluders: int | Sequence[GroupSpec]) -> list[GroupSpec]:
    """An int n means n groups cycling the methods, every fourth one a ring of three."""
    if isinstance(colluders, int):
        return [(METHODS[i % len(METHODS)], 3 if i % 4 == 3 else 2) for i in range(colluders)]
    return [(method, size) for method, size in colluders]


def plan_groups(
    seed: int, pools: dict[str, list[Player]], specs: Sequence[GroupSpec]
) -> list[CollusionGroup]:
    """Colluding groups drawn from the pools (venues in turn), stable per seed."""
    rng = random.Random(f"{seed}:collusion")
    venues = sorted(pools)
    taken: set[str] = set()
    groups = []
    for index, (method, size) in enumerate(specs):
        if method not in METHODS or size not in (2, 3):
            raise ValueError(f"collusion group {index}: method {method!r}, size {size}")
        venue = venues[index % len(venues)]
        free = [p.player_id for p in pools[venue] if p.player_id not in taken]
        members = tuple(rng.sample(free, size))
        taken.update(members)
        groups.append(CollusionGroup(f"g{index + 1:02d}", method, members, INTENSITY[method]))
    return groups


def assign_tables(
    rng: random.Random,
    pool: list[Player],
    tables: list[TableSpec],
    groups: list[CollusionGroup],
) -> dict[str, list[Player]]:
    """Candidates per table for the day (see the module docstring)."""
    by_id = {p.player_id: p for p in pool}
    online = tables[0].venue == "gg"
    units: list[list[Player]] = []
    grouped = {pid for g in groups for pid in g.players if pid in by_id}
    for group in groups:
        if group.players[0] in by_id:
            units.append([by_id[pid] for pid in group.players])
    units.extend([p] for p in pool if p.player_id not in grouped)
    candidates: dict[str, list[Player]] = {t.table_id: [] for t in tables}
    for unit in units:
        is_group = len(unit) > 1
        if not is_group and rng.random() > 0.6:
            continue
        count = rng.choice((1, 2)) if online else 1
        for table in rng.sample(tables, min(count, len(tables))):
            candidates[table.table_id].extend(unit)
    for table in tables:
        chosen = candidates[table.table_id]
        need = table.seats + 3 - len(chosen)
        if need > 0:
            others = [p for p in pool if p not in chosen]
            chosen.extend(rng.sample(others, min(need, len(others))))
    return candidates


@dataclass
class TableSession:
    """Seats of one table through the day."""

    table: TableSpec
    candidates: list[Player]
    groups: list[CollusionGroup]
    min_players: int
    rng: random.Random
    seats: dict[int, tuple[Player, int]] = field(default_factory=dict)
    button: int = 0
    target: int = 0
    left: dict[str, int] = field(default_factory=dict)
    """Who left the table while the next hand was being seated, with his chips."""
    groups_stay: bool = False
    """Colluding groups keep their seats all day (they leave only with the table's end):
    a team that came to play together (the demo day's)."""

    def __post_init__(self) -> None:
        self.group_of = {pid: g for g in self.groups for pid in g.players}
        self.target = self.rng.randint(max(self.min_players, 3), self.table.seats)
        self.button = self.rng.randint(1, self.table.seats)

    def _buy_in(self) -> int:
        low, high = self.table.buy_in_range
        unit = self.table.big_blind or self.table.min_bet
        return self.rng.randint(low, high) * unit

    def _free_seats(self) -> list[int]:
        return [s for s in range(1, self.table.seats + 1) if s not in self.seats]

    def _sit(self, player: Player) -> None:
        free = self._free_seats()
        if not free or any(p is player for p, _ in self.seats.values()):
            return
        # one who left this very hand sits back with at least what he left with: chips
        # never leave the table between two of his hands (``replayer.sessions``)
        stack = max(self._buy_in(), self.left.get(player.player_id, 0))
        self.seats[self.rng.choice(free)] = (player, stack)

    def _leave(self, seat: int) -> None:
        player, stack = self.seats[seat]
        self.left[player.player_id] = stack
        self.seats.pop(seat)
        group = self.group_of.get(player.player_id)
        if group is not None:
            for other in [s for s, (p, _) in self.seats.items() if p.player_id in group.players]:
                partner, chips = self.seats.pop(other)
                self.left[partner.player_id] = chips

    def next_hand(self, hold_button: bool = False) -> tuple[int, list[tuple[int, Player, int]]]:
        """(button seat, (seat, player, stack) in position order) for the next hand;
        ``hold_button``: the button stays where it was (a planted rotation fault,
        ``simulate.session_table``) when its seat is still taken and three or more play."""
        rng = self.rng
        unit = self.table.big_blind or self.table.min_bet
        self.left = {}
        for seat in sorted(self.seats):
            if seat not in self.seats:
                continue
            player, stack = self.seats[seat]
            stays = self.groups_stay and player.player_id in self.group_of
            leaves = (
                stack < unit and rng.random() < 0.5
            ) or rng.random() < 1 / player.style.session
            if leaves and not stays:
                self._leave(seat)
            elif stack < 20 * unit and rng.random() < 0.3:
                self.seats[seat] = (player, max(stack, self._buy_in()))
        if rng.random() < 0.01:
            self.target = rng.randint(max(self.min_players, 3), self.table.seats)
        seated_ids = {p.player_id for p, _ in self.seats.values()}
        waiting = [p for p in self.candidates if p.player_id not in seated_ids]
        while waiting and (
            len(self.seats) < self.min_players
            or (len(self.seats) < self.target and rng.random() < 0.3)
        ):
            player = waiting.pop(rng.randrange(len(waiting)))
            self._sit(player)
            group = self.group_of.get(player.player_id)
            if group is not None:
                for partner in [p for p in waiting if p.player_id in group.players]:
                    waiting.remove(partner)
                    self._sit(partner)
        for seat, (player, stack) in list(self.seats.items()):
            if stack < unit:  # busted and stayed: rebuys
                self.seats[seat] = (player, self._buy_in())
        occupied = sorted(self.seats)
        if not (hold_button and self.button in occupied and len(occupied) >= 3):
            after = [s for s in occupied if s > self.button]
            self.button = after[0] if after else occupied[0]
        order = [s for s in occupied if s > self.button] + [s for s in occupied if s <= self.button]
        return self.button, [(s, *self.seats[s]) for s in order]

    def update(self, finishing: dict[int, int]) -> None:
        """Stacks after a hand, by seat."""
        for seat, stack in finishing.items():
            player, _ = self.seats[seat]
            self.seats[seat] = (player, stack)
