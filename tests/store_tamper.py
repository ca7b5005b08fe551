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


@contextmanager
def written_per_event() -> Iterator[None]:
    """Stores opened inside append a row per event, as every release before packed rows
    (``audit.store.packing``) did: how the tests make an old store."""
    import audit.store.application as application

    packed = application.packed_rows
    application.packed_rows = lambda kind, events: list(events)
    try:
        yield
    finally:
        application.packed_rows = packed


def execute(store_url: str, statement: str, params: tuple = ()) -> list[tuple]:
    """Run one statement ({t} = events table, {id} = order column, {p} = placeholder)."""
    with raw_connection(store_url) as (conn, table, id_col, ph):
        cursor = conn.execute(statement.format(t=table, id=id_col, p=ph), params)
        try:
            return list(cursor.fetchall())
        except (sqlite3.ProgrammingError, psycopg.ProgrammingError):
            return []


def flip_a_byte(store_url: str, victim: int) -> None:
    """Change one byte in the middle of the stored state of the row at notification
    ``victim`` (inside a packed row's compressed events)."""
    [(state,)] = execute(store_url, "SELECT state FROM {t} WHERE {id} = {p}", (victim,))
    altered = bytearray(state)
    altered[len(altered) // 2] ^= 0x01
    execute(store_url, "UPDATE {t} SET state = {p} WHERE {id} = {p}", (bytes(altered), victim))


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
        link = link_hash(prev, originator_hex(originator_id), version, topic, state, MAIN_SHARD)
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
        heads = encode_heads([ShardHead(MAIN_SHARD, notification_id, link)], signed=True)
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


def as_written_before_shard_form(store_url: str, key: Any = None) -> None:
    """Rewrite a store into the form the release before issue #26 wrote: every event's
    chain hash without its shard (``legacy_link_hash``, ``chain_form`` 1), every
    checkpoint's chain hash, Merkle root, frontier and shard heads recomputed over those
    hashes, its shard heads in the unsigned form, and (with ``key``, an Ed25519 private
    key) its signature made again over message v2, the one that release signed."""
    rechain(store_url, legacy=True, key=key)


def rechain(
    store_url: str,
    *,
    legacy: bool = False,
    rename: dict[str, str] | None = None,
    key: Any = None,
) -> None:
    """Recompute every chain hash of a sharded store (its shards renamed by ``rename``;
    in the legacy form when ``legacy``) and every checkpoint over them (chain hash, Merkle
    root, frontier, shard heads, in the unsigned form when ``legacy``): what an attacker
    with database access and the algorithms can do. Without the private key (``key``)
    the signatures stay as they were, made over the history before."""
    from audit.store.chain import GENESIS, Checkpoint, legacy_link_hash, link_hash, originator_hex
    from audit.store.merkle import TreeBuilder
    from audit.store.shards import ShardHead, decode_heads, encode_heads
    from audit.store.signing import sign

    names = rename or {}
    rows = execute(
        store_url,
        "SELECT {id}, originator_id, originator_version, topic, state, chain_shard FROM {t} "
        "ORDER BY {id}",
    )
    prev: dict[str, bytes] = {}
    builder, at = TreeBuilder(), {}
    for notification_id, originator_id, version, topic, state, shard in rows:
        shard = names.get(shard, shard)
        identity = (originator_hex(originator_id), version, topic, bytes(state))
        before = prev.get(shard, GENESIS)
        link = (
            legacy_link_hash(before, *identity) if legacy else link_hash(before, *identity, shard)
        )
        execute(
            store_url,
            "UPDATE {t} SET chain_prev = {p}, chain_hash = {p}, chain_form = {p}, "
            "chain_shard = {p} WHERE {id} = {p}",
            (before, link, 1 if legacy else 2, shard, notification_id),
        )
        prev[shard] = link
        builder.append(link)
        at[notification_id] = (link, builder.root(), builder.frontier_bytes(), builder.size)
    table = checkpoints_table(store_url)
    for notification_id, heads, signature, head_time, rooted in execute(
        store_url,
        f"SELECT notification_id, shard_heads, signature, head_time, tree_root IS NOT NULL "
        f"FROM {table}",
    ):
        link, root, frontier, size = at[notification_id]
        recorded = decode_heads(bytes(heads) if heads is not None else None)[0] or ()
        new = [
            ShardHead(names.get(h.shard, h.shard), h.notification_id, at[h.notification_id][0])
            for h in recorded
        ]
        checkpoint = Checkpoint(
            notification_id,
            link,
            size,
            tree_root=root if rooted else b"",
            head_time=head_time or 0,
            shard_heads=tuple(new),
            shards_signed=not legacy and bool(rooted),
        )
        if key is not None and signature:
            signature = sign(checkpoint, key).signature
        execute(
            store_url,
            f"UPDATE {table} SET chain_hash = {{p}}, tree_root = {{p}}, tree_frontier = {{p}}, "
            f"shard_heads = {{p}}, signature = {{p}} WHERE notification_id = {{p}}",
            (
                link,
                root if rooted else None,
                frontier if rooted else None,
                encode_heads(new, signed=checkpoint.shards_signed),
                signature,
                notification_id,
            ),
        )
