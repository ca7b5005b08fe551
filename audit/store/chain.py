"""The hash chain over the store's global order (tamper evidence).

Every stored event carries ``chain_prev`` (its predecessor's hash; 32 zero bytes for the
first event) and ``chain_hash`` = SHA-256 over ``chain_prev`` and the event's identity and
bytes, length-prefixed so that no two different events hash alike::

    chain_hash = sha256(chain_prev ‖ len‖originator_id_hex ‖ version(8 bytes)
                        ‖ len‖topic ‖ len‖state)

Changing any stored byte breaks that row's hash; deleting, inserting or reordering rows
breaks the next row's link; truncating the tail is caught by the checkpoints, which
record the head hash at a notification id after every ingest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from uuid import UUID

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
    )


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The chain head recorded at a point in the global order: a signed tree head.

    ``tree_root`` is the Merkle root (``audit.store.merkle``) of the first
    ``event_count`` events and ``head_time`` when the head was made (milliseconds since
    the epoch, UTC); both are signed with the rest. Checkpoints written before the Merkle
    tree have neither (``tree_root`` empty) and are signed as before. ``tree_frontier``
    (not signed) holds the subtree roots the next checkpoint extends instead of reading
    every event again.
    """

    notification_id: int
    chain_hash: bytes
    event_count: int
    signature: bytes = b""
    key_id: str = ""
    tree_root: bytes = b""
    head_time: int = 0
    tree_frontier: bytes = field(default=b"", repr=False, compare=False)


def tree_head_row(
    notification_id: int,
    chain_hash: object,
    event_count: int,
    signature: object,
    key_id: str,
    tree_root: object = None,
    head_time: int | None = None,
    tree_frontier: object = None,
) -> Checkpoint:
    """A Checkpoint from a checkpoints-table row (tree columns NULL or absent: a
    checkpoint written before the Merkle tree)."""
    return Checkpoint(
        notification_id,
        _as_bytes(chain_hash),
        event_count,
        _as_bytes(signature),
        key_id,
        _as_bytes(tree_root) if tree_root is not None else b"",
        head_time or 0,
        _as_bytes(tree_frontier) if tree_frontier is not None else b"",
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

    @property
    def ok(self) -> bool:
        return self.broken_at is None and not self.problem


def _link_problem(row: ChainRow, prev: bytes) -> str:
    """Why a row does not extend the chain ending in ``prev`` ('' when it does)."""
    where = f"event at notification {row.notification_id} ({row.originator_id} v"
    where += f"{row.originator_version})"
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


def verify_rows(rows: Iterable[ChainRow], checkpoints: Iterable[Checkpoint]) -> ChainReport:
    """Recompute the chain over rows in notification order and check every checkpoint.

    Streams: memory does not grow with the store. Stops at the first broken link.
    """
    pending: Iterator[Checkpoint] = iter(sorted(checkpoints, key=lambda c: c.notification_id))
    checkpoint = next(pending, None)
    checked, prev, count = 0, GENESIS, 0

    def broken(at: int, problem: str) -> ChainReport:
        return ChainReport(count, prev, checked, broken_at=at, problem=problem)

    for row in rows:
        if checkpoint and checkpoint.notification_id < row.notification_id:
            return broken(
                checkpoint.notification_id,
                f"checkpoint at notification {checkpoint.notification_id} names an "
                "event that is no longer in the store (deleted)",
            )
        problem = _link_problem(row, prev)
        if problem:
            return broken(row.notification_id, problem)
        prev, count = row.chain_hash, count + 1
        if checkpoint and checkpoint.notification_id == row.notification_id:
            if checkpoint.chain_hash != prev or checkpoint.event_count != count:
                return broken(
                    row.notification_id,
                    f"checkpoint at notification {row.notification_id} does not "
                    "match the chain: events before it were changed, removed or "
                    "added",
                )
            checked += 1
            checkpoint = next(pending, None)
    if checkpoint is not None:
        return broken(
            checkpoint.notification_id,
            f"checkpoint at notification {checkpoint.notification_id} is past the "
            "last stored event: events at the end were deleted",
        )
    return ChainReport(count, prev, checked)


def chain_links(
    prev: bytes, rows: Iterable[tuple[str, int, str, bytes]]
) -> Iterator[tuple[str, int, str, bytes, bytes, bytes]]:
    """Extend the chain from ``prev`` over (originator_hex, version, topic, state) rows."""
    for originator_id, version, topic, state in rows:
        new = link_hash(prev, originator_id, version, topic, state)
        yield originator_id, version, topic, state, prev, new
        prev = new
