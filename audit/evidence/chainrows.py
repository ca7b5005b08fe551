"""Chain rows for evidence proofs: a subject's rows, a range of rows, the leaves.

Read-only queries on the store's events table, beside the recorders' own
(``audit.store.sqlite_recorder`` orders rows by ``rowid``, the PostgreSQL recorder by
``notification_id``): an evidence bundle needs each proven event's notification id and
chain link, which the recorders' aggregate reads do not return.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

from audit.store import LEGACY_FORM, AuditStore, ChainRow, chain_row

BATCH = 5000
_COLUMNS = "originator_id, originator_version, topic, state, chain_prev, chain_hash"


def _columns(store: AuditStore) -> str:
    """The columns of a ``ChainRow`` after its id: its shard and chain form too ('' and
    the legacy form in a store made before them, where every row is on the main chain
    and in that form)."""
    shard = ", chain_shard" if store.chained.is_sharded() else ", ''"
    return _COLUMNS + shard + (", chain_form" if store.chained.is_formed() else f", {LEGACY_FORM}")


def _postgres(store: AuditStore) -> bool:
    return store.url.kind == "postgresql"


def _table(store: AuditStore) -> Any:
    recorder: Any = store.recorder
    if not _postgres(store):
        return recorder.events_table_name
    from psycopg.sql import SQL, Identifier

    return SQL("{}.{}").format(
        Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name)
    )


def _query(store: AuditStore, template: str, params: tuple[object, ...]) -> list[Any]:
    """Run ``template`` (``{t}``: the events table, ``{id}``: its notification column,
    ``?`` placeholders) on either backend; rows as tuples."""
    recorder: Any = store.recorder
    if _postgres(store):
        from psycopg.sql import SQL

        sql = SQL(template.replace("?", "%s").replace("{id}", "notification_id")).format(
            t=_table(store)
        )
        with recorder.datastore.transaction(commit=False) as curs:
            curs.execute(sql, params)
            return [tuple(r.values()) for r in curs.fetchall()]
    text = template.replace("{id}", "rowid").replace("{t}", _table(store))
    with recorder.datastore.transaction(commit=False) as c:
        c.execute(text, params)
        return [tuple(r) for r in c.fetchall()]


def rows_of(store: AuditStore, originator: str) -> list[ChainRow]:
    """Every stored row of one aggregate (its 32-hex id), in version order."""
    key: Any = UUID(originator) if _postgres(store) else UUID(originator).hex
    rows = _query(
        store,
        f"SELECT {{id}}, {_columns(store)} FROM {{t}} WHERE originator_id = ? "
        "ORDER BY originator_version",
        (key,),
    )
    return [chain_row(*r) for r in rows]


def rows_between(store: AuditStore, after: int, upto: int) -> Iterator[ChainRow]:
    """Rows with ``after`` < notification id <= ``upto``, in order, streamed."""
    while after < upto:
        rows = _query(
            store,
            f"SELECT {{id}}, {_columns(store)} FROM {{t}} WHERE {{id}} > ? AND {{id}} <= ? "
            "ORDER BY {id} LIMIT ?",
            (after, upto, BATCH),
        )
        if not rows:
            return
        for r in rows:
            yield chain_row(*r)
        after = int(rows[-1][0])


def leaves(store: AuditStore, upto: int, after: int = 0) -> tuple[list[int], list[bytes]]:
    """(notification ids, chain hashes) of every row after ``after`` up to ``upto``, in
    order: the Merkle tree's leaf inputs (``audit.store.merkle``)."""
    ids: list[int] = []
    hashes: list[bytes] = []
    while after < upto:
        rows = _query(
            store,
            "SELECT {id}, chain_hash FROM {t} WHERE {id} > ? AND {id} <= ? ORDER BY {id} LIMIT ?",
            (after, upto, BATCH * 4),
        )
        if not rows:
            break
        ids.extend(int(r[0]) for r in rows)
        hashes.extend(bytes(r[1]) for r in rows)
        after = ids[-1]
    return ids, hashes
