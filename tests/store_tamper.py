"""Direct database access for tamper tests: bypasses the application on purpose."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
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


def checkpoints_table(store_url: str) -> str:
    """The checkpoints table, in ``execute``'s terms."""
    return "chain_checkpoints" if store_url.startswith("sqlite") else "{t}_checkpoints"


def recompute_history(
    store_url: str, victim: int, alter: Callable[[bytes], bytes], *, strip_signatures: bool
) -> None:
    """What an attacker with database access and the algorithms can do to a store of one
    chain: alter the event at notification ``victim``, recompute every chain hash and
    every checkpoint (chain hash, Merkle root, frontier, shard heads). Only the signing
    key is out of reach: the signatures stay (and no longer verify) or are stripped."""
    from audit.store.chain import GENESIS, link_hash, originator_hex
    from audit.store.merkle import TreeBuilder
    from audit.store.shards import MAIN_SHARD, ShardHead, encode_heads

    rows = execute(
        store_url,
        "SELECT {id}, originator_id, originator_version, topic, state FROM {t} ORDER BY {id}",
    )
    prev, builder, at = GENESIS, TreeBuilder(), {}
    for notification_id, originator_id, version, topic, state in rows:
        state = bytes(state)
        if notification_id == victim:
            state = alter(state)
            execute(store_url, "UPDATE {t} SET state = {p} WHERE {id} = {p}", (state, victim))
        link = link_hash(prev, originator_hex(originator_id), version, topic, state)
        execute(
            store_url,
            "UPDATE {t} SET chain_prev = {p}, chain_hash = {p} WHERE {id} = {p}",
            (prev, link, notification_id),
        )
        builder.append(link)
        at[notification_id] = (link, builder.root(), builder.frontier_bytes())
        prev = link
    table = checkpoints_table(store_url)
    unsign = ", signature = '', key_id = ''" if strip_signatures else ""
    for (notification_id,) in execute(store_url, f"SELECT notification_id FROM {table}"):
        link, root, frontier = at[notification_id]
        heads = encode_heads([ShardHead(MAIN_SHARD, notification_id, link)])
        execute(
            store_url,
            f"UPDATE {table} SET chain_hash = {{p}}, tree_root = {{p}}, tree_frontier = {{p}}, "
            f"shard_heads = {{p}}{unsign} WHERE notification_id = {{p}}",
            (link, root, frontier, heads, notification_id),
        )


def swap_positions(store_url: str, first: int, second: int) -> None:
    """Swap two whole rows' places in the global order (their notification ids)."""
    execute(store_url, "UPDATE {t} SET {id} = {p} WHERE {id} = {p}", (10**6, first))
    execute(store_url, "UPDATE {t} SET {id} = {p} WHERE {id} = {p}", (first, second))
    execute(store_url, "UPDATE {t} SET {id} = {p} WHERE {id} = {p}", (second, 10**6))
