"""eventsourcing's PostgreSQL application recorder, extended with the hash chain.

Batches go in with one ``COPY`` per transaction, one writer at a time (a transaction
advisory lock, see ``_append_lock``), so notification ids and the chain follow commit
order. The database itself refuses
UPDATE, DELETE and TRUNCATE on the events and checkpoint tables (triggers). Checkpoints
carry the Merkle tree root of the events up to them (columns added to older stores'
tables when their tables are set up, or at the first checkpoint written).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg.sql import SQL, Identifier, Literal

from audit.store.chain import (
    GENESIS,
    ChainRow,
    Checkpoint,
    chain_links,
    chain_row,
    originator_hex,
    tree_head_row,
)
from audit.store.checkpoint_reads import CHECKPOINT_COLUMNS, TREE_SELECT, CheckpointReads

READ_BATCH = 5000

_REFUSE_FUNCTION = """
CREATE OR REPLACE FUNCTION {schema}.casino_audit_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'casino-audit: % on % refused: the store is append-only',
        TG_OP, TG_TABLE_NAME;
END;
$$
"""

# A checkpoints table made before the Merkle tree gains the tree-head columns; checked
# first, so that opening a current store does not take ALTER TABLE's exclusive lock.
_ADD_TREE_COLUMNS = """
DO $casino_audit$
BEGIN
    IF (SELECT count(*) FROM information_schema.columns WHERE table_schema = {schema_name}
        AND table_name = {table_name}
        AND column_name IN ('tree_root', 'tree_frontier', 'head_time')) < 3 THEN
        ALTER TABLE {schema}.{checkpoints} ADD COLUMN IF NOT EXISTS tree_root bytea,
            ADD COLUMN IF NOT EXISTS tree_frontier bytea,
            ADD COLUMN IF NOT EXISTS head_time bigint;
    END IF;
END
$casino_audit$
"""


class ChainedPostgresApplicationRecorder(CheckpointReads, PostgresApplicationRecorder):
    """Application recorder whose rows form a hash chain in notification order."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        schema = Identifier(self.datastore.schema)
        table = Identifier(self.events_table_name)
        self.checkpoints_table = Identifier(f"{self.events_table_name}_checkpoints")
        self.sql_create_statements[self.create_table_statement_index] = SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{table} ("
            "originator_id {id_type} NOT NULL, originator_version bigint NOT NULL, "
            "topic text NOT NULL, state bytea NOT NULL, notification_id bigserial, "
            "chain_prev bytea NOT NULL, chain_hash bytea NOT NULL, "
            "PRIMARY KEY (originator_id, originator_version))"
        ).format(schema=schema, table=table, id_type=Identifier(self.datastore.originator_id_type))
        self.sql_create_statements += [
            SQL(_REFUSE_FUNCTION).format(schema=schema),
            SQL(
                "CREATE TABLE IF NOT EXISTS {schema}.{checkpoints} ("
                "notification_id bigint PRIMARY KEY, chain_hash bytea NOT NULL, "
                "event_count bigint NOT NULL, signature bytea NOT NULL, key_id text NOT NULL, "
                "tree_root bytea, tree_frontier bytea, head_time bigint)"
            ).format(schema=schema, checkpoints=self.checkpoints_table),
        ]
        self._add_tree_columns = SQL(_ADD_TREE_COLUMNS).format(
            schema=schema,
            checkpoints=self.checkpoints_table,
            schema_name=Literal(self.datastore.schema),
            table_name=Literal(f"{self.events_table_name}_checkpoints"),
        )
        self.sql_create_statements.append(self._add_tree_columns)
        self._tree_columns = False  # known present (checked once per recorder)
        for target in (table, self.checkpoints_table):
            self.sql_create_statements += [
                SQL(
                    "CREATE OR REPLACE TRIGGER casino_audit_append_only "
                    "BEFORE UPDATE OR DELETE ON {schema}.{target} "
                    "FOR EACH ROW EXECUTE FUNCTION {schema}.casino_audit_refuse_change()"
                ).format(schema=schema, target=target),
                SQL(
                    "CREATE OR REPLACE TRIGGER casino_audit_no_truncate "
                    "BEFORE TRUNCATE ON {schema}.{target} "
                    "FOR EACH STATEMENT EXECUTE FUNCTION {schema}.casino_audit_refuse_change()"
                ).format(schema=schema, target=target),
            ]
        self._table = SQL("{schema}.{table}").format(schema=schema, table=table)
        self._checkpoints = SQL("{schema}.{cp}").format(schema=schema, cp=self.checkpoints_table)
        self.lock_table_statements = self._append_lock()

    def _append_lock(self) -> list[Any]:
        """What ``insert_events`` takes before it reads the chain head, instead of
        eventsourcing's ``LOCK TABLE … IN EXCLUSIVE MODE``, which PostgreSQL grants only
        to a role with UPDATE, DELETE or TRUNCATE on the table: the least-privilege
        writer (``casino-audit db grant --writer``) has none of them.

        A transaction advisory lock per events table serialises this recorder's writers
        (so insert order is commit order, as eventsourcing's notification log needs, and
        no two batches link to the same head); ``ROW EXCLUSIVE``, which INSERT alone
        allows, conflicts with the EXCLUSIVE lock older versions of this recorder take,
        so a writer still running one is waited for too. Both end with the transaction;
        both wait at most ``POSTGRES_LOCK_TIMEOUT`` seconds, as before."""
        key = f"casino-audit append {self.datastore.schema}.{self.events_table_name}"
        return [
            SQL("SET LOCAL lock_timeout = '{0}s'").format(self.datastore.lock_timeout),
            SQL("SELECT pg_advisory_xact_lock(hashtext({key}))").format(key=Literal(key)),
            SQL("LOCK TABLE {t} IN ROW EXCLUSIVE MODE").format(t=self._table),
        ]

    def insert_events(self, stored_events: Sequence[StoredEvent], **_: Any) -> Sequence[int] | None:
        """Insert a batch with one COPY, chained to the current head, in one transaction."""
        if not stored_events:
            return []
        with self.datastore.transaction(commit=True) as curs:
            self._lock_table(curs)
            curs.execute(
                SQL(
                    "SELECT notification_id, chain_hash FROM {t} "
                    "ORDER BY notification_id DESC LIMIT 1"
                ).format(t=self._table)
            )
            head = curs.fetchone()
            last_id, prev = (
                (head["notification_id"], bytes(head["chain_hash"])) if head else (0, GENESIS)
            )
            rows = chain_links(
                prev,
                (
                    (originator_hex(s.originator_id), s.originator_version, s.topic, s.state)
                    for s in stored_events
                ),
            )
            copy_sql = SQL(
                "COPY {t} (originator_id, originator_version, topic, state, chain_prev, "
                "chain_hash) FROM STDIN"
            ).format(t=self._table)
            with curs.copy(copy_sql) as copy:
                for row in rows:
                    copy.write_row(row)
            curs.execute(
                SQL(
                    "SELECT notification_id FROM {t} WHERE notification_id > %s "
                    "ORDER BY notification_id"
                ).format(t=self._table),
                (last_id,),
            )
            ids = [r["notification_id"] for r in curs.fetchall()]
            self._notify_channel(curs)
        return ids

    # -- chain access (used by audit.store.application) ---------------------------------

    def iter_chain_rows(self) -> Iterator[ChainRow]:
        """Every row in global order, streamed in batches."""
        after = 0
        query = SQL(
            "SELECT notification_id, originator_id, originator_version, topic, state, "
            "chain_prev, chain_hash FROM {t} WHERE notification_id > %s "
            "ORDER BY notification_id LIMIT %s"
        ).format(t=self._table)
        while True:
            with self.datastore.transaction(commit=False) as curs:
                curs.execute(query, (after, READ_BATCH))
                batch = curs.fetchall()
            if not batch:
                return
            for r in batch:
                yield chain_row(*r.values())
            after = batch[-1]["notification_id"]

    def chain_head(self) -> tuple[int, bytes, int]:
        """(last notification id, its hash, number of events); (0, GENESIS, 0) if empty."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL(
                    "SELECT notification_id, chain_hash FROM {t} "
                    "ORDER BY notification_id DESC LIMIT 1"
                ).format(t=self._table)
            )
            head = curs.fetchone()
            # Counted from the last checkpoint on (notification ids follow commit order
            # under the table lock), not over the whole table every time.
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
            count = last["event_count"] + curs.fetchone()["n"]
        if not head:
            return 0, GENESIS, 0
        return head["notification_id"], bytes(head["chain_hash"]), count

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
                self._tree_columns = curs.fetchone()["n"] == 3
        return self._tree_columns

    def write_checkpoint(self, checkpoint: Checkpoint) -> None:
        """Record a checkpoint (nothing when one is already recorded at its notification
        id); adds the tree-head columns to an older store's table first."""
        self._has_tree_columns(add=True)
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                SQL(
                    "INSERT INTO {cp} ({columns}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT DO NOTHING"
                ).format(cp=self._checkpoints, columns=SQL(CHECKPOINT_COLUMNS + TREE_SELECT)),
                (
                    checkpoint.notification_id,
                    checkpoint.chain_hash,
                    checkpoint.event_count,
                    checkpoint.signature,
                    checkpoint.key_id,
                    checkpoint.tree_root or None,
                    checkpoint.head_time if checkpoint.tree_root else None,
                    checkpoint.tree_frontier if checkpoint.tree_root else None,
                ),
            )

    def _select_checkpoints(self, query: str, params: tuple = ()) -> list[Checkpoint]:
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

    def states_of(self, originator_ids: Sequence[str], first_version: int) -> list[Any]:
        """(originator hex, version, state) of these originators' events from
        ``first_version`` on, in (originator, version) order: many subjects, one query."""
        rows = self._of_originators(
            "originator_id, originator_version, state",
            originator_ids,
            "AND originator_version >= %s",
            [first_version],
        )
        return [
            (originator_hex(r["originator_id"]), r["originator_version"], r["state"]) for r in rows
        ]

    def existing_versions(self, originator_ids: Sequence[str]) -> set[tuple[str, int]]:
        """Which (originator hex, version) pairs of these originators are already stored."""
        rows = self._of_originators("originator_id, originator_version", originator_ids, "", [])
        return {(originator_hex(r["originator_id"]), r["originator_version"]) for r in rows}

    def _of_originators(
        self, columns: str, originator_ids: Sequence[str], condition: str, params: list[Any]
    ) -> list[Any]:
        """``columns`` of these originators' rows (and ``condition``), in (originator,
        version) order, in one query that looks each id up in the primary key.

        While a night grows the table by millions of rows its statistics lag, and the
        planner then answers ``originator_id = ANY(ids)`` or a plain join on the ids with
        a full scan (seconds per query, measured): the LATERAL subquery behind ``OFFSET
        0`` cannot be flattened, so each id is one index probe; JIT, which those inflated
        estimates switch on at about 0.25 s per query, is off for the transaction.
        """
        if not originator_ids:
            return []
        with self.datastore.transaction(commit=False) as curs:
            curs.execute("SET LOCAL jit = off")
            curs.execute(
                SQL(
                    "SELECT e.* FROM unnest(%s::uuid[]) AS wanted(id) CROSS JOIN LATERAL "
                    "(SELECT {columns} FROM {t} WHERE originator_id = wanted.id {condition} "
                    "OFFSET 0) AS e ORDER BY e.originator_id, e.originator_version"
                ).format(columns=SQL(columns), t=self._table, condition=SQL(condition)),
                (list(originator_ids), *params),
            )
            return curs.fetchall()
