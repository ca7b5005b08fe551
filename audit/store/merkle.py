"""The Merkle tree over the store's events (RFC 9162 §2.1, the tree of RFC 6962).

Leaves are the stored events in notification order, leaf *i* (0-based) being the *i*-th
event. The leaf input is the event's **chain hash** (``audit.store.chain``): 32 bytes that
commit to the event's chain shard (in the shard form every event is written in since
issue #26), originator, version, topic and state bytes and to its predecessor's chain
hash. Hashes are RFC 9162's::

    leaf hash  = SHA-256(0x00 ‖ chain_hash)
    node hash  = SHA-256(0x01 ‖ left ‖ right)
    MTH({})    = SHA-256()                  (the empty tree)
    MTH(D[n])  = node(MTH(D[0:k]), MTH(D[k:n])),  k the largest power of two < n

so a tree head (size *n*, root) commits to the first *n* events, and the usual proofs
apply: an inclusion (audit) path shows one event is leaf *m* of a signed head; a
consistency proof shows a head of size *m* is a prefix of a head of size *n*. To check an
inclusion proof of an event an outsider recomputes its leaf from the row (the chain link
``audit.store.chain.link_hash(chain_prev, …)``), then walks the path.

Everything here streams: ``TreeBuilder`` keeps only the O(log n) roots of the perfect
subtrees of the leaves seen so far (the *frontier*), and the proof functions compute
which O(log n) subtrees a proof needs before reading the leaves once, in order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()

_sha256 = hashlib.sha256


def leaf_hash(leaf_input: bytes) -> bytes:
    """RFC 9162 leaf hash: SHA-256(0x00 ‖ input)."""
    return _sha256(b"\x00" + leaf_input).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """RFC 9162 interior node hash: SHA-256(0x01 ‖ left ‖ right)."""
    return _sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n ≥ 2)."""
    return 1 << ((n - 1).bit_length() - 1)


class TreeBuilder:
    """The root of a growing tree, leaf by leaf, in O(log n) memory.

    ``frontier`` holds the roots of the perfect subtrees that the binary decomposition of
    ``size`` splits the leaves into, largest (leftmost) first; the root folds them from the
    right, which is exactly the largest-power-of-two split of RFC 9162.
    """

    __slots__ = ("frontier", "size")

    def __init__(self, size: int = 0, frontier: Sequence[bytes] = ()):
        if len(frontier) != size.bit_count():
            raise ValueError(f"a frontier of a tree of {size} leaves has {size.bit_count()} roots")
        self.size = size
        self.frontier = list(frontier)

    def append(self, leaf_input: bytes) -> None:
        self.append_hash(leaf_hash(leaf_input))

    def append_hash(self, hashed_leaf: bytes) -> None:
        """Add a leaf given its leaf hash."""
        frontier, size, node = self.frontier, self.size, hashed_leaf
        while size & 1:  # merge equal-sized perfect subtrees, like carries in binary +1
            node = node_hash(frontier.pop(), node)
            size >>= 1
        frontier.append(node)
        self.size += 1

    def extend(self, leaf_inputs: Iterable[bytes]) -> TreeBuilder:
        for leaf_input in leaf_inputs:
            self.append(leaf_input)
        return self

    def root(self) -> bytes:
        """MTH of the leaves so far."""
        if not self.frontier:
            return EMPTY_ROOT
        node = self.frontier[-1]
        for left in reversed(self.frontier[:-1]):
            node = node_hash(left, node)
        return node

    def frontier_bytes(self) -> bytes:
        """The frontier, concatenated (stored beside a checkpoint to extend it later)."""
        return b"".join(self.frontier)

    @classmethod
    def from_frontier_bytes(cls, size: int, data: bytes) -> TreeBuilder:
        if len(data) != HASH_SIZE * size.bit_count():
            raise ValueError(f"not the frontier of a tree of {size} leaves")
        return cls(size, [data[i : i + HASH_SIZE] for i in range(0, len(data), HASH_SIZE)])


def tree_root(leaf_inputs: Iterable[bytes], size: int | None = None) -> bytes:
    """MTH of the first ``size`` leaf inputs (all of them when ``size`` is None), streamed.

    Raises ValueError when there are fewer than ``size``.
    """
    builder = TreeBuilder()
    if size == 0:
        return EMPTY_ROOT
    for leaf_input in leaf_inputs:
        builder.append(leaf_input)
        if builder.size == size:
            break
    if size is not None and builder.size != size:
        raise ValueError(f"only {builder.size} leaves, not {size}")
    return builder.root()


# -- proofs -----------------------------------------------------------------------------
#
# A proof is a list of MTH(D[a:b]) for ranges [a, b) that depend only on the sizes; the
# ranges of one proof are disjoint, so one ordered pass over the leaves computes them all.


def inclusion_ranges(m: int, n: int) -> list[tuple[int, int]]:
    """The leaf ranges whose roots form PATH(m, D[n]) (RFC 9162 §2.1.3.1), in path order
    (from the leaf up)."""
    if not 0 <= m < n:
        raise ValueError(f"leaf {m} is not in a tree of size {n}")
    ranges: list[tuple[int, int]] = []
    start, end = 0, n
    while end - start > 1:  # descend, recording the sibling of each step (root first)
        k = _split(end - start)
        if m - start < k:
            ranges.append((start + k, end))
            end = start + k
        else:
            ranges.append((start, start + k))
            start += k
    ranges.reverse()
    return ranges


def consistency_ranges(m: int, n: int) -> list[tuple[int, int]]:
    """The leaf ranges whose roots form PROOF(m, D[n]) (RFC 9162 §2.1.4.1), in proof order.

    Empty when m == n or m == 0 (nothing to prove)."""
    if not 0 <= m <= n:
        raise ValueError(f"no consistency proof from size {m} to size {n}")
    if m in (0, n):
        return []
    ranges: list[tuple[int, int]] = []
    start, end, whole = 0, n, True
    while True:  # SUBPROOF(m, D[start:end], whole), the appended hashes collected in reverse
        if m == end - start:
            if not whole:
                ranges.append((start, end))
            break
        k = _split(end - start)
        if m <= k:
            ranges.append((start + k, end))
            end = start + k
        else:
            ranges.append((start, start + k))
            m -= k
            start += k
            whole = False
    ranges.reverse()
    return ranges


def range_roots(leaf_hashes: Iterable[bytes], ranges: Sequence[tuple[int, int]]) -> list[bytes]:
    """MTH of each (disjoint) leaf range, reading the leaf hashes once, in order."""
    order = sorted(range(len(ranges)), key=lambda i: ranges[i][0])
    roots: list[bytes] = [b""] * len(ranges)
    leaves = iter(leaf_hashes)
    position = 0
    for i in order:
        start, end = ranges[i]
        builder = TreeBuilder()
        for hashed in leaves:
            position += 1
            if position > start:
                builder.append_hash(hashed)
                if position == end:
                    break
        if builder.size != end - start:
            raise ValueError(f"fewer than {end} leaves")
        roots[i] = builder.root()
    return roots


def inclusion_proof(leaf_hashes: Iterable[bytes], m: int, n: int) -> list[bytes]:
    """The audit path of leaf ``m`` in the tree of the first ``n`` leaves (given as leaf
    hashes, streamed)."""
    return range_roots(leaf_hashes, inclusion_ranges(m, n))


def consistency_proof(leaf_hashes: Iterable[bytes], m: int, n: int) -> list[bytes]:
    """The consistency proof between the trees of the first ``m`` and ``n`` leaves."""
    return range_roots(leaf_hashes, consistency_ranges(m, n))


def _shift_until(fn: int, sn: int) -> tuple[int, int]:
    """Right-shift fn and sn equally until LSB(fn) is set or fn is 0."""
    while fn and not fn & 1:
        fn >>= 1
        sn >>= 1
    return fn, sn


def verify_inclusion(
    hashed_leaf: bytes, m: int, n: int, proof: Sequence[bytes], root: bytes
) -> bool:
    """RFC 9162 §2.1.3.2: does ``proof`` show the leaf hash is leaf ``m`` of the tree of
    size ``n`` with this root?"""
    if not 0 <= m < n:
        return False
    fn, sn, r = m, n - 1, hashed_leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                fn, sn = _shift_until(fn, sn)
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(
    m: int, n: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]
) -> bool:
    """RFC 9162 §2.1.4.2: is the tree of size ``m`` with ``first_root`` a prefix of the
    tree of size ``n`` with ``second_root``? (Equal sizes need equal roots and an empty
    proof; the empty tree is a prefix of every tree.)"""
    if not 0 <= m <= n:
        return False
    if m == n:
        return not proof and first_root == second_root
    if m == 0:
        return not proof
    if not proof:
        return False
    path = list(proof)
    if m & (m - 1) == 0:  # m is an exact power of two: its root is the proof's start
        path.insert(0, first_root)
    fn, sn = m - 1, n - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                fn, sn = _shift_until(fn, sn)
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == first_root and sr == second_root and sn == 0
