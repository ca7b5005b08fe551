"""The hash chains over the store's events (tamper evidence).

Every stored event carries ``chain_prev`` (the hash of the previous event of its chain
shard, ``audit.store.shards``; 32 zero bytes for a shard's first event) and ``chain_hash``
= SHA-256 over ``chain_prev`` and the event's identity and bytes, length-prefixed so that
no two different events hash alike::

    chain_hash = sha256(chain_prev ‖ len‖originator_id_hex ‖ version(8 bytes)
                        ‖ len‖topic ‖ len‖state)

Changing any stored byte breaks that row's hash; deleting, inserting or reordering rows
of a shard breaks the next row's link. The checkpoints, recorded after every ingest,
catch the rest: the Merkle root over every event's chain hash in the global order (a
reordering across shards, a deleted tail), the event count, and the head of each shard
written since the checkpoint before (a shard dropped whole, or cut short).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from audit.store.merkle import TreeBuilder
from audit.store.shards import MAIN_SHARD, ShardHead, decode_heads, shard_label

GENESIS = bytes(32)


_sha256 = hashlib.sha256


def originator_hex(originator_id: UUID | str) -> str:
    """The originator id as 32 hex digits, however the backend returns it."""
    return originator_id.hex if isinstance(originator_id, UUID) else UUID(originator_id).hex


def link_hash(prev: bytes, originator_id: str, version: int, topic: str, state: bytes) -> bytes:
    """The chain hash of one event given its predecessor's hash."""
    oid, name = originator_id.encode(), topic.encode()
    return _sha256(
        b"".join(
            (
                prev,
                len(oid).to_bytes(4, "big"),
                oid,
                version.to_bytes(8, "big", signed=True),
                len(name).to_bytes(4, "big"),
                name,
                len(state).to_bytes(4, "big"),
                state,
            )
        )
    ).digest()


@dataclass(frozen=True, slots=True)
class ChainRow:
    """One stored row as verification reads it."""

    notification_id: int
    originator_id: str
    originator_version: int
    topic: str
    state: bytes
    chain_prev: bytes
    chain_hash: bytes
    shard: str = MAIN_SHARD


def _as_bytes(value: object) -> bytes:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    return str(value).encode()


def _as_originator(value: object) -> str:
    try:
        return originator_hex(value)  # type: ignore[arg-type]
    except (ValueError, TypeError, AttributeError):
        return f"(not a uuid: {value!r})"


def chain_row(
    notification_id: int,
    originator_id: object,
    version: object,
    topic: object,
    state: object,
    chain_prev: object,
    chain_hash: object,
    shard: object = MAIN_SHARD,
) -> ChainRow:
    """A ChainRow from raw column values, whatever a tamperer left in them."""
    return ChainRow(
        int(notification_id),  # type: ignore[call-overload]
        _as_originator(originator_id),
        int(version) if isinstance(version, int) else -1,
        str(topic),
        _as_bytes(state),
        _as_bytes(chain_prev),
        _as_bytes(chain_hash),
        str(shard),
    )


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The chain head recorded at a point in the global order: a signed tree head.

    ``tree_root`` is the Merkle root (``audit.store.merkle``) of the first
    ``event_count`` events and ``head_time`` when the head was made (milliseconds since
    the epoch, UTC); both are signed with the rest. Checkpoints written before the Merkle
    tree have neither (``tree_root`` empty) and are signed as before. ``tree_frontier``
    (not signed) holds the subtree roots the next checkpoint extends instead of reading
    every event again. ``shard_heads`` (not signed: the root covers every event) holds
    the heads of the shards written since the checkpoint before (``audit.store.shards``);
    None when the stored value is unreadable.
    """

    notification_id: int
    chain_hash: bytes
    event_count: int
    signature: bytes = b""
    key_id: str = ""
    tree_root: bytes = b""
    head_time: int = 0
    tree_frontier: bytes = field(default=b"", repr=False, compare=False)
    shard_heads: tuple[ShardHead, ...] | None = field(default=(), repr=False, compare=False)


def tree_head_row(
    notification_id: int,
    chain_hash: object,
    event_count: int,
    signature: object,
    key_id: str,
    tree_root: object = None,
    head_time: int | None = None,
    tree_frontier: object = None,
    shard_heads: object = None,
) -> Checkpoint:
    """A Checkpoint from a checkpoints-table row (tree columns NULL or absent: a
    checkpoint written before the Merkle tree; shard heads NULL or absent: before
    shards)."""
    return Checkpoint(
        notification_id,
        _as_bytes(chain_hash),
        event_count,
        _as_bytes(signature),
        key_id,
        _as_bytes(tree_root) if tree_root is not None else b"",
        head_time or 0,
        _as_bytes(tree_frontier) if tree_frontier is not None else b"",
        decode_heads(_as_bytes(shard_heads) if shard_heads is not None else None),
    )


@dataclass(frozen=True)
class ChainReport:
    """The outcome of a verification: ok, or the first broken link and why."""

    events_checked: int
    head_hash: bytes
    checkpoints_checked: int
    broken_at: int | None = None
    problem: str = ""
    signatures_checked: int = 0
    unsigned_checkpoints: int = 0
    shards: int = 0

    @property
    def ok(self) -> bool:
        return self.broken_at is None and not self.problem


def _link_problem(row: ChainRow, prev: bytes) -> str:
    """Why a row does not extend its shard's chain ending in ``prev`` ('' when it does)."""
    where = f"event at notification {row.notification_id} ({row.originator_id} v"
    where += f"{row.originator_version}"
    where += ")" if row.shard == MAIN_SHARD else f", {shard_label(row.shard)})"
    if row.chain_prev != prev:
        return (
            f"{where} does not link to its predecessor: an event before it was "
            "deleted, inserted or reordered"
        )
    if (
        link_hash(prev, row.originator_id, row.originator_version, row.topic, row.state)
        != row.chain_hash
    ):
        return f"{where} was altered: its content no longer matches its hash"
    return ""


class _Walk:
    """The state of a verification at a point of the global order: each shard's last
    event (notification id, hash), the events counted, the Merkle tree over them."""

    def __init__(self) -> None:
        self.heads: dict[str, tuple[int, bytes]] = {}
        self.count = 0
        self.last = GENESIS
        self.tree = TreeBuilder()

    def add(self, row: ChainRow) -> str:
        """Extend the walk by a row; why it does not extend its shard ('' when it does)."""
        problem = _link_problem(row, self.heads.get(row.shard, (0, GENESIS))[1])
        if not problem:
            self.heads[row.shard] = (row.notification_id, row.chain_hash)
            self.last, self.count = row.chain_hash, self.count + 1
            self.tree.append(row.chain_hash)
        return problem

    def checkpoint_problem(self, checkpoint: Checkpoint) -> str:
        """Why the store up to here does not match a checkpoint at this point ('' if
        it does): a shard it names first, then its head and count, then its root."""
        at = f"checkpoint at notification {checkpoint.notification_id}"
        problem = self.shard_problem(checkpoint)
        if problem:
            return problem
        if checkpoint.chain_hash != self.last or checkpoint.event_count != self.count:
            return f"{at} does not match the chain: events before it were changed, removed or added"
        if checkpoint.tree_root and checkpoint.tree_root != self.tree.root():
            return (
                f"{at}: the Merkle root of the events up to it differs from the signed "
                "one: events were reordered, moved between shards, removed or added"
            )
        return ""

    def shard_problem(self, checkpoint: Checkpoint) -> str:
        """Which shard the checkpoint names does not end here where it says ('' none)."""
        at = f"checkpoint at notification {checkpoint.notification_id}"
        if checkpoint.shard_heads is None:
            return f"{at}: its record of the shard heads is unreadable (altered)"
        for head in checkpoint.shard_heads:
            found = self.heads.get(head.shard)
            if found is None:
                return (
                    f"{at} names {shard_label(head.shard)} ending at notification "
                    f"{head.notification_id}, and the store has no event of it: the shard "
                    "was dropped"
                )
            if found != (head.notification_id, head.chain_hash):
                return (
                    f"{at}: {shard_label(head.shard)} ended at notification "
                    f"{head.notification_id}, the store's ends at {found[0]}: events of the "
                    "shard were deleted, added or reordered"
                )
        return ""


def verify_rows(rows: Iterable[ChainRow], checkpoints: Iterable[Checkpoint]) -> ChainReport:
    """Recompute each shard's chain over rows in notification order and check every
    checkpoint (its head hash and count, its Merkle root, its shard heads).

    Streams: memory grows with the number of shards, not of events. Stops at the first
    broken link.
    """
    pending: Iterator[Checkpoint] = iter(sorted(checkpoints, key=lambda c: c.notification_id))
    checkpoint = next(pending, None)
    checked = 0
    walk = _Walk()

    def broken(at: int, problem: str) -> ChainReport:
        return ChainReport(walk.count, walk.last, checked, broken_at=at, problem=problem)

    for row in rows:
        if checkpoint and checkpoint.notification_id < row.notification_id:
            return broken(
                checkpoint.notification_id,
                walk.shard_problem(checkpoint)
                or f"checkpoint at notification {checkpoint.notification_id} names an "
                "event that is no longer in the store (deleted)",
            )
        problem = walk.add(row)
        if problem:
            return broken(row.notification_id, problem)
        if checkpoint and checkpoint.notification_id == row.notification_id:
            problem = walk.checkpoint_problem(checkpoint)
            if problem:
                return broken(row.notification_id, problem)
            checked += 1
            checkpoint = next(pending, None)
    if checkpoint is not None:
        return broken(
            checkpoint.notification_id,
            walk.shard_problem(checkpoint)
            or f"checkpoint at notification {checkpoint.notification_id} is past the "
            "last stored event: events at the end were deleted",
        )
    return ChainReport(walk.count, walk.last, checked, shards=len(walk.heads))


def chain_links(
    prev: bytes, rows: Iterable[tuple[str, int, str, bytes]], shard: str | None = None
) -> Iterator[tuple[Any, ...]]:
    """Extend a shard's chain from ``prev`` over (originator_hex, version, topic, state)
    rows: each row with its ``chain_prev`` and ``chain_hash`` (and ``shard``, unless None:
    a store without the shard column)."""
    tail = () if shard is None else (shard,)
    for originator_id, version, topic, state in rows:
        new = link_hash(prev, originator_id, version, topic, state)
        yield (originator_id, version, topic, state, prev, new, *tail)
        prev = new
