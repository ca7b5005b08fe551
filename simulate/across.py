"""The faults planted across records (issue 38 items 1-4), class by class, and their
score: found / planted, and false alarms.

A class is a fault kind planted across records (``ACROSS_CLASSES``): the session at a
poker table (``session_faults``), the shoe (``shoes.SHOE_FAULTS``), chemin de fer across
coups (``shoes.CHEMIN_FAULTS``), a tournament across its hands
(``cross_hand_faults``) and the clock (``late_actions``). A planted fault is found when
every finding kind it must raise is among the findings on its subject (``score``'s
(subject, kind) pairs: a session's finding on the later of its two hands). A false
alarm is a finding of the class's kind on a subject where no fault raising that kind was
planted; classes sharing a finding kind (chemin de fer's ``illegal_action``) share its
false alarms.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from simulate.cross_hand_faults import CROSS_HAND_FAULTS
from simulate.late_actions import ACTED_LATE
from simulate.manifest import DayManifest
from simulate.score import Pair
from simulate.session_faults import SESSION_FAULTS
from simulate.shoes import CHEMIN_FAULTS, SHOE_FAULTS

AREAS: tuple[tuple[str, dict[str, tuple[str, ...]]], ...] = (
    ("table session", SESSION_FAULTS),
    ("shoe", SHOE_FAULTS),
    ("chemin de fer", CHEMIN_FAULTS),
    ("tournament", CROSS_HAND_FAULTS),
    ("clock", {ACTED_LATE: (ACTED_LATE,)}),
)
"""Area -> its fault kinds across records and the finding kinds each must raise."""
ACROSS_CLASSES: tuple[tuple[str, str, tuple[str, ...]], ...] = tuple(
    (area, kind, findings) for area, faults in AREAS for kind, findings in faults.items()
)
"""(area, fault kind, finding kinds) of every class planted across records."""


@dataclass(frozen=True, slots=True)
class ClassScore:
    """One class's planted faults, those found, and the false alarms of its kinds."""

    area: str
    kind: str
    findings: tuple[str, ...]
    planted: int
    found: int
    false_alarms: tuple[Pair, ...]


def across_scores(manifest: DayManifest, found: Iterable[Pair]) -> list[ClassScore]:
    """Each class's score on the day ``manifest`` planted (module docstring)."""
    found = set(found)
    expected = {(f.subject, kind) for f in manifest.faults for kind in f.findings}
    scores = []
    for area, kind, findings in ACROSS_CLASSES:
        faults = [f for f in manifest.faults if f.kind == kind]
        hits = sum(all((f.subject, k) in found for k in f.findings) for f in faults)
        false = tuple(sorted(p for p in found - expected if p[1] in findings))
        scores.append(ClassScore(area, kind, findings, len(faults), hits, false))
    return scores


def across_lines(manifest: DayManifest, found: Iterable[Pair], limit: int = 5) -> list[str]:
    """The scores as lines: per class found / planted and false alarms, then up to
    ``limit`` false alarms of each finding kind."""
    scores = across_scores(manifest, found)
    lines = ["across records, per class: found / planted, false alarms (its finding kind"]
    lines.append("where nothing raising it was planted):")
    for s in scores:
        lines.append(
            f"  {s.area:<14}{s.kind:<30}{'+'.join(s.findings):<30}"
            f"{s.found:>4} / {s.planted:<4}{len(s.false_alarms):>4} false"
        )
    alarms = sorted({p for s in scores for p in s.false_alarms})
    lines += [f"  false alarm: {subject} {kind}" for subject, kind in alarms[:limit]]
    if len(alarms) > limit:
        lines.append(f"  ... {len(alarms) - limit} more false alarms")
    return lines
