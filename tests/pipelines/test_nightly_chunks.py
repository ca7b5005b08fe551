"""The nightly DAG's chunks (``pipelines.nightly.chunks``, ``pipelines.nightly.chunk_steps``): any
day size maps under Airflow's cap, and a mapped task killed mid-file then retried
stores nothing twice, in either phase (ingest, then judge).

The retry is tested without a scheduler, as a worker runs it: the chunk's plain function
in a process of its own, SIGKILLed once the store holds about half of what the chunk
stores, then run again (Airflow's retry) and once more (a retry after success).
"""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

from pipelines.nightly import prepare_night
from pipelines.nightly.chunk_steps import ingest_chunk, judge_chunk
from pipelines.nightly.chunks import MAX_MAP_LENGTH, chunked
from pipelines.nightly.partitions import PARTITIONS
from simulate.day import generate_day
from tests.fault_harness import (
    COMMAND_DEADLINE,
    DAY,
    POLL_SECONDS,
    events_in,
    holdings,
    kill_group,
)

_CHUNK_CHILD = """
import sys
from datetime import date
from pipelines.nightly.chunk_steps import ingest_chunk
ingest_chunk(sys.argv[1], date.fromisoformat(sys.argv[2]), sys.argv[3:])
"""
ALL_PARTITIONS = list(range(PARTITIONS))


@pytest.mark.parametrize("input_files", [0, 1, 7, 1_024, 1_025, 5_000])
def test_chunks_cover_every_input_file_in_order_under_the_cap(input_files: int) -> None:
    names = [f"poker/{k:05}.avro" for k in range(input_files)]
    chunks = chunked(names)
    assert len(chunks) == min(input_files, MAX_MAP_LENGTH)
    assert [name for chunk in chunks for name in chunk] == names
    sizes = {len(chunk) for chunk in chunks}
    assert sizes <= {input_files // MAX_MAP_LENGTH, input_files // MAX_MAP_LENGTH + 1} - {0}


def test_a_small_cap_gives_fewer_larger_chunks() -> None:
    assert chunked(list(range(7)), max_tasks=3) == [[0, 1], [2, 3], [4, 5, 6]]
    with pytest.raises(ValueError, match="at least 1"):
        chunked([1], max_tasks=0)


@pytest.fixture(scope="module")
def day_input(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small synthetic day: a few hundred hands at eight tables, some faults."""
    root = tmp_path_factory.mktemp("chunk-day")
    generate_day(5, DAY, hands=240, out=root / DAY.isoformat(), fault_rate=0.05)
    return root


def _prepared_chunk(store_url: str, input_dir: Path, day: date) -> list[str]:
    """``discover``'s work for a store: the day prepared, all its input files as one chunk."""
    return [str(p) for p in prepare_night(store_url, input_dir, day)]


def _kill_midway(store_url: str, chunk: list[str], events: int) -> None:
    """Run the chunk in a process of its own; SIGKILL it once the store holds more than
    ``events`` events. Fails if the chunk ends first."""
    process = subprocess.Popen(
        [sys.executable, "-c", _CHUNK_CHILD, store_url, DAY.isoformat(), *chunk],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + COMMAND_DEADLINE
    while process.poll() is None and events_in(store_url) <= events:
        assert time.monotonic() < deadline, "the chunk neither got midway nor ended"
        time.sleep(POLL_SECONDS)
    ended = process.poll() is not None
    kill_group(process)
    assert not ended, f"the chunk ended before it was killed (exit {process.returncode})"


def test_a_chunk_killed_mid_file_then_retried_stores_nothing_twice(
    store_url: str, tmp_path: Path, day_input: Path
) -> None:
    reference_url = f"sqlite:///{tmp_path / 'reference.db'}"
    ingest_chunk(reference_url, DAY, _prepared_chunk(reference_url, day_input, DAY))
    judge_chunk(reference_url, DAY, ALL_PARTITIONS)
    reference = holdings(reference_url)

    chunk = _prepared_chunk(store_url, day_input, DAY)
    prepared = events_in(store_url)
    _kill_midway(store_url, chunk, (prepared + reference.events) // 2)
    assert prepared < events_in(store_url) < reference.events

    ingest_chunk(store_url, DAY, chunk)  # Airflow's retry
    judge_chunk(store_url, DAY, ALL_PARTITIONS)
    assert holdings(store_url) == reference
    again = ingest_chunk(store_url, DAY, chunk)  # a retry after success
    assert sum(done["ingested"]["events_stored"] for done in again) == 0
    judged_again = judge_chunk(store_url, DAY, ALL_PARTITIONS)
    assert sum(part["verdicts_stored"] for part in judged_again) == 0
    assert holdings(store_url) == reference
