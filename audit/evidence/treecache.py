"""The Merkle tree of the store's events, kept between evidence downloads.

An inclusion proof needs O(log n) subtree roots, but finding them needs the tree over
every event up to the signed head: reading n leaves and hashing about 2n nodes, seconds
on a large store. ``TreeCache`` keeps the tree of the latest head it was asked for
(``Tree``: per level, every aligned perfect subtree root, 32 bytes each, in one
``bytearray``; 64 bytes per event in all) so a download at the same signed head costs
only its paths, and a later head reads and hashes only the events after the cached ones
(a perfect subtree's root never changes as leaves are appended). Leaves and hashes are
RFC 9162's (``audit.store.merkle``); the leaf inputs are the rows' chain hashes
(``audit.evidence.chainrows.leaves``).
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from audit.evidence.chainrows import leaves
from audit.store import EMPTY_ROOT, HASH_SIZE, AuditStore, leaf_hash, node_hash


class Tree:
    """The leaves seen so far (notification ids) and every aligned perfect subtree root
    over them, level by level (level 0: the leaf hashes)."""

    def __init__(self) -> None:
        self.ids = array("q")
        self.levels: list[bytearray] = [bytearray()]

    @property
    def size(self) -> int:
        return len(self.ids)

    def extend(self, ids: Sequence[int], leaf_inputs: Sequence[bytes]) -> None:
        """Append leaves (in notification order) and the subtree roots they complete."""
        self.ids.extend(ids)
        for leaf_input in leaf_inputs:
            self.levels[0] += leaf_hash(leaf_input)
        level = 0
        while len(self.levels[level]) >= 2 * HASH_SIZE:
            if len(self.levels) == level + 1:
                self.levels.append(bytearray())
            below, above = self.levels[level], self.levels[level + 1]
            for i in range(len(above) // HASH_SIZE, len(below) // (2 * HASH_SIZE)):
                left = 2 * i * HASH_SIZE
                above += node_hash(
                    bytes(below[left : left + HASH_SIZE]),
                    bytes(below[left + HASH_SIZE : left + 2 * HASH_SIZE]),
                )
            level += 1

    def index(self, notification_id: int) -> int:
        """The leaf index of a stored event (KeyError when the tree does not hold it)."""
        at = bisect_left(self.ids, notification_id)
        if at == len(self.ids) or self.ids[at] != notification_id:
            raise KeyError(notification_id)
        return at

    def root(self, start: int, end: int) -> bytes:
        """MTH of leaves [start, end) (RFC 9162's split at the largest power of two)."""
        size = end - start
        if size <= 0:
            return EMPTY_ROOT
        level = size.bit_length() - 1
        if size == 1 << level and start % size == 0:
            at = (start >> level) * HASH_SIZE
            return bytes(self.levels[level][at : at + HASH_SIZE])
        split = 1 << ((size - 1).bit_length() - 1)
        return node_hash(self.root(start, start + split), self.root(start + split, end))


class TreeCache:
    """One ``Tree`` per console, grown to the latest head asked for (see the module
    docstring); thread-safe (``use`` holds a lock while the caller reads the tree)."""

    def __init__(self) -> None:
        self._tree = Tree()
        self._lock = threading.Lock()

    @contextmanager
    def use(self, store: AuditStore, upto: int) -> Iterator[Tree]:
        """``with cache.use(store, upto) as tree``: the tree holding at least every event up
        to notification ``upto`` (reading only the events it does not hold yet)."""
        with self._lock:
            tree = self._tree
            last = tree.ids[-1] if tree.size else 0
            if last < upto:
                tree.extend(*leaves(store, upto, after=last))
            yield tree

    def drop(self) -> None:
        """Forget the tree (the store disagreed with a signed head: read it afresh)."""
        self._tree = Tree()


class RetiredPrefix:
    """The tree over rows some of which were retired (``casino-audit retention
    archive``): the retired prefix's perfect subtrees (its checkpoint's frontier, the
    binary decomposition of its size, largest first) and a ``Tree`` over the rows after
    it. Any range an inclusion proof of a later row needs is a union of those (a subtree
    wholly in the prefix beside one holding the row is one of the frontier's)."""

    def __init__(self, size: int, frontier: Sequence[bytes], rest: Tree):
        self.size = size
        self.blocks: dict[tuple[int, int], bytes] = {}
        start = 0
        for bit in reversed(range(size.bit_length())):
            if size >> bit & 1:
                self.blocks[(start, 1 << bit)] = frontier[len(self.blocks)]
                start += 1 << bit
        self.rest = rest  # its leaf 0 is leaf ``size`` of the whole tree

    def root(self, start: int, end: int) -> bytes:
        """MTH of leaves [start, end) (KeyError: a range of the prefix no frontier holds)."""
        size = end - start
        if size <= 0:
            return EMPTY_ROOT
        if start >= self.size:
            return self.rest.root(start - self.size, end - self.size)
        if end <= self.size:
            return self.blocks[(start, size)]
        split = 1 << ((size - 1).bit_length() - 1)
        return node_hash(self.root(start, start + split), self.root(start + split, end))
