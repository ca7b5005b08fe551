"""Precision and recall of a synthetic day's deterministic faults.

The planted faults (poker hands, banked rounds, slot machines: ``DayManifest.faults``)
are pairs (subject, finding kind), one per kind the replayer must raise for the subject;
the findings are the (subject, kind) pairs of the store's current findings. A subject
raising several findings of one kind counts once. ``collusion_suspected`` and
``data_quality`` are left out on both sides: collusion is a statistical detection,
scored against the manifest's groups, and data-quality findings come from the shards'
expectations, not from the replayer. A data-quality finding is expected only on a
subject with a planted fault (a mispaid pot breaks the per-hand chip conservation
expectation); any other is listed as ``quality_elsewhere``.

precision = found and planted / found; recall = found and planted / planted (each 1.0
when its denominator is empty: nothing found is nothing wrongly found).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pipelines.simulate.manifest import DayManifest

SCORED_SEPARATELY = frozenset({"collusion_suspected", "data_quality"})

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Score:
    """Planted and found (subject, kind) pairs, and how they compare."""

    planted: frozenset[Pair]
    found: frozenset[Pair]
    quality_elsewhere: frozenset[str] = frozenset()
    """Subjects of data-quality findings where no fault was planted."""

    @property
    def missed(self) -> list[Pair]:
        return sorted(self.planted - self.found)

    @property
    def unexpected(self) -> list[Pair]:
        return sorted(self.found - self.planted)

    @property
    def precision(self) -> float:
        return len(self.found & self.planted) / len(self.found) if self.found else 1.0

    @property
    def recall(self) -> float:
        return len(self.found & self.planted) / len(self.planted) if self.planted else 1.0

    def lines(self, limit: int = 10) -> list[str]:
        """A summary and up to ``limit`` missed and unexpected pairs each."""
        lines = [
            f"precision {self.precision:.1%} ({len(self.found & self.planted)} of "
            f"{len(self.found)} found were planted), recall {self.recall:.1%} "
            f"({len(self.planted)} planted)"
        ]
        if self.quality_elsewhere:
            lines.append(
                f"data_quality on {len(self.quality_elsewhere)} subject(s) without a planted "
                f"fault: {', '.join(sorted(self.quality_elsewhere)[:limit])}"
            )
        for label, pairs in (("missed", self.missed), ("unexpected", self.unexpected)):
            lines += [f"  {label}: {subject} {kind}" for subject, kind in pairs[:limit]]
            if len(pairs) > limit:
                lines.append(f"  ... {len(pairs) - limit} more {label}")
        return lines


def finding_pairs(findings: Iterable[Mapping[str, Any]]) -> Iterator[Pair]:
    """(subject, kind) of stored findings (``audit.adjudicate.current_findings``)."""
    for finding in findings:
        yield str(finding["subject"]), str(finding["kind"])


def score(manifest: DayManifest, found: Iterable[Pair]) -> Score:
    """Score the findings ``found`` against the faults ``manifest`` planted."""
    planted = {(f.subject, kind) for f in manifest.faults for kind in f.findings}
    found = set(found)
    faulty = {f.subject for f in manifest.faults}
    return Score(
        frozenset(p for p in planted if p[1] not in SCORED_SEPARATELY),
        frozenset(p for p in found if p[1] not in SCORED_SEPARATELY),
        frozenset(s for s, kind in found if kind == "data_quality" and s not in faulty),
    )


COLLUSION = "collusion_suspected"


def collusion_lines(manifest: DayManifest, found: Iterable[Pair]) -> list[str]:
    """The collusion detection against the planted groups, honestly: each planted pair
    or ring found or missed (with its method), then every alert about a group that was
    not planted, a false alarm."""
    alerts = {subject for subject, kind in found if kind == COLLUSION}
    planted = {group.subject: group for group in manifest.collusion}
    hits = alerts & set(planted)
    lines = [
        f"collusion: {len(hits)} of {len(planted)} planted group(s) found, "
        f"{len(alerts - set(planted))} false alarm(s)"
    ]
    for subject, group in sorted(planted.items()):
        verdict = "found" if subject in hits else "missed"
        lines.append(f"  {verdict}: {subject} ({group.method.replace('_', ' ')})")
    lines += [f"  false alarm: {subject} (not planted)" for subject in sorted(alerts - hits)]
    return lines
