"""Python's cyclic garbage collector during bulk work: an ingest's batches and the
batches read back and judged.

Neither makes reference cycles, so reference counting frees every object as soon as it
is dropped; with CPython's default threshold (a young collection every 700 new container
objects) the collector would walk a batch's live objects again and again for nothing.

* **Ingest** (``fewer_collections``, ``audit.ingest.pipeline``): a few container objects
  per event (the record's dict and arrays, the datum of its compact state's read-back,
  the stored event), a batch's worth (``DEFAULT_BATCH_EVENTS``) alive at once: about a
  tenth of an ingest's CPU time (perf, 100,000 synthetic poker events, 2026-12-05). The
  young generation's threshold is raised while an ingest runs and put back after: cycles
  are still collected, less often. The thresholds are the process's: ingests running in
  threads of one process share them, and the last to finish restores what the first found.
* **Reading and judging** (``collector_paused``): a batch of subjects read back (replay's
  2,000 hands, some 44,000 events) is tens of thousands of rows and records made at once
  (rows are tuples of strings, numbers and bytes; records hold strings, numbers, times,
  lists and records): a third as much CPU again as reading and decoding them on the
  Pluribus hands (docs/figures.md). The collector is paused while a batch is read and
  decoded (``AuditStore.records_of_many``) and while it is judged
  (``audit.judging.judged_batches``), and back on after it if it was on; a collection it
  would have made is only put off to the batch's end, so what a batch leaves for the
  collector is bounded by one batch.
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


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block, back on after it if it was on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
