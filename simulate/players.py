"""The player population: stable identities and honest playing styles per seed.

Each venue (``mo``, ``pt``, ``gg``) has its own pool; a player's id and style depend only
on the seed and his index, so the same seed gives the same people on every day of a
30-day window. Styles are the usual two axes (tight/loose x passive/aggressive) with
per-player parameters drawn around the style's centre, so that style alone (a nit who
folds a lot, a maniac who raises a lot) does not look like collusion: it shows against
every opponent alike.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

STYLES = ("tight-passive", "tight-aggressive", "loose-passive", "loose-aggressive")
VENUES = ("mo", "pt", "gg")
#: Default pool size per venue.
POOL_SIZES = {"mo": 120, "pt": 120, "gg": 300}


@dataclass(frozen=True, slots=True)
class Style:
    """Decision parameters of an honest player (probabilities and strength thresholds)."""

    name: str
    looseness: float
    """Lowers the strength needed to enter or continue (0 tight .. 0.25 loose)."""
    aggression: float
    """Chance to bet or raise when strong enough (0.2 passive .. 0.8 aggressive)."""
    bluff: float
    """Chance to bet or raise with a weak hand."""
    sizing: float
    """Typical bet as a fraction of the pot."""
    session: int
    """Typical number of hands before leaving a table."""


@dataclass(frozen=True, slots=True)
class Player:
    player_id: str
    venue: str
    style: Style


def _style(rng: random.Random, name: str) -> Style:
    loose = name.startswith("loose")
    aggressive = name.endswith("aggressive")
    return Style(
        name=name,
        looseness=rng.uniform(0.12, 0.25) if loose else rng.uniform(0.0, 0.1),
        aggression=rng.uniform(0.55, 0.8) if aggressive else rng.uniform(0.2, 0.4),
        bluff=rng.uniform(0.06, 0.14) if aggressive else rng.uniform(0.01, 0.05),
        sizing=rng.uniform(0.5, 1.0),
        session=rng.randrange(60, 400),
    )


def player_pool(seed: int, venue: str, size: int | None = None) -> list[Player]:
    """The venue's players for this seed (ids ``<venue>-p0001``...)."""
    size = POOL_SIZES[venue] if size is None else size
    players = []
    for index in range(size):
        rng = random.Random(f"{seed}:player:{venue}:{index}")
        style = _style(rng, rng.choice(STYLES))
        players.append(Player(f"{venue}-p{index + 1:04d}", venue, style))
    return players
