"""Answers computed from stored events, kept until the store holds events it did not before.

``ReadModel.events_generation`` changes whenever a refresh finds events other than the
console's own access trail (looks, sessions): an answer that is a pure function of the
stored events (an investigation, a subject's explanation) is the same until then, so it
is computed once per key and generation, not once per view. The most recent ``keep``
answers are kept (least recently used dropped first).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from console.readmodel.model import ReadModel

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class KeptAnswers(Generic[K, V]):
    """``compute()``'s answer per key, kept while ``model.events_generation`` holds."""

    def __init__(self, model: ReadModel, keep: int = 64):
        self.model = model
        self.keep = keep
        self._kept: OrderedDict[K, tuple[int, V]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, key: K, compute: Callable[[], V]) -> V:
        """The answer kept for ``key`` at the current generation, or ``compute()`` now."""
        generation = self.model.events_generation
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and kept[0] == generation:
                self._kept.move_to_end(key)
                return kept[1]
        made = compute()
        with self._lock:
            self._kept[key] = (generation, made)
            self._kept.move_to_end(key)
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        return made
