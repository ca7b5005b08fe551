"""Quarantine: rejected input kept whole, with where it came from and why.

A quarantined record is a subject of the store like any other (kind ``quarantine``), so
it is append-only, hash-chained and idempotent: the same rejection twice is kept once.
The file is named by ``audit.ingest.file_names.file_identity`` (its folder and name), never
by the path it was given on the command line, so the same rejection read by a relative
and by an absolute path is one record; the record's text is kept up to ``RAW_LIMIT``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from audit.ingest.errors import RecordRejected
from audit.ingest.file_names import file_identity
from audit.notation.escape import terminal_safe
from audit.store import AuditStore, SubjectRecords, record_digest

KIND = "quarantine"
#: Characters of a rejected record's text kept in the store (the rest is noted, not kept).
RAW_LIMIT = 1 << 20


def _text(value: str, limit: int | None = None) -> str:
    """Storable text: cut to ``limit`` with a note, lone surrogates replaced."""
    if limit is not None and len(value) > limit:
        value = f"{value[:limit]}\n… (cut: {len(value):,} characters in all)"
    return value.encode("utf-8", "replace").decode("utf-8")


@dataclass(frozen=True)
class QuarantineEntry:
    """One rejected record as listed for a user."""

    source: str
    position: str
    field: str
    reason: str
    raw: str

    def line(self) -> str:
        """The entry on one line safe to print (``RecordRejected.__str__``)."""
        return terminal_safe(f"{self.source}, {self.position}, field {self.field}: {self.reason}")


def as_subject(rejection: RecordRejected) -> SubjectRecords:
    """The store unit that keeps one rejection."""
    source = _text(file_identity(rejection.source)) if rejection.source else ""
    position, field = _text(rejection.position), _text(rejection.field)
    raw = _text(rejection.raw, RAW_LIMIT)
    subject_id = record_digest((source, position, field, raw))
    record = {
        "type": "RecordQuarantined",
        "sequence": 0,
        "source": source,
        "position": position,
        "field": field,
        "reason": _text(rejection.reason),
        "raw": raw,
    }
    return SubjectRecords(KIND, subject_id, [record], source=rejection.source)


def entries(store: AuditStore) -> Iterator[QuarantineEntry]:
    """Every quarantined record, in the order it was quarantined."""
    for _, records in store.iter_subjects(KIND):
        for r in records:
            yield QuarantineEntry(r["source"], r["position"], r["field"], r["reason"], r["raw"])
