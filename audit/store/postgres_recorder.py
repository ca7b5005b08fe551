"""eventsourcing's PostgreSQL application recorder, extended with the hash chain.

Batches go in with one ``COPY`` per transaction under eventsourcing's own EXCLUSIVE table
lock (so notification ids and the chain follow commit order). The database itself refuses
UPDATE, DELETE and TRUNCATE on the events and checkpoint tables (triggers).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg.sql import SQL, Identifier

from audit.store.chain import (
    GENESIS,
    ChainRow,
    Checkpoint,
    chain_links,
    chain_row,
    originator_hex,
)

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


class ChainedPostgresApplicationRecorder(PostgresApplicationRecorder):
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
                "event_count bigint NOT NULL, signature bytea NOT NULL, key_id text NOT NULL)"
            ).format(schema=schema, checkpoints=self.checkpoints_table),
        ]
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

    def write_checkpoint(self, checkpoint: Checkpoint) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                SQL("INSERT INTO {cp} VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING").format(
                    cp=self._checkpoints
                ),
                (
                    checkpoint.notification_id,
                    checkpoint.chain_hash,
                    checkpoint.event_count,
                    checkpoint.signature,
                    checkpoint.key_id,
                ),
            )

    def checkpoints(self) -> list[Checkpoint]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL(
                    "SELECT notification_id, chain_hash, event_count, signature, key_id FROM {cp}"
                ).format(cp=self._checkpoints)
            )
            return [
                Checkpoint(
                    r["notification_id"],
                    bytes(r["chain_hash"]),
                    r["event_count"],
                    bytes(r["signature"]),
                    r["key_id"],
                )
                for r in curs.fetchall()
            ]

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
