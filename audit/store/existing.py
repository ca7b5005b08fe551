"""Whether a store exists, and what the connecting role may do with it, asked without
creating anything.

Read commands (``findings``, ``show``, ``verify``, ``quarantine``) never create a store:
a missing SQLite file or a PostgreSQL database or schema without the events table is
an error that names the URL without its password. Writers create a store on first use
only where they may: on SQLite, and on PostgreSQL when the connecting role owns the
tables or may create them; a writer that may not (the least-privilege ``writer`` role of
``casino-audit db grant``) opens the tables ``casino-audit db init`` made and creates
nothing. Every failure here is a ``StoreUnusable`` whose message is safe to print.
"""

from __future__ import annotations

import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eventsourcing.persistence import PersistenceError

from audit.config import StoreURL, mask_secrets

if TYPE_CHECKING:
    from psycopg import Connection
    from psycopg.rows import TupleRow

EVENTS_TABLE = "stored_events"  # SQLite: eventsourcing's default name
# PostgreSQL: eventsourcing names the table after the application ("CasinoAudit").
POSTGRES_EVENTS_TABLE = "casinoaudit_events"
POSTGRES_CHECKPOINTS_TABLE = f"{POSTGRES_EVENTS_TABLE}_checkpoints"
SQLITE_HEADER = b"SQLite format 3\x00"
CONNECT_TIMEOUT = 10  # seconds


class StoreUnusable(PersistenceError):
    """The store named by a URL cannot be used as asked (the message is safe to print).

    A ``PersistenceError``, so code that already reports eventsourcing's errors reports
    this one too."""


class StoreMissing(StoreUnusable):
    """The store named by a URL does not exist."""


def require_existing(url: StoreURL) -> None:
    """Raise ``StoreMissing`` unless the store at ``url`` holds casino-audit's tables (and
    ``StoreUnusable`` if the connecting role may not read them)."""
    if url.kind == "sqlite":
        _require_sqlite(url)
        return
    with connect(url) as conn:
        state = postgres_state(conn, url)
    state.require_readable()


# -- SQLite ---------------------------------------------------------------------------


def check_sqlite_file(url: StoreURL) -> bool:
    """Whether the SQLite file exists; raise ``StoreUnusable`` if the path is something
    SQLite must not be pointed at (a directory, a FIFO, which would block the open for
    ever, a device, or a file that is not a SQLite database)."""
    path = Path(url.sqlite_path)
    where = url.redacted()
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if not path.parent.is_dir():
            raise StoreUnusable(
                f"cannot open the store {where}: the folder {str(path.parent)!r} does not exist"
            ) from None
        return False
    except OSError as error:  # permission denied on a folder, a name too long, a loop
        raise StoreUnusable(f"cannot open the store {where}: {error.strerror}") from None
    if stat.S_ISDIR(mode):
        raise StoreUnusable(f"cannot open the store {where}: it is a directory, not a file")
    if not stat.S_ISREG(mode):
        kind = "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "not a regular file"
        raise StoreUnusable(f"cannot open the store {where}: it is {kind}")
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise StoreUnusable(f"cannot open the store {where}: {error.strerror}") from None
    if header and header != SQLITE_HEADER:
        raise StoreUnusable(
            f"cannot open the store {where}: the file is not a SQLite database "
            "(or its header is damaged)"
        )
    return True


def _require_sqlite(url: StoreURL) -> None:
    where = url.redacted()
    if not check_sqlite_file(url):
        raise StoreMissing(f"no store at {where}: the file does not exist")
    uri = Path(url.sqlite_path).resolve().as_uri() + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=30)
        try:
            found = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                (EVENTS_TABLE,),
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise StoreUnusable(
            f"cannot open the store {where}: the file is not a usable SQLite database ({error})"
        ) from None
    if found is None:
        raise StoreMissing(f"no store at {where}: it has no casino-audit tables")


# -- PostgreSQL -------------------------------------------------------------------------


def safe_message(error: BaseException, url: StoreURL) -> str:
    """An error's text for a user: one line, the URL's password masked wherever it
    occurs whole (``audit.config.mask_secrets``, before the whitespace is collapsed and
    after)."""
    text = " ".join(mask_secrets(str(error), (url.password,)).split())
    return mask_secrets(text, (url.password,))


def connect(url: StoreURL, **options: Any) -> Connection[TupleRow]:
    """A psycopg connection to ``url``'s database, or ``StoreUnusable`` saying why not."""
    import psycopg

    try:
        return psycopg.connect(
            host=url.host,
            port=url.port,
            user=url.user,
            password=url.password,
            dbname=url.dbname,
            connect_timeout=CONNECT_TIMEOUT,
            **options,
        )
    except psycopg.Error as error:
        raise StoreUnusable(
            f"cannot open the store {url.redacted()}: {safe_message(error, url)}"
        ) from None


_STATE_QUERY = """
SELECT current_user AS role,
       current_database() AS dbname,
       n.oid IS NOT NULL AS schema_exists,
       e.oid IS NOT NULL AS table_exists,
       c.oid IS NOT NULL AS checkpoints_exist,
       coalesce(pg_get_userbyid(e.relowner) = current_user, false) AS is_owner,
       CASE WHEN n.oid IS NULL THEN has_database_privilege(current_database(), 'CREATE')
            ELSE has_schema_privilege(n.oid, 'CREATE') END AS may_create,
       n.oid IS NOT NULL AND has_schema_privilege(n.oid, 'USAGE') AS schema_usage,
       e.oid IS NOT NULL AND has_table_privilege(e.oid, 'SELECT')
           AND (c.oid IS NULL OR has_table_privilege(c.oid, 'SELECT')) AS may_read,
       e.oid IS NOT NULL AND c.oid IS NOT NULL
           AND has_table_privilege(e.oid, 'SELECT') AND has_table_privilege(e.oid, 'INSERT')
           AND has_table_privilege(c.oid, 'SELECT') AND has_table_privilege(c.oid, 'INSERT')
           AS may_write
FROM (SELECT %(schema)s::name AS schema) AS wanted
LEFT JOIN pg_namespace n ON n.nspname = wanted.schema
LEFT JOIN pg_class e ON e.relnamespace = n.oid AND e.relname = %(events)s
    AND e.relkind IN ('r', 'p')
LEFT JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = %(checkpoints)s
    AND c.relkind IN ('r', 'p')
"""


@dataclass(frozen=True)
class PostgresState:
    """What a PostgreSQL store looks like to the connecting role."""

    url: StoreURL
    role: str
    dbname: str
    schema_exists: bool
    table_exists: bool
    checkpoints_exist: bool
    is_owner: bool
    may_create: bool
    schema_usage: bool
    may_read: bool
    may_write: bool

    @property
    def schema(self) -> str:
        return self.url.schema or "public"

    def require_readable(self) -> None:
        where = self.url.redacted()
        if not self.table_exists:
            raise StoreMissing(f"no store at {where}: it has no casino-audit tables")
        if not (self.schema_usage and self.may_read):
            raise StoreUnusable(
                f"cannot read the store {where}: role {self.role!r} has no SELECT on its "
                f"tables (the owner grants it: casino-audit db grant --reader {self.role})"
            )

    def plan_for_writing(self) -> bool:
        """Whether opening for writing runs the store's DDL (creating what is missing):
        yes for a new store the role may create, and for the tables' owner (as always);
        no for a role that only writes rows; ``StoreUnusable`` when the role may do
        neither."""
        where = self.url.redacted()
        if self.table_exists and not self.checkpoints_exist:
            # Both are made in one transaction: only a DROP parts them. Making a new, empty
            # one here would hide that; db init, run knowingly, makes it again.
            raise StoreUnusable(
                f"cannot write to the store {where}: its checkpoints table is missing "
                "(dropped?); the owner runs casino-audit db init to make a new one"
            )
        if self.table_exists and self.is_owner:
            return True
        if self.table_exists:
            if not (self.schema_usage and self.may_write):
                raise StoreUnusable(
                    f"cannot write to the store {where}: role {self.role!r} may not insert "
                    "events and checkpoints (the owner grants it: casino-audit db grant "
                    f"--writer {self.role})"
                )
            return False
        if not self.may_create:
            if self.schema_exists:
                why = f"no CREATE on schema {self.schema!r}"
            else:
                why = (
                    f"schema {self.schema!r} does not exist and the role has no CREATE "
                    f"on database {self.dbname!r}"
                )
            raise StoreUnusable(
                f"no store at {where}, and role {self.role!r} may not create one ({why}): "
                "the store's owner runs casino-audit db init first"
            )
        return True


def postgres_state(conn: Any, url: StoreURL) -> PostgresState:
    """How the store at ``url`` looks to the role of ``conn`` (nothing is created)."""
    row = conn.execute(
        _STATE_QUERY,
        {
            "schema": url.schema or "public",
            "events": POSTGRES_EVENTS_TABLE,
            "checkpoints": POSTGRES_CHECKPOINTS_TABLE,
        },
    ).fetchone()
    return PostgresState(url, *row)
