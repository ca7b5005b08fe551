"""Least-privilege PostgreSQL roles for the store: the SQL of ``casino-audit db``.

Three roles (README, "PostgreSQL roles"):

* **owner** (``db init [--owner ROLE]``): owns the schema, the two tables, their sequence,
  indexes, triggers, trigger function and types. Only migrations run as it. Ownership
  is what may ``ALTER TABLE … DISABLE TRIGGER``, ``DROP TRIGGER``, ``DROP TABLE`` or
  ``ALTER TABLE … ADD COLUMN``; nothing that runs every night should hold it.
* **writer** (``db grant --writer ROLE``): ``ingest``, ``replay``, ``checkpoint``,
  ``nightly``, ``incident record``. It appends rows and reads them, and nothing else.
* **reader** (``db grant --reader ROLE``): ``findings``, ``show``, ``verify``,
  ``quarantine``. It reads rows.

What each grant is for (``WRITER`` and ``READER`` below, and nothing more):

* ``USAGE`` on the schema: to name the tables in it at all (both roles). Never
  ``CREATE`` on the schema: a writer must not add objects next to the store's.
* ``SELECT`` on the events table: replay, findings, show and verify read events; ingest
  reads the chain head and the stored versions before it appends (both roles).
* ``INSERT`` on the events table: appending events, by ``COPY`` (writer).
* ``SELECT`` on the checkpoints table: verify checks every checkpoint; a checkpoint
  counts the events from the last one on (both roles).
* ``INSERT`` on the checkpoints table: ``checkpoint`` and every ingest and replay record
  the chain head (``INSERT … ON CONFLICT DO NOTHING`` needs INSERT only) (writer).
* ``SELECT`` on the retention table (``audit.store.retention``): verify starts from the
  latest record, a writer takes a retired shard's head from it (both roles); on the
  retired table: ingest refuses a retired subject's records (both roles). Never
  ``INSERT``: retention is the owner's.
* ``USAGE`` on the events table's sequence (``notification_id``'s ``bigserial``): an
  insert takes its ``nextval`` (writer). Not ``UPDATE`` (``setval``).
* ``CONNECT`` on the database, only when the role lacks it (PUBLIC has it by default).

Never ``UPDATE``, ``DELETE``, ``TRUNCATE``, ``REFERENCES`` or ``TRIGGER``, on any column,
and never ownership: the append-only triggers stop UPDATE, DELETE and TRUNCATE, and
without ownership the triggers cannot be disabled or dropped nor the tables altered or
dropped. The appender serialises writers with a transaction advisory lock and a ``ROW
EXCLUSIVE`` table lock (INSERT allows both), not eventsourcing's ``EXCLUSIVE`` lock,
which would need UPDATE, DELETE or TRUNCATE. ``db grant`` first revokes whatever the
role had on these objects, then grants, then checks the role's *effective* privileges
(through PUBLIC and the roles it belongs to too) and rolls everything back if it has
more or less than this. Every name goes into SQL as a ``psycopg.sql.Identifier``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from psycopg import sql

from audit.config import StoreURL
from audit.store.existing import (
    POSTGRES_CHECKPOINTS_TABLE,
    POSTGRES_EVENTS_TABLE,
    StoreMissing,
    StoreUnusable,
    connect,
    postgres_state,
    safe_message,
)
from audit.store.partitions import create_partitioned, guard_partitions

# Table privileges each role gets on the events and the checkpoints table.
WRITER = ("SELECT", "INSERT")
READER = ("SELECT",)
# Privileges neither role may hold, on any column, whoever gave them.
FORBIDDEN = ("UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")
STORE_TABLES = (POSTGRES_EVENTS_TABLE, POSTGRES_CHECKPOINTS_TABLE)
RETENTION_TABLE = f"{POSTGRES_EVENTS_TABLE}_retention"
"""The owner's retention records (``audit.store.retention``): both roles only read it."""
RETIRED_TABLE = f"{POSTGRES_EVENTS_TABLE}_retired"
"""The subjects retentions retired (``audit.store.retention``): both roles only read it."""
RETENTION_SIGNATURES_TABLE = f"{POSTGRES_EVENTS_TABLE}_retention_signatures"
"""The retention records' signatures (``audit.store.retention_trust``): read-only too."""
OWNERS_TABLES = (RETENTION_TABLE, RETIRED_TABLE, RETENTION_SIGNATURES_TABLE)


class RoleError(StoreUnusable):
    """A role cannot be set up as asked (the message is safe to print)."""


@dataclass(frozen=True)
class Granted:
    """What ``grant`` gave one role."""

    role: str
    kind: str  # "writer" or "reader"
    schema: str
    tables: tuple[str, ...]
    privileges: tuple[str, ...]
    sequences: tuple[str, ...]
    connect: bool

    def line(self) -> str:
        parts = [f"USAGE on schema {self.schema}"]
        parts.append(f"{', '.join(self.privileges)} on {', '.join(self.tables)}")
        if self.sequences:
            parts.append(f"USAGE on sequence {', '.join(self.sequences)}")
        if self.connect:
            parts.append("CONNECT on the database")
        return f"{self.kind} {self.role}: " + "; ".join(parts)


def _lock(conn: Any, url: StoreURL) -> None:
    """The advisory lock ``AuditStore`` takes while it sets a store up (same key)."""
    conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (f"casino-audit {url.schema}",))


def _role_exists(conn: Any, role: str) -> bool:
    found = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    return found is not None


def _store_statements(url: StoreURL) -> list[sql.Composable]:
    """The recorder's own DDL (tables, index, triggers, functions, types), exactly what
    ``AuditStore`` runs when it creates a store, without running it."""
    from eventsourcing.persistence import InfrastructureFactory
    from eventsourcing.utils import Environment

    from audit.store.application import APP_NAME, _env_for

    env = _env_for(url, create=False) | {"POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "0"}
    factory = InfrastructureFactory.construct(Environment(APP_NAME, env))
    try:
        recorder: Any = factory.application_recorder()
        if recorder.events_table_name != POSTGRES_EVENTS_TABLE:  # pragma: no cover
            raise RoleError(f"unexpected events table {recorder.events_table_name!r}")
        return list(recorder.sql_create_statements)
    finally:
        factory.close()


def init_store(url: StoreURL, owner: str | None = None, *, partitioned: bool = False) -> str:
    """Create the store's schema, tables, indexes, triggers, functions and types (what
    ``AuditStore`` creates on first use), as the connecting role or, with ``owner``, as
    that role (``SET ROLE``; the connecting role must be a member of it or a superuser).
    Idempotent: an existing store gets what is missing (a migration). Returns a summary.

    ``partitioned``: a new store's events table is partitioned by range of notification
    id (``audit.store.partitions``); each partition gets its ``TRUNCATE`` guard.

    SQLite: creates the file's tables; ``owner`` and ``partitioned`` are refused
    (PostgreSQL only)."""
    if url.kind == "sqlite":
        if owner or partitioned:
            raise RoleError(
                "--owner and --partitioned are for PostgreSQL stores only (SQLite has no "
                "roles and no partitions)"
            )
        from audit.store.application import AuditStore

        AuditStore(url.redacted(), create=True).close()
        return f"store ready at {url.redacted()}"
    import psycopg

    where = url.redacted()
    with connect(url, autocommit=True) as conn:  # reachable, before eventsourcing's pool
        statements = _store_statements(url)
        _lock(conn, url)
        state = postgres_state(conn, url)
        schema = state.schema
        if owner and not _role_exists(conn, owner):
            raise RoleError(f"role {owner!r} does not exist (create it first: CREATE ROLE)")
        current_owner = _table_owner(conn, schema)
        if current_owner and owner and owner != current_owner:
            raise RoleError(
                f"the store {where} is owned by {current_owner!r}, not {owner!r}: db init does "
                f"not change owners (pass --owner {current_owner}, or ALTER … OWNER TO first)"
            )
        acting = owner or current_owner or state.role
        try:
            with conn.transaction():
                if not state.schema_exists:
                    statement = sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema))
                    if acting != state.role:
                        statement += sql.SQL(" AUTHORIZATION {}").format(sql.Identifier(acting))
                    conn.execute(statement)
                if acting != state.role:
                    conn.execute(sql.SQL("SET LOCAL ROLE {}").format(sql.Identifier(acting)))
                if partitioned:
                    create_partitioned(conn, schema)
                _run(conn, statements)
                guard_partitions(conn, schema)
        except psycopg.errors.InsufficientPrivilege as error:
            raise RoleError(
                f"cannot set up the store {where} as role {acting!r}: "
                f"{safe_message(error, url)} (the role needs CREATE on schema {schema!r}, "
                "or on the database for a new schema; the connecting role must be a "
                "superuser or a member of the owner to act as it)"
            ) from None
        except psycopg.Error as error:
            raise RoleError(
                f"cannot set up the store {where}: {safe_message(error, url)}"
            ) from None
    tables = ", ".join(f"{schema}.{t}" for t in (*STORE_TABLES, *OWNERS_TABLES))
    how = " partitioned by notification id" if partitioned else ""
    return f"store ready at {where}: {tables} (with triggers and functions){how} owned by {acting}"


def _run(conn: Any, statements: Sequence[sql.Composable]) -> None:
    """eventsourcing's ``create_table`` on one connection and transaction: ``CREATE TYPE``
    has no ``IF NOT EXISTS``, so each runs in a savepoint and an existing type is kept."""
    import psycopg

    for statement in statements:
        if "CREATE TYPE" in statement.as_string(conn):
            try:
                with conn.transaction():
                    conn.execute(statement, prepare=False)
            except psycopg.errors.DuplicateObject:
                pass
        else:
            conn.execute(statement, prepare=False)


def _exists(conn: Any, schema: str, table: str) -> bool:
    return (
        conn.execute(
            "SELECT 1 FROM pg_tables WHERE schemaname = %s AND tablename = %s", (schema, table)
        ).fetchone()
        is not None
    )


def _table_owner(conn: Any, schema: str) -> str | None:
    row = conn.execute(
        "SELECT pg_get_userbyid(c.relowner) FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relname = %s",
        (schema, POSTGRES_EVENTS_TABLE),
    ).fetchone()
    return row[0] if row else None


def _sequences(conn: Any, schema: str) -> list[str]:
    """The sequences owned by the store's tables' columns (``bigserial``)."""
    rows = conn.execute(
        "SELECT s.relname FROM pg_class s "
        "JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass "
        "AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i') "
        "JOIN pg_class t ON t.oid = d.refobjid "
        "JOIN pg_namespace n ON n.oid = t.relnamespace "
        "WHERE s.relkind = 'S' AND n.nspname = %s AND t.relname = ANY(%s) ORDER BY 1",
        (schema, list(STORE_TABLES)),
    ).fetchall()
    return [r[0] for r in rows]


def grant(
    url: StoreURL, *, writers: Sequence[str] = (), readers: Sequence[str] = ()
) -> list[Granted]:
    """Give each writer exactly ``WRITER`` and each reader exactly ``READER`` (see the
    module's docstring), in one transaction; run as the tables' owner or a superuser.
    Raises ``RoleError`` (nothing granted) when a role does not exist, owns the store,
    is a superuser, or would still hold more or less than that."""
    if url.kind != "postgresql":
        raise RoleError("roles are for PostgreSQL stores only (SQLite has no roles)")
    import psycopg

    where = url.redacted()
    granted: list[Granted] = []
    with connect(url) as conn:
        state = postgres_state(conn, url)
        if not (state.table_exists and state.checkpoints_exist):
            raise StoreMissing(f"no store at {where}: run casino-audit db init first")
        schema = state.schema
        owner = _table_owner(conn, schema)
        sequences = _sequences(conn, schema)
        try:
            for role, kind, privileges in [
                *((r, "writer", WRITER) for r in writers),
                *((r, "reader", READER) for r in readers),
            ]:
                _check_role(conn, role, owner or "", where)
                granted.append(_grant_one(conn, url, role, kind, privileges, schema, sequences))
        except psycopg.Error as error:
            conn.rollback()
            raise RoleError(
                f"cannot grant on the store {where}: {safe_message(error, url)}"
            ) from None
        conn.commit()
    return granted


def _check_role(conn: Any, role: str, owner: str, where: str) -> None:
    row = conn.execute(
        "SELECT rolsuper, pg_has_role(oid, %s, 'MEMBER') FROM pg_roles WHERE rolname = %s",
        (owner, role),
    ).fetchone()
    if row is None:
        raise RoleError(f"role {role!r} does not exist (create it first: CREATE ROLE … LOGIN)")
    superuser, member_of_owner = row
    if superuser:
        raise RoleError(f"role {role!r} is a superuser: it can do anything; use another role")
    if member_of_owner:
        raise RoleError(
            f"role {role!r} owns the store {where} (or is a member of its owner {owner!r}): "
            "the owner is for migrations only; grant to another role"
        )


def _grant_one(
    conn: Any,
    url: StoreURL,
    role: str,
    kind: str,
    privileges: tuple[str, ...],
    schema: str,
    sequences: list[str],
) -> Granted:
    who = sql.Identifier(role)
    space = sql.Identifier(schema)
    tables = sql.SQL(", ").join(
        sql.SQL("{}.{}").format(space, sql.Identifier(t)) for t in STORE_TABLES
    )
    # Start from nothing on these objects (column grants go with the table's REVOKE).
    conn.execute(sql.SQL("REVOKE ALL ON SCHEMA {} FROM {}").format(space, who))
    conn.execute(sql.SQL("REVOKE ALL ON TABLE {} FROM {}").format(tables, who))
    seqs = sql.SQL(", ").join(sql.SQL("{}.{}").format(space, sql.Identifier(s)) for s in sequences)
    if sequences:
        conn.execute(sql.SQL("REVOKE ALL ON SEQUENCE {} FROM {}").format(seqs, who))
    for name in OWNERS_TABLES:
        if _exists(conn, schema, name):
            owners = sql.SQL("{}.{}").format(space, sql.Identifier(name))
            conn.execute(sql.SQL("REVOKE ALL ON TABLE {} FROM {}").format(owners, who))
            conn.execute(sql.SQL("GRANT SELECT ON TABLE {} TO {}").format(owners, who))
    conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(space, who))
    conn.execute(
        sql.SQL("GRANT {} ON TABLE {} TO {}").format(
            sql.SQL(", ").join(sql.SQL(p) for p in privileges), tables, who
        )
    )
    if sequences and "INSERT" in privileges:
        conn.execute(sql.SQL("GRANT USAGE ON SEQUENCE {} TO {}").format(seqs, who))
    needs_connect = not conn.execute(
        "SELECT has_database_privilege(%s, current_database(), 'CONNECT')", (role,)
    ).fetchone()[0]
    if needs_connect:
        conn.execute(
            sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(url.dbname), who)
        )
    _check_effective(conn, role, privileges, schema, sequences)
    return Granted(
        role,
        kind,
        schema,
        tuple(f"{schema}.{t}" for t in STORE_TABLES),
        privileges,
        tuple(f"{schema}.{s}" for s in sequences) if "INSERT" in privileges else (),
        needs_connect,
    )


def _check_effective(
    conn: Any, role: str, privileges: tuple[str, ...], schema: str, sequences: list[str]
) -> None:
    """The role's effective privileges (PUBLIC's and inherited ones included) on the
    store's objects are exactly ``privileges`` (and USAGE on ``sequences`` for a writer).
    Objects are passed by OID: a text name would be parsed as SQL (case folding)."""
    problems: list[str] = []
    usage, create = conn.execute(
        "SELECT has_schema_privilege(%(r)s, n.oid, 'USAGE'), "
        "has_schema_privilege(%(r)s, n.oid, 'CREATE') FROM pg_namespace n "
        "WHERE n.nspname = %(s)s",
        {"r": role, "s": schema},
    ).fetchone()
    if not usage:
        problems.append(f"lacks USAGE on schema {schema}")
    if create:
        problems.append(
            f"has CREATE on schema {schema} (through PUBLIC or another role: "
            f"REVOKE CREATE ON SCHEMA {schema} FROM PUBLIC)"
        )
    objects = conn.execute(
        "SELECT c.relname, c.oid, c.relkind FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relname = ANY(%s)",
        (schema, [*STORE_TABLES, *OWNERS_TABLES, *sequences]),
    ).fetchall()
    for name, oid, relkind in objects:
        qualified = f"{schema}.{name}"
        wanted = READER if name in OWNERS_TABLES else privileges
        if relkind == "S":  # a writer takes nextval (USAGE); nobody may setval (UPDATE)
            usage, update = conn.execute(
                "SELECT has_sequence_privilege(%(r)s, %(s)s::oid, 'USAGE'), "
                "has_sequence_privilege(%(r)s, %(s)s::oid, 'UPDATE')",
                {"r": role, "s": oid},
            ).fetchone()
            if usage != ("INSERT" in privileges):
                problems.append(f"{'has' if usage else 'lacks'} USAGE on sequence {qualified}")
            if update:
                problems.append(f"has UPDATE on sequence {qualified}")
            continue
        for privilege in ("SELECT", "INSERT", *FORBIDDEN):
            held = conn.execute(
                "SELECT has_table_privilege(%(r)s, %(t)s::oid, %(p)s) OR "
                "(%(p)s IN ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES') "
                "AND has_any_column_privilege(%(r)s, %(t)s::oid, %(p)s))",
                {"r": role, "t": oid, "p": privilege},
            ).fetchone()[0]
            if held != (privilege in wanted):
                problems.append(f"{'has' if held else 'lacks'} {privilege} on {qualified}")
    if problems:
        raise RoleError(
            f"role {role!r} would not hold exactly what it needs ({'; '.join(problems)}); "
            "nothing was granted (run db grant as the store's owner or a superuser, and "
            "revoke what PUBLIC or the role's other roles give)"
        )
