"""Whether a store already exists, asked without creating anything.

Read commands (``findings``, ``show``, ``verify``, ``quarantine``) never create a store:
a missing SQLite file or a PostgreSQL database or schema without the events table is
an error that names the URL without its password.
"""

from __future__ import annotations

from pathlib import Path

from audit.config import StoreURL

EVENTS_TABLE = "stored_events"


class StoreMissing(Exception):
    """The store named by a URL does not exist (the message is safe to print)."""


def require_existing(url: StoreURL) -> None:
    """Raise ``StoreMissing`` unless the store at ``url`` holds casino-audit's tables."""
    where = url.redacted()
    if url.kind == "sqlite":
        path = Path(url.sqlite_path)
        if not path.is_file():
            raise StoreMissing(f"no store at {where}: the file does not exist")
        return
    import psycopg

    try:
        with psycopg.connect(
            host=url.host,
            port=url.port,
            user=url.user,
            password=url.password,
            dbname=url.dbname,
            connect_timeout=10,
        ) as conn:
            found = conn.execute(
                "SELECT 1 FROM information_schema.tables"
                " WHERE table_schema = %s AND table_name = %s",
                (url.schema or "public", EVENTS_TABLE),
            ).fetchone()
    except psycopg.Error as error:
        message = str(error).replace(url.password, "***") if url.password else str(error)
        raise StoreMissing(f"cannot open the store {where}: {message.strip()}") from None
    if found is None:
        raise StoreMissing(f"no store at {where}: it has no casino-audit tables")
