"""Least-privilege PostgreSQL roles: an owner for migrations, a writer, a reader.

``db init --owner`` as the superuser, ``db grant --writer/--reader``; then, connected as
the writer (the URL's user; trust authentication in CI), every way to rewrite history
that ownership would allow is refused, while ingest, replay and checkpoint work; the
reader runs findings, show, verify and quarantine, and a write fails cleanly. Roles get
random names and are dropped afterwards.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

from audit.store import AuditStore
from audit.store.existing import POSTGRES_CHECKPOINTS_TABLE, POSTGRES_EVENTS_TABLE
from cli.main import main
from tests.conftest import postgres_base_url

TABLES = (POSTGRES_EVENTS_TABLE, POSTGRES_CHECKPOINTS_TABLE)
RETENTION = f"{POSTGRES_EVENTS_TABLE}_retention"  # the owner's records: append-only too
RETIRED = f"{POSTGRES_EVENTS_TABLE}_retired"  # the subjects retentions retired: likewise
SIGNATURES = f"{POSTGRES_EVENTS_TABLE}_retention_signatures"  # the records' signatures
SEQUENCE = f"{POSTGRES_EVENTS_TABLE}_notification_id_seq"


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def as_role(base: str, role: str, schema: str) -> str:
    """The store URL of ``schema`` connecting as ``role`` (no password: trust in CI)."""
    parts = urlsplit(base)
    netloc = f"{role}@{parts.hostname}:{parts.port or 5432}"
    return urlunsplit(parts._replace(netloc=netloc, query=f"schema={schema}"))


def dsn(url: str) -> str:
    return url.split("?")[0]


@dataclass(frozen=True)
class Deployment:
    base: str
    schema: str
    owner: str
    writer: str
    reader: str
    hands: Path  # more hand histories, not ingested yet

    @property
    def admin_url(self) -> str:
        return f"{self.base}?schema={self.schema}"

    @property
    def writer_url(self) -> str:
        return as_role(self.base, self.writer, self.schema)

    @property
    def reader_url(self) -> str:
        return as_role(self.base, self.reader, self.schema)


def _hands(phh_sample: Path, folder: Path, start: int, count: int) -> Path:
    folder.mkdir(parents=True)
    for path in sorted((phh_sample / "pluribus").rglob("*.phh"))[start : start + count]:
        shutil.copy(path, folder / f"{path.parent.name}-{path.name}")  # 30/0 and 83/0
    return folder


def _deploy(base: str, schema: str, owner: str, writer: str, reader: str) -> None:
    code, out, err = run("--store", f"{base}?schema={schema}", "db", "init", "--owner", owner)
    assert code == 0, err
    assert f"owned by {owner}" in out
    code, out, err = run(
        "--store", f"{base}?schema={schema}", "db", "grant", "--writer", writer, "--reader", reader
    )
    assert code == 0, err
    assert f"writer {writer}: USAGE on schema {schema}; SELECT, INSERT on" in out
    assert f"reader {reader}: USAGE on schema {schema}; SELECT on" in out


@pytest.fixture(scope="module")
def deployment(phh_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    base = postgres_base_url()
    tag = uuid.uuid4().hex[:10]
    owner, writer, reader = (f"ca_{kind}_{tag}" for kind in ("owner", "writer", "reader"))
    schema = f"roles_{tag}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(owner)))
        for role in (writer, reader):
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
    work = tmp_path_factory.mktemp("roles")
    try:
        _deploy(base, schema, owner, writer, reader)
        first = _hands(phh_sample, work / "first", 0, 12)
        more = _hands(phh_sample, work / "more", 12, 6)
        deployment = Deployment(base, schema, owner, writer, reader, more)
        code, _, err = run("--store", deployment.writer_url, "ingest", str(first))
        assert code == 0, err
        yield deployment
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
            for role in (owner, writer, reader):
                conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
                conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


# -- what db init and db grant made ---------------------------------------------------


def test_db_init_makes_the_owner_own_every_object(deployment: Deployment) -> None:
    with psycopg.connect(deployment.base) as conn:
        owners = conn.execute(
            "SELECT c.relname, pg_get_userbyid(c.relowner) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s",
            (deployment.schema,),
        ).fetchall()
        schema_owner = conn.execute(
            "SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = %s",
            (deployment.schema,),
        ).fetchone()[0]
        functions = conn.execute(
            "SELECT p.proname, pg_get_userbyid(p.proowner) FROM pg_proc p "
            "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = %s",
            (deployment.schema,),
        ).fetchall()
        triggers = conn.execute(
            "SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s "
            "AND NOT t.tgisinternal AND t.tgenabled = 'O'",
            (deployment.schema,),
        ).fetchall()
    names = {name for name, _ in owners}
    assert set(TABLES) | {SEQUENCE} <= names
    assert {owner for _, owner in owners} == {deployment.owner}
    assert schema_owner == deployment.owner
    assert "casino_audit_refuse_change" in {name for name, _ in functions}
    assert {owner for _, owner in functions} == {deployment.owner}
    assert sorted(triggers) == sorted(
        (table, trigger)
        for table in (*TABLES, RETENTION, RETIRED, SIGNATURES)
        for trigger in ("casino_audit_append_only", "casino_audit_no_truncate")
    )


def _privileges(base: str, role: str, schema: str) -> dict[str, set[str]]:
    """Every effective privilege of ``role`` on the store's objects (column ones too)."""
    held: dict[str, set[str]] = {}
    with psycopg.connect(base) as conn:
        for table in (*TABLES, RETENTION, RETIRED, SIGNATURES):
            oid = conn.execute("SELECT %s::regclass::oid", (f"{schema}.{table}",)).fetchone()[0]
            for privilege in (
                "SELECT",
                "INSERT",
                "UPDATE",
                "DELETE",
                "TRUNCATE",
                "REFERENCES",
                "TRIGGER",
            ):
                if conn.execute(
                    "SELECT has_table_privilege(%(r)s, %(t)s::oid, %(p)s) OR (%(p)s IN "
                    "('SELECT', 'INSERT', 'UPDATE', 'REFERENCES') AND "
                    "has_any_column_privilege(%(r)s, %(t)s::oid, %(p)s))",
                    {"r": role, "t": oid, "p": privilege},
                ).fetchone()[0]:
                    held.setdefault(table, set()).add(privilege)
        sequence = f"{schema}.{SEQUENCE}"
        for privilege in ("USAGE", "SELECT", "UPDATE"):
            if conn.execute(
                "SELECT has_sequence_privilege(%s, %s, %s)", (role, sequence, privilege)
            ).fetchone()[0]:
                held.setdefault(SEQUENCE, set()).add(privilege)
        for privilege in ("USAGE", "CREATE"):
            if conn.execute(
                "SELECT has_schema_privilege(%s, %s, %s)", (role, schema, privilege)
            ).fetchone()[0]:
                held.setdefault("schema", set()).add(privilege)
        owns = conn.execute(
            "SELECT bool_or(pg_has_role(%s, c.relowner, 'MEMBER')) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s",
            (role, schema),
        ).fetchone()[0]
        if owns:
            held["owner"] = {"yes"}
    return held


def test_the_writer_and_the_reader_hold_exactly_what_they_need(deployment: Deployment) -> None:
    writer = _privileges(deployment.base, deployment.writer, deployment.schema)
    assert writer == {
        POSTGRES_EVENTS_TABLE: {"SELECT", "INSERT"},
        POSTGRES_CHECKPOINTS_TABLE: {"SELECT", "INSERT"},
        RETENTION: {"SELECT"},
        RETIRED: {"SELECT"},
        SIGNATURES: {"SELECT"},
        SEQUENCE: {"USAGE"},
        "schema": {"USAGE"},
    }
    reader = _privileges(deployment.base, deployment.reader, deployment.schema)
    assert reader == {
        POSTGRES_EVENTS_TABLE: {"SELECT"},
        POSTGRES_CHECKPOINTS_TABLE: {"SELECT"},
        RETENTION: {"SELECT"},
        RETIRED: {"SELECT"},
        SIGNATURES: {"SELECT"},
        "schema": {"USAGE"},
    }


def test_grant_again_takes_back_what_the_role_should_not_have(deployment: Deployment) -> None:
    events = sql.SQL("{}.{}").format(
        sql.Identifier(deployment.schema), sql.Identifier(POSTGRES_EVENTS_TABLE)
    )
    with psycopg.connect(deployment.base, autocommit=True) as conn:
        who = sql.Identifier(deployment.writer)
        conn.execute(sql.SQL("GRANT UPDATE (state), DELETE ON {} TO {}").format(events, who))
        space = sql.Identifier(deployment.schema)
        conn.execute(sql.SQL("GRANT CREATE ON SCHEMA {} TO {}").format(space, who))
    code, _, err = run(
        "--store", deployment.admin_url, "db", "grant", "--writer", deployment.writer
    )
    assert code == 0, err
    test_the_writer_and_the_reader_hold_exactly_what_they_need(deployment)


def test_grant_refuses_a_role_that_would_keep_more_through_public(deployment: Deployment) -> None:
    events = sql.SQL("{}.{}").format(
        sql.Identifier(deployment.schema), sql.Identifier(POSTGRES_EVENTS_TABLE)
    )
    with psycopg.connect(deployment.base, autocommit=True) as conn:
        conn.execute(sql.SQL("GRANT DELETE ON {} TO PUBLIC").format(events))
        try:
            code, _, err = run(
                "--store", deployment.admin_url, "db", "grant", "--reader", deployment.reader
            )
        finally:
            conn.execute(sql.SQL("REVOKE DELETE ON {} FROM PUBLIC").format(events))
    assert code == 2 and "has DELETE" in err and "nothing was granted" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("role", ["owner", "superuser", "missing"])
def test_grant_refuses_the_owner_a_superuser_and_unknown_roles(
    deployment: Deployment, role: str
) -> None:
    name = {
        "owner": deployment.owner,
        "superuser": urlsplit(deployment.base).username,
        "missing": f"ca_nobody_{uuid.uuid4().hex[:8]}",
    }[role]
    code, _, err = run("--store", deployment.admin_url, "db", "grant", "--writer", name)
    assert code == 2 and "Traceback" not in err
    assert {"owner": "owns the store", "superuser": "superuser", "missing": "does not exist"}[
        role
    ] in err


def test_db_init_again_is_a_migration_that_keeps_owner_and_grants(deployment: Deployment) -> None:
    before = _privileges(deployment.base, deployment.writer, deployment.schema)
    code, _, err = run("--store", deployment.admin_url, "db", "init", "--owner", deployment.owner)
    assert code == 0, err
    assert _privileges(deployment.base, deployment.writer, deployment.schema) == before
    test_db_init_makes_the_owner_own_every_object(deployment)
    code, _, err = run("--store", deployment.admin_url, "db", "init", "--owner", deployment.reader)
    assert code == 2 and f"owned by {deployment.owner!r}" in err


# -- the writer cannot rewrite history ---------------------------------------------------

ATTACKS = [
    "ALTER TABLE {t} DISABLE TRIGGER casino_audit_append_only",
    "ALTER TABLE {t} DISABLE TRIGGER USER",
    "DROP TRIGGER casino_audit_append_only ON {t}",
    "DROP TRIGGER casino_audit_no_truncate ON {t}",
    "UPDATE {t} SET {column} = {column}",
    "DELETE FROM {t}",
    "TRUNCATE {t}",
    "DROP TABLE {t}",
    "ALTER TABLE {t} ADD COLUMN forged text",
    "ALTER TABLE {t} OWNER TO CURRENT_USER",
    "CREATE TRIGGER forged BEFORE INSERT ON {t} FOR EACH ROW EXECUTE FUNCTION {f}()",
]
OTHER_ATTACKS = [
    "SELECT setval('{s}.{seq}', 1)",
    "CREATE TABLE {s}.forged (i int)",
    "CREATE OR REPLACE FUNCTION {f}() RETURNS trigger LANGUAGE plpgsql AS "
    "$$ BEGIN RETURN NEW; END $$",
    "DROP FUNCTION {f}() CASCADE",
    "ALTER SCHEMA {s} RENAME TO forged",
]


def _attack(url: str, statement: str, deployment: Deployment, table: str = TABLES[0]) -> None:
    text = statement.format(
        t=f"{deployment.schema}.{table}",
        column="topic" if table == POSTGRES_EVENTS_TABLE else "key_id",
        s=deployment.schema,
        seq=SEQUENCE,
        f=f"{deployment.schema}.casino_audit_refuse_change",
    )
    with (
        psycopg.connect(dsn(url), autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        conn.execute(text)


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("statement", ATTACKS)
def test_the_writer_cannot_change_or_unprotect_a_table(
    deployment: Deployment, statement: str, table: str
) -> None:
    _attack(deployment.writer_url, statement, deployment, table)
    code, out, _ = run("--store", deployment.reader_url, "verify")
    assert code == 0 and "chain intact" in out


@pytest.mark.parametrize("statement", OTHER_ATTACKS)
def test_the_writer_cannot_touch_the_sequence_schema_or_functions(
    deployment: Deployment, statement: str
) -> None:
    _attack(deployment.writer_url, statement, deployment)


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO {t} (notification_id, chain_hash, event_count, signature, key_id) "
        "VALUES (999999, '\\x00', 1, '', '')",
        *ATTACKS[4:8],
    ],
)
def test_the_reader_cannot_write(deployment: Deployment, statement: str) -> None:
    _attack(deployment.reader_url, statement, deployment, POSTGRES_CHECKPOINTS_TABLE)


# -- the writer works, the reader reads ----------------------------------------------------


def test_the_writer_ingests_replays_and_checkpoints(deployment: Deployment) -> None:
    code, out, err = run("--store", deployment.writer_url, "ingest", str(deployment.hands))
    assert code == 0, err
    assert "subjects stored:       6" in out
    code, out, err = run("--store", deployment.writer_url, "ingest", str(deployment.hands))
    assert code == 0 and "already stored:        6" in out, err
    code, out, err = run("--store", deployment.writer_url, "replay")
    assert code == 0, err
    judged = re.search(r"^poker subjects judged:\s+(\d+)$", out, re.M)
    assert judged and int(judged.group(1)) >= 18, out
    code, out, err = run("--store", deployment.writer_url, "checkpoint")
    assert code == 0, err
    assert "checkpoint at notification" in out
    code, out, err = run("--store", deployment.reader_url, "verify")
    assert code == 0 and "chain intact" in out, err


def test_the_reader_runs_every_read_command(deployment: Deployment) -> None:
    store = AuditStore(deployment.reader_url, create=False)
    try:
        subject = next(store.iter_subject_ids("poker"))
    finally:
        store.close()
    for command in (["findings"], ["show", subject], ["hand", subject], ["verify"], ["quarantine"]):
        code, out, err = run("--store", deployment.reader_url, *command)
        assert code == 0, (command, err)
        assert out and "Traceback" not in err, command


@pytest.mark.parametrize(
    "command", [["ingest", "{hands}"], ["replay"], ["checkpoint"], ["db", "init"]]
)
def test_the_reader_cannot_write_and_is_told_so(deployment: Deployment, command: list[str]) -> None:
    args = [part.format(hands=deployment.hands) for part in command]
    code, out, err = run("--store", deployment.reader_url, *args)
    assert code == 2, out
    assert "Traceback" not in err and err.count("\n") == 1
    assert deployment.reader in err


def test_two_writer_processes_keep_one_chain(deployment: Deployment) -> None:
    """The writer serialises appends without the EXCLUSIVE table lock it may not take."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from tests.audit.store.test_store import _append_many

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        stored = list(pool.map(_append_many, [deployment.writer_url] * 2, [71, 72]))
    assert stored == [200, 200]
    store = AuditStore(deployment.reader_url, create=False)
    try:
        assert store.verify().ok
    finally:
        store.close()


def test_a_dropped_checkpoints_table_is_not_recreated_by_the_writer(
    deployment: Deployment,
) -> None:
    """The attack run dropped the checkpoints table and the next ingest silently made a new,
    empty one; now only the owner can drop it, and a writer refuses to go on without it."""
    schema = f"{deployment.schema}_b"
    _deploy(deployment.base, schema, deployment.owner, deployment.writer, deployment.reader)
    writer_url = as_role(deployment.base, deployment.writer, schema)
    try:
        code, _, err = run("--store", writer_url, "ingest", str(deployment.hands))
        assert code == 0, err
        with psycopg.connect(deployment.base, autocommit=True) as conn:  # only an owner can
            conn.execute(f"DROP TABLE {schema}.{POSTGRES_CHECKPOINTS_TABLE}")
        admin_url = f"{deployment.base}?schema={schema}"
        for url in (writer_url, admin_url):  # not even the superuser, silently
            for command in (["ingest", str(deployment.hands)], ["checkpoint"]):
                code, _, err = run("--store", url, *command)
                assert code == 2 and "checkpoints table is missing" in err
        with psycopg.connect(deployment.base) as conn:
            found = conn.execute(
                "SELECT to_regclass(%s)", (f"{schema}.{POSTGRES_CHECKPOINTS_TABLE}",)
            ).fetchone()[0]
        assert found is None
        code, _, err = run("--store", admin_url, "db", "init")  # knowingly: a new, empty one
        assert code == 0, err
        code, _, err = run("--store", writer_url, "checkpoint")
        assert code == 2 and "writer" in err  # the new table has no grants yet
    finally:
        with psycopg.connect(deployment.base, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def test_the_superuser_path_still_creates_its_own_store() -> None:
    """Without roles (the default superuser URL), a writer creates a store on first use,
    as before; a reader never does."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    url = f"{postgres_base_url()}?schema={schema}"
    code, _, err = run("--store", url, "verify")
    assert code == 2 and "no store at" in err
    try:
        code, out, err = run("--store", url, "checkpoint")
        assert code == 0 and "the store is empty" in out, err
        code, out, _ = run("--store", url, "verify")
        assert code == 0
    finally:
        with psycopg.connect(postgres_base_url(), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
