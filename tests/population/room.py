"""The room: honest players and planted groups at six-seat tables, played round by round
(every table one hand per round, a minute apart).

* A planted group sits together at its own table for the whole run (teams across tables:
  four players over two tables, two at each, re-paired every session so every pair of
  them meets in turn); the other seats are honest players who come and go after
  sessions of 50-300 hands, drawn from an idle pool.
* Honest friends: pairs of honest players who always sit together (a seating pattern
  without collusion, which must raise no alarm).
* Honest tables: only honest players.
* Stacks: 100 big blinds bought in, topped up to 100 below 30, taken off the table above
  300 (the player cashes out and buys in again).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from tests.population.agents import Archetype, Decision, View, honest, personal
from tests.population.hand import play_hand
from tests.population.methods import DUMP_RATE, METHODS, TEAM_ACROSS_TABLES, colluding

SEATS = 6
BIG_BLIND = 100
START = datetime(2025, 3, 1)
SESSION = 150
"""Hands between re-pairings of a team across tables."""


@dataclass(frozen=True, slots=True)
class Group:
    """Planted colluders (``subject`` as collusion findings name it)."""

    method: str
    players: tuple[str, ...]

    @property
    def subject(self) -> str:
        kind = "pair" if len(self.players) == 2 else "ring"
        return f"{kind}:{'|'.join(sorted(self.players))}"


@dataclass(frozen=True, slots=True)
class Config:
    seed: int
    groups: dict[str, int]
    """Method -> number of groups planted."""
    friends: int = 4
    honest_tables: int = 4
    idle: int = 2
    """Honest players in the pool per seat at the tables (those not seated are idle)."""


@dataclass
class _Player:
    player_id: str
    style: Archetype
    rng: random.Random
    group: Group | None = None

    def decide(self, view: View) -> Decision:
        if self.group is None:
            return honest(self.style, view, self.rng)
        return colluding(self.group.method, self.style, view, self.rng)


@dataclass
class _Table:
    table_id: str
    fixed: list[_Player]
    """Players who never leave (a group, or honest friends)."""
    fillers: list[tuple[_Player, int]] = field(default_factory=list)
    """(player, hands left in his session)."""


class Room:
    """The population of ``config`` (see the module docstring)."""

    def __init__(self, config: Config) -> None:
        self.rng = random.Random(f"population:{config.seed}")
        self.groups: list[Group] = []
        self.friends: list[tuple[str, str]] = []
        self.stacks: dict[str, int] = {}
        self.tables: list[_Table] = []
        self.teams: list[tuple[_Table, _Table, list[_Player]]] = []
        count = 0

        def player(group: Group | None = None) -> _Player:
            nonlocal count
            count += 1
            pid = f"x{config.seed}-{count:04d}"
            rng = random.Random(f"{config.seed}:{pid}")
            return _Player(pid, personal(rng), rng, group)

        for method, n in config.groups.items():
            size = METHODS[method][1]
            for _ in range(n):
                ids = tuple(f"x{config.seed}-{count + k + 1:04d}" for k in range(size))
                group = Group(method, ids)
                members = [player(group) for _ in range(size)]
                self.groups.append(group)
                if method == TEAM_ACROSS_TABLES:
                    pair = (self._table(members[:2]), self._table(members[2:]))
                    self.teams.append((*pair, members))
                else:
                    self._table(members)
        for _ in range(config.friends):
            members = [player(), player()]
            self.friends.append((members[0].player_id, members[1].player_id))
            self._table(members)
        for _ in range(config.honest_tables):
            self._table([])
        self.idle = [player() for _ in range(config.idle * SEATS * len(self.tables))]
        self.rng.shuffle(self.idle)

    def _table(self, fixed: list[_Player]) -> _Table:
        table = _Table(f"t{len(self.tables) + 1:02d}", fixed)
        self.tables.append(table)
        return table

    def _seat(self, table: _Table) -> None:
        """Fillers whose session ended leave; empty seats fill from the idle pool."""
        kept = []
        for filler, left in table.fillers:
            if left > 0:
                kept.append((filler, left - 1))
            else:
                self.idle.append(filler)
        table.fillers = kept
        while len(table.fixed) + len(table.fillers) < SEATS:
            filler = self.idle.pop(self.rng.randrange(len(self.idle)))
            table.fillers.append((filler, self.rng.randint(50, 300)))

    def _re_pair(self, round_number: int) -> None:
        """Teams across tables: a new pairing each session (every pair in turn)."""
        if round_number % SESSION:
            return
        pairings = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2))
        for first, second, members in self.teams:
            a, b, c, d = pairings[(round_number // SESSION) % 3]
            first.fixed = [members[a], members[b]]
            second.fixed = [members[c], members[d]]

    def hands(self, rounds: int) -> Iterator[tuple[int, list[dict[str, Any]]]]:
        """(round, events) of every hand, table after table in each round."""
        for r in range(rounds):
            self._re_pair(r)
            at = START + timedelta(minutes=r)
            for table in self.tables:
                self._seat(table)
                yield r, self._play(table, r, at)

    def _play(self, table: _Table, r: int, at: datetime) -> list[dict[str, Any]]:
        players = table.fixed + [p for p, _ in table.fillers]
        order = sorted(players, key=lambda p: p.player_id)
        shift = r % len(order)
        order = order[shift:] + order[:shift]
        for p in order:
            stack = self.stacks.get(p.player_id, 0)
            if stack < 30 * BIG_BLIND or stack > 300 * BIG_BLIND:
                self.stacks[p.player_id] = 100 * BIG_BLIND
        seat_of = {
            p.player_id: k + 1 for k, p in enumerate(sorted(players, key=lambda p: p.player_id))
        }
        seated = [(seat_of[p.player_id], p.player_id, self.stacks[p.player_id]) for p in order]
        dumping = self.rng.random() < DUMP_RATE

        def views(me: int, state: Any) -> dict[str, Any]:
            group = order[me].group
            if group is None:
                return {}
            partners = frozenset(k for k, p in enumerate(order) if k != me and p.group is group)
            shared = METHODS[group.method][2]
            receiver = next(
                (k for k, p in enumerate(order) if p.player_id == group.players[0]), None
            )
            return {
                "partners": partners,
                "partner_holes": {k: list(state.hole_cards[k]) for k in partners} if shared else {},
                "dumping": dumping,
                "receiver": receiver,
            }

        events, final = play_hand(
            f"{table.table_id}/{r:06d}",
            at,
            seated,
            [p.decide for p in order],
            views,
            self.rng,
            BIG_BLIND,
        )
        for p, stack in zip(order, final, strict=True):
            self.stacks[p.player_id] = stack
        return events


def pairs_of(players: Sequence[str]) -> list[tuple[str, str]]:
    ordered = sorted(players)
    return [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]
