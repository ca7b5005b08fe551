"""Conflicting versions kept as facts of their subject, so its verdict can report them.

When an operator sends a different event for a stored (subject, sequence), or two files
of one ingest disagree about an event, the event is quarantined (``audit.ingest.pipeline``)
and also recorded here: a ``conflict`` subject named ``<kind>:<subject id>`` holds one
``VersionConflicted`` record per distinct received version (its sequence, the received
event, where it was read, and the stored event it differs from, or none when no version
was stored). ``audit.judging`` reads them with the subject's own events, so the subject
gets a ``conflicting_versions`` finding. The same conflict received twice is kept once
(identified by the received event's content and the stored one's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.ingest.file_names import file_identity
from audit.store import AuditStore, RecordReads, SubjectRecords, canonical, record_digest

KIND = "conflict"
RECORD = "VersionConflicted"
#: Characters of an event's text kept in a conflict fact.
TEXT_LIMIT = 1 << 16
#: Conflicts held before they are written.
FLUSH_AT = 1000
#: Tries when another writer appends to the same conflict subject in between.
ATTEMPTS = 10


def conflict_key(kind: str, subject: str) -> str:
    """The conflict subject of a (kind, subject)."""
    return f"{kind}:{subject}"


def _text(record: Mapping[str, Any] | None) -> str | None:
    if record is None:
        return None
    try:
        text = canonical(record)
    except Exception:  # an integer past 64 bits, a lone surrogate
        text = repr(record)
    return text[:TEXT_LIMIT].encode("utf-8", "replace").decode("utf-8")


def _identity(fact: Mapping[str, Any]) -> str:
    return record_digest([str(fact["event_sequence"]), fact["received"], fact["stored"] or ""])


class ConflictLog:
    """Conflicts found during one ingest, written in batches (``flush``)."""

    def __init__(self, store: AuditStore) -> None:
        self.store = store
        self.pending: dict[str, dict[str, dict[str, Any]]] = {}
        self.count = 0

    def add(
        self,
        unit: SubjectRecords,
        received: Mapping[str, Any],
        stored: Mapping[str, Any] | None,
    ) -> None:
        """Keep that ``unit``'s event ``received`` differs from ``stored`` (None: from
        another version of this ingest, none stored)."""
        source = file_identity(unit.source) if unit.source else ""
        fact = {
            "type": RECORD,
            "subject_kind": unit.kind,
            "subject": unit.subject_id,
            "event_sequence": received["sequence"],
            "received": _text(received),
            "received_from": f"{source}, {unit.position}".strip(", "),
            "stored": _text(stored),
        }
        facts = self.pending.setdefault(conflict_key(unit.kind, unit.subject_id), {})
        facts.setdefault(_identity(fact), fact)
        self.count += 1
        if self.count >= FLUSH_AT:
            self.flush()

    def flush(self) -> None:
        """Append the pending conflicts each subject does not hold yet, at its next
        sequences (read again and retried when another writer got there first)."""
        pending, self.pending, self.count = self.pending, {}, 0
        for _ in range(ATTEMPTS):
            if not pending:
                return
            units = self._units(pending)
            if not units:
                return
            result = self.store.append(units)
            raced = {u.subject_id for u, _ in result.conflicts}
            pending = {key: facts for key, facts in pending.items() if key in raced}

    def _units(self, pending: Mapping[str, Mapping[str, dict[str, Any]]]) -> list[SubjectRecords]:
        held = self.store.records_of_many(KIND, sorted(pending))
        units = []
        for key, facts in pending.items():
            known = held.get(key, [])
            have = {_identity(r) for r in known}
            new = [f for identity, f in facts.items() if identity not in have]
            records = [{**f, "sequence": len(known) + n} for n, f in enumerate(new)]
            if records:
                units.append(SubjectRecords(KIND, key, records))
        return units


def conflicts_of(
    store: RecordReads, kind: str, subjects: Sequence[str]
) -> dict[str, list[dict[str, Any]]]:
    """subject id -> its conflict facts, for those of ``subjects`` that have any."""
    keys = {conflict_key(kind, s): s for s in subjects}
    found = store.records_of_many(KIND, list(keys))
    return {keys[key]: records for key, records in found.items()}
