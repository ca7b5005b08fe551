"""The append-only, hash-chained event store (eventsourcing on SQLite or PostgreSQL).

Its public names, which every other package imports from here: ``AuditStore`` (the
application), ``SubjectRecords`` and ``AppendResult`` (what goes in, what came of it:
``STORED``, ``DUPLICATE``, ``CONFLICT`` per unit, ``EventConflict`` per event),
``RecordReads`` and ``StoreReads`` (what reading records asks of a store, for readers
that stand in for it), ``canonical`` and ``record_digest`` (byte-stable JSON and
deterministic ids), and the chain shards' ``MAIN_SHARD``, ``MAX_SHARD_NAME`` and
``ShardNameError``.
"""

from audit.store.application import (
    CONFLICT,
    DUPLICATE,
    STORED,
    AppendResult,
    AuditStore,
    EventConflict,
    SubjectRecords,
)
from audit.store.canonical import canonical, record_digest
from audit.store.reads import RecordReads, StoreReads
from audit.store.shards import MAIN_SHARD, MAX_SHARD_NAME, ShardNameError

__all__ = [
    "CONFLICT",
    "DUPLICATE",
    "MAIN_SHARD",
    "MAX_SHARD_NAME",
    "STORED",
    "AppendResult",
    "AuditStore",
    "EventConflict",
    "RecordReads",
    "ShardNameError",
    "StoreReads",
    "SubjectRecords",
    "canonical",
    "record_digest",
]
