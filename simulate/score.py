"""Precision and recall of a synthetic day's deterministic faults.

The planted faults (poker hands, banked rounds, slot machines: ``DayManifest.faults``)
are pairs (subject, finding kind), one per kind the replayer must raise for the subject;
the findings are the (subject, kind) pairs of the store's current findings. A subject
raising several findings of one kind counts once. ``collusion_suspected`` and
``data_quality`` are left out on both sides: collusion is a statistical detection,
scored against the manifest's groups, and data-quality findings come from the nightly's
expectations, not from the replayer. A data-quality finding is expected only on a
subject with a planted fault (a mispaid pot breaks the per-hand chip conservation
expectation); any other is listed as ``quality_elsewhere``.

precision = found and planted / found; recall = found and planted / planted (each 1.0
when its denominator is empty: nothing found is nothing wrongly found).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pipelines.detectors.collusion import NOT_ENOUGH, PairVerdict
from simulate.manifest import DayManifest

SCORED_SEPARATELY = frozenset({"collusion_suspected", "data_quality"})
SESSION_KINDS = frozenset(
    {
        "chips_vanished",
        "record_contradicts_itself",
        "button_not_rotated",
        "button_not_to_winner",
        "tournament_chips_vanished",
        "tournament_chips_appeared",
    }
)
"""Finding kinds of table sessions (``replayer.sessions``)."""

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
    """(subject, kind) of stored findings (``audit.judging.current_findings``); a table
    session's finding is scored on the later hand of the two it names, where the chips
    went missing (``simulate.session_faults``)."""
    for finding in findings:
        yield on_hand(finding), str(finding["kind"])


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


def on_hand(finding: Mapping[str, Any]) -> str:
    """The subject a finding is scored on: a session finding's later hand, else its own."""
    hands = (finding.get("detail") or {}).get("hands")
    if str(finding["kind"]) in SESSION_KINDS and isinstance(hands, list) and hands:
        return str(hands[-1])
    return str(finding["subject"])


COLLUSION = "collusion_suspected"
PairJudge = Callable[[tuple[str, str]], PairVerdict]
"""The window's verdict on a pair (``CollusionDetector.verdict``)."""


def collusion_lines(manifest: DayManifest, found: Iterable[Pair], judge: PairJudge) -> list[str]:
    """The collusion detection against the planted groups, honestly: each planted pair or
    ring found, missed, or not judged for want of shared hands (with its method and what
    was measured), then every alert on players who were not planted together, a false
    alarm. A ring is found when it, or one of its pairs, is alerted."""
    alerts = {subject for subject, kind in found if kind == COLLUSION}
    groups = {frozenset(g.players): g for g in manifest.collusion}
    covered = {a for a in alerts if any(_members(a) <= members for members in groups)}
    tally = dict.fromkeys(("found", "missed", NOT_ENOUGH), 0)
    body = []
    for group in sorted(manifest.collusion, key=lambda g: g.subject):
        members = sorted(group.players)
        verdicts = [judge((a, b)) for i, a in enumerate(members) for b in members[i + 1 :]]
        hits = sorted(a for a in covered if _members(a) <= set(members))
        if hits:
            outcome = "found"
        elif all(v.verdict == NOT_ENOUGH for v in verdicts):
            outcome = NOT_ENOUGH
        else:
            outcome = "missed"
        tally[outcome] += 1
        measured = "; ".join(_measured(v) for v in verdicts)
        also = f", alerted as {', '.join(hits)}" if hits and hits != [group.subject] else ""
        body.append(
            f"  {outcome}: {group.subject} ({group.method.replace('_', ' ')}{also}; {measured})"
        )
    false = sorted(alerts - covered)
    lines = [
        f"collusion: {tally['found']} of {len(groups)} planted group(s) found, "
        f"{tally['missed']} missed, {tally[NOT_ENOUGH]} with not enough shared hands to "
        f"judge; {len(false)} false alarm(s)"
    ]
    return lines + body + [f"  false alarm: {subject} (not planted)" for subject in false]


def _members(subject: str) -> set[str]:
    return set(subject.partition(":")[2].split("|"))


def _measured(verdict: PairVerdict) -> str:
    pair = "|".join(verdict.players)
    if verdict.verdict == NOT_ENOUGH:
        return f"{pair}: {verdict.shared_hands} shared hands of {verdict.needed} needed"
    return f"{pair}: score {verdict.score:.2f} over {verdict.shared_hands} shared hands"
