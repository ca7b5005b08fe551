"""The append-only, hash-chained event store (eventsourcing on SQLite or PostgreSQL).

Every other package imports the store from here, never from its modules (the layer
contract in ``pyproject.toml`` says so and ``lint-imports`` checks it). Its public names:

* the application: ``AuditStore``; what goes in and what came of it, ``SubjectRecords``
  and ``AppendResult`` (``STORED``, ``DUPLICATE``, ``CONFLICT``, ``RETIRED`` per unit,
  ``EventConflict`` per event); the reads a stand-in implements, ``RecordReads`` and
  ``StoreReads`` (of ``Records``); opening an existing store, ``require_existing``,
  ``StoreMissing``, ``StoreUnusable``; PostgreSQL's roles, ``init_store`` and ``grant``;
* the subjects' record classes (``Adjudication``, ``Incident``, ``IncidentNote``,
  ``ConsoleUser``, ``AccessTrail``, ``SignOff``, ``QuarantinedRecord``,
  ``SUBJECT_CLASSES``, ``INTERNAL_RECORD_TYPES``, ``VERDICT_RECORD``,
  ``FIRST_RECORD_VERSION``, ``subject_uuid``) and their stored form
  (``OrjsonTranscoder``; a family record's compact state, ``is_compact_state``,
  ``decode_compact_state``, ``CompactStateError``);
* reading and judging a batch with the cyclic garbage collector paused,
  ``collector_paused``;
* an event's identity: ``canonical`` and ``record_digest`` (byte-stable JSON,
  deterministic ids; from bytes, ``canonical_bytes`` and ``bytes_digest``),
  ``first_named`` (a renamed record type under its first name), ``event_digest`` and
  ``sequence_conflict``;
* the hash chain: ``ChainRow``, ``chain_row``, ``link_hash`` and ``legacy_link_hash``
  over ``SHARD_FORM`` and ``LEGACY_FORM`` rows, ``originator_hex``, ``Checkpoint``,
  ``ChainReport``; the chain shards, ``MAIN_SHARD``, ``MAX_SHARD_NAME``,
  ``ShardNameError``, ``heads_list``, ``heads_from_list``; the Merkle tree of a
  checkpoint, ``leaf_hash``, ``node_hash``, ``EMPTY_ROOT``, ``HASH_SIZE``,
  ``inclusion_ranges``, ``verify_inclusion``;
* signatures and witnesses: ``SIGNING_KEY_ENV``, ``generate_keypair``,
  ``load_private_key``, ``load_public_key``, ``key_id``, ``signature_valid``,
  ``KeyError_``, ``require_signed``; ``witness_from_env``, ``describe_head``,
  ``WitnessError``; the unsigned tail of the console's trail, ``TRAIL_TOPICS``,
  ``AfterSigned``, ``events_after``.
"""

from audit.collector import collector_paused
from audit.store.application import (
    CONFLICT,
    DUPLICATE,
    RETIRED,
    STORED,
    AppendResult,
    AuditStore,
    EventConflict,
    SubjectRecords,
)
from audit.store.archive import (
    MAX_ARCHIVE_BYTES,
    ArchiveError,
    ArchiveReport,
    compare_with_record,
    verify_archive,
)
from audit.store.canonical_json import bytes_digest, canonical, canonical_bytes, record_digest
from audit.store.chain import (
    LEGACY_FORM,
    SHARD_FORM,
    ChainReport,
    ChainRow,
    Checkpoint,
    chain_row,
    legacy_link_hash,
    link_hash,
    originator_hex,
)
from audit.store.compact import CompactStateError
from audit.store.compact import decode as decode_compact_state
from audit.store.compact import is_compact as is_compact_state
from audit.store.existing import StoreMissing, StoreUnusable, require_existing
from audit.store.heads import require_signed
from audit.store.merkle import (
    EMPTY_ROOT,
    HASH_SIZE,
    inclusion_ranges,
    leaf_hash,
    node_hash,
    verify_inclusion,
)
from audit.store.packing import PackedRowError
from audit.store.packing import expand as expand_row
from audit.store.partitions import RetentionError, attest, cut_day, retire
from audit.store.reads import RecordReads, Records, StoreReads
from audit.store.retention import RetentionRecord
from audit.store.roles import grant, init_store
from audit.store.shards import (
    MAIN_SHARD,
    MAX_SHARD_NAME,
    ShardNameError,
    heads_from_list,
    heads_list,
)
from audit.store.signing import (
    SIGNING_KEY_ENV,
    KeyError_,
    generate_keypair,
    key_id,
    load_private_key,
    load_public_key,
    signature_valid,
)
from audit.store.subjects import (
    FIRST_RECORD_VERSION,
    INTERNAL_RECORD_TYPES,
    SUBJECT_CLASSES,
    VERDICT_RECORD,
    AccessTrail,
    Adjudication,
    ConsoleUser,
    Incident,
    IncidentNote,
    QuarantinedRecord,
    SignOff,
    first_named,
    subject_uuid,
)
from audit.store.transcoder import OrjsonTranscoder
from audit.store.unsigned_tail import TRAIL_TOPICS, AfterSigned, events_after
from audit.store.versions import event_digest, sequence_conflict
from audit.store.witness import WitnessError, describe_head, witness_from_env

__all__ = [
    "CONFLICT",
    "DUPLICATE",
    "EMPTY_ROOT",
    "FIRST_RECORD_VERSION",
    "HASH_SIZE",
    "INTERNAL_RECORD_TYPES",
    "LEGACY_FORM",
    "MAIN_SHARD",
    "MAX_ARCHIVE_BYTES",
    "MAX_SHARD_NAME",
    "RETIRED",
    "SHARD_FORM",
    "SIGNING_KEY_ENV",
    "STORED",
    "SUBJECT_CLASSES",
    "TRAIL_TOPICS",
    "VERDICT_RECORD",
    "AccessTrail",
    "Adjudication",
    "AfterSigned",
    "AppendResult",
    "ArchiveError",
    "ArchiveReport",
    "AuditStore",
    "ChainReport",
    "ChainRow",
    "Checkpoint",
    "CompactStateError",
    "ConsoleUser",
    "EventConflict",
    "Incident",
    "IncidentNote",
    "KeyError_",
    "OrjsonTranscoder",
    "PackedRowError",
    "QuarantinedRecord",
    "RecordReads",
    "Records",
    "RetentionError",
    "RetentionRecord",
    "ShardNameError",
    "SignOff",
    "StoreMissing",
    "StoreReads",
    "StoreUnusable",
    "SubjectRecords",
    "WitnessError",
    "attest",
    "bytes_digest",
    "canonical",
    "canonical_bytes",
    "chain_row",
    "collector_paused",
    "compare_with_record",
    "cut_day",
    "decode_compact_state",
    "describe_head",
    "event_digest",
    "events_after",
    "expand_row",
    "first_named",
    "generate_keypair",
    "grant",
    "heads_from_list",
    "heads_list",
    "inclusion_ranges",
    "init_store",
    "is_compact_state",
    "key_id",
    "leaf_hash",
    "legacy_link_hash",
    "link_hash",
    "load_private_key",
    "load_public_key",
    "node_hash",
    "originator_hex",
    "record_digest",
    "require_existing",
    "require_signed",
    "retire",
    "sequence_conflict",
    "signature_valid",
    "subject_uuid",
    "verify_archive",
    "verify_inclusion",
    "witness_from_env",
]
