"""eventsourcing's PostgreSQL application recorder, extended with the hash chains.

Batches go in with one ``COPY`` per transaction, one writer per chain shard at a time
(``audit.store.shards``; transaction advisory locks, see ``_append_lock``): writers of
different shards append side by side, so notification ids are not in commit order across
shards, and whatever needs a settled prefix of the global order (a checkpoint's head,
``verify``, the console's head) waits for the writers in flight (``settled_head``).
The database itself refuses
UPDATE, DELETE and TRUNCATE on the events and checkpoint tables (triggers; the tables and
their statements are ``audit.store.postgres_schema``'s). Checkpoints
carry the Merkle tree root of the events up to them (columns added to older stores'
tables when their tables are set up, or at the first checkpoint written).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg import Cursor
from psycopg.errors import CheckViolation
from psycopg.rows import DictRow, tuple_row
from psycopg.sql import SQL, Identifier, Literal

from audit.store.chain import (
    GENESIS,
    LEGACY_FORM,
    ChainRow,
    Checkpoint,
    chain_links,
    chain_row,
    heads_at,
    originator_hex,
    tree_head_row,
)
from audit.store.checkpoint_reads import CheckpointReads, checkpoint_row
from audit.store.packed_reads import PackedReads, appended_later, overlap, versions_held
from audit.store.packing import HEADER_SQL, expand
from audit.store.partitions import NoPartition
from audit.store.postgres_schema import TableNames, events_table, store_tables, tree_columns
from audit.store.retention import RETENTION_COLUMNS, RetentionRecord
from audit.store.shards import MAIN_SHARD, ShardHead

READ_BATCH = 5000
SUBJECT_LOCK_BUCKETS = 128
"""How many advisory locks at most a batch extending stored subjects takes: subjects
hash into this many buckets (a power of two); two writers of subjects in one bucket queue,
which only batches that extend subjects already stored ever do."""


def _only_row(curs: Cursor[DictRow]) -> DictRow:
    """The row of a query that always returns one (an aggregate, or a settled id's row)."""
    row = curs.fetchone()
    assert row is not None, "the query returned no row"
    return row


class ChainedPostgresApplicationRecorder(PackedReads, CheckpointReads, PostgresApplicationRecorder):
    """Application recorder whose rows form a hash chain in notification order."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        schema = Identifier(self.datastore.schema)
        table = Identifier(self.events_table_name)
        names = TableNames.of(self.datastore.schema, self.events_table_name)
        self.checkpoints_table = Identifier(names.checkpoints)
        self.retention_table = Identifier(names.retention)
        self.retired_table = Identifier(names.retired)
        self.signatures_table = Identifier(names.signatures)
        self.sql_create_statements[self.create_table_statement_index] = events_table(
            names, self.datastore.originator_id_type
        )
        self._add_tree_columns = tree_columns(names)
        self.sql_create_statements += store_tables(names)
        self._tree_columns = False  # known present (checked once per recorder)
        self._sharded: bool | None = None  # whether the store has chain shards
        self._formed = False  # whether its rows have the chain form column (with shards)
        self._partitioned: bool | None = None  # whether the events table is partitioned
        self.chain_shard = MAIN_SHARD  # the shard this recorder appends to (set by the store)
        self._table = SQL("{schema}.{table}").format(schema=schema, table=table)
        self._checkpoints = SQL("{schema}.{cp}").format(schema=schema, cp=self.checkpoints_table)
        self._retention = SQL("{schema}.{r}").format(schema=schema, r=self.retention_table)
        self._retired = SQL("{schema}.{r}").format(schema=schema, r=self.retired_table)
        self._signatures = SQL("{schema}.{r}").format(schema=schema, r=self.signatures_table)
        self._has_retired: bool | None = None  # whether the store has the retired table
        self._append_key = Literal(
            f"casino-audit append {self.datastore.schema}.{self.events_table_name}"
        )
        self._subject_key = Literal(
            f"casino-audit subject {self.datastore.schema}.{self.events_table_name}"
        )

    def _lock_for_append(self, curs: Any, shard: str | None) -> None:
        """What ``insert_events`` takes before it reads its shard's head, instead of
        eventsourcing's ``LOCK TABLE … IN EXCLUSIVE MODE``, which PostgreSQL grants only
        to a role with UPDATE, DELETE or TRUNCATE on the table: the least-privilege
        writer (``casino-audit db grant --writer``) has none of them.

        The store's append lock (a transaction advisory lock per events table) is taken
        *shared*, and the shard's own advisory lock exclusively: writers of one shard
        queue (no two batches link to the same head), writers of different shards run
        side by side, and ``settled_head``, which takes the append lock exclusively,
        waits for every writer in flight. A store without shards (``shard`` None) takes
        the append lock exclusively, as before shards. ``ROW EXCLUSIVE``, which INSERT
        alone allows, conflicts with the EXCLUSIVE lock older versions of this recorder
        take, so a writer still running one is waited for too. All end with the
        transaction; each waits at most ``POSTGRES_LOCK_TIMEOUT`` seconds, as before."""
        if shard is None:
            self._settle(curs)
        else:
            curs.execute(SQL("SET LOCAL lock_timeout = '{0}s'").format(self.datastore.lock_timeout))
            curs.execute(
                SQL(
                    "SELECT pg_advisory_xact_lock_shared(hashtext({key})), "
                    "pg_advisory_xact_lock(hashtext({key}), hashtext(%s))"
                ).format(key=self._append_key),
                (shard,),
            )
        curs.execute(SQL("LOCK TABLE {t} IN ROW EXCLUSIVE MODE").format(t=self._table))

    def _refuse_stored_since(self, curs: Any, stored_events: Sequence[StoredEvent]) -> None:
        """Raise ``IntegrityError`` (``AuditStore.append`` reads and plans again) when
        another writer stored one of the batch's versions since the batch was planned.

        A row at version 1 opens its subject and the primary key refuses a second one
        (not on a partitioned table, whose key holds the notification id: there every
        row's subject is read again); a later row may start at another version than a
        racing writer's and still overlap it (packed rows, ``audit.store.packing``): for
        those subjects a transaction advisory lock per bucket of subjects (``SUBJECT_LOCK_BUCKETS``,
        so that a batch extending thousands of subjects holds a bounded number of
        PostgreSQL's shared lock slots), taken in bucket order (two writers never wait on
        each other crosswise), then their stored versions read again under it. Writers of
        one shard already queue on the shard's lock; the subject locks order writers of
        different shards."""
        later = appended_later(stored_events, keyless=self._is_partitioned(curs))
        if not later:
            return
        curs.execute(
            SQL(
                "SELECT count(pg_advisory_xact_lock(hashtext({key}), bucket)) FROM ("
                "SELECT DISTINCT hashtext(id) & {mask} AS bucket "
                "FROM unnest(%s::text[]) AS id ORDER BY 1) AS buckets"
            ).format(key=self._subject_key, mask=Literal(SUBJECT_LOCK_BUCKETS - 1)),
            (later,),
        )
        clash = overlap(stored_events, self._versions_held(later, curs))
        if clash:
            raise IntegrityError(clash)

    def _settle(self, curs: Any) -> None:
        """Wait for the writers in flight and keep new ones out until the transaction
        ends: every notification id allocated so far is then committed (or rolled back,
        a gap for ever), and every later one will be larger."""
        curs.execute(SQL("SET LOCAL lock_timeout = '{0}s'").format(self.datastore.lock_timeout))
        curs.execute(
            SQL("SELECT pg_advisory_xact_lock(hashtext({key}))").format(key=self._append_key)
        )

    def is_sharded(self) -> bool:
        if self._sharded is None:
            with self.datastore.transaction(commit=False) as curs:
                curs.execute(
                    "SELECT column_name FROM information_schema.columns "
                    "WHERE table_schema = %s AND ((table_name = %s AND column_name IN "
                    "('chain_shard', 'chain_form')) OR (table_name = %s AND column_name = "
                    "'shard_heads'))",
                    (
                        self.datastore.schema,
                        self.events_table_name,
                        f"{self.events_table_name}_checkpoints",
                    ),
                )
                have = {r["column_name"] for r in curs.fetchall()}
            self._sharded = {"chain_shard", "shard_heads"} <= have
            self._formed = self._sharded and "chain_form" in have
        return self._sharded

    def is_formed(self) -> bool:
        return self.is_sharded() and self._formed

    def insert_events(self, stored_events: Sequence[StoredEvent], **_: Any) -> Sequence[int] | None:
        """Insert a batch with one COPY, chained to its shard's head, in one transaction."""
        if not stored_events:
            return []
        shard: str | None = self.chain_shard if self.is_sharded() else None
        where = SQL("") if shard is None else SQL("WHERE chain_shard = %s ")
        params = () if shard is None else (shard,)
        with self.datastore.transaction(commit=True) as curs:
            self._lock_for_append(curs, shard)
            self._refuse_stored_since(curs, stored_events)
            curs.execute(
                SQL(
                    "SELECT notification_id, chain_hash FROM {t} {where}"
                    "ORDER BY notification_id DESC LIMIT 1"
                ).format(t=self._table, where=where),
                params,
            )
            head = curs.fetchone()
            last_id, prev = (
                (head["notification_id"], bytes(head["chain_hash"]))
                if head
                else self._retired_head(curs, shard)
            )
            formed = self.is_formed()
            rows = chain_links(
                prev,
                (
                    (originator_hex(s.originator_id), s.originator_version, s.topic, s.state)
                    for s in stored_events
                ),
                shard,
                formed=formed,
            )
            columns = "originator_id, originator_version, topic, state, chain_prev, chain_hash"
            if shard is not None:
                columns += ", chain_shard"
            if formed:
                columns += ", chain_form"
            copy_sql = SQL("COPY {t} ({columns}) FROM STDIN").format(
                t=self._table, columns=SQL(columns)
            )
            try:
                with curs.copy(copy_sql) as copy:
                    for row in rows:
                        copy.write_row(row)
            except CheckViolation as error:
                if "no partition" not in str(error):
                    raise
                raise NoPartition(
                    f"no partition of the events table {self.datastore.schema}."
                    f"{self.events_table_name} takes the next notification id: the store "
                    "is partitioned and its sequence points past the last partition (the "
                    "owner's casino-audit retention cut makes the next one)"
                ) from None
            and_shard = SQL("") if shard is None else SQL("AND chain_shard = %s ")
            curs.execute(
                SQL(
                    "SELECT notification_id FROM {t} WHERE notification_id > %s {and_shard}"
                    "ORDER BY notification_id"
                ).format(t=self._table, and_shard=and_shard),
                (last_id, *params),
            )
            ids = [r["notification_id"] for r in curs.fetchall()]
            self._notify_channel(curs)
        return ids

    def _is_partitioned(self, curs: Any) -> bool:
        """Whether the events table is partitioned (``audit.store.partitions``): its
        primary key then holds the notification id and refuses no version stored twice.
        Asked once per recorder (a store is partitioned when it is made, or never)."""
        if self._partitioned is None:
            curs.execute(
                "SELECT c.relkind = 'p' AS p FROM pg_class c JOIN pg_namespace n "
                "ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relname = %s",
                (self.datastore.schema, self.events_table_name),
            )
            found = curs.fetchone()
            self._partitioned = bool(found and found["p"])
        return self._partitioned

    def _retired_head(self, curs: Any, shard: str | None) -> tuple[int, bytes]:
        """The head of a shard none of whose rows is in the table: (0, GENESIS) unless its
        rows were retired (``audit.store.retention``), then its head at the latest
        retention record's checkpoint, the latest over every checkpoint up to it (a
        checkpoint names only the shards written since the one before)."""
        if shard is None or not self._has_retention(curs):
            return 0, GENESIS
        curs.execute(SQL("SELECT max(checkpoint_id) AS n FROM {r}").format(r=self._retention))
        upto = _only_row(curs)["n"]
        if upto is None:
            return 0, GENESIS
        curs.execute(
            SQL(
                "SELECT notification_id, chain_hash, event_count, signature, key_id, "
                "NULL AS tree_root, NULL AS head_time, NULL AS tree_frontier, shard_heads "
                "FROM {cp} WHERE notification_id <= %s"
            ).format(cp=self._checkpoints),
            (upto,),
        )
        checkpoints = [tree_head_row(*r.values()) for r in curs.fetchall()]
        return heads_at(checkpoints, upto).get(shard, (0, GENESIS))

    def _has_retention(self, curs: Any) -> bool:
        """Whether the store has the retention table (stores made before it lack it)."""
        return self._has_table(curs, "_retention")

    def _has_table(self, curs: Any, suffix: str) -> bool:
        """Whether the store has the events table's ``suffix`` table (the retention
        tables: stores made before them lack them)."""
        curs.execute(
            "SELECT count(*) AS n FROM information_schema.tables "
            "WHERE table_schema = %s AND table_name = %s",
            (self.datastore.schema, f"{self.events_table_name}{suffix}"),
        )
        return bool(_only_row(curs)["n"])

    def retention_records(self) -> list[RetentionRecord]:
        """Every retention record (``audit.store.retention``), oldest first, each with
        its signature (``audit.store.retention_trust``; empty when it has none, or on a
        store made before the signatures' table)."""
        with self.datastore.transaction(commit=False) as curs:
            if not self._has_retention(curs):
                return []
            signed = self._has_table(curs, "_retention_signatures")
            curs.execute(
                SQL(
                    "SELECT {columns}, {signature} FROM {r} AS t {join} ORDER BY t.checkpoint_id"
                ).format(
                    columns=SQL(", ").join(
                        SQL("t.") + Identifier(c) for c in RETENTION_COLUMNS.split(", ")
                    ),
                    signature=SQL(
                        "coalesce(g.signature, ''::bytea) AS signature, "
                        "coalesce(g.key_id, '') AS key_id"
                        if signed
                        else "''::bytea AS signature, '' AS key_id"
                    ),
                    r=self._retention,
                    join=SQL("LEFT JOIN {g} AS g ON g.checkpoint_id = t.checkpoint_id").format(
                        g=self._signatures
                    )
                    if signed
                    else SQL(""),
                )
            )
            return [RetentionRecord(*r.values()) for r in curs.fetchall()]

    def retired_subjects(self, originator_ids: Sequence[str]) -> dict[str, RetentionRecord]:
        """Which of these originators (hex) a retention retired, each with its record
        (``audit.store.retention``): one query on the retired table's primary key; none
        on a store made before that table."""
        if not originator_ids:
            return {}
        with self.datastore.transaction(commit=False) as curs:
            if self._has_retired is None:
                self._has_retired = self._has_table(curs, "_retired")
            if not self._has_retired:
                return {}
            curs.execute(
                SQL(
                    "SELECT w.n, {columns} FROM unnest(%s::uuid[]) WITH ORDINALITY AS w(id, n) "
                    "JOIN {retired} AS d ON d.originator_id = w.id "
                    "JOIN {r} AS t ON t.checkpoint_id = d.checkpoint_id"
                ).format(
                    columns=SQL(", ").join(
                        SQL("t.") + Identifier(c) for c in RETENTION_COLUMNS.split(", ")
                    ),
                    retired=self._retired,
                    r=self._retention,
                ),
                (list(originator_ids),),
            )
            return {
                originator_ids[n - 1]: RetentionRecord(*rest)
                for n, *rest in (tuple(r.values()) for r in curs.fetchall())
            }

    # -- chain access (used by audit.store.application) ---------------------------------

    def iter_chain_rows(self, upto: int | None = None) -> Iterator[ChainRow]:
        """Every row in global order (up to notification ``upto``), streamed in batches."""
        after, last = 0, upto if upto is not None else 2**63 - 1
        query = SQL(
            "SELECT notification_id, originator_id, originator_version, topic, state, "
            "chain_prev, chain_hash, {shard}, {form} FROM {t} WHERE notification_id > %s "
            "AND notification_id <= %s ORDER BY notification_id LIMIT %s"
        ).format(
            t=self._table,
            shard=SQL("chain_shard" if self.is_sharded() else "''"),
            form=SQL("chain_form" if self.is_formed() else str(LEGACY_FORM)),
        )
        while True:
            with self.datastore.transaction(commit=False) as curs:
                curs.execute(query, (after, last, READ_BATCH))
                batch = curs.fetchall()
            if not batch:
                return
            for r in batch:
                yield chain_row(*r.values())
            after = batch[-1]["notification_id"]

    def _max_id(self, curs: Cursor[DictRow]) -> int:
        curs.execute(SQL("SELECT max(notification_id) AS n FROM {t}").format(t=self._table))
        return int(_only_row(curs)["n"] or 0)

    def settled_head(self) -> int:
        """The last notification id every event up to which is committed: the writers in
        flight (other shards' ids interleave with theirs) are waited for."""
        with self.datastore.transaction(commit=False) as curs:
            self._settle(curs)
            return self._max_id(curs)

    def max_notification_id(self) -> int | None:
        """eventsourcing's head of the notification log, settled (``settled_head``), so
        that a reader that follows the log never passes an id still being written."""
        return self.settled_head() or None

    def chain_head(self) -> tuple[int, bytes, int]:
        """(last notification id, its hash, number of events) of the settled store;
        (0, GENESIS, 0) if empty."""
        with self.datastore.transaction(commit=False) as curs:
            self._settle(curs)
            head_id = self._max_id(curs)
            if not head_id:
                return 0, GENESIS, 0
            curs.execute(
                SQL("SELECT chain_hash FROM {t} WHERE notification_id = %s").format(t=self._table),
                (head_id,),
            )
            head_hash = bytes(_only_row(curs)["chain_hash"])
            # Counted from the last checkpoint on (ids are settled up to the head), not
            # over the whole table every time.
            curs.execute(
                SQL(
                    "SELECT notification_id, event_count FROM {cp} "
                    "ORDER BY notification_id DESC LIMIT 1"
                ).format(cp=self._checkpoints)
            )
            last = curs.fetchone() or {"notification_id": 0, "event_count": 0}
            curs.execute(
                SQL("SELECT COUNT(*) AS n FROM {t} WHERE notification_id > %s").format(
                    t=self._table
                ),
                (last["notification_id"],),
            )
            count = last["event_count"] + _only_row(curs)["n"]
        return head_id, head_hash, count

    def shard_heads_between(self, after: int, upto: int) -> list[ShardHead]:
        """The last event (id, hash) of each shard written after notification ``after``
        up to ``upto``."""
        if not self.is_sharded():
            return []
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL(
                    "SELECT chain_shard, notification_id, chain_hash FROM {t} "
                    "WHERE notification_id IN (SELECT max(notification_id) FROM {t} "
                    "WHERE notification_id > %s AND notification_id <= %s GROUP BY chain_shard)"
                ).format(t=self._table),
                (after, upto),
            )
            return [
                ShardHead(r["chain_shard"], r["notification_id"], bytes(r["chain_hash"]))
                for r in curs.fetchall()
            ]

    def _has_tree_columns(self, *, add: bool = False) -> bool:
        if not self._tree_columns:
            with self.datastore.transaction(commit=add) as curs:
                if add:
                    curs.execute(self._add_tree_columns, prepare=False)
                curs.execute(
                    "SELECT count(*) AS n FROM information_schema.columns "
                    "WHERE table_schema = %s AND table_name = %s "
                    "AND column_name IN ('tree_root', 'tree_frontier', 'head_time')",
                    (self.datastore.schema, f"{self.events_table_name}_checkpoints"),
                )
                self._tree_columns = _only_row(curs)["n"] == 3
        return self._tree_columns

    def write_checkpoint(self, checkpoint: Checkpoint) -> None:
        """Record a checkpoint (nothing when one is already recorded at its notification
        id); adds the tree-head columns to an older store's table first."""
        self._has_tree_columns(add=True)
        columns, values = checkpoint_row(checkpoint, sharded=self.is_sharded())
        marks = SQL(", ").join([SQL("%s")] * len(values))
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                SQL("INSERT INTO {cp} ({columns}) VALUES ({marks}) ON CONFLICT DO NOTHING").format(
                    cp=self._checkpoints, columns=SQL(columns), marks=marks
                ),
                values,
            )

    def _select_checkpoints(self, query: str, params: tuple[object, ...] = ()) -> list[Checkpoint]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL(query).format(cp=self._checkpoints), params)
            return [tree_head_row(*r.values()) for r in curs.fetchall()]

    def iter_chain_hashes(self, after: int, upto: int) -> Iterator[bytes]:
        """The stored chain hashes of the events after notification ``after`` up to
        ``upto``, in order, streamed (the leaves a checkpoint adds to the tree)."""
        query = SQL(
            "SELECT notification_id, chain_hash FROM {t} WHERE notification_id > %s "
            "AND notification_id <= %s ORDER BY notification_id LIMIT %s"
        ).format(t=self._table)
        while True:
            with self.datastore.transaction(commit=False) as curs:
                curs.execute(query, (after, upto, READ_BATCH * 4))
                batch = curs.fetchall()
            if not batch:
                return
            for r in batch:
                yield bytes(r["chain_hash"])
            after = batch[-1]["notification_id"]

    def states_of(
        self, originator_ids: Sequence[str], first_version: int, rows_from: int = 1
    ) -> list[Any]:
        """(originator hex, version, state) of these originators' events from
        ``first_version`` on, each originator's in version order, in the rows starting at
        version ``rows_from`` or later: many subjects, one query (a packed row's events
        each, ``audit.store.packing``)."""
        rows = self._of_originators(
            "originator_version, topic, state",
            originator_ids,
            "AND originator_version >= %s",
            [rows_from],
        )
        return [
            (key, version, state)
            for n, first, topic, stored in rows
            for key in (originator_ids[n - 1],)
            for version, _, state in expand(key, first, topic, stored)
            if version >= first_version
        ]

    def existing_versions(self, originator_ids: Sequence[str]) -> set[tuple[str, int]]:
        """Which (originator hex, version) pairs of these originators are already stored."""
        return self._versions_held(originator_ids)

    def _versions_held(
        self, originator_ids: Sequence[str], curs: Any = None
    ) -> set[tuple[str, int]]:
        columns = f"originator_version, topic, {HEADER_SQL['postgresql']} AS head"
        rows = self._of_originators(columns, originator_ids, "", [], curs)
        return versions_held([(originator_ids[n - 1], *rest) for n, *rest in rows])

    def _of_originators(
        self,
        columns: str,
        originator_ids: Sequence[str],
        condition: str,
        params: list[Any],
        curs: Any = None,
    ) -> list[tuple[Any, ...]]:
        """``columns`` (``originator_version`` among them) of these originators' rows (and
        ``condition``), each row a tuple led by its originator's place in
        ``originator_ids`` (1 for the first), in that order and then in version order, in
        one query that looks each id up in the primary key.

        While a night grows the table by millions of rows its statistics lag, and the
        planner then answers ``originator_id = ANY(ids)`` or a plain join on the ids with
        a full scan (seconds per query, measured): the LATERAL subquery behind ``OFFSET
        0`` cannot be flattened, so each id is one index probe; JIT, which those inflated
        estimates switch on at about 0.25 s per query, is off for the transaction. Rows
        are tuples naming their originator by its place: no dictionary and no UUID parsed
        per row (the ids are the caller's hex strings already). In ``curs``'s transaction
        when given.
        """
        if not originator_ids:
            return []
        if curs is None:
            with self.datastore.transaction(commit=False) as own:
                return self._of_originators(columns, originator_ids, condition, params, own)
        with curs.connection.cursor(row_factory=tuple_row) as rows:
            rows.execute("SET LOCAL jit = off")
            rows.execute(
                SQL(
                    "SELECT wanted.n, e.* FROM unnest(%s::uuid[]) WITH ORDINALITY AS wanted(id, n) "
                    "CROSS JOIN LATERAL (SELECT {columns} FROM {t} "
                    "WHERE originator_id = wanted.id {condition} OFFSET 0) AS e "
                    "ORDER BY wanted.n, e.originator_version"
                ).format(columns=SQL(columns), t=self._table, condition=SQL(condition)),
                (list(originator_ids), *params),
            )
            fetched: list[tuple[Any, ...]] = rows.fetchall()
            return fetched
