"""Quarantine: rejected input kept whole, with where it came from and why.

A quarantined record is a subject of the store like any other (kind ``quarantine``), so
it is append-only, hash-chained and idempotent: the same rejection twice is kept once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from audit.ingest.errors import RecordRejected
from audit.store.application import AuditStore, SubjectRecords, record_digest

KIND = "quarantine"


@dataclass(frozen=True)
class QuarantineEntry:
    """One rejected record as listed for a user."""

    source: str
    position: str
    field: str
    reason: str
    raw: str

    def line(self) -> str:
        return f"{self.source}, {self.position}, field {self.field}: {self.reason}"


def as_subject(rejection: RecordRejected) -> SubjectRecords:
    """The store unit that keeps one rejection."""
    subject_id = record_digest(
        (rejection.source, rejection.position, rejection.field, rejection.raw)
    )
    record = {
        "type": "RecordQuarantined",
        "sequence": 0,
        "source": rejection.source,
        "position": rejection.position,
        "field": rejection.field,
        "reason": rejection.reason,
        "raw": rejection.raw,
    }
    return SubjectRecords(KIND, subject_id, [record], source=rejection.source)


def entries(store: AuditStore) -> Iterator[QuarantineEntry]:
    """Every quarantined record, in the order it was quarantined."""
    for _, records in store.iter_subjects(KIND):
        for r in records:
            yield QuarantineEntry(r["source"], r["position"], r["field"], r["reason"], r["raw"])
