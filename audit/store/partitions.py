"""A PostgreSQL store partitioned by day, its day cut and its retention (the owner's).

Opt-in, when the store is made: ``casino-audit db init --partitioned`` makes the events
table ``PARTITION BY RANGE (notification_id)``, partition *k* (``<events>_p<k>``) holding
ids ``[k·STRIDE + 1, (k+1)·STRIDE + 1)``, before the recorder's own DDL, which then puts
its indexes and row triggers onto every partition. PostgreSQL requires the partition key
in the primary key: (``originator_id``, ``originator_version``, ``notification_id``), so
the key alone no longer refuses a subject opened twice by racing writers; the packed-row
writer's re-read under the per-subject advisory lock does (``postgres_recorder``). Each
partition gets its own ``TRUNCATE`` guard (PostgreSQL clones row triggers onto
partitions, not statement triggers). A store made without the option is unchanged.

* ``cut_day`` (``casino-audit retention cut``): records a checkpoint, then, under the
  store's append lock held exclusively (no writer in flight), checks it is still the
  head, creates the next partition and moves the events' sequence to its first id: the
  day's partition ends at that checkpoint. A writer never lacks a partition: the next
  one exists before the sequence points into it.
* ``retire`` (``casino-audit retention archive --through N --out FILE``): N must be a
  cut's checkpoint; writes the rows after the previous retention up to N, as stored,
  with the checkpoints, to FILE (``audit.store.archive``), verifies FILE alone, then in
  one transaction writes the retention record (``audit.store.retention``) and the
  subjects the retired rows held, and detaches and drops every partition wholly up to N.
  The record is signed with the store's key (refused without it) and published to the
  witness when one is set (``audit.store.retention_trust``).
* ``attest`` (``casino-audit retention attest --archive FILE``): signs and publishes a
  record written before records were signed, once its archive checks out.

Detaching, dropping and moving the sequence are the owner's: a writer role (``db grant
--writer``) holds INSERT and SELECT, not ownership, and PostgreSQL refuses it all.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eventsourcing.persistence import OperationalError
from psycopg import sql

from audit.config import StoreURL
from audit.store.existing import POSTGRES_EVENTS_TABLE, StoreUnusable, connect, safe_message

STRIDE = 10**12
"""Notification ids per partition: partition k holds [k·STRIDE + 1, (k+1)·STRIDE + 1)."""

PARTITIONED_EVENTS_DDL = """
CREATE TABLE {table} (
    originator_id uuid NOT NULL, originator_version bigint NOT NULL, topic text NOT NULL,
    state bytea NOT NULL, notification_id bigserial, chain_prev bytea NOT NULL,
    chain_hash bytea NOT NULL, chain_shard text NOT NULL DEFAULT '',
    chain_form smallint NOT NULL DEFAULT 1,
    PRIMARY KEY (originator_id, originator_version, notification_id)
) PARTITION BY RANGE (notification_id)
"""


class RetentionError(StoreUnusable):
    """A partition, cut or retention step cannot be done as asked (safe to print)."""


class NoPartition(StoreUnusable, OperationalError):
    """A write's notification id has no partition (the sequence was moved past the last
    one by hand): the store cannot be written until the owner cuts (an operational
    error, so an ingest stops instead of quarantining the batch)."""


@dataclass(frozen=True)
class Partition:
    index: int
    name: str

    @property
    def first_id(self) -> int:
        return self.index * STRIDE + 1


def partition_name(index: int) -> str:
    return f"{POSTGRES_EVENTS_TABLE}_p{index}"


def _events(schema: str) -> sql.Composed:
    return sql.SQL("{}.{}").format(sql.Identifier(schema), sql.Identifier(POSTGRES_EVENTS_TABLE))


def is_partitioned(conn: Any, schema: str) -> bool | None:
    """Whether the events table is partitioned (None: there is no events table)."""
    row = conn.execute(
        "SELECT c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relname = %s",
        (schema, POSTGRES_EVENTS_TABLE),
    ).fetchone()
    return None if row is None else row[0] == "p"


def partitions(conn: Any, schema: str) -> list[Partition]:
    """The attached partitions, oldest first."""
    rows = conn.execute(
        "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
        "JOIN pg_class p ON p.oid = i.inhparent JOIN pg_namespace n ON n.oid = p.relnamespace "
        "WHERE n.nspname = %s AND p.relname = %s",
        (schema, POSTGRES_EVENTS_TABLE),
    ).fetchall()
    pattern = re.compile(re.escape(POSTGRES_EVENTS_TABLE) + r"_p(\d+)")
    found = [Partition(int(m.group(1)), name) for (name,) in rows if (m := pattern.fullmatch(name))]
    return sorted(found, key=lambda p: p.index)


def add_partition(conn: Any, schema: str, index: int) -> None:
    """Create partition ``index`` (if missing) with its ``TRUNCATE`` guard."""
    part = sql.Identifier(schema, partition_name(index))
    conn.execute(
        sql.SQL(
            "CREATE TABLE IF NOT EXISTS {part} PARTITION OF {table} "
            "FOR VALUES FROM ({lo}) TO ({hi})"
        ).format(
            part=part,
            table=_events(schema),
            lo=sql.Literal(index * STRIDE + 1),
            hi=sql.Literal((index + 1) * STRIDE + 1),
        )
    )
    guard_truncate(conn, schema, index)


def guard_truncate(conn: Any, schema: str, index: int) -> None:
    """The append-only ``TRUNCATE`` trigger on one partition (the function exists once
    the recorder's DDL ran)."""
    conn.execute(
        sql.SQL(
            "CREATE OR REPLACE TRIGGER casino_audit_no_truncate BEFORE TRUNCATE ON {part} "
            "FOR EACH STATEMENT EXECUTE FUNCTION {schema}.casino_audit_refuse_change()"
        ).format(part=sql.Identifier(schema, partition_name(index)), schema=sql.Identifier(schema))
    )


def create_partitioned(conn: Any, schema: str) -> bool:
    """Before the recorder's DDL: make the events table partitioned with its first
    partition when there is none yet; True when made. A store whose events table exists
    unpartitioned cannot be turned into one (``RetentionError``)."""
    state = is_partitioned(conn, schema)
    if state is False:
        raise RetentionError(
            f"the events table {schema}.{POSTGRES_EVENTS_TABLE} exists and is not "
            "partitioned: partitioning is chosen when a store is made (db init --partitioned "
            "on a new schema)"
        )
    if state:
        return False
    conn.execute(sql.SQL(PARTITIONED_EVENTS_DDL).format(table=_events(schema)))
    conn.execute(
        sql.SQL("CREATE TABLE {part} PARTITION OF {table} FOR VALUES FROM (1) TO ({hi})").format(
            part=sql.Identifier(schema, partition_name(0)),
            table=_events(schema),
            hi=sql.Literal(STRIDE + 1),
        )
    )
    return True


def guard_partitions(conn: Any, schema: str) -> None:
    """After the recorder's DDL: every partition's ``TRUNCATE`` guard."""
    for partition in partitions(conn, schema):
        guard_truncate(conn, schema, partition.index)


def _scalar(conn: Any, query: Any, params: tuple[object, ...] = ()) -> Any:
    """The one value of a one-row query."""
    row = conn.execute(query, params).fetchone()
    assert row is not None, "the query returned no row"
    return row[0]


def _settle(conn: Any, schema: str) -> None:
    """The store's append lock, exclusively, for this transaction (``postgres_recorder``):
    no writer is in flight and none starts until it ends."""
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtext(%s))",
        (f"casino-audit append {schema}.{POSTGRES_EVENTS_TABLE}",),
    )


def _owner_only(error: Exception, what: str, url: StoreURL) -> RetentionError:
    return RetentionError(
        f"cannot {what} on the store {url.redacted()}: {safe_message(error, url)} (retention is "
        "the store owner's: run it as the role db init made the store with)"
    )


def cut_day(store: Any, url: StoreURL, attempts: int = 5) -> tuple[Any, int]:
    """The day cut (module docstring): (the checkpoint the day ends at, the new
    partition's index). Retries while writers keep moving the head."""
    import psycopg

    schema = url.schema or "public"
    with connect(url) as conn:
        if not is_partitioned(conn, schema):
            raise RetentionError(
                f"the store {url.redacted()} is not partitioned (db init --partitioned)"
            )
        for _ in range(attempts):
            checkpoint = store.checkpoint()
            if checkpoint is None:
                raise RetentionError(f"the store {url.redacted()} is empty: nothing to cut")
            try:
                with conn.transaction():
                    _settle(conn, schema)
                    head = _scalar(
                        conn, sql.SQL("SELECT max(notification_id) FROM {}").format(_events(schema))
                    )
                    if head != checkpoint.notification_id:
                        continue  # a writer came in between: checkpoint again
                    index = (head - 1) // STRIDE + 1
                    add_partition(conn, schema, index)
                    conn.execute(
                        "SELECT setval(pg_get_serial_sequence(%s, 'notification_id'), %s)",
                        (f"{schema}.{POSTGRES_EVENTS_TABLE}", index * STRIDE),
                    )
                    return checkpoint, index
            except psycopg.Error as error:
                raise _owner_only(error, "cut the day", url) from None
    raise RetentionError(f"writers kept the head of {url.redacted()} moving: try the cut again")


def _sequence_next(conn: Any, schema: str) -> int:
    last = _scalar(
        conn,
        "SELECT pg_sequence_last_value(pg_get_serial_sequence(%s, 'notification_id')::regclass)",
        (f"{schema}.{POSTGRES_EVENTS_TABLE}",),
    )
    return int(last or 0)


def retiring(conn: Any, schema: str, through: int) -> list[Partition]:
    """The partitions wholly up to checkpoint ``through``, which must end a cut day
    (the last of them ends there and the sequence has moved past it)."""
    last = (through - 1) // STRIDE
    after = _scalar(
        conn,
        sql.SQL("SELECT min(notification_id) FROM {} WHERE notification_id > %s").format(
            _events(schema)
        ),
        (through,),
    )
    in_day = after is not None and after <= (last + 1) * STRIDE
    if in_day or _sequence_next(conn, schema) < (last + 1) * STRIDE:
        raise RetentionError(
            f"checkpoint {through} does not end a day: rows after it share its partition "
            "(cut the day first, casino-audit retention cut, and archive through the "
            "checkpoint it printed)"
        )
    return [p for p in partitions(conn, schema) if p.index <= last]


def _record_retired_subjects(conn: Any, schema: str, after: int, through: int) -> None:
    """Every subject the rows after ``after`` up to ``through`` held, into the retired
    table (``audit.store.retention``), computed by the server: the client's memory does
    not grow with the day. A subject a former retention took keeps that one's row."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {retired} (originator_id, checkpoint_id) "
            "SELECT DISTINCT originator_id, %s::bigint FROM {events} "
            "WHERE notification_id > %s AND notification_id <= %s "
            "ON CONFLICT (originator_id) DO NOTHING"
        ).format(
            retired=sql.Identifier(schema, f"{POSTGRES_EVENTS_TABLE}_retired"),
            events=_events(schema),
        ),
        (through, after, through),
    )


def retire(store: Any, url: StoreURL, through: int, out: Path) -> Any:
    """Archive the rows up to checkpoint ``through`` to ``out``, check the file, then
    record the retention and detach and drop their partitions (module docstring).
    Returns the ``RetentionRecord``."""
    import psycopg

    from audit.store.archive import file_sha256, verify_archive, write_archive
    from audit.store.retention import RetentionRecord
    from audit.store.retention_trust import insert_signature, sign

    schema = url.schema or "public"
    recorder = store.chained
    end = recorder.checkpoint_at(through)
    if end is None or not end.tree_root:
        raise RetentionError(f"the store holds no tree head at notification {through}")
    key = _signing_key(end)
    first = recorder.retention_start()
    if first is not None and first.notification_id >= through:
        raise RetentionError(f"rows up to notification {first.notification_id} are already retired")
    after = first.notification_id if first is not None else 0
    with connect(url) as conn:
        if not is_partitioned(conn, schema):
            raise RetentionError(
                f"the store {url.redacted()} is not partitioned (db init --partitioned)"
            )
        parts = retiring(conn, schema, through)
        conn.rollback()
        checkpoints = [c for c in recorder.checkpoints() if c.notification_id <= through]
        rows = (r for r in recorder.iter_chain_rows(through) if r.notification_id > after)
        with out.open("xb") as file:
            written = write_archive(file, first, through, checkpoints, rows)
            file.flush()
            os.fsync(file.fileno())
        report = verify_archive(out, key.public_key())
        if not report.ok:
            raise RetentionError(f"the archive {out} does not verify: {report.problem}")
        unsigned = RetentionRecord(
            through, end.event_count, written, time.time_ns() // 1_000_000, file_sha256(out)
        )
        record = sign(unsigned, end, key)
        try:
            with conn.transaction():
                _settle(conn, schema)
                conn.execute(
                    sql.SQL(
                        "INSERT INTO {}.{} (checkpoint_id, retired_rows, archived_rows, "
                        "retired_at, archive_sha256) VALUES (%s, %s, %s, %s, %s)"
                    ).format(
                        sql.Identifier(schema), sql.Identifier(f"{POSTGRES_EVENTS_TABLE}_retention")
                    ),
                    (through, end.event_count, written, record.retired_at, record.archive_sha256),
                )
                insert_signature(conn, schema, record)
                _record_retired_subjects(conn, schema, after, through)
                for part in parts:
                    name = sql.Identifier(schema, part.name)
                    conn.execute(
                        sql.SQL("ALTER TABLE {} DETACH PARTITION {}").format(_events(schema), name)
                    )
                    conn.execute(sql.SQL("DROP TABLE {}").format(name))
        except psycopg.Error as error:
            raise _owner_only(error, "retire the rows", url) from None
    _publish(record)
    return record


def _signing_key(checkpoint: Any) -> Any:
    """The store's key for a retention record at ``checkpoint`` (``RetentionError``
    saying why there is none: ``audit.store.retention_trust.signing_key_for``)."""
    from audit.store.retention_trust import Unsignable, signing_key_for

    try:
        return signing_key_for(checkpoint)
    except Unsignable as error:
        raise RetentionError(str(error)) from None


def _publish(record: Any) -> None:
    """The record to ``$CASINO_AUDIT_WITNESS``, when set (``retention_trust.publish``)."""
    from audit.store.retention_trust import publish
    from audit.store.witness import witness_from_env

    witness = witness_from_env()
    if witness:
        publish(record, witness)


def attest(store: Any, url: StoreURL, archive: Path) -> Any:
    """Sign (and publish) a retention record written before records were signed, given
    its archive file (``audit.store.retention_trust``, "Stores archived before"): the
    file's SHA-256 is the record's, it verifies alone with the store's key, ends at the
    record's checkpoint with the record's rows, and no row is attached at or below it.
    Returns the signed record (a record already signed is published again, unchanged)."""
    import psycopg

    from audit.store.archive import file_sha256, verify_archive
    from audit.store.retention_trust import insert_signature, sign

    digest = file_sha256(archive)
    recorder = store.chained
    record = next((r for r in recorder.retention_records() if r.archive_sha256 == digest), None)
    if record is None:
        raise RetentionError(f"no retention record of {url.redacted()} names the archive {digest}")
    if record.signature:
        _publish(record)
        return record
    at = f"the retention record at checkpoint {record.checkpoint_id}"
    end = recorder.checkpoint_at(record.checkpoint_id)
    if end is None or end.event_count != record.retired_rows:
        raise RetentionError(f"{at}: the store does not hold its checkpoint with its rows")
    key = _signing_key(end)
    report = verify_archive(archive, key.public_key())
    if not report.ok:
        raise RetentionError(f"the archive {archive} does not verify: {report.problem}")
    if (report.through, report.rows) != (record.checkpoint_id, record.archived_rows):
        raise RetentionError(
            f"{at} took {record.archived_rows} rows through it; the archive holds "
            f"{report.rows} through {report.through}"
        )
    kept = next(iter(recorder.iter_chain_rows(record.checkpoint_id)), None)
    if kept is not None:
        raise RetentionError(f"{at}: the row at notification {kept.notification_id} is still there")
    signed = sign(record, end, key)
    try:
        with connect(url) as conn, conn.transaction():
            insert_signature(conn, url.schema or "public", signed)
    except psycopg.Error as error:
        raise _owner_only(error, "attest the retention", url) from None
    _publish(signed)
    return signed
