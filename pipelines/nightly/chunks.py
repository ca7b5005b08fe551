"""How the nightly DAG maps a day's input files onto Airflow task instances: chunks, and the
pool of the tasks that open the store. Standard library only: the DAG file imports it
when Airflow parses it.

Airflow caps the instances one mapped task may expand to (``[core] max_map_length``,
1,024 by default) and every task instance costs seconds to start, while a day may have
thousands of input files. ``chunked`` cuts the day's list of input files (or of
partitions) into at most ``max_tasks`` consecutive chunks of nearly equal size (one item
each when the day is small enough); ``pipelines.nightly.chunk_steps`` runs the steps of
one input file (or partition) over each item of one chunk.

Every task that opens the store runs in the Airflow pool ``STORE_POOL``: its slots bound
how many such tasks, hence how many store connections, run at once, whatever the number
of workers. The pool must exist before a run (``airflow pools set``, see the README).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

MAX_MAP_LENGTH = 1024
"""Airflow's default ``[core] max_map_length``: the most instances a mapped task may have."""
STORE_POOL = "casino_audit_store"
"""The Airflow pool of the DAG's tasks that open the store."""
STORE_POOL_SLOTS = 4
"""The slots the README's ``airflow pools set`` gives ``STORE_POOL`` (so does the test)."""


def chunked(items: Sequence[T], max_tasks: int = MAX_MAP_LENGTH) -> list[list[T]]:
    """``items`` in at most ``max_tasks`` consecutive chunks, in order, none empty, the
    sizes differing by one at most ([] for no items)."""
    if max_tasks < 1:
        raise ValueError(f"max_tasks must be at least 1, not {max_tasks}")
    count = min(len(items), max_tasks)
    chunks: list[list[T]] = []
    start = 0
    for k in range(count):
        end = start + (len(items) - start) // (count - k)
        chunks.append(list(items[start:end]))
        start = end
    return chunks
