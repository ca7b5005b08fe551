"""What the collusion detector reports (``pipelines.detectors.collusion``): a pair's
score and verdict, the suspicions (pairs and rings) and the report of a window."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Suspicion:
    """A pair or ring whose score reached the threshold."""

    subject: str
    """``pair:a|b`` or ``ring:a|b|c`` (sorted player ids)."""
    players: tuple[str, ...]
    score: float
    shared_hands: int
    features: dict[str, float]
    evidence: tuple[str, ...]
    """Hand ids that weigh most, heaviest first."""
    citation: str
    seated_together: float = 0.0
    """Seating pattern, supporting evidence only (never part of the score): the shared
    hands over the hands of the member who played fewer (1.0: he never played without
    the other; a ring: its least-seated pair)."""


@dataclass(frozen=True, slots=True)
class PairScore:
    players: tuple[str, str]
    shared_hands: int
    score: float
    features: dict[str, float]


SUSPECTED = "suspected"
NOT_SUSPECTED = "not suspected"
NOT_ENOUGH = "not enough shared hands to judge"
"""A pair's verdict (``CollusionDetector.verdict``): below ``min_hands`` shared hands the
detector neither accuses nor clears."""


@dataclass(frozen=True, slots=True)
class PairVerdict:
    """What the detector says of one pair."""

    players: tuple[str, str]
    shared_hands: int
    needed: int
    """``min_hands``: shared hands needed before the pair is judged."""
    score: float
    """The score over the hands shared (provisional below ``needed``)."""
    verdict: str
    """``SUSPECTED``, ``NOT_SUSPECTED`` or ``NOT_ENOUGH``."""
    still_needed: int = 0
    """``NOT_ENOUGH``: shared hands still needed before the pair is judged."""


@dataclass(slots=True)
class CollusionReport:
    as_of: str
    window_days: int
    threshold: float
    pairs_scored: int
    suspicions: list[Suspicion] = field(default_factory=list)
    undecided: list[PairVerdict] = field(default_factory=list)
    """Pairs whose score reaches the threshold over fewer than ``min_hands`` shared hands:
    not enough shared hands to judge, neither accused nor cleared (highest score first)."""
