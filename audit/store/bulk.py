"""Reading and judging in bulk: the cyclic garbage collector paused over one batch.

A batch of subjects read back (replay's 2,000 hands, some 44,000 events) is tens of
thousands of rows and records made at once, none of which can form a reference cycle
(rows are tuples of strings, numbers and bytes; records hold strings, numbers, times,
lists and records). The cyclic collector, run every 700 new container objects, would walk
the growing batch again and again for nothing to collect: measured on the Pluribus hands,
a third as much CPU again as reading and decoding them (docs/figures.md). It is paused
while a batch is read and decoded (``AuditStore.records_of_many``) and while it is judged
(``audit.judging.judged_batches``: the replayer's objects of 2,000 verdicts), and back on
after it if it was on; a collection it would have made is only put off to the batch's
end, so what a batch leaves for the collector is bounded by one batch.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


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
