"""The store: an eventsourcing Application, the only door to the events.

SQLite file by default, PostgreSQL when the URL says so; both through recorders that
chain every event's hash (``audit.store.chain``). Appends are batched: one transaction
per batch of subjects, never one per event. Nothing is updated or deleted: a correction
is a new event.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from eventsourcing.application import Application
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from audit.config import StoreURL, parse_store_url
from audit.store.chain import ChainReport, Checkpoint, verify_rows
from audit.store.signing import sign, signature_valid, signing_key_from_env
from audit.store.subjects import (
    FIRST_RECORD_VERSION,
    SUBJECT_CLASSES,
    Subject,
    subject_uuid,
)
from audit.store.transcoder import OrjsonTranscoder

APP_NAME = "CasinoAudit"
# Stored state is plain JSON (no compression, no cipher) whatever the environment says:
# the hash chain covers exactly these bytes and bulk reads decode them directly.
_PLAIN_STATE = {"COMPRESSOR_TOPIC": "", "CIPHER_TOPIC": ""}
SQLITE_RECORDER = "audit.store.sqlite_recorder:ChainedSQLiteApplicationRecorder"
POSTGRES_RECORDER = "audit.store.postgres_recorder:ChainedPostgresApplicationRecorder"


def _env_for(url: StoreURL) -> dict[str, str]:
    """eventsourcing settings for a store URL, with the chained recorders plugged in."""
    if url.kind == "sqlite":
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": url.sqlite_path,
            "SQLITE_LOCK_TIMEOUT": "30",
            **_PLAIN_STATE,
            "APPLICATION_RECORDER_TOPIC": SQLITE_RECORDER,
        }
    schema = {"POSTGRES_SCHEMA": url.schema} if url.schema else {}
    return schema | {
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


@contextmanager
def _setting_up(url: StoreURL) -> Iterator[None]:
    """While a store is being opened on PostgreSQL: the URL's schema exists (created on
    first use), and no other process sets up the same tables at the same moment
    (eventsourcing's CREATE TYPE and CREATE OR REPLACE are not safe side by side, and
    parallel shards open stores together): a session advisory lock per schema, released
    when its connection closes."""
    if url.kind != "postgresql":
        yield
        return
    import psycopg
    from eventsourcing.persistence import OperationalError
    from psycopg import sql

    try:
        conn = psycopg.connect(
            host=url.host,
            port=url.port,
            user=url.user,
            password=url.password,
            dbname=url.dbname,
            autocommit=True,
        )
    except psycopg.OperationalError as error:  # as eventsourcing reports an unusable store
        raise OperationalError(error) from error
    with conn:
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (f"casino-audit {url.schema}",))
        if url.schema:
            schema = sql.Identifier(url.schema)
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(schema))
        yield


def canonical(record: dict[str, Any]) -> str:
    """Byte-stable JSON of a flat record (keys sorted at every level, no spaces, UTF-8,
    datetimes as ISO 8601, bytes as hex), for comparisons and content digests."""
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS, default=_json_default).decode()


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    raise TypeError(f"cannot serialise {type(value).__name__}")


@dataclass
class SubjectRecords:
    """Records of one subject from one input unit (a PHH hand, a run of Avro records).

    ``records`` are flat events in sequence order, each with ``type`` and ``sequence``.
    """

    kind: str
    subject_id: str
    records: list[dict[str, Any]]
    source: str = ""


@dataclass
class AppendResult:
    """What a batch did: units stored, already present, or in conflict with the store."""

    stored: int = 0
    duplicates: int = 0
    events_stored: int = 0
    conflicts: list[tuple[SubjectRecords, str]] = field(default_factory=list)


class AuditStore(Application):
    """casino-audit's event store."""

    name = APP_NAME
    is_snapshotting_enabled = False

    def construct_transcoder(self) -> OrjsonTranscoder:
        transcoder = OrjsonTranscoder()
        self.register_transcodings(transcoder)
        self.transcoder = transcoder
        return transcoder

    def __init__(self, url: str):
        self.url = parse_store_url(url)
        self.signing_key = signing_key_from_env()
        with _setting_up(self.url):
            super().__init__(env=_env_for(self.url))

    # -- writing ------------------------------------------------------------------------

    def append(self, units: Sequence[SubjectRecords]) -> AppendResult:
        """Store a batch of subjects' records in one transaction; idempotent.

        A record whose (subject, sequence) is already stored with the same content is a
        duplicate and is skipped; with different content the whole unit is a conflict,
        returned for quarantine and not stored.
        """
        result = AppendResult()
        ids = [subject_uuid(u.kind, u.subject_id) for u in units]
        existing = self.recorder.existing_versions(  # type: ignore[attr-defined]
            sorted({i.hex for i in ids})
        )
        planned: set[tuple[str, int]] = set()
        now = datetime.now(UTC)
        stored_events: list[StoredEvent] = []
        for unit, aggregate_id in zip(units, ids, strict=True):
            key = aggregate_id.hex
            cls = SUBJECT_CLASSES[unit.kind]
            versions = [r["sequence"] + FIRST_RECORD_VERSION for r in unit.records]
            seen = [(key, v) in existing or (key, v) in planned for v in versions]
            if any(seen):
                conflict = self._conflict(aggregate_id, unit, versions, seen)
                if conflict:
                    result.conflicts.append((unit, conflict))
                    continue
            new = [(r, v) for r, v, s in zip(unit.records, versions, seen, strict=True) if not s]
            if not new:
                result.duplicates += 1
                continue
            if (key, 1) not in existing and (key, 1) not in planned:
                stored_events.append(self._opened(cls, aggregate_id, unit.subject_id, now))
                planned.add((key, 1))
            for record, version in new:
                stored_events.append(self._recorded(cls, aggregate_id, version, record, now))
                planned.add((key, version))
            result.stored += 1
        if stored_events:
            self.recorder.insert_events(stored_events)
        result.events_stored = len(stored_events)
        return result

    def _recorded(
        self,
        cls: type[Subject],
        aggregate_id: UUID,
        version: int,
        record: dict[str, Any],
        now: datetime,
    ) -> StoredEvent:
        """The stored form of ``cls.<record type>(timestamp=now, record=record)``: the bytes
        eventsourcing's mapper writes for that domain event (its state is the event's
        fields but the originator's, in field order), without building the event first,
        which ingest would otherwise do for every record."""
        return StoredEvent(
            originator_id=aggregate_id,
            originator_version=version,
            topic=get_topic(cls.event_class(record["type"])),
            state=self.transcoder.encode({"timestamp": now, "record": record}),
        )

    def _opened(
        self, cls: type[Subject], aggregate_id: UUID, subject_id: str, now: datetime
    ) -> StoredEvent:
        opened = cls.Opened(
            originator_id=aggregate_id,
            originator_version=1,
            timestamp=now,
            originator_topic=get_topic(cls),
            subject_id=subject_id,
        )
        return self.mapper.to_stored_event(opened)

    def _conflict(
        self, aggregate_id: UUID, unit: SubjectRecords, versions: list[int], seen: list[bool]
    ) -> str:
        """Why a unit clashes with what is stored, or '' when it only repeats it."""
        stored = {
            e.originator_version: canonical(e.record)
            for e in self._decoded_events(aggregate_id)
            if e.originator_version >= FIRST_RECORD_VERSION
        }
        for record, version, was_seen in zip(unit.records, versions, seen, strict=True):
            if was_seen and version in stored and stored[version] != canonical(record):
                return (
                    f"{unit.kind} subject {unit.subject_id!r} sequence "
                    f"{record['sequence']} is already stored with different content"
                )
        return ""

    def checkpoint(self) -> Checkpoint | None:
        """Record the chain head (after an ingest or replay), so a truncated tail is
        detectable; signed when ``CASINO_AUDIT_SIGNING_KEY`` names a key."""
        notification_id, head_hash, count = self.recorder.chain_head()  # type: ignore[attr-defined]
        if not count:
            return None
        checkpoint = Checkpoint(notification_id, head_hash, count)
        if self.signing_key is not None:
            checkpoint = sign(checkpoint, self.signing_key)
        self.recorder.write_checkpoint(checkpoint)  # type: ignore[attr-defined]
        return checkpoint

    # -- reading ------------------------------------------------------------------------

    def _decoded_events(self, aggregate_id: UUID) -> list[Any]:
        return [self.mapper.to_domain_event(s) for s in self.recorder.select_events(aggregate_id)]

    def records_of(self, kind: str, subject_id: str) -> list[dict[str, Any]]:
        """The subject's records in sequence order ([] when unknown)."""
        decode = self.transcoder.decode_record
        return [
            decode(stored.state)
            for stored in self.recorder.select_events(subject_uuid(kind, subject_id))
            if stored.originator_version >= FIRST_RECORD_VERSION
        ]

    def records_of_many(self, kind: str, subject_ids: Sequence[str]) -> dict[str, list[dict]]:
        """``records_of`` for many subjects in a few queries: subject id -> records (only the
        subjects that are stored)."""
        by_hex = {subject_uuid(kind, subject).hex: subject for subject in subject_ids}
        rows = self.recorder.states_of(list(by_hex), FIRST_RECORD_VERSION)  # type: ignore[attr-defined]
        decode = self.transcoder.decode_record
        found: dict[str, list[dict[str, Any]]] = {}
        for originator, _, state in rows:
            found.setdefault(by_hex[originator], []).append(decode(state))
        return found

    def iter_subject_ids(self, kind: str, batch: int = 2000) -> Iterator[str]:
        """Every subject of a kind, in the order first stored."""
        topic = get_topic(SUBJECT_CLASSES[kind].Opened)
        start = 1
        while True:
            page = self.recorder.select_notifications(start, batch, topics=[topic])
            if not page:
                return
            for notification in page:
                yield self.mapper.to_domain_event(notification).subject_id
            start = page[-1].id + 1

    def iter_records(
        self, kind: str, subject_ids: Iterable[str], batch: int = 2000
    ) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """(subject id, records) for each stored subject of ``subject_ids``, in their order,
        read ``batch`` subjects per query (unknown subjects are skipped)."""
        chunk: list[str] = []
        for subject_id in subject_ids:
            chunk.append(subject_id)
            if len(chunk) == batch:
                yield from self._stored_in_order(kind, chunk)
                chunk = []
        yield from self._stored_in_order(kind, chunk)

    def _stored_in_order(
        self, kind: str, subject_ids: list[str]
    ) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        found = self.records_of_many(kind, subject_ids) if subject_ids else {}
        for subject_id in subject_ids:
            if subject_id in found:
                yield subject_id, found[subject_id]

    def iter_subjects(self, kind: str) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """(subject id, records) for every subject of a kind, streamed."""
        yield from self.iter_records(kind, self.iter_subject_ids(kind))

    def count_events(self) -> int:
        return self.recorder.chain_head()[2]  # type: ignore[attr-defined]

    # -- tamper evidence ----------------------------------------------------------------

    def verify(self, public_key: Ed25519PublicKey | None = None) -> ChainReport:
        """Recompute the whole hash chain and check every checkpoint; with a public key,
        also every checkpoint's signature (an unsigned checkpoint is counted, not failed)."""
        recorder: Any = self.recorder
        checkpoints = recorder.checkpoints()
        report = verify_rows(recorder.iter_chain_rows(), checkpoints)
        if public_key is None or not report.ok:
            return report
        unsigned = 0
        for checkpoint in sorted(checkpoints, key=lambda c: c.notification_id):
            if not checkpoint.signature:
                unsigned += 1
            elif not signature_valid(checkpoint, public_key):
                return replace(
                    report,
                    broken_at=checkpoint.notification_id,
                    problem=(
                        f"checkpoint at notification {checkpoint.notification_id} is not "
                        f"signed by this key (key id {checkpoint.key_id or '-'}): the history "
                        "up to it was rewritten or the checkpoint forged"
                    ),
                )
        return replace(
            report, signatures_checked=len(checkpoints) - unsigned, unsigned_checkpoints=unsigned
        )

    def close(self) -> None:
        self.factory.close()


def record_digest(parts: Iterable[str]) -> str:
    """A short stable digest of strings, for deterministic subject ids."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\x00")
    return digest.hexdigest()[:32]
