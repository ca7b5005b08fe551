"""How the night's judging is split: every subject of the day in one of ``PARTITIONS``
partitions, by a hash of its id, whatever file or files brought its events.

The night runs in two phases. First every input file is ingested (``ingest_input_file``),
each recording its *intake*: the subjects it names, filed by partition. Then each
partition is judged once (``judge_partition``), over the subjects the day's intakes file
under it, after every file's events are stored. So a subject whose events are split over
several files of the night (a slot machine's hourly exports, a tournament's hours, the
morning and afternoon of a table's terms) is judged once, whole, and appears in one
ledger; a poker hand feeds the collusion detector once.

The number of partitions is fixed, never the number of workers: a night's ledgers are
units scoped by partition (``<day>/<family>/<partition>``), so a rerun with more or fewer
workers finds and stores the same units. Standard library only: the DAG file imports it.
"""

from __future__ import annotations

import hashlib

PARTITIONS = 16
"""Partitions of a night's subjects: the most replay tasks (or processes) that judge a
night side by side. Changing it re-files the night's ledgers under new scopes."""


def partition_of(subject_id: str, partitions: int = PARTITIONS) -> int:
    """The partition of ``subject_id``: a stable hash of its UTF-8 bytes (BLAKE2b),
    never Python's per-process ``hash``."""
    digest = hashlib.blake2b(subject_id.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % partitions


def partition_name(partition: int) -> str:
    """The partition's name in scopes and chain shards: ``p03``."""
    return f"p{partition:02d}"
