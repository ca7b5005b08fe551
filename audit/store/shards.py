"""Chain shards: the store's events form one hash chain per shard, so that writers of
different shards append side by side.

A shard is named by its writer (``AuditStore(url, chain_shard=...)``): the nightly gives
each of a day's input shards its own (``night/<day>/<shard file>``), a command-line
ingest writes to the main chain. Every event links to the previous event *of its shard*
(``chain_prev``); the checkpoints' Merkle tree still covers every event in the store's
global order (``audit.store.merkle``), so a reordering across shards, a moved event or a
dropped shard changes the signed root, and each checkpoint also records the head of
every shard written since the one before (``ShardHead``), so that ``verify`` can name the
shard that lost events or vanished.

A store written before shards holds one chain: it is the main shard (``MAIN_SHARD``,
the empty name), which every event of such a store belongs to, so it verifies as it is
and later events extend it or start shards of their own (the column is added by the
owner's ``db init`` or, on SQLite and for a PostgreSQL owner, when the store is opened
for writing; until then writers append to the main chain, one at a time, as before).
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson

MAIN_SHARD = ""
MAX_SHARD_NAME = 200


class ShardNameError(ValueError):
    """A chain shard name the store refuses (the message says why)."""


def checked_shard(name: str) -> str:
    """``name`` when it may name a chain shard: at most ``MAX_SHARD_NAME`` printable
    characters (it is stored beside every event and printed by ``verify``)."""
    if len(name) > MAX_SHARD_NAME:
        raise ShardNameError(f"a chain shard name has at most {MAX_SHARD_NAME} characters")
    if not name.isprintable():
        raise ShardNameError(f"chain shard name {name!r} holds unprintable characters")
    return name


def shard_label(name: str) -> str:
    """How a message names a shard (escaped: a tampered name cannot drive a terminal)."""
    return "the main chain" if name == MAIN_SHARD else f"shard {name!r}"


@dataclass(frozen=True, slots=True)
class ShardHead:
    """The last event of a shard at a checkpoint: its notification id and chain hash."""

    shard: str
    notification_id: int
    chain_hash: bytes


def encode_heads(heads: list[ShardHead]) -> bytes:
    """The shard heads as stored beside a checkpoint (JSON, shards in name order)."""
    return orjson.dumps(
        [[h.shard, h.notification_id, h.chain_hash.hex()] for h in sorted(heads, key=_by_shard)]
    )


def _by_shard(head: ShardHead) -> str:
    return head.shard


def decode_heads(data: bytes | None) -> tuple[ShardHead, ...] | None:
    """The shard heads stored beside a checkpoint; () when none were recorded and None
    when the stored value is not what ``encode_heads`` writes (tampered)."""
    if not data:
        return ()
    try:
        items = orjson.loads(data)
        return tuple(
            ShardHead(str(shard), int(at), bytes.fromhex(digest)) for shard, at, digest in items
        )
    except (orjson.JSONDecodeError, TypeError, ValueError):
        return None
