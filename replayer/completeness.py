"""Whether a subject's stored events can be judged at all: none missing, one story each.

An operator numbers each subject's events from 0 (``sequence``); the store keeps the
event at each (subject, sequence) once (casino-audit event sequence). A subject whose
sequences have holes is *incomplete*: it is judged ``data_quality`` naming the missing
sequences, never by the rules (a missing payout is not a mispaid pot), until they
arrive. Versions of its events that differ from the stored ones (kept as conflict
facts by ingest) are ``conflicting_versions``: the operator sent two stories.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from replayer.findings import Finding, FindingKind

CITATION = "casino-audit event sequence"
#: Missing ranges listed in a finding's reason (all are in its ``detail``).
SHOWN_RANGES = 10


def missing_ranges(events: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """The (first, last) ranges of sequences missing below the highest stored one.

    >>> missing_ranges([{"sequence": 0}, {"sequence": 3}, {"sequence": 4}, {"sequence": 7}])
    [(1, 2), (5, 6)]
    >>> missing_ranges([{"sequence": 2}])
    [(0, 1)]
    """
    present = sorted({e["sequence"] for e in events if isinstance(e.get("sequence"), int)})
    gaps: list[tuple[int, int]] = []
    expected = 0
    for sequence in present:
        if sequence > expected:
            gaps.append((expected, sequence - 1))
        expected = sequence + 1
    return gaps


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}..{last}"


def incomplete(subject: str, events: Sequence[Mapping[str, Any]]) -> Finding | None:
    """The ``data_quality`` finding of a subject with sequences missing (None: none)."""
    gaps = missing_ranges(events)
    if not gaps:
        return None
    shown = ", ".join(_span(*gap) for gap in gaps[:SHOWN_RANGES])
    more = f" and {len(gaps) - SHOWN_RANGES} more ranges" if len(gaps) > SHOWN_RANGES else ""
    missing = sum(last - first + 1 for first, last in gaps)
    return Finding(
        FindingKind.DATA_QUALITY,
        subject,
        CITATION,
        f"incomplete: {missing} event(s) missing (sequence {shown}{more}); "
        "not judged until they arrive",
        expected="every sequence from 0",
        recorded=f"{len(events)} event(s)",
        detail={"incomplete": True, "missing": [list(gap) for gap in gaps]},
    )


def conflicting_versions(subject: str, conflicts: Sequence[Mapping[str, Any]]) -> list[Finding]:
    """One ``conflicting_versions`` finding per event the operator sent in more than one
    version (``conflicts``: the subject's conflict facts)."""
    by_sequence: dict[int, list[Mapping[str, Any]]] = {}
    for fact in conflicts:
        by_sequence.setdefault(int(fact["event_sequence"]), []).append(fact)
    findings = []
    for sequence, facts in sorted(by_sequence.items()):
        stored = next((f["stored"] for f in facts if f.get("stored") is not None), None)
        sources = sorted({str(f.get("received_from") or "") for f in facts} - {""})
        kept = "the stored event stands" if stored is not None else "no version is stored"
        findings.append(
            Finding(
                FindingKind.CONFLICTING_VERSIONS,
                subject,
                CITATION,
                f"sequence {sequence} was received in {len(facts)} other version(s) "
                f"({'; '.join(sources) or 'source unknown'}); {kept}",
                expected=stored,
                recorded=sorted(str(f["received"]) for f in facts),
                detail={"sequence": sequence, "received_from": sources},
            )
        )
    return findings
