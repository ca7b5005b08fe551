"""Infrastructure faults under ``casino-audit ingest``: the PostgreSQL server restarted
mid-ingest, a full disk under a SQLite store, and two or three ingests of overlapping
files at once.

Each ends the same way: the command fails cleanly (exit 2, one line on stderr, no
traceback) or succeeds, whatever the store holds afterwards ``verify``s, and a rerun
(after the server is back, or space freed) leaves exactly what one uninterrupted ingest
into a fresh store leaves: the same events of every topic, nothing stored twice.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from simulate.day import generate_day
from tests.fault_harness import (
    DAY,
    Holdings,
    Result,
    assert_clean,
    events_in,
    finish,
    holdings,
    run_cli,
    spawn,
    sqlite_url,
)
from tests.pg_server import postgres_server

WAIT_SECONDS = 120.0


@dataclass(frozen=True)
class Input:
    """A day of 600 hands in seven files (over 10,000 events: more than one batch), and
    what one uninterrupted ingest of it stores."""

    folder: Path
    files: list[Path]
    reference: Holdings
    store_bytes: int


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Input:
    root = tmp_path_factory.mktemp("infra-day")
    folder = root / DAY.isoformat()
    generate_day(9, DAY, hands=600, tables=3, hands_per_file=100, out=folder)
    store_file = root / "reference.db"
    result = run_cli(sqlite_url(store_file), "ingest", str(folder))
    assert result.code == 0, result
    files = sorted(folder.glob("*.avro"))
    return Input(folder, files, holdings(sqlite_url(store_file)), store_file.stat().st_size)


def wait_for(condition: object, what: str) -> None:
    """Poll ``condition()`` until it is true, failing after ``WAIT_SECONDS``."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def assert_cannot_run(result: Result, *fragments: str) -> None:
    """Exit 2 with one line on stderr and no traceback."""
    assert result.code == 2, result
    assert_clean(result)
    assert result.err.count("\n") == 1, result
    for fragment in fragments:
        assert fragment in result.err, result


# -- the PostgreSQL server restarted mid-ingest -------------------------------------------


def waiting_writers(conn: psycopg.Connection, table: str) -> int:
    """Lock requests on the events table not granted yet (an insert queued behind us)."""
    row = conn.execute(
        "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = %s::regclass", (table,)
    ).fetchone()
    return int(row[0]) if row else 0


def test_postgresql_restarted_mid_ingest_fails_cleanly_and_a_rerun_completes(day: Input) -> None:
    """The test holds the events table in ``EXCLUSIVE`` mode (which the ingest's writes
    wait for), lets each waiting write through and takes the table again, until a batch
    is committed and the next one waits inside its transaction; then the server stops
    (``fast``: clients cut off, open transactions rolled back)."""
    with postgres_server() as server:
        store = f"{server.url()}?schema=audit"
        assert run_cli(store, "db", "init").code == 0
        table = "audit.casinoaudit_events"
        holder = psycopg.connect(server.url(), autocommit=True)
        watcher = psycopg.connect(server.url(), autocommit=True)
        try:
            holder.execute("BEGIN")
            holder.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
            ingest = spawn(store, "ingest", str(day.folder))
            while True:
                wait_for(lambda: waiting_writers(watcher, table), "the ingest to write")
                if events_in(store):
                    break
                holder.execute("COMMIT")  # let this write through, hold the next one
                holder.execute("BEGIN")
                holder.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
            assert events_in(store) < day.reference.events
            server.stop("fast")
        finally:
            holder.close()
            watcher.close()
        assert_cannot_run(finish(ingest), "casino-audit ingest:", "127.0.0.1")
        server.start()
        assert run_cli(store, "verify").code == 0
        rerun = run_cli(store, "ingest", str(day.folder))
        assert rerun.code == 0, rerun
        assert holdings(store) == day.reference


# -- a full disk under a SQLite store -----------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path, day: Input) -> Iterator[Path]:
    """A tmpfs of the size of the finished store, unmounted afterwards: too small for
    it and its write-ahead log, so the ingest's first batch goes in and a later one
    finds the disk full."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs for a full disk needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    size = day.store_bytes
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "--lazy", str(mount)], check=False)


def test_a_full_disk_fails_cleanly_and_keeps_no_half_written_batch(
    day: Input, small_disk: Path
) -> None:
    store = sqlite_url(small_disk / "store.db")
    assert_cannot_run(run_cli(store, "ingest", str(day.folder)), "full")
    left = events_in(store)
    assert left < day.reference.events
    if left:  # what went in before the disk filled is whole and chained
        assert run_cli(store, "verify").code == 0
    subprocess.run(["mount", "-o", "remount,size=64m", str(small_disk)], check=True)
    rerun = run_cli(store, "ingest", str(day.folder))
    assert rerun.code == 0, rerun
    assert holdings(store) == day.reference


# -- concurrent ingests of overlapping files ----------------------------------------------


def overlapping(files: list[Path], ingests: int, seed: int) -> list[list[Path]]:
    """``ingests`` lists of the files: the first all of them, the others seeded subsets
    (at least two thirds), each in its own order; together they cover every file."""
    rng = random.Random(seed)
    chosen = [list(files)]
    for _ in range(ingests - 1):
        chosen.append(rng.sample(files, max(2, len(files) * 2 // 3)))
    for one in chosen:
        rng.shuffle(one)
    return chosen


@pytest.mark.parametrize("ingests", [2, 3])
def test_concurrent_ingests_of_overlapping_files_store_each_subject_once(
    ingests: int, store_url: str, day: Input, tmp_path: Path
) -> None:
    """Every ingest succeeds (a writer waits for the store's write lock, it is not
    refused), no subject is stored twice, nothing is quarantined, the chain is whole."""
    copies = []
    for number, files in enumerate(overlapping(day.files, ingests, seed=ingests)):
        folder = tmp_path / f"copy{number}" / DAY.isoformat()  # another path, same files
        folder.mkdir(parents=True)
        copies.append([shutil.copy(path, folder / path.name) for path in files])
    running = [spawn(store_url, "ingest", *map(str, files)) for files in copies]
    results = [finish(process) for process in running]
    for result in results:
        assert_clean(result)
        assert result.code == 0, result
    assert holdings(store_url) == day.reference
