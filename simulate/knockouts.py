"""The busting hands of a simulated tournament (``tournaments``): who goes out in which
hand, with what chips, and who wins it.

Players bust one a hand, now and then two or three in one hand, placed by chips at the
start of the hand, then by seat from the button (GG-2022 Política de eliminação de
torneios), sometimes from equal stacks so that the seat decides; a pot is now and then
split. A busting hand's chips are recorded on the eliminations or in a ChipCountRecorded
of the hand's players; when that count names every player in, it adds up to the chips
the entries brought (MO-97/2010 art.4(2), ``replayer.tournaments.continuity``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

STARTING_CHIPS = 20_000
SAME_HAND = ((0.01, 3), (0.07, 2))
"""(cumulative chance, players busted) of a hand busting more than one."""
SPLIT_POT = ((0.01, 3), (0.09, 2))
"""(cumulative chance, winners) of a hand whose pot is split."""
EQUAL_STACKS, CHIPS_COUNTED = 0.25, 0.5
"""Chances that a same-hand elimination starts from equal stacks; that its chips are
recorded in a ChipCountRecorded of the hand rather than on the eliminations."""
SEATS = range(1, 10)


@dataclass(frozen=True, slots=True)
class AtHandStart:
    """A player at the start of a hand: his chips and his seat from the button."""

    player_id: str
    chips: int
    seat_from_button: int


@dataclass(frozen=True, slots=True)
class Knockout:
    """A hand that busted players: ``busted`` best first, from place ``first_place`` on."""

    hand_id: str
    at: datetime
    busted: tuple[AtHandStart, ...]
    first_place: int
    winners: tuple[AtHandStart, ...]
    counted: bool
    """Chips recorded in a ChipCountRecorded of the hand, not on the eliminations."""


def knockouts_until(
    rng: random.Random, tournament_id: str, late_end: datetime, players: Sequence[str], until: int
) -> tuple[list[Knockout], list[str]]:
    """Bust players from the end of late registration (``late_end``) until ``until``
    remain; the busting hands (ids ``<tournament_id>/h<n>``) and the players left."""
    remaining = list(players)
    at = late_end + timedelta(seconds=rng.randrange(600))
    number = 0
    knockouts = []
    while len(remaining) > until:
        number += rng.randint(1, 12)
        busted_ids = rng.sample(remaining, min(_draw(rng, SAME_HAND), len(remaining) - until))
        survivors = [player for player in remaining if player not in busted_ids]
        winner_ids = rng.sample(survivors, min(_draw(rng, SPLIT_POT), len(survivors)))
        average = STARTING_CHIPS * len(players) // len(remaining)
        seats = rng.sample(SEATS, len(busted_ids) + len(winner_ids))
        stacks = [_stack(rng, average) for _ in busted_ids]
        if len(busted_ids) > 1 and rng.random() < EQUAL_STACKS:
            stacks = [stacks[0]] * len(stacks)
        busted = sorted(
            map(AtHandStart, busted_ids, stacks, seats[: len(busted_ids)]),
            key=lambda b: (-b.chips, b.seat_from_button),  # GG-2022: best place first
        )
        winners = tuple(
            AtHandStart(player, _stack(rng, average), seat)
            for player, seat in zip(winner_ids, seats[len(busted_ids) :], strict=True)
        )
        counted = len(busted) > 1 and rng.random() < CHIPS_COUNTED
        if len(busted) + len(winners) == len(remaining):  # a count of every player in
            winners, counted = _balanced(winners, busted, STARTING_CHIPS * len(players), counted)
        hand_id = f"{tournament_id}/h{number:04d}"
        first_place = len(remaining) - len(busted) + 1
        knockouts.append(Knockout(hand_id, at, tuple(busted), first_place, winners, counted))
        remaining = survivors
        at += timedelta(seconds=rng.randint(40, 160))
    return knockouts, remaining


def _balanced(
    winners: tuple[AtHandStart, ...], busted: Sequence[AtHandStart], total: int, counted: bool
) -> tuple[tuple[AtHandStart, ...], bool]:
    """A hand dealt to every player in: the last winner holds what the others do not of
    the ``total`` the entries brought (MO-97/2010 art.4(2), ``continuity``); when too
    little is left for him, the chips go on the eliminations instead of a count."""
    *others, last = winners
    left = total - sum(p.chips for p in (*others, *busted))
    if left < 25:
        return winners, False
    return (*others, AtHandStart(last.player_id, left, last.seat_from_button)), counted


def _draw(rng: random.Random, table: tuple[tuple[float, int], ...]) -> int:
    """How many, from (cumulative chance, how many) rows; 1 otherwise."""
    roll = rng.random()
    return next((many for chance, many in table if roll < chance), 1)


def _stack(rng: random.Random, average: int) -> int:
    return 25 * max(1, int(average * rng.uniform(0.05, 1.5)) // 25)
