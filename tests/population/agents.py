"""Honest players: the textbook archetypes of poker literature, each a record of
thresholds (no if chain per style), with every player's values drawn around his type's.

A ``View`` is what a player knows when he acts; ``honest`` decides from it. The
colluders' departures from honest play are in ``methods``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pokerkit import Card

from tests.population.cards import chen, postflop_strength

FOLD, CALL, RAISE = "fold", "call", "raise"
Decision = tuple[str, int]
"""(FOLD, CALL or RAISE, total to raise to: 0 unless RAISE)."""


@dataclass(frozen=True, slots=True)
class Archetype:
    """One style: Chen points to open and to re-raise, postflop thresholds, habits."""

    name: str
    play_at: float
    """Chen points to enter an unraised pot."""
    raise_at: float
    """Chen points to raise first in (and, +3, to re-raise)."""
    bet_at: float
    """Postflop strength to bet or raise for value."""
    call_at: float
    """Postflop strength to call a bet at no price (pot odds raise it)."""
    aggression: float
    """Chance to bet or raise when strong enough."""
    bluff: float
    """Chance to bet when checked to with nothing."""
    size: float
    """Bet as a fraction of the pot."""


ARCHETYPES = (
    Archetype("rock", 9, 11, 0.7, 0.5, 0.45, 0.02, 0.6),
    Archetype("tight-aggressive", 7.5, 8.5, 0.55, 0.42, 0.75, 0.08, 0.7),
    Archetype("loose-aggressive", 5.5, 7, 0.5, 0.35, 0.8, 0.16, 0.8),
    Archetype("calling station", 4, 12, 0.75, 0.2, 0.25, 0.02, 0.5),
    Archetype("maniac", 3, 5, 0.35, 0.3, 0.9, 0.3, 1.0),
)


def personal(rng: random.Random) -> Archetype:
    """An archetype drawn at random, its thresholds moved by up to about 10%."""
    base = rng.choice(ARCHETYPES)
    return replace(
        base,
        play_at=base.play_at + rng.uniform(-1, 1),
        raise_at=base.raise_at + rng.uniform(-1, 1),
        bet_at=base.bet_at + rng.uniform(-0.05, 0.05),
        call_at=base.call_at + rng.uniform(-0.05, 0.05),
        aggression=min(1.0, base.aggression * rng.uniform(0.85, 1.15)),
        bluff=base.bluff * rng.uniform(0.7, 1.3),
        size=base.size * rng.uniform(0.8, 1.2),
    )


@dataclass(slots=True)
class View:
    """A player's turn (chips in the table's units; positions are PokerKit's indices)."""

    me: int
    hole: Sequence[Card]
    board: Sequence[Card]
    street: int
    to_call: int
    pot: int
    stack: int
    min_to: int | None
    max_to: int | None
    """Legal raise-to range (None: no raise allowed)."""
    big_blind: int
    live: frozenset[int]
    aggressor: int | None
    """Who made the last bet or raise of this betting round (None: nobody yet)."""
    partners: frozenset[int] = frozenset()
    """Partners dealt in (colluders only)."""
    partner_holes: dict[int, Sequence[Card]] = field(default_factory=dict)
    """Partners' hole cards, when the method shares them."""
    dumping: bool = False
    """In a chip-dumping hand: this hand's chips go from the dumper to the receiver."""
    receiver: int | None = None

    def strength(self) -> float:
        if self.street == 0:
            return (chen(self.hole) + 1) / 21
        return postflop_strength(self.hole, self.board)

    def raise_to(self, fraction: float) -> Decision:
        """A raise of ``fraction`` of the pot after calling, clamped to the legal range;
        a call when no raise is allowed."""
        if self.min_to is None or self.max_to is None:
            return (CALL, 0)
        target = self.to_call + int(fraction * (self.pot + self.to_call))
        return (RAISE, max(self.min_to, min(self.max_to, target)))


def honest(style: Archetype, view: View, rng: random.Random) -> Decision:
    """The archetype's decision (the module docstring)."""
    if view.street == 0:
        points = chen(view.hole)
        raised = view.to_call > view.big_blind
        if points >= style.raise_at + (3 if raised else 0):
            return view.raise_to(style.size + 0.4)
        if points >= style.play_at + (2 if raised else 0):
            return (CALL, 0)
        return (FOLD, 0) if view.to_call else (CALL, 0)
    strength = view.strength()
    if view.to_call == 0:
        if strength >= style.bet_at and rng.random() < style.aggression:
            return view.raise_to(style.size)
        if rng.random() < style.bluff:
            return view.raise_to(style.size * 0.7)
        return (CALL, 0)
    odds = view.to_call / (view.pot + view.to_call)
    if strength >= style.bet_at + 0.15 and rng.random() < style.aggression * 0.6:
        return view.raise_to(style.size + 0.3)
    if strength >= style.call_at + 0.6 * odds:
        return (CALL, 0)
    return (FOLD, 0)
