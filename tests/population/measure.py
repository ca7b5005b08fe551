"""The collusion detector measured on a ``Room``: recall by method at shared-hand
checkpoints and false positives over honest pairs, the detector's own time apart.

A planted group is **found at n** when, at the round where every pair of its members has
shared at least n hands, the detector's report holds a suspicion whose players are all in
the group; a ring or team is **named whole** when one suspicion names all its members.
An honest pair is any pair of players not planted in one group (two honest players, or a
colluder and an outsider); a false positive is an honest pair among the suspicions'
pairs (a ring's every pair counts), over the honest pairs with at least ``MIN_JUDGED``
shared hands at that round.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from pipelines.detectors.collusion import CollusionDetector, CollusionReport
from tests.population.room import Group, pairs_of

CHECKPOINTS = (100, 300, 1_000, 3_000)
MIN_JUDGED = 100


@dataclass
class Measured:
    """What one run measured."""

    found: dict[tuple[str, int], list[bool]] = field(default_factory=dict)
    """(method, checkpoint) -> found or not, per group that reached the checkpoint."""
    whole: dict[tuple[str, int], list[bool]] = field(default_factory=dict)
    """(method, checkpoint) -> named whole, per ring or team that reached it."""
    scores: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    """(method, checkpoint) -> the group's best pair score."""
    honest: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Checkpoint round's honest pairs with MIN_JUDGED+ shared hands: (suspected, judged)."""
    false_pairs: set[tuple[str, str]] = field(default_factory=set)
    honest_scores: list[float] = field(default_factory=list)
    """Every honest pair's score (MIN_JUDGED+ shared hands) at the end."""
    detector_seconds: float = 0.0
    hands: int = 0


def measure(
    hands: Iterable[tuple[int, list[dict[str, Any]]]],
    groups: Sequence[Group],
    as_of: date,
    checkpoints: Sequence[int] = CHECKPOINTS,
    **detector_options: Any,
) -> Measured:
    """Feed ``hands`` ((round, events)) to one detector, scoring at each checkpoint."""
    detector = CollusionDetector(as_of=as_of, **detector_options)
    out = Measured()
    planted = {pair: g for g in groups for pair in pairs_of(g.players)}
    pending = {(g.subject, n): g for g in groups for n in checkpoints}
    shared: Counter[tuple[str, str]] = Counter()
    last = -1
    for round_number, events in hands:
        if round_number != last and last >= 0:
            _checkpoint(detector, pending, shared, planted, out)
        last = round_number
        ids = sorted(s["player_id"] for s in events[0]["seats"])
        for pair in pairs_of(ids):
            if pair in planted:
                shared[pair] += 1
        began = time.process_time()
        detector.observe(events)
        out.detector_seconds += time.process_time() - began
        out.hands += 1
    _checkpoint(detector, pending, shared, planted, out)
    began = time.process_time()
    for item in detector.scores():
        if item.players not in planted:
            out.honest_scores.append(item.score)
    out.detector_seconds += time.process_time() - began
    return out


def _checkpoint(
    detector: CollusionDetector,
    pending: dict[tuple[str, int], Group],
    shared: Counter[tuple[str, str]],
    planted: dict[tuple[str, str], Group],
    out: Measured,
) -> None:
    due = [
        (key, g)
        for key, g in pending.items()
        if min(shared[p] for p in pairs_of(g.players)) >= key[1]
    ]
    if not due:
        return
    began = time.process_time()
    report = detector.report()
    out.detector_seconds += time.process_time() - began
    for (subject, n), group in due:
        del pending[(subject, n)]
        members = set(group.players)
        hits = [s for s in report.suspicions if set(s.players) <= members]
        out.found.setdefault((group.method, n), []).append(bool(hits))
        if len(members) > 2:
            whole = any(set(s.players) == members for s in hits)
            out.whole.setdefault((group.method, n), []).append(whole)
        best = max(detector.verdict(p).score for p in pairs_of(group.players))
        out.scores.setdefault((group.method, n), []).append(best)
    n = due[0][0][1]
    judged = [k for k, p in detector.pairs.items() if p.n >= 100 and k not in planted]
    wrong = _false_pairs(report, planted)
    out.false_pairs |= wrong
    out.honest[n] = (len(wrong & set(judged)), len(judged))


def _false_pairs(
    report: CollusionReport, planted: dict[tuple[str, str], Group]
) -> set[tuple[str, str]]:
    wrong = set()
    for suspicion in report.suspicions:
        for pair in pairs_of(suspicion.players):
            if pair not in planted:
                wrong.add(pair)
    return wrong
