"""The hash chains over the store's events (tamper evidence).

Every stored event carries ``chain_prev`` (the hash of the previous event of its chain
shard, ``audit.store.shards``; 32 zero bytes for a shard's first event), ``chain_hash``
and ``chain_form``, which says how ``chain_hash`` was made. Events are written in the
shard form (``SHARD_FORM``): SHA-256 over ``chain_prev``, the event's chain shard, its
identity and its bytes, length-prefixed so that no two different events hash alike::

    chain_hash = sha256(chain_prev ‖ 0x02 ‖ len‖chain_shard ‖ len‖originator_id_hex
                        ‖ version(8 bytes) ‖ len‖topic ‖ len‖state)

A row is one event, or a packed row (``audit.store.packing``): one subject's events of
one append, its topic a marker, its version the first it holds, its state the
compressed events. The hash covers the row as stored, so a packed row's chain hash
covers its compressed bytes (verification never inflates a row) and the Merkle tree's
leaves, and a checkpoint's ``event_count``, count rows.

Events written before the shard was covered (issue #26) keep their form
(``LEGACY_FORM``, the column's default for them): the same without ``0x02 ‖
len‖chain_shard`` (``legacy_link_hash``), checked as they were made. The byte after
``chain_prev`` tells the two encodings apart (0x02 in the shard form; 0x00, the first
byte of the originator id's length, in the legacy form), so a row cannot pass for the
other form by changing its marker: its recomputed hash changes.

Changing any stored byte of a shard-form event, its shard included, breaks that row's
hash; deleting, inserting or reordering rows of a shard breaks the next row's link. The
checkpoints, recorded after every ingest, catch the rest: the Merkle root over every
event's chain hash in the global order (a reordering across shards, a deleted tail),
the event count, and the head of each shard written since the checkpoint before (a
shard dropped whole, or cut short), signed with the rest (``audit.store.signing``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from audit.store.merkle import TreeBuilder
from audit.store.shards import MAIN_SHARD, ShardHead, decode_heads, shard_label
from replayer.frozen import rebuilt_by_init

GENESIS = bytes(32)


_sha256 = hashlib.sha256


def originator_hex(originator_id: UUID | str) -> str:
    """The originator id as 32 hex digits, however the backend returns it."""
    return originator_id.hex if isinstance(originator_id, UUID) else UUID(originator_id).hex


LEGACY_FORM = 1
"""``chain_hash`` without the chain shard: events written before issue #26."""
SHARD_FORM = 2
"""``chain_hash`` over the chain shard too: every event written since."""


def _digest(
    prev: bytes, shard_part: bytes, originator_id: str, version: int, topic: str, state: bytes
) -> bytes:
    oid, name = originator_id.encode(), topic.encode()
    return _sha256(
        b"".join(
            (
                prev,
                shard_part,
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


def _shard_part(shard: str) -> bytes:
    name = shard.encode()
    return b"\x02" + len(name).to_bytes(4, "big") + name


def link_hash(
    prev: bytes, originator_id: str, version: int, topic: str, state: bytes, shard: str
) -> bytes:
    """The chain hash of one event of ``shard`` given its predecessor's (``SHARD_FORM``)."""
    return _digest(prev, _shard_part(shard), originator_id, version, topic, state)


def legacy_link_hash(
    prev: bytes, originator_id: str, version: int, topic: str, state: bytes
) -> bytes:
    """The chain hash of an event written in ``LEGACY_FORM`` (its shard not covered): for
    verifying the events stored before the shard form, never for writing."""
    return _digest(prev, b"", originator_id, version, topic, state)


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
    form: int = LEGACY_FORM
    """How ``chain_hash`` was made (``SHARD_FORM`` or ``LEGACY_FORM``)."""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


def _as_bytes(value: object) -> bytes:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    return str(value).encode()


def _as_originator(value: object) -> str:
    if isinstance(value, UUID | str):
        try:
            return originator_hex(value)
        except ValueError:
            pass
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
    form: object = LEGACY_FORM,
) -> ChainRow:
    """A ChainRow from raw column values, whatever a tamperer left in them (a store
    without the form column: ``LEGACY_FORM``)."""
    return ChainRow(
        int(notification_id),
        _as_originator(originator_id),
        int(version) if isinstance(version, int) else -1,
        str(topic),
        _as_bytes(state),
        _as_bytes(chain_prev),
        _as_bytes(chain_hash),
        str(shard),
        form if isinstance(form, int) else -1,
    )


def row_hash(prev: bytes, row: ChainRow) -> bytes | None:
    """The chain hash of ``row`` after ``prev`` in the form the row is marked with (None:
    a marker no release writes, a tampered row)."""
    if row.form == SHARD_FORM:
        return link_hash(
            prev, row.originator_id, row.originator_version, row.topic, row.state, row.shard
        )
    if row.form == LEGACY_FORM:
        return legacy_link_hash(
            prev, row.originator_id, row.originator_version, row.topic, row.state
        )
    return None


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The chain head recorded at a point in the global order: a signed tree head.

    ``tree_root`` is the Merkle root (``audit.store.merkle``) of the first
    ``event_count`` events and ``head_time`` when the head was made (milliseconds since
    the epoch, UTC); both are signed with the rest. Checkpoints written before the Merkle
    tree have neither (``tree_root`` empty) and are signed as before. ``tree_frontier``
    (not signed) holds the subtree roots the next checkpoint extends instead of reading
    every event again. ``shard_heads`` holds the heads of the shards written since the
    checkpoint before (``audit.store.shards``; None when the stored value is unreadable)
    and ``shards_signed`` whether they are signed with the rest (the signed message v3,
    written since issue #26; the form is recorded with the heads): a tree head without
    it (written before) is signed as before, its shard heads outside the signature.
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
    shards_signed: bool = field(default=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


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
    heads, signed = decode_heads(_as_bytes(shard_heads) if shard_heads is not None else None)
    return Checkpoint(
        notification_id,
        _as_bytes(chain_hash),
        event_count,
        _as_bytes(signature),
        key_id,
        _as_bytes(tree_root) if tree_root is not None else b"",
        head_time or 0,
        _as_bytes(tree_frontier) if tree_frontier is not None else b"",
        heads,
        signed,
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
    trail_unsigned: int = 0
    """Rows after the last signed checkpoint that are all the console's own access trail
    (``audit.store.unsigned_tail``): named, not failed, by ``require_signed``."""

    @property
    def ok(self) -> bool:
        return self.broken_at is None and not self.problem

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


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
    recomputed = row_hash(prev, row)
    if recomputed is None:
        return f"{where} was altered: its chain form marker {row.form} is none this store writes"
    if recomputed != row.chain_hash:
        return f"{where} was altered: its content or shard no longer matches its hash"
    return ""


class _Walk:
    """The state of a verification at a point of the global order: each shard's last
    event (notification id, hash), the events counted, the Merkle tree over them."""

    def __init__(self) -> None:
        self.heads: dict[str, tuple[int, bytes]] = {}
        self.count = 0
        self.last = GENESIS
        self.tree = TreeBuilder()
        self.written: set[str] = set()  # shards written since the last checkpoint
        self.signed_heads_at = 0  # the last checkpoint whose shard heads are signed

    def add(self, row: ChainRow) -> str:
        """Extend the walk by a row; why it does not extend its shard ('' when it does)."""
        problem = _link_problem(row, self.heads.get(row.shard, (0, GENESIS))[1])
        if not problem:
            self.heads[row.shard] = (row.notification_id, row.chain_hash)
            self.last, self.count = row.chain_hash, self.count + 1
            self.tree.append(row.chain_hash)
            self.written.add(row.shard)
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
        return self.heads_form_problem(checkpoint)

    def heads_form_problem(self, checkpoint: Checkpoint) -> str:
        """Why the checkpoint's record of shard heads is not whole ('' when it is): signed
        heads name every shard written since the checkpoint before (the writer names those
        since the tree head it extends, never fewer), and once a checkpoint's heads are
        signed no later checkpoint's are unsigned (the recorded form was downgraded)."""
        at = f"checkpoint at notification {checkpoint.notification_id}"
        written, self.written = self.written, set()
        if not checkpoint.shards_signed:
            if self.signed_heads_at:
                return (
                    f"{at}: its shard heads are in the unsigned form, after the signed heads "
                    f"of the checkpoint at notification {self.signed_heads_at}: the record "
                    "of its shard heads was replaced"
                )
            return ""
        self.signed_heads_at = checkpoint.notification_id
        named = {head.shard for head in checkpoint.shard_heads or ()}
        dropped = sorted(written - named)
        if dropped:
            return (
                f"{at} names no head for {shard_label(dropped[0])}, written since the "
                "checkpoint before: the shard's head was dropped from its record"
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


def heads_at(checkpoints: Iterable[Checkpoint], upto: int) -> dict[str, tuple[int, bytes]]:
    """Each shard's last row at notification ``upto`` by the checkpoints alone: a
    checkpoint names only the shards written since the checkpoint before, so the latest
    head of each shard over every checkpoint up to ``upto``."""
    heads: dict[str, tuple[int, bytes]] = {}
    for checkpoint in sorted(checkpoints, key=lambda c: c.notification_id):
        if checkpoint.notification_id > upto:
            break
        for head in checkpoint.shard_heads or ():
            heads[head.shard] = (head.notification_id, head.chain_hash)
    return heads


def _seeded(walk: _Walk, start: Checkpoint, checkpoints: list[Checkpoint]) -> str:
    """Set the walk to the state at ``start`` (rows up to it retired): each shard's head
    (``heads_at``), the row count and last hash, the Merkle tree from ``start``'s
    frontier, which must fold to its root; why it cannot start there ('' when it can)."""
    at = f"starting checkpoint at notification {start.notification_id}"
    try:
        tree = TreeBuilder.from_frontier_bytes(start.event_count, start.tree_frontier)
    except ValueError:
        return f"{at} has no usable Merkle frontier (altered, or written before tree heads)"
    if not start.tree_root or tree.root() != start.tree_root:
        return f"{at}: its Merkle frontier does not fold to its root (altered)"
    walk.heads = heads_at(checkpoints, start.notification_id)
    walk.count, walk.last, walk.tree = start.event_count, start.chain_hash, tree
    walk.signed_heads_at = start.notification_id if start.shards_signed else 0
    return ""


def verify_rows(
    rows: Iterable[ChainRow], checkpoints: Iterable[Checkpoint], start: Checkpoint | None = None
) -> ChainReport:
    """Recompute each shard's chain over rows in notification order and check every
    checkpoint (its head hash and count, its Merkle root, its shard heads).

    With ``start`` (a checkpoint with its frontier; the rows up to it retired,
    ``audit.store.retention``), the walk begins there (``_seeded``): rows up to it are
    skipped, later checkpoints checked as usual. Streams: memory grows with the number
    of shards, not of events. Stops at the first broken link.
    """
    ordered = sorted(checkpoints, key=lambda c: c.notification_id)
    walk = _Walk()
    checked = 0

    def broken(at: int, problem: str) -> ChainReport:
        return ChainReport(walk.count, walk.last, checked, broken_at=at, problem=problem)

    after = 0
    if start is not None:
        problem = _seeded(walk, start, ordered)
        if problem:
            return broken(start.notification_id, problem)
        after = start.notification_id
    pending: Iterator[Checkpoint] = iter([c for c in ordered if c.notification_id > after])
    checkpoint = next(pending, None)

    for row in rows:
        if row.notification_id <= after:
            continue
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
    prev: bytes,
    rows: Iterable[tuple[str, int, str, bytes]],
    shard: str | None = None,
    *,
    formed: bool = True,
) -> Iterator[tuple[Any, ...]]:
    """Extend a shard's chain from ``prev`` over (originator_hex, version, topic, state)
    rows: each row with its ``chain_prev`` and ``chain_hash``, then ``shard`` and its
    ``chain_form`` (``SHARD_FORM``). A store without the shard column (``shard`` None) or
    without the form column (``formed`` False; not yet migrated) gets ``LEGACY_FORM``
    rows without the columns it lacks, as before."""
    tail: tuple[Any, ...] = ()
    if shard is None:
        formed = False
    else:
        tail = (shard, SHARD_FORM) if formed else (shard,)
    shard_part = _shard_part(shard) if formed and shard is not None else b""
    for originator_id, version, topic, state in rows:
        new = _digest(prev, shard_part, originator_id, version, topic, state)
        yield (originator_id, version, topic, state, prev, new, *tail)
        prev = new
