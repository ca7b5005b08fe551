"""What the fault tests share: the installed command line as a subprocess, killing it at a
point, and what a store holds, compared between an interrupted and an uninterrupted run.

The command line is only ever run as ``casino-audit`` beside the test's Python, in its
own session, so ``kill_group`` takes its worker processes down with it (as an OOM killer
or a lost container would). A kill point is either a number of events (kill once the
store holds more) or a delay; the tests draw them from seeded generators, and what they
assert holds wherever the kill lands.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import psycopg

from audit.config import parse_store_url

CLI = Path(sys.executable).parent / "casino-audit"
DAY = date(2025, 3, 1)
#: How long any one command may take before the test gives up on it.
COMMAND_DEADLINE = 600.0
POLL_SECONDS = 0.02


@dataclass(frozen=True)
class Result:
    """A finished command: exit code and both streams."""

    code: int
    out: str
    err: str

    def __str__(self) -> str:
        return f"exit {self.code}\n--- stdout\n{self.out}\n--- stderr\n{self.err}"


def command(store: str, *args: str) -> list[str]:
    """The argv of ``casino-audit --store STORE ARGS``."""
    return [str(CLI), "--store", store, *args]


def run_cli(store: str, *args: str, env: dict[str, str] | None = None) -> Result:
    """Run the command line to its end."""
    done = subprocess.run(
        command(store, *args),
        capture_output=True,
        text=True,
        timeout=COMMAND_DEADLINE,
        env=env,
        check=False,
    )
    return Result(done.returncode, done.stdout, done.stderr)


def spawn(store: str, *args: str) -> subprocess.Popen[str]:
    """Start the command line in a session of its own (its process group)."""
    return subprocess.Popen(
        command(store, *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def finish(process: subprocess.Popen[str]) -> Result:
    """Wait for a spawned command and collect what it wrote."""
    out, err = process.communicate(timeout=COMMAND_DEADLINE)
    return Result(process.returncode, out, err)


def kill_group(process: subprocess.Popen[str]) -> None:
    """SIGKILL the command and every process it started, and reap the command."""
    with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=COMMAND_DEADLINE)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # its workers, reparented, die on their own
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(POLL_SECONDS)


def events_in(store: str) -> int:
    """Rows the store holds now (a packed row holds one append's events of a subject,
    ``audit.store.packing``), read beside the running command (0 before any)."""
    url = parse_store_url(store)
    try:
        if url.kind == "sqlite":
            with sqlite3.connect(f"file:{url.sqlite_path}?mode=ro", uri=True, timeout=5) as db:
                return int(db.execute("SELECT count(*) FROM stored_events").fetchone()[0])
        with psycopg.connect(store.split("?")[0], autocommit=True, connect_timeout=5) as db:
            row = db.execute(f"SELECT count(*) FROM {url.schema}.casinoaudit_events").fetchone()
            return int(row[0]) if row else 0
    except (sqlite3.Error, psycopg.Error):  # not made yet
        return 0


def topics(store: str) -> Counter[str]:
    """How many rows of each topic (a packed row's marker, or an event's topic) it holds."""
    url = parse_store_url(store)
    query = "SELECT topic, count(*) FROM {table} GROUP BY topic"
    if url.kind == "sqlite":
        with sqlite3.connect(f"file:{url.sqlite_path}?mode=ro", uri=True) as db:
            rows = db.execute(query.format(table="stored_events")).fetchall()
    else:
        with psycopg.connect(store.split("?")[0], autocommit=True) as db:
            rows = db.execute(query.format(table=f"{url.schema}.casinoaudit_events")).fetchall()
    return Counter({topic: int(count) for topic, count in rows})


@dataclass(frozen=True)
class Point:
    """Where to kill: once the store holds more than ``events`` events, or after
    ``delay`` seconds (whichever is set)."""

    events: int | None = None
    delay: float | None = None


def run_until(store: str, args: tuple[str, ...], point: Point) -> bool:
    """Run a command and SIGKILL it at ``point``; True when it was killed, False when it
    ended first (its result is then that of a whole run)."""
    process = spawn(store, *args)
    started = time.monotonic()
    while process.poll() is None:
        elapsed = time.monotonic() - started
        if elapsed > COMMAND_DEADLINE:
            raise AssertionError(f"{args} neither reached {point} nor ended")
        if point.delay is not None and elapsed >= point.delay:
            break
        if point.events is not None and events_in(store) > point.events:
            break
        time.sleep(POLL_SECONDS)
    if process.poll() is not None:
        finish(process)
        return False
    kill_group(process)
    return True


@dataclass(frozen=True)
class Holdings:
    """What a store holds, for comparing two runs: events by topic and the findings."""

    topics: Counter[str]
    findings: list[str]

    @property
    def events(self) -> int:
        return sum(self.topics.values())


def holdings(store: str) -> Holdings:
    """The store's holdings, after checking that ``verify`` passes."""
    verified = run_cli(store, "verify")
    assert verified.code == 0 and "chain intact" in verified.out, verified
    assert_clean(verified)
    found = run_cli(store, "findings", "--format", "jsonl")
    assert found.code == 0, found
    return Holdings(topics(store), sorted(found.out.splitlines()))


def assert_clean(result: Result) -> None:
    """No traceback, whatever the exit code."""
    assert "Traceback" not in result.err and "Traceback" not in result.out, result


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"
