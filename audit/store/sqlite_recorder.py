"""eventsourcing's SQLite application recorder, extended with the hash chains.

The events table gains ``chain_prev``, ``chain_hash``, ``chain_shard`` (one chain per
shard, ``audit.store.shards``) and ``chain_form`` (how the chain hash was made,
``audit.store.chain``); the columns and the shard index are added to an older store's
table when it is opened for writing, its rows all on the main chain and in the legacy
form (the column's default); triggers refuse UPDATE and
DELETE (append-only); a checkpoints table records the chain head after each ingest,
with the Merkle tree root of the events up to it (columns added to older stores' tables
when their tables are set up, or at the first checkpoint written).
Batches are inserted in one transaction (``executemany``), never one commit per event.
That transaction starts with ``BEGIN IMMEDIATE``: it holds the write lock before it reads
the chain head, so writers in other processes (parallel nightly shards, mapped DAG tasks)
wait their turn instead of linking two batches to the same head (SQLite has one writer
at a time whatever the shards; shards let PostgreSQL's writers run side by side).
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Iterator, Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor, SQLiteTransaction

from audit.store.chain import (
    GENESIS,
    LEGACY_FORM,
    ChainRow,
    Checkpoint,
    chain_links,
    chain_row,
    originator_hex,
    tree_head_row,
)
from audit.store.checkpoint_reads import CheckpointReads, checkpoint_row
from audit.store.packed_reads import PackedReads, appended_later, overlap, versions_held
from audit.store.packing import HEADER_SQL, expand
from audit.store.retention import RetentionRecord
from audit.store.shards import MAIN_SHARD, ShardHead

READ_BATCH = 5000
# Columns of a checkpoint as a signed tree head (absent from stores made before).
TREE_COLUMNS = (("tree_root", "BLOB"), ("tree_frontier", "BLOB"), ("head_time", "INTEGER"))


def _column_names(c: SQLiteCursor, table: str) -> set[str]:
    """The columns a table has (none when it does not exist)."""
    c.execute(f"PRAGMA table_info({table})")
    return {r[1] for r in c.fetchall()}


LOCKED_ATTEMPTS = 4
"""How many times a write transaction asks for SQLite's write lock, each waiting up to
the lock timeout (``SQLITE_LOCK_TIMEOUT``), before "database is locked" is an error."""


class _ImmediateTransaction(SQLiteTransaction):
    """A transaction that takes SQLite's write lock at BEGIN (waiting up to the lock
    timeout), so nothing can commit between its reads and its writes: it never holds a
    read snapshot it would have to upgrade (a deferred transaction that read, then
    writes after another writer committed, gets SQLITE_BUSY at once, busy timeout or
    not). SQLite's busy handler polls (sleeps up to 100 ms between tries) rather than
    queueing, so under a loaded CPU a writer can keep missing the short gaps between
    other writers' transactions: when the lock timeout runs out, BEGIN is asked again,
    up to ``LOCKED_ATTEMPTS`` times, before the error stands."""

    def __enter__(self) -> SQLiteCursor:
        cursor = self.connection.cursor()
        for _ in range(LOCKED_ATTEMPTS - 1):
            try:
                cursor.execute("BEGIN IMMEDIATE")
                return cursor
            except sqlite3.OperationalError as error:
                if "locked" not in str(error):
                    raise
                time.sleep(random.uniform(0, 0.05))  # the waiting writers spread out
        cursor.execute("BEGIN IMMEDIATE")  # the last try: its error stands
        return cursor


class ChainedSQLiteApplicationRecorder(PackedReads, CheckpointReads, SQLiteApplicationRecorder):
    """Application recorder whose rows form a hash chain in rowid order."""

    def construct_create_table_statements(self) -> list[str]:
        table = self.events_table_name
        return [
            f"CREATE TABLE IF NOT EXISTS {table} ("
            "originator_id TEXT NOT NULL, originator_version INTEGER NOT NULL, "
            "topic TEXT NOT NULL, state BLOB NOT NULL, "
            "chain_prev BLOB NOT NULL, chain_hash BLOB NOT NULL, "
            f"chain_shard TEXT NOT NULL DEFAULT '{MAIN_SHARD}', "
            f"chain_form INTEGER NOT NULL DEFAULT {LEGACY_FORM}, "
            "PRIMARY KEY (originator_id, originator_version))",
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_update BEFORE UPDATE ON {table} "
            "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END",
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_delete BEFORE DELETE ON {table} "
            "BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END",
            "CREATE TABLE IF NOT EXISTS chain_checkpoints ("
            "notification_id INTEGER PRIMARY KEY, chain_hash BLOB NOT NULL, "
            "event_count INTEGER NOT NULL, signature BLOB NOT NULL, key_id TEXT NOT NULL, "
            "tree_root BLOB, tree_frontier BLOB, head_time INTEGER, shard_heads BLOB)",
            "CREATE TRIGGER IF NOT EXISTS chain_checkpoints_no_update BEFORE UPDATE ON "
            "chain_checkpoints BEGIN SELECT RAISE(ABORT, 'checkpoints are append-only'); END",
            "CREATE TRIGGER IF NOT EXISTS chain_checkpoints_no_delete BEFORE DELETE ON "
            "chain_checkpoints BEGIN SELECT RAISE(ABORT, 'checkpoints are append-only'); END",
        ]

    def _create_table(self, c: SQLiteCursor) -> None:
        super()._create_table(c)
        self._add_tree_columns(c)
        self._add_shard_columns(c)

    _tree_columns = False  # known present (checked once per recorder)
    _sharded: bool | None = None  # whether the store has chain shards (checked once)
    _formed = False  # whether its rows have the chain form column (checked with shards)
    chain_shard = MAIN_SHARD  # the shard this recorder appends to (set by the store)

    def _add_shard_columns(self, c: SQLiteCursor) -> None:
        """Give a store made before chain shards its shard column (every row it holds on
        the main chain), the chain form column (every row it holds in the legacy form), the
        index that finds a shard's head, and the checkpoints' shard heads."""
        table = self.events_table_name
        have = _column_names(c, table)
        if "chain_shard" not in have:
            c.execute(
                f"ALTER TABLE {table} ADD COLUMN chain_shard TEXT NOT NULL DEFAULT '{MAIN_SHARD}'"
            )
        if "chain_form" not in have:
            c.execute(
                f"ALTER TABLE {table} ADD COLUMN chain_form INTEGER NOT NULL DEFAULT {LEGACY_FORM}"
            )
        c.execute(f"CREATE INDEX IF NOT EXISTS {table}_shard ON {table} (chain_shard)")
        if "shard_heads" not in _column_names(c, "chain_checkpoints"):
            c.execute("ALTER TABLE chain_checkpoints ADD COLUMN shard_heads BLOB")

    def is_sharded(self) -> bool:
        if self._sharded is None:
            with self.datastore.transaction(commit=False) as c:
                events = _column_names(c, self.events_table_name)
                checkpoints = _column_names(c, "chain_checkpoints")
            self._sharded = "chain_shard" in events and "shard_heads" in checkpoints
            self._formed = self._sharded and "chain_form" in events
        return self._sharded

    def is_formed(self) -> bool:
        return self.is_sharded() and self._formed

    def _add_tree_columns(self, c: SQLiteCursor) -> None:
        """Give a checkpoints table made before the Merkle tree its tree-head columns."""
        have = _column_names(c, "chain_checkpoints")
        for name, kind in TREE_COLUMNS:
            if have and name not in have:
                c.execute(f"ALTER TABLE chain_checkpoints ADD COLUMN {name} {kind}")

    def _has_tree_columns(self, *, add: bool = False) -> bool:
        if not self._tree_columns:
            with self.datastore.transaction(commit=add) as c:
                if add:
                    self._add_tree_columns(c)
                have = _column_names(c, "chain_checkpoints")
            self._tree_columns = all(name in have for name, _ in TREE_COLUMNS)
        return self._tree_columns

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        with (
            self.datastore.get_connection(commit=True) as connection,
            _ImmediateTransaction(connection, commit=True) as c,
            c,  # closes the cursor, as eventsourcing's own transactions do
        ):
            return self._insert_events(c, stored_events, **kwargs)

    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **_: Any
    ) -> Sequence[int] | None:
        table = self.events_table_name
        later = appended_later(stored_events)
        if later:  # under the write lock: what another writer stored since is seen
            clash = overlap(stored_events, self._versions_held(c, later))
            if clash:
                raise IntegrityError(clash)
        c.execute(f"SELECT max(rowid) FROM {table}")
        last_id = c.fetchone()[0] or 0
        shard: str | None = self.chain_shard if self.is_sharded() else None
        if shard is None:
            c.execute(f"SELECT chain_hash FROM {table} ORDER BY rowid DESC LIMIT 1")
        else:
            c.execute(
                f"SELECT chain_hash FROM {table} WHERE chain_shard = ? ORDER BY rowid DESC LIMIT 1",
                (shard,),
            )
        head = c.fetchone()
        formed = self.is_formed()
        rows = chain_links(
            head[0] if head else GENESIS,
            (
                (originator_hex(s.originator_id), s.originator_version, s.topic, s.state)
                for s in stored_events
            ),
            shard,
            formed=formed,
        )
        columns = "originator_id, originator_version, topic, state, chain_prev, chain_hash"
        marks = "?,?,?,?,?,?"
        if shard is not None:
            columns, marks = columns + ", chain_shard", marks + ",?"
        if formed:
            columns, marks = columns + ", chain_form", marks + ",?"
        c.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
        return list(range(last_id + 1, last_id + 1 + len(stored_events)))

    # -- chain access (used by audit.store.application) ---------------------------------

    def iter_chain_rows(self, upto: int | None = None) -> Iterator[ChainRow]:
        """Every row in global order (up to notification ``upto``), streamed in batches."""
        table = self.events_table_name
        shard = "chain_shard" if self.is_sharded() else "''"
        form = "chain_form" if self.is_formed() else str(LEGACY_FORM)
        after, last = 0, upto if upto is not None else 2**63 - 1
        while True:
            with self.datastore.transaction(commit=False) as c:
                c.execute(
                    f"SELECT rowid, originator_id, originator_version, topic, state, "
                    f"chain_prev, chain_hash, {shard}, {form} FROM {table} WHERE rowid > ? "
                    "AND rowid <= ? ORDER BY rowid LIMIT ?",
                    (after, last, READ_BATCH),
                )
                batch = c.fetchall()
            if not batch:
                return
            for r in batch:
                yield chain_row(*r)
            after = batch[-1][0]

    def settled_head(self) -> int:
        """The last notification id every event up to which is committed (SQLite commits
        one writer at a time, in rowid order: the last one)."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT max(rowid) FROM {self.events_table_name}")
            return int(c.fetchone()[0] or 0)

    def shard_heads_between(self, after: int, upto: int) -> list[ShardHead]:
        """The last event (id, hash) of each shard written after notification ``after``
        up to ``upto``."""
        if not self.is_sharded():
            return []
        table = self.events_table_name
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT chain_shard, rowid, chain_hash FROM {table} WHERE rowid IN ("
                f"SELECT max(rowid) FROM {table} WHERE rowid > ? AND rowid <= ? "
                "GROUP BY chain_shard)",
                (after, upto),
            )
            return [ShardHead(str(r[0]), int(r[1]), bytes(r[2])) for r in c.fetchall()]

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
        """Record a checkpoint (nothing when one is already recorded at its notification
        id); adds the tree-head columns to an older store's table first."""
        self._has_tree_columns(add=True)
        columns, values = checkpoint_row(checkpoint, sharded=self.is_sharded())
        marks = ",".join("?" * len(values))
        with (
            self.datastore.get_connection(commit=True) as connection,
            _ImmediateTransaction(connection, commit=True) as c,
            c,
        ):
            c.execute(
                f"INSERT OR IGNORE INTO chain_checkpoints ({columns}) VALUES ({marks})", values
            )

    def _select_checkpoints(self, query: str, params: tuple[object, ...] = ()) -> list[Checkpoint]:
        sql = query.format(cp="chain_checkpoints").replace("%s", "?")
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql, params)
            return [tree_head_row(*r) for r in c.fetchall()]

    def iter_chain_hashes(self, after: int, upto: int) -> Iterator[bytes]:
        """The stored chain hashes of the events after notification ``after`` up to
        ``upto``, in order, streamed (the leaves a checkpoint adds to the tree)."""
        table = self.events_table_name
        while True:
            with self.datastore.transaction(commit=False) as c:
                c.execute(
                    f"SELECT rowid, chain_hash FROM {table} WHERE rowid > ? AND rowid <= ? "
                    "ORDER BY rowid LIMIT ?",
                    (after, upto, READ_BATCH * 4),
                )
                batch = c.fetchall()
            if not batch:
                return
            for r in batch:
                yield bytes(r[1])
            after = batch[-1][0]

    def states_of(
        self, originator_ids: Sequence[str], first_version: int, rows_from: int = 1
    ) -> list[Any]:
        """(originator hex, version, state) of these originators' events from
        ``first_version`` on, in (originator, version) order, in the rows starting at
        version ``rows_from`` or later: many subjects, few queries (a packed row's events
        each, ``audit.store.packing``)."""
        rows = self._of_originators(
            "originator_id, originator_version, topic, state",
            originator_ids,
            "AND originator_version >= ? ORDER BY originator_id, originator_version",
            [rows_from],
        )
        return [
            (r[0], version, state)
            for r in rows
            for version, _, state in expand(r[0], r[1], r[2], r[3])
            if version >= first_version
        ]

    def retired_subjects(self, originator_ids: Sequence[str]) -> dict[str, RetentionRecord]:
        """None: retention is PostgreSQL's (``audit.store.partitions``)."""
        return {}

    def existing_versions(self, originator_ids: Sequence[str]) -> set[tuple[str, int]]:
        """Which (originator hex, version) pairs of these originators are already stored."""
        with self.datastore.transaction(commit=False) as c:
            return self._versions_held(c, originator_ids)

    def _versions_held(
        self, c: SQLiteCursor, originator_ids: Sequence[str]
    ) -> set[tuple[str, int]]:
        columns = f"originator_id, originator_version, topic, {HEADER_SQL['sqlite']}"
        return versions_held(self._of_originators(columns, originator_ids, "", [], c))

    def _of_originators(
        self,
        columns: str,
        originator_ids: Sequence[str],
        rest: str,
        params: list[Any],
        cursor: SQLiteCursor | None = None,
    ) -> list[Any]:
        """``SELECT columns`` of the rows of these originators (500 per query) ``rest``
        (in ``cursor``'s transaction when given)."""
        if cursor is None:
            with self.datastore.transaction(commit=False) as c:
                return self._of_originators(columns, originator_ids, rest, params, c)
        rows: list[Any] = []
        table = self.events_table_name
        for start in range(0, len(originator_ids), 500):
            chunk = list(originator_ids[start : start + 500])
            marks = ",".join("?" * len(chunk))
            cursor.execute(
                f"SELECT {columns} FROM {table} WHERE originator_id IN ({marks}) {rest}",
                [*chunk, *params],
            )
            rows.extend(cursor.fetchall())
        return rows
