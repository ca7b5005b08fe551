"""Making the proof part of an evidence bundle (checked by ``audit.evidence.proof_check``).

* ``merkle``: the latest signed tree head (a checkpoint with ``tree_root``) covering the
  proven rows; per row its leaf index and RFC 9162 audit path. The tree's levels are
  kept between downloads (``audit.evidence.treecache``: built from the leaves once, extended
  for later heads), so each path costs O(log n) lookups, not a pass over the leaves.
* ``hash-chain``: the first checkpoint (signed if any is) at or after the last proven
  row, and every row between the first proven row and it.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from audit.evidence.chainrows import rows_between
from audit.evidence.proof_check import HASH_CHAIN, MERKLE
from audit.evidence.treecache import RetiredPrefix, Tree, TreeCache
from audit.store import HASH_SIZE, AuditStore, ChainRow, Checkpoint, heads_list


class NoProof(LookupError):
    """The asked-for proof cannot be made from this store's checkpoints."""


def _state(row: ChainRow) -> dict[str, str]:
    try:
        return {"state": row.state.decode("utf-8")}
    except UnicodeDecodeError:
        return {"state_b64": base64.b64encode(row.state).decode()}


def event_json(row: ChainRow, *, link: bool = True) -> dict[str, Any]:
    """A stored row as bundled: exact state text, identity, its chain shard and chain
    form (what its chain hash covers), and (``link``) its chain link."""
    out: dict[str, Any] = {
        "notification_id": row.notification_id,
        "originator_id": row.originator_id,
        "version": row.originator_version,
        "topic": row.topic,
        **_state(row),
        "chain_shard": row.shard,
        "chain_form": row.form,
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
    if root and checkpoint.shards_signed:
        out["shard_heads"] = heads_list(checkpoint.shard_heads or ())
    return out


def _merkle(
    store: AuditStore, rows: Sequence[ChainRow], cp: Checkpoint, trees: TreeCache
) -> dict[str, Any]:
    from audit.store import inclusion_ranges

    size = cp.event_count
    with trees.use(store, cp.notification_id) as tree:
        whole: Tree | RetiredPrefix = tree
        first = 0  # the leaf index of the tree's first row
        retired = store.retention_checkpoint() if tree.size < size else None
        if retired is not None and retired.event_count + tree.size >= size:
            data = retired.tree_frontier
            frontier = [data[i : i + HASH_SIZE] for i in range(0, len(data), HASH_SIZE)]
            if len(frontier) != retired.event_count.bit_count():
                raise NoProof("the retention checkpoint's Merkle frontier is unusable")
            whole, first = RetiredPrefix(retired.event_count, frontier, tree), retired.event_count
        try:
            if first + tree.size < size or whole.root(0, size) != cp.tree_root:
                raise KeyError(size)
            paths = {}
            for row in rows:
                m = first + tree.index(row.notification_id)
                path = [whole.root(a, b).hex() for a, b in inclusion_ranges(m, size)]
                paths[str(row.notification_id)] = {"index": m, "path": path}
        except (KeyError, ValueError):  # the store disagrees with the signed head
            trees.drop()
            raise NoProof("the stored events do not give the checkpoint's tree root") from None
    return {"type": MERKLE, "checkpoint": checkpoint_json(cp), "leaves": paths}


def _hash_chain(store: AuditStore, rows: Sequence[ChainRow], cp: Checkpoint) -> dict[str, Any]:
    """The rows of the proven events' chain shard from the first of them to the
    checkpoint's head (which is on that shard): the chain recomputed over them ends at
    the signed head hash."""
    proven = {r.notification_id for r in rows}
    first, shard = min(proven), rows[0].shard
    between = [
        event_json(r, link=False)
        for r in rows_between(store, first - 1, cp.notification_id)
        if r.notification_id not in proven and r.shard == shard
    ]
    return {"type": HASH_CHAIN, "checkpoint": checkpoint_json(cp), "rows": between}


def _head_on(store: AuditStore, checkpoint: Checkpoint, shard: str) -> bool:
    """Whether the checkpoint's head event is on ``shard``'s chain."""
    at = checkpoint.notification_id
    return any(r.shard == shard for r in rows_between(store, at - 1, at))


def prove(
    store: AuditStore, rows: Sequence[ChainRow], trees: TreeCache, kind: str = "auto"
) -> dict[str, Any]:
    """The proof that ``rows`` are in the history up to a (signed) checkpoint; ``trees``
    keeps the Merkle tree between proofs."""
    last = max(r.notification_id for r in rows)
    checkpoints = sorted(
        (c for c in store.chained.checkpoints() if c.notification_id >= last),
        key=lambda c: c.notification_id,
    )
    if not checkpoints:
        if kind != "auto":
            raise NoProof("no checkpoint covers these events yet")
        return {"type": "none", "reason": "no checkpoint covers these events yet"}
    rooted = [c for c in checkpoints if getattr(c, "tree_root", b"")]
    if kind in ("auto", MERKLE) and rooted:
        signed = [c for c in rooted if c.signature] or rooted
        return _merkle(store, rows, signed[-1], trees)
    if kind == MERKLE:
        raise NoProof("the store's checkpoints carry no Merkle tree root")
    shards = {r.shard for r in rows}
    if len(shards) > 1:
        raise NoProof(
            "the events are on more than one chain shard: only a Merkle proof covers them"
        )
    shard = shards.pop()
    on_shard = [c for c in checkpoints if _head_on(store, c, shard)]
    if not on_shard:
        raise NoProof(
            "no checkpoint's head is on these events' chain shard: only a Merkle proof covers them"
        )
    signed = [c for c in on_shard if c.signature] or on_shard
    return _hash_chain(store, rows, signed[0])
