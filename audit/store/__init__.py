"""The append-only, hash-chained event store (eventsourcing on SQLite or PostgreSQL).

Its public names, which every other package imports from here: ``AuditStore`` (the
application), ``SubjectRecords`` and ``AppendResult`` (what goes in, what came of it),
``canonical`` and ``record_digest`` (byte-stable JSON and deterministic ids).
"""

from audit.store.application import AppendResult, AuditStore, SubjectRecords
from audit.store.canonical import canonical, record_digest

__all__ = ["AppendResult", "AuditStore", "SubjectRecords", "canonical", "record_digest"]
