"""eventsourcing's SQLite application recorder, extended with the hash chain.

The events table gains ``chain_prev`` and ``chain_hash``; triggers refuse UPDATE and
DELETE (append-only); a checkpoints table records the chain head after each ingest.
Batches are inserted in one transaction (``executemany``), never one commit per event.
That transaction starts with ``BEGIN IMMEDIATE``: it holds the write lock before it reads
the chain head, so writers in other processes (parallel nightly shards, mapped DAG tasks)
wait their turn instead of linking two batches to the same head.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor, SQLiteTransaction

from audit.store.chain import (
    GENESIS,
    ChainRow,
    Checkpoint,
    chain_links,
    chain_row,
    originator_hex,
)

READ_BATCH = 5000


class _ImmediateTransaction(SQLiteTransaction):
    """A transaction that takes SQLite's write lock at BEGIN (waiting up to the lock
    timeout), so nothing can commit between its reads and its writes."""

    def __enter__(self) -> SQLiteCursor:
        cursor = self.connection.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        return cursor


class ChainedSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    """Application recorder whose rows form a hash chain in rowid order."""

    def construct_create_table_statements(self) -> list[str]:
        table = self.events_table_name
        return [
            f"CREATE TABLE IF NOT EXISTS {table} ("
            "originator_id TEXT NOT NULL, originator_version INTEGER NOT NULL, "
            "topic TEXT NOT NULL, state BLOB NOT NULL, "
            "chain_prev BLOB NOT NULL, chain_hash BLOB NOT NULL, "
            "PRIMARY KEY (originator_id, originator_version))",
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_update BEFORE UPDATE ON {table} "
            "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END",
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_delete BEFORE DELETE ON {table} "
            "BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END",
            "CREATE TABLE IF NOT EXISTS chain_checkpoints ("
            "notification_id INTEGER PRIMARY KEY, chain_hash BLOB NOT NULL, "
            "event_count INTEGER NOT NULL, signature BLOB NOT NULL, key_id TEXT NOT NULL)",
            "CREATE TRIGGER IF NOT EXISTS chain_checkpoints_no_update BEFORE UPDATE ON "
            "chain_checkpoints BEGIN SELECT RAISE(ABORT, 'checkpoints are append-only'); END",
            "CREATE TRIGGER IF NOT EXISTS chain_checkpoints_no_delete BEFORE DELETE ON "
            "chain_checkpoints BEGIN SELECT RAISE(ABORT, 'checkpoints are append-only'); END",
        ]

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        with (
            self.datastore.get_connection(commit=True) as connection,
            _ImmediateTransaction(connection, commit=True) as transaction,
            transaction as c,
        ):
            return self._insert_events(c, stored_events, **kwargs)

    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **_: Any
    ) -> Sequence[int] | None:
        table = self.events_table_name
        c.execute(f"SELECT rowid, chain_hash FROM {table} ORDER BY rowid DESC LIMIT 1")
        head = c.fetchone()
        last_id, prev = (head[0], head[1]) if head else (0, GENESIS)
        rows = chain_links(
            prev,
            (
                (originator_hex(s.originator_id), s.originator_version, s.topic, s.state)
                for s in stored_events
            ),
        )
        c.executemany(
            f"INSERT INTO {table} (originator_id, originator_version, topic, state, "
            "chain_prev, chain_hash) VALUES (?,?,?,?,?,?)",
            rows,
        )
        return list(range(last_id + 1, last_id + 1 + len(stored_events)))

    # -- chain access (used by audit.store.application) ---------------------------------

    def iter_chain_rows(self) -> Iterator[ChainRow]:
        """Every row in global order, streamed in batches."""
        table = self.events_table_name
        after = 0
        while True:
            with self.datastore.transaction(commit=False) as c:
                c.execute(
                    f"SELECT rowid, originator_id, originator_version, topic, state, "
                    f"chain_prev, chain_hash FROM {table} WHERE rowid > ? "
                    "ORDER BY rowid LIMIT ?",
                    (after, READ_BATCH),
                )
                batch = c.fetchall()
            if not batch:
                return
            for r in batch:
                yield chain_row(*r)
            after = batch[-1][0]

    def chain_head(self) -> tuple[int, bytes, int]:
        """(last notification id, its hash, number of events); (0, GENESIS, 0) if empty."""
        table = self.events_table_name
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT rowid, chain_hash FROM {table} ORDER BY rowid DESC LIMIT 1")
            head = c.fetchone()
            c.execute(f"SELECT COUNT(*) FROM {table}")
            count = c.fetchone()[0]
        return (head[0], bytes(head[1]), count) if head else (0, GENESIS, 0)

    def write_checkpoint(self, checkpoint: Checkpoint) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                "INSERT OR IGNORE INTO chain_checkpoints VALUES (?,?,?,?,?)",
                (
                    checkpoint.notification_id,
                    checkpoint.chain_hash,
                    checkpoint.event_count,
                    checkpoint.signature,
                    checkpoint.key_id,
                ),
            )

    def checkpoints(self) -> list[Checkpoint]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                "SELECT notification_id, chain_hash, event_count, signature, key_id "
                "FROM chain_checkpoints"
            )
            return [Checkpoint(r[0], bytes(r[1]), r[2], bytes(r[3]), r[4]) for r in c.fetchall()]

    def states_of(self, originator_ids: Sequence[str], first_version: int) -> list[Any]:
        """(originator hex, version, state) of these originators' events from
        ``first_version`` on, in (originator, version) order: many subjects, few queries."""
        return self._of_originators(
            "originator_id, originator_version, state",
            originator_ids,
            "AND originator_version >= ? ORDER BY originator_id, originator_version",
            [first_version],
        )

    def existing_versions(self, originator_ids: Sequence[str]) -> set[tuple[str, int]]:
        """Which (originator hex, version) pairs of these originators are already stored."""
        rows = self._of_originators("originator_id, originator_version", originator_ids, "", [])
        return {(r[0], r[1]) for r in rows}

    def _of_originators(
        self, columns: str, originator_ids: Sequence[str], rest: str, params: list[Any]
    ) -> list[Any]:
        """``SELECT columns`` of the rows of these originators (500 per query) ``rest``."""
        rows: list[Any] = []
        table = self.events_table_name
        with self.datastore.transaction(commit=False) as c:
            for start in range(0, len(originator_ids), 500):
                chunk = list(originator_ids[start : start + 500])
                marks = ",".join("?" * len(chunk))
                c.execute(
                    f"SELECT {columns} FROM {table} WHERE originator_id IN ({marks}) {rest}",
                    [*chunk, *params],
                )
                rows.extend(c.fetchall())
        return rows
