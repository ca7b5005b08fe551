"""Chain shards: the store's events form one hash chain per shard, so that writers of
different shards append side by side.

A shard is named by its writer (``AuditStore(url, chain_shard=...)``): the nightly gives
each of a day's input shards its own (``night/<day>/<shard file>``), a command-line
ingest writes to the main chain. Every event links to the previous event *of its shard*
(``chain_prev``); the checkpoints' Merkle tree still covers every event in the store's
global order (``audit.store.merkle``), so a reordering across shards, a moved event or a
dropped shard changes the signed root, and each checkpoint also records the head of
every shard written since the one before (``ShardHead``), so that ``verify`` can name the
shard that lost events or vanished. Since issue #26 each event's chain hash covers its
shard (``audit.store.chain.SHARD_FORM``) and the shard heads are signed with the tree
head (``audit.store.signing``, message v3) and published with it to the witness: a
renamed, swapped or moved shard breaks its events' hashes, and shard heads edited,
dropped or emptied in the database no longer match their signature or the witness.

A store written before shards holds one chain: it is the main shard (``MAIN_SHARD``,
the empty name), which every event of such a store belongs to, so it verifies as it is
and later events extend it or start shards of their own (the column is added by the
owner's ``db init`` or, on SQLite and for a PostgreSQL owner, when the store is opened
for writing; until then writers append to the main chain, one at a time, as before).
"""

from __future__ import annotations

from collections.abc import Iterable
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


#: The form marker of signed shard heads as stored (``{"form": 3, "heads": [...]}``);
#: unsigned ones, written before issue #26, are the bare list.
SIGNED_HEADS_FORM = 3


def heads_list(heads: Iterable[ShardHead]) -> list[list[object]]:
    """The shard heads as JSON values, shards in name order."""
    ordered = sorted(heads, key=_by_shard)
    return [[h.shard, h.notification_id, h.chain_hash.hex()] for h in ordered]


def encode_heads(heads: Iterable[ShardHead], *, signed: bool) -> bytes:
    """The shard heads as stored beside a checkpoint (JSON), with the form marker when
    they are signed."""
    items = heads_list(heads)
    return orjson.dumps({"form": SIGNED_HEADS_FORM, "heads": items} if signed else items)


def _by_shard(head: ShardHead) -> str:
    return head.shard


def heads_from_list(items: object) -> tuple[ShardHead, ...]:
    """``heads_list``'s value read back (ValueError when it is not)."""
    if not isinstance(items, list):
        raise ValueError("the shard heads are not a list")
    try:
        return tuple(
            ShardHead(str(shard), int(at), bytes.fromhex(digest)) for shard, at, digest in items
        )
    except (TypeError, ValueError):
        raise ValueError("a shard head is not [shard, notification id, hex hash]") from None


def decode_heads(data: bytes | None) -> tuple[tuple[ShardHead, ...] | None, bool]:
    """(the shard heads stored beside a checkpoint, whether they are in the signed form);
    heads () when none were recorded and None when the stored value is not what
    ``encode_heads`` writes (tampered)."""
    if not data:
        return (), False
    try:
        value = orjson.loads(data)
        if isinstance(value, dict):
            if value.get("form") != SIGNED_HEADS_FORM:
                return None, False
            return heads_from_list(value.get("heads")), True
        return heads_from_list(value), False
    except (orjson.JSONDecodeError, ValueError):
        return None, False


def heads_message(heads: Iterable[ShardHead]) -> bytes:
    """The shard heads as signed (``audit.store.signing``, message v3): their number,
    then per shard in name order its length-prefixed UTF-8 name, notification id and
    chain hash."""
    ordered = sorted(heads, key=_by_shard)
    parts = [len(ordered).to_bytes(4, "big")]
    for head in ordered:
        name = head.shard.encode()
        parts += [len(name).to_bytes(4, "big"), name, head.notification_id.to_bytes(8, "big")]
        parts.append(len(head.chain_hash).to_bytes(4, "big") + head.chain_hash)
    return b"".join(parts)
