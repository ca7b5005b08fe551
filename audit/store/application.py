"""The store: an eventsourcing Application, the only door to the events.

SQLite file by default, PostgreSQL when the URL says so; both through recorders that
chain every row's hash (``audit.store.chain``), a row holding one subject's events of
one append (``audit.store.packing``). Appends are batched: one transaction
per batch of subjects, never one per event. Nothing is updated or deleted: a correction
is a new event.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from eventsourcing.application import Application
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from audit.collector import collector_paused
from audit.config import StoreURL, parse_store_url
from audit.store.chain import ChainReport, Checkpoint, verify_rows
from audit.store.packing import covered_versions, packed_rows
from audit.store.recording import ChainedRecorder
from audit.store.retention import RetentionRecord, latest, refusal
from audit.store.shards import MAIN_SHARD, checked_shard
from audit.store.signing import signing_key_from_env
from audit.store.subject_batches import subject_batches
from audit.store.subjects import (
    FIRST_RECORD_VERSION,
    SUBJECT_CLASSES,
    Subject,
    subject_uuid,
)
from audit.store.transcoder import OrjsonTranscoder
from audit.store.unsigned_tail import AfterSigned, events_after
from audit.store.witness import WitnessReport

APP_NAME = "CasinoAudit"
# Stored state is plain JSON (no compression, no cipher) whatever the environment says:
# the hash chain covers exactly these bytes and bulk reads decode them directly.
_PLAIN_STATE = {"COMPRESSOR_TOPIC": "", "CIPHER_TOPIC": ""}
SQLITE_RECORDER = "audit.store.sqlite_recorder:ChainedSQLiteApplicationRecorder"
POSTGRES_RECORDER = "audit.store.postgres_recorder:ChainedPostgresApplicationRecorder"
_CREATE_TABLE_KEY = f"{APP_NAME.upper()}_CREATE_TABLE"
#: Tries of one ``append`` whose insert loses a race with another writer.
APPEND_ATTEMPTS = 10


def _env_for(url: StoreURL, create: bool = True) -> dict[str, str]:
    """eventsourcing settings for a store URL, with the chained recorders plugged in;
    ``create=False`` turns off every ``CREATE`` eventsourcing and our recorders run when
    they start (eventsourcing 9.5's ``CREATE_TABLE``, set here under both of the names it
    looks up, so that the process environment cannot turn it back on)."""
    creating = {key: "y" if create else "n" for key in ("CREATE_TABLE", _CREATE_TABLE_KEY)}
    if url.kind == "sqlite":
        return creating | {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": url.sqlite_path,
            "SQLITE_LOCK_TIMEOUT": "30",
            **_PLAIN_STATE,
            "APPLICATION_RECORDER_TOPIC": SQLITE_RECORDER,
        }
    schema = {"POSTGRES_SCHEMA": url.schema} if url.schema else {}
    return (
        creating
        | schema
        | {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": url.dbname,
            "POSTGRES_HOST": url.host,
            "POSTGRES_PORT": str(url.port),
            "POSTGRES_USER": url.user,
            "POSTGRES_PASSWORD": url.password,
            "POSTGRES_LOCK_TIMEOUT": "30",
            **_PLAIN_STATE,
            "POSTGRES_ENABLE_DB_FUNCTIONS": "n",
            "APPLICATION_RECORDER_TOPIC": POSTGRES_RECORDER,
        }
    )


@contextmanager
def _setting_up(url: StoreURL, create: bool) -> Iterator[bool]:
    """While a store is being opened: yields whether its tables, triggers and functions
    are created (eventsourcing's ``CREATE_TABLE``), after checking, without creating
    anything, that the connecting role may use the store as asked (``StoreUnusable``,
    ``StoreMissing`` otherwise; ``audit.store.existing``).

    ``create=False`` (read commands) creates nothing and needs the store to exist.
    ``create=True`` (writers) creates a missing store where the role may (its schema
    too), runs the DDL again when the role owns the tables (as it always did), and
    creates nothing for a role that may only insert rows (``casino-audit db grant
    --writer``). On PostgreSQL no other process sets up the same tables at the same
    moment (eventsourcing's CREATE TYPE and CREATE OR REPLACE are not safe side by side,
    and parallel shards open stores together): a session advisory lock per schema,
    released when its connection closes."""
    from audit.store.existing import (
        StoreUnusable,
        check_sqlite_file,
        connect,
        postgres_state,
        require_existing,
        safe_message,
    )

    if url.kind != "postgresql":
        if create:
            check_sqlite_file(url)
        else:
            require_existing(url)
        yield create
        return
    import psycopg
    from psycopg import sql

    with connect(url, autocommit=True) as conn:
        if not create:
            postgres_state(conn, url).require_readable()
            yield False
            return
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (f"casino-audit {url.schema}",))
        state = postgres_state(conn, url)
        ddl = state.plan_for_writing()
        if ddl and not state.schema_exists:
            try:
                conn.execute(
                    sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(state.schema))
                )
            except psycopg.Error as error:
                raise StoreUnusable(
                    f"cannot create schema {state.schema!r} for the store {url.redacted()}: "
                    f"{safe_message(error, url)}"
                ) from None
        yield ddl


@dataclass
class SubjectRecords:
    """Records of one subject from one input unit (a PHH hand, a run of Avro records).

    ``records`` are flat events in sequence order, each with ``type`` and ``sequence``.
    """

    kind: str
    subject_id: str
    records: list[dict[str, Any]]
    source: str = ""
    position: str = ""  # where in ``source`` (``hand 63``, ``records 10..15 (...)``)


@dataclass(frozen=True)
class EventConflict:
    """A received event that differs from the one stored (or written earlier in the same
    batch) at its (subject, sequence): the stored one stands, this one is returned."""

    unit: SubjectRecords
    received: dict[str, Any]
    stored: dict[str, Any]


@dataclass
class AppendResult:
    """What a batch did, per unit and per event.

    A unit is *stored* when at least one of its events is new, *a duplicate* when every
    one of its events is already stored with the same content; ``conflicts`` names the
    units with an event that differs from the stored one at its (subject, sequence) and
    why; ``event_conflicts`` lists those events one by one."""

    stored: int = 0
    duplicates: int = 0
    events_stored: int = 0
    events_already_stored: int = 0
    conflicts: list[tuple[SubjectRecords, str]] = field(default_factory=list)
    event_conflicts: list[EventConflict] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)
    """Per unit, in order: ``STORED``, ``DUPLICATE``, ``CONFLICT`` (no event stored and
    at least one in conflict) or ``RETIRED`` (none stored: a retention retired the
    subject, ``audit.store.retention``; its reason is in ``conflicts``)."""


STORED, DUPLICATE, CONFLICT, RETIRED = "stored", "duplicate", "conflict", "retired"


class AuditStore(Application[UUID]):
    """casino-audit's event store."""

    name = APP_NAME
    is_snapshotting_enabled = False

    def construct_transcoder(self) -> OrjsonTranscoder:
        transcoder = OrjsonTranscoder()
        self.register_transcodings(transcoder)
        self.transcoder = transcoder
        return transcoder

    def __init__(self, url: str, create: bool = True, chain_shard: str = MAIN_SHARD):
        """Open the store at ``url``. ``create=False`` (read commands) never creates
        anything: the store must exist (``StoreMissing``) and the role may only read.
        ``create=True`` (writers) creates a missing store, or runs its DDL again, only
        where the connecting role may (see ``_setting_up``). Events are appended to the
        hash chain of ``chain_shard`` (``audit.store.shards``; ``ShardNameError`` when the
        name is refused)."""
        self.url = parse_store_url(url)
        self.signing_key = signing_key_from_env()
        shard = checked_shard(chain_shard)
        with _setting_up(self.url, create) as creating:
            super().__init__(env=_env_for(self.url, creating))
        self.chained.chain_shard = shard

    @property
    def chained(self) -> ChainedRecorder:
        """The recorder, typed as the chained recorder both back ends are
        (``SQLITE_RECORDER``, ``POSTGRES_RECORDER``)."""
        return cast("ChainedRecorder", self.recorder)

    # -- writing ------------------------------------------------------------------------

    def append(self, units: Sequence[SubjectRecords], *, partial: bool = False) -> AppendResult:
        """Store a batch of subjects' records in one transaction; idempotent per event.

        The event is the unit of identity: a record is the event at its (subject,
        sequence). One already stored with the same content (compared without its
        provenance, ``audit.store.versions``) is skipped; a new sequence is appended,
        whatever the sequences stored before it; a different record at a stored
        (subject, sequence) is a conflict, returned and never stored over the stored one.

        ``partial=False``: a unit with any conflicting record stores none of its
        records (the console's accounts, verdicts). ``partial=True`` (ingest): the
        unit's other events are stored, and each conflicting event is listed in
        ``event_conflicts`` for quarantine.

        Each unit's new events are stored as packed rows (``audit.store.packing``): one
        row per run of consecutive versions, its ``Opened`` event first when the
        subject is new.

        What is stored is read before the insert's transaction: another writer (a
        concurrent ingest of overlapping files) may store the same events in between.
        The insert then fails whole, on the primary key (a row at the same first
        version) or on the recorder's second read of the subjects it extends (a row
        overlapping another's from another version), and the batch is read and written
        again, where those events are now duplicates (up to ``APPEND_ATTEMPTS`` times,
        each after another writer committed).
        """
        from eventsourcing.persistence import IntegrityError

        attempts = APPEND_ATTEMPTS
        while True:
            try:
                return self._append_events(units, partial)
            except IntegrityError:
                attempts -= 1
                if not attempts:
                    raise

    def _stored_states(self, keys: Sequence[str]) -> dict[tuple[str, int], dict[str, Any]]:
        """(originator hex, version) -> stored record of these subjects' records."""
        decode = self.transcoder.decode_record
        return {
            (originator, version): decode(state)
            for originator, version, state in self.chained.states_of(keys, FIRST_RECORD_VERSION)
        }

    def _append_events(self, units: Sequence[SubjectRecords], partial: bool) -> AppendResult:
        """``append``, one try."""
        from audit.store.versions import same_event, sequence_conflict

        result = AppendResult()
        ids = [subject_uuid(u.kind, u.subject_id).hex for u in units]
        existing = self.chained.existing_versions(sorted(set(ids)))
        seen_keys = sorted({key for key, version in existing if version >= FIRST_RECORD_VERSION})
        stored = self._stored_states(seen_keys) if seen_keys else {}
        planned: dict[tuple[str, int], dict[str, Any]] = {}
        opened = {key for key, version in existing if version == 1}
        retired = self.chained.retired_subjects(sorted({k for k in ids if k not in opened}))
        now = datetime.now(UTC)
        stored_events: list[StoredEvent] = []
        for unit, key in zip(units, ids, strict=True):
            if key in retired:
                result.conflicts.append((unit, refusal(unit.kind, unit.subject_id, retired[key])))
                result.outcomes.append(RETIRED)
                continue
            new: list[tuple[dict[str, Any], int]] = []
            clashes: list[EventConflict] = []
            for record in unit.records:
                version = record["sequence"] + FIRST_RECORD_VERSION
                before = planned.get((key, version)) or stored.get((key, version))
                if before is None:
                    new.append((record, version))
                elif not same_event(before, record):
                    clashes.append(EventConflict(unit, record, before))
            already = len(unit.records) - len(new) - len(clashes)
            if clashes:
                result.conflicts.append((unit, sequence_conflict(unit, clashes[0].stored)))
                if not partial:
                    result.outcomes.append(CONFLICT)
                    continue
                result.event_conflicts.extend(clashes)
            result.events_already_stored += already
            if not new:
                result.duplicates += not clashes
                result.outcomes.append(CONFLICT if clashes else DUPLICATE)
                continue
            cls = SUBJECT_CLASSES[unit.kind]
            aggregate_id = UUID(key)
            events: list[StoredEvent] = []
            if key not in opened:
                events.append(self._opened(cls, aggregate_id, unit.subject_id, now))
                opened.add(key)
            for record, version in new:
                events.append(self._recorded(cls, aggregate_id, version, record, now))
                planned[key, version] = record
            stored_events.extend(packed_rows(unit.kind, events))
            result.events_stored += len(events)
            result.stored += 1
            result.outcomes.append(STORED)
        if stored_events:
            self.recorder.insert_events(stored_events)
        return result

    def _recorded(
        self,
        cls: type[Subject],
        aggregate_id: UUID,
        version: int,
        record: dict[str, Any],
        now: datetime,
    ) -> StoredEvent:
        """The stored form of ``cls.<record type>(timestamp=now, record=record)``: the
        state the transcoder reads back as that domain event's (compact for a family
        record, ``audit.store.compact``; else the JSON eventsourcing's mapper writes),
        without building the event first, which ingest would otherwise do per record."""
        return StoredEvent(
            originator_id=aggregate_id,
            originator_version=version,
            topic=get_topic(cls.event_class(record["type"])),
            state=self.transcoder.encode_recorded(cls.KIND, now, record),
        )

    def _opened(
        self, cls: type[Subject], aggregate_id: UUID, subject_id: str, now: datetime
    ) -> StoredEvent:
        """The stored form of ``cls.Opened(originator_id=aggregate_id, originator_version=1,
        timestamp=now, originator_topic=get_topic(cls), subject_id=subject_id)``: the
        state eventsourcing's mapper writes for it (the event's fields after its
        originator id and version, in order), without building the event, which a
        replay would otherwise do per verdict (``tests/audit/store/test_store.py`` compares
        them)."""
        state = {"timestamp": now, "originator_topic": get_topic(cls), "subject_id": subject_id}
        return StoredEvent(
            originator_id=aggregate_id,
            originator_version=1,
            topic=get_topic(cls.Opened),
            state=self.transcoder.encode(state),
        )

    def checkpoint(self, publish: str | os.PathLike[str] | None = None) -> Checkpoint | None:
        """Record the chain head (after an ingest or replay) as a tree head: its hash,
        event count and the Merkle root of the events up to it (``audit.store.heads``),
        so a truncated tail is detectable; signed when ``CASINO_AUDIT_SIGNING_KEY`` names
        a key. The head is then published to the witness ``publish`` (a directory or a
        JSON-lines file; default ``$CASINO_AUDIT_WITNESS``, none when unset or empty),
        outside the database (``audit.store.witness``)."""
        from audit.store.heads import make_checkpoint
        from audit.store.witness import publish as publish_head
        from audit.store.witness import witness_from_env

        checkpoint = make_checkpoint(self.chained, self.signing_key)
        witness = witness_from_env() if publish is None else os.fspath(publish)
        if checkpoint is not None and witness:
            publish_head(checkpoint, witness)
        return checkpoint

    # -- reading ------------------------------------------------------------------------

    def records_of(self, kind: str, subject_id: str) -> list[dict[str, Any]]:
        """The subject's records in sequence order ([] when unknown)."""
        decode = self.transcoder.decode_record
        return [
            decode(stored.state)
            for stored in self.recorder.select_events(subject_uuid(kind, subject_id))
            if stored.originator_version >= FIRST_RECORD_VERSION
        ]

    def records_of_many(
        self, kind: str, subject_ids: Sequence[str]
    ) -> dict[str, list[dict[str, Any]]]:
        """``records_of`` for many subjects in a few queries: subject id -> records (only the
        subjects that are stored)."""
        by_hex = {subject_uuid(kind, subject).hex: subject for subject in subject_ids}
        found: dict[str, list[dict[str, Any]]] = {}
        with collector_paused():
            rows = self.chained.states_of(list(by_hex), FIRST_RECORD_VERSION)
            decode = self.transcoder.decode_record
            for originator, _, state in rows:
                found.setdefault(by_hex[originator], []).append(decode(state))
        return found

    def records_by_kind(
        self, subject_id: str, kinds: Sequence[str]
    ) -> dict[str, list[dict[str, Any]]]:
        """``records_of`` one subject id under each of ``kinds``, in one query: kind ->
        records in sequence order ([] when not stored)."""
        by_hex = {subject_uuid(kind, subject_id).hex: kind for kind in kinds}
        found: dict[str, list[dict[str, Any]]] = {kind: [] for kind in kinds}
        decode = self.transcoder.decode_record
        for originator, _, state in self.chained.states_of(list(by_hex), FIRST_RECORD_VERSION):
            found[by_hex[originator]].append(decode(state))
        return found

    def iter_subject_ids(self, kind: str, batch: int = 2000) -> Iterator[str]:
        """Every subject of a kind, in the order first stored."""
        topic = get_topic(SUBJECT_CLASSES[kind].Opened)
        start = 1
        while True:
            page = self.recorder.select_notifications(start, batch, topics=[topic])
            if not page:
                return
            subject_id = self.transcoder.opened_subject_id
            for notification in page:  # the page holds only that topic
                yield subject_id(notification.state)
            start = page[-1].id + 1

    def iter_records(
        self, kind: str, subject_ids: Iterable[str], batch: int = 2000
    ) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """(subject id, records) for each stored subject of ``subject_ids``, in their order,
        read ``batch`` subjects per query (unknown subjects are skipped)."""
        for chunk in self.iter_record_batches(kind, subject_ids, batch):
            yield from chunk

    def iter_record_batches(
        self, kind: str, subject_ids: Iterable[str], batch: int = 2000
    ) -> Iterator[list[tuple[str, list[dict[str, Any]]]]]:
        """``iter_records`` a query's worth at a time: lists of (subject id, records) of up
        to ``batch`` subjects, so that a caller can look up what they share at once."""
        chunk: list[str] = []
        for subject_id in subject_ids:
            chunk.append(subject_id)
            if len(chunk) == batch:
                yield self._stored_in_order(kind, chunk)
                chunk = []
        if chunk:
            yield self._stored_in_order(kind, chunk)

    def _stored_in_order(
        self, kind: str, subject_ids: list[str]
    ) -> list[tuple[str, list[dict[str, Any]]]]:
        found = self.records_of_many(kind, subject_ids)
        return [(s, found[s]) for s in subject_ids if s in found]

    def iter_subjects(self, kind: str) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """(subject id, records) for every subject of a kind, streamed."""
        yield from self.iter_records(kind, self.iter_subject_ids(kind))

    def iter_subject_batches(
        self, kind: str, batch: int = 2000
    ) -> Iterator[list[tuple[str, list[dict[str, Any]]]]]:
        """``iter_subjects`` a page of ``batch`` subjects at a time, each stored row read
        and inflated once (``audit.store.subject_batches``)."""
        transcoder = self.transcoder
        yield from subject_batches(
            self.chained, transcoder.opened_subject_id, transcoder.decode_record, kind, batch
        )

    def count_events(self) -> int:
        """How many events the store holds (a packed row's each, ``audit.store.packing``;
        reads every row's pack header: for tests and small stores)."""
        return sum(
            len(covered_versions(r.originator_id, r.originator_version, r.topic, r.state))
            for r in self.chained.iter_chain_rows()
        )

    def count_rows(self) -> int:
        """How many rows the store holds: the chain's length, a tree head's size."""
        return self.chained.chain_head()[2]

    # -- tamper evidence ----------------------------------------------------------------

    def retention(self) -> RetentionRecord | None:
        """The latest retention record (``audit.store.retention``): where ``verify``
        starts; None when no rows were ever retired."""
        return latest(self.chained.retention_records())

    def retention_checkpoint(self) -> Checkpoint | None:
        """The latest retention record's checkpoint with its frontier (None: nothing
        retired): the tree over the retired rows, which proofs of later rows need."""
        return self.chained.retention_start()

    def _retention_start(
        self, public_key: Ed25519PublicKey | None
    ) -> tuple[Checkpoint | None, ChainReport | None]:
        """(where verification starts: the latest retention record's checkpoint, None
        from genesis; a failed report when the record does not count: its checkpoint is
        not held with that many rows (removed or replaced), a row is still attached at
        or below it, it is unsigned or not signed by the store's key,
        ``audit.store.retention_trust``)."""
        from audit.store.retention_trust import record_problem

        record = self.retention()
        if record is None:
            return None, None
        start = self.chained.retention_start()
        if start is None or start.event_count != record.retired_rows:
            problem = (
                f"the retention record names checkpoint {record.checkpoint_id} with "
                f"{record.retired_rows} rows, which the store does not hold as such: the "
                "checkpoint was removed or replaced"
            )
        else:
            kept = next(iter(self.chained.iter_chain_rows(record.checkpoint_id)), None)
            attached = kept.notification_id if kept is not None else None
            problem = record_problem(record, start, attached, public_key)
            if not problem:
                return start, None
        return None, ChainReport(0, b"", 0, broken_at=record.checkpoint_id, problem=problem)

    def verify(self, public_key: Ed25519PublicKey | None = None) -> ChainReport:
        """Recompute every shard's hash chain and check every checkpoint (over the events
        settled when it starts: those of writers still in flight are not read), from the
        latest retention record's checkpoint when rows were retired (never without one:
        a prefix deleted otherwise fails as any deletion does); with a
        public key,
        also every checkpoint's signature, and refuse a store whose checkpoints are
        missing or unsigned (``audit.store.heads.require_signed``; a tail of the
        console's own access trail after the last signed checkpoint is named, not
        failed)."""
        from audit.store.heads import require_signed

        report, checkpoints, head = self.verify_chain(public_key)
        if public_key is None or not report.ok:
            return report
        return require_signed(report, checkpoints, public_key, self.unsigned_tail(head))

    def verify_chain(
        self, public_key: Ed25519PublicKey | None = None
    ) -> tuple[ChainReport, list[Checkpoint], int]:
        """``verify`` without the checkpoints' signatures: (its report, the checkpoints it
        checked, the last notification id it read), so that every later count is taken at
        the same head; ``public_key`` checks the retention record's signature."""
        recorder = self.chained
        checkpoints = recorder.checkpoints()
        start, unheld = self._retention_start(public_key)
        if unheld is not None:
            return unheld, checkpoints, 0
        head = recorder.settled_head()
        return verify_rows(recorder.iter_chain_rows(head), checkpoints, start), checkpoints, head

    def unsigned_tail(self, upto: int) -> Callable[[int], AfterSigned]:
        """The rows after a notification id up to ``upto``, and how many are the
        console's trail (``audit.store.unsigned_tail``)."""
        return lambda after: events_after(self.chained, after, upto)

    def verify_witness(
        self, witness: str | os.PathLike[str], public_key: Ed25519PublicKey | None = None
    ) -> WitnessReport:
        """Check the store against every head in the witness (``audit.store.witness``), in
        one pass over the events, besides the chain and the database's checkpoints.
        Raises ``WitnessError`` when the witness cannot be read at all."""
        from audit.store.retention_trust import witnessed_problem
        from audit.store.witness import load_heads, verify_witnessed

        heads, unreadable = load_heads(witness)
        recorder = self.chained
        checkpoints = recorder.checkpoints()
        start, unheld = self._retention_start(public_key)
        if unheld is not None:
            return WitnessReport(unheld, heads_checked=len(heads))
        rows = recorder.iter_chain_rows(recorder.settled_head())
        report = verify_witnessed(rows, checkpoints, heads, public_key, unreadable, start)
        record = self.retention()
        problem = witnessed_problem(record, witness) if record is not None else ""
        if problem:
            report.problems.append(problem)
        return report

    def close(self) -> None:
        self.factory.close()
