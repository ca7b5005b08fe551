"""The append-only, hash-chained event store (eventsourcing on SQLite or PostgreSQL)."""

from audit.store.application import AppendResult, AuditStore, SubjectRecords

__all__ = ["AppendResult", "AuditStore", "SubjectRecords"]
