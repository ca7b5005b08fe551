"""Direct database access for tamper tests: bypasses the application on purpose."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from audit.config import parse_store_url


@contextmanager
def raw_connection(store_url: str) -> Iterator[tuple[Any, str, str, str]]:
    """(connection, events table, id column, placeholder) with the append-only guard off."""
    url = parse_store_url(store_url)
    if url.kind == "sqlite":
        conn = sqlite3.connect(url.sqlite_path, isolation_level=None)
        conn.execute("DROP TRIGGER IF EXISTS stored_events_no_update")
        conn.execute("DROP TRIGGER IF EXISTS stored_events_no_delete")
        conn.execute("DROP TRIGGER IF EXISTS chain_checkpoints_no_delete")
        conn.execute("DROP TRIGGER IF EXISTS chain_checkpoints_no_update")
        try:
            yield conn, "stored_events", "rowid", "?"
        finally:
            conn.close()
        return
    dsn = store_url.split("?")[0]
    with psycopg.connect(dsn, autocommit=True) as conn:
        table = f"{url.schema}.casinoaudit_events"
        conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        conn.execute(f"ALTER TABLE {table}_checkpoints DISABLE TRIGGER USER")
        try:
            yield conn, table, "notification_id", "%s"
        finally:
            conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
            conn.execute(f"ALTER TABLE {table}_checkpoints ENABLE TRIGGER USER")


def execute(store_url: str, statement: str, params: tuple = ()) -> list[tuple]:
    """Run one statement ({t} = events table, {id} = order column, {p} = placeholder)."""
    with raw_connection(store_url) as (conn, table, id_col, ph):
        cursor = conn.execute(statement.format(t=table, id=id_col, p=ph), params)
        try:
            return list(cursor.fetchall())
        except (sqlite3.ProgrammingError, psycopg.ProgrammingError):
            return []
