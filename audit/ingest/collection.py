"""Python's cyclic garbage collector during an ingest: run less often.

An ingest allocates a few container objects per event (the record's dict and arrays, the
datum of its compact state's read-back, the stored event) and keeps a batch's worth
(``DEFAULT_BATCH_EVENTS``) alive at once; none of them forms a reference cycle, so
reference counting frees each as soon as it is dropped. With CPython's default threshold
(a young collection every 700 container allocations, an older one every tenth of those)
the collector visits the batch's live objects again and again: about a tenth of an
ingest's CPU time (perf, 100,000 synthetic poker events, 2026-12-05). ``fewer_collections``
raises the young generation's threshold while an ingest runs and puts the thresholds
back after: cycles are still collected, less often.

The thresholds are the process's: ingests running in threads of one process share them,
and the last to finish restores what the first found.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 10_000
"""Container allocations (net of frees) between two young collections during an ingest."""


@contextmanager
def fewer_collections(young: int = YOUNG_THRESHOLD) -> Iterator[None]:
    """Collect the young generation every ``young`` allocations (never more often than
    before) until the block ends, then restore the thresholds found."""
    before = gc.get_threshold()
    gc.set_threshold(max(young, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
