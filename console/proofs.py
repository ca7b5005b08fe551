"""Making the proof part of an evidence bundle (checked by ``audit.evidence_proof``).

* ``merkle``: the latest signed tree head (a checkpoint with ``tree_root``) covering the
  proven rows; per row its leaf index and RFC 9162 audit path. The tree's levels are
  built once from the leaves (``chainrows.leaves``: the chain hashes, 32 bytes per
  event), so each path costs O(log n) lookups, not a pass over the leaves.
* ``hash-chain``: the first checkpoint (signed if any is) at or after the last proven
  row, and every row between the first proven row and it.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from audit.evidence_proof import HASH_CHAIN, MERKLE
from audit.store.application import AuditStore
from audit.store.chain import ChainRow, Checkpoint
from console.chainrows import leaves, rows_between


class NoProof(LookupError):
    """The asked-for proof cannot be made from this store's checkpoints."""


def _state(row: ChainRow) -> dict[str, str]:
    try:
        return {"state": row.state.decode("utf-8")}
    except UnicodeDecodeError:
        return {"state_b64": base64.b64encode(row.state).decode()}


def event_json(row: ChainRow, *, link: bool = True) -> dict[str, Any]:
    """A stored row as bundled: exact state text, identity, and (``link``) its chain link."""
    out: dict[str, Any] = {
        "notification_id": row.notification_id,
        "originator_id": row.originator_id,
        "version": row.originator_version,
        "topic": row.topic,
        **_state(row),
    }
    if link:
        out |= {"chain_prev": row.chain_prev.hex(), "chain_hash": row.chain_hash.hex()}
    return out


def checkpoint_json(checkpoint: Checkpoint) -> dict[str, Any]:
    out: dict[str, Any] = {
        "notification_id": checkpoint.notification_id,
        "chain_hash": checkpoint.chain_hash.hex(),
        "event_count": checkpoint.event_count,
        "signature": checkpoint.signature.hex(),
        "key_id": checkpoint.key_id,
    }
    root = getattr(checkpoint, "tree_root", b"")
    if root:
        out |= {"tree_root": root.hex(), "head_time": getattr(checkpoint, "head_time", 0)}
    return out


class Levels:
    """Every aligned perfect subtree root of a Merkle tree, level by level."""

    def __init__(self, leaf_hashes: list[bytes]):
        from audit.store.merkle import node_hash

        self._node = node_hash
        self.levels = [leaf_hashes]
        while len(self.levels[-1]) > 1:
            below = self.levels[-1]
            self.levels.append(
                [node_hash(below[i], below[i + 1]) for i in range(0, len(below) - 1, 2)]
            )

    def root(self, start: int, end: int) -> bytes:
        """MTH of leaves [start, end) (RFC 9162's split at the largest power of two)."""
        size = end - start
        level = size.bit_length() - 1
        if size == 1 << level and start % size == 0:
            return self.levels[level][start >> level]
        split = 1 << ((size - 1).bit_length() - 1)
        return self._node(self.root(start, start + split), self.root(start + split, end))


def _merkle(store: AuditStore, rows: Sequence[ChainRow], cp: Checkpoint) -> dict[str, Any]:
    from audit.store.merkle import EMPTY_ROOT, inclusion_ranges, leaf_hash

    ids, hashes = leaves(store, cp.notification_id)
    size = cp.event_count
    index = {number: i for i, number in enumerate(ids)}
    tree = Levels([leaf_hash(h) for h in hashes[:size]])
    root = tree.root(0, size) if size else EMPTY_ROOT
    paths = {}
    for row in rows:
        m = index[row.notification_id]
        path = [tree.root(a, b).hex() for a, b in inclusion_ranges(m, size)]
        paths[str(row.notification_id)] = {"index": m, "path": path}
    if root != cp.tree_root:  # the store disagrees with its own tree head: say so
        raise NoProof("the stored events do not give the checkpoint's tree root")
    return {"type": MERKLE, "checkpoint": checkpoint_json(cp), "leaves": paths}


def _hash_chain(store: AuditStore, rows: Sequence[ChainRow], cp: Checkpoint) -> dict[str, Any]:
    proven = {r.notification_id for r in rows}
    first = min(proven)
    between = [
        event_json(r, link=False)
        for r in rows_between(store, first - 1, cp.notification_id)
        if r.notification_id not in proven
    ]
    return {"type": HASH_CHAIN, "checkpoint": checkpoint_json(cp), "rows": between}


def prove(store: AuditStore, rows: Sequence[ChainRow], kind: str = "auto") -> dict[str, Any]:
    """The proof that ``rows`` are in the history up to a (signed) checkpoint."""
    last = max(r.notification_id for r in rows)
    checkpoints = sorted(
        (c for c in store.recorder.checkpoints() if c.notification_id >= last),  # type: ignore[attr-defined]
        key=lambda c: c.notification_id,
    )
    if not checkpoints:
        if kind != "auto":
            raise NoProof("no checkpoint covers these events yet")
        return {"type": "none", "reason": "no checkpoint covers these events yet"}
    rooted = [c for c in checkpoints if getattr(c, "tree_root", b"")]
    if kind in ("auto", MERKLE) and rooted:
        signed = [c for c in rooted if c.signature] or rooted
        return _merkle(store, rows, signed[-1])
    if kind == MERKLE:
        raise NoProof("the store's checkpoints carry no Merkle tree root")
    signed = [c for c in checkpoints if c.signature] or checkpoints
    return _hash_chain(store, rows, signed[0])
