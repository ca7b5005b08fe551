"""SQLite's write lock (``audit.store.sqlite_recorder``): a writer whose lock timeout runs
out while another connection holds the lock asks again instead of failing the ingest
with "database is locked" (how
``test_concurrent_ingests_of_overlapping_files_store_each_subject_once[sqlite-2]`` failed
once in CI; not reproduced here, where its writers hold the lock under 0.1 s: SQLite's
busy handler polls rather than queues, so a writer on a loaded machine can miss the
gaps between other writers' transactions), and a checkpoint takes the lock at BEGIN
like an append. Deterministic: the holder commits when the waiter's first try has
failed (the module's pause between tries), never after a time."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from eventsourcing.sqlite import SQLiteConnection

from audit.store import sqlite_recorder
from audit.store.sqlite_recorder import LOCKED_ATTEMPTS, _ImmediateTransaction


def _held(path: Path) -> sqlite3.Connection:
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("CREATE TABLE t (x INTEGER)")
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO t VALUES (1)")
    return holder


def _waiter(path: Path) -> SQLiteConnection:
    return SQLiteConnection(sqlite3.connect(path, timeout=0.01, isolation_level=None), None)


def test_a_writer_asks_again_when_the_lock_timeout_runs_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store.db"
    holder = _held(path)
    pauses: list[float] = []

    def pause(seconds: float) -> None:  # the holder's transaction ends meanwhile
        pauses.append(seconds)
        if holder.in_transaction:
            holder.execute("COMMIT")

    monkeypatch.setattr(sqlite_recorder.time, "sleep", pause)
    with _ImmediateTransaction(_waiter(path), commit=True) as cursor:
        cursor.execute("INSERT INTO t VALUES (2)")
    assert len(pauses) == 1
    assert [r[0] for r in holder.execute("SELECT x FROM t ORDER BY x")] == [1, 2]


def test_a_lock_held_through_every_try_is_still_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store.db"
    holder = _held(path)
    pauses: list[float] = []
    monkeypatch.setattr(sqlite_recorder.time, "sleep", pauses.append)
    with (
        pytest.raises(sqlite3.OperationalError, match="locked"),
        _ImmediateTransaction(_waiter(path), commit=True),
    ):
        pass
    assert len(pauses) == LOCKED_ATTEMPTS - 1
    holder.execute("ROLLBACK")
