"""kill -9 of ``ingest``, ``replay`` and ``nightly`` at seeded random points, then a rerun.

Each test runs the installed ``casino-audit`` as a subprocess on a small synthetic day,
SIGKILLs it (and the workers it started) at points drawn from a seeded generator (once
the store holds more than a drawn number of events, or after a drawn delay), checks that
what the killed run left ``verify``s, kills the next run again, and so on; then reruns it
to the end. The store must then hold exactly what an uninterrupted run into a fresh store
holds: the same events of every topic (subjects, records, verdicts, findings), the same
findings, and ``verify`` clean. On SQLite and on PostgreSQL.

CI runs a few kills per command and store (``nightly`` with one worker: its Great
Expectations import dominates); ``pytest -m long`` many more over more seeds, the
nightly with two workers (the kill takes them down too).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from simulate.day import generate_day
from tests.fault_harness import (
    DAY,
    Holdings,
    Point,
    assert_clean,
    events_in,
    holdings,
    run_cli,
    run_until,
    sqlite_url,
)

COMMANDS = ("ingest", "replay", "nightly")
#: Kills per command and store: the CI sample, and the long tier's (per seed).
CI_KILLS = {"ingest": 2, "replay": 2, "nightly": 1}
LONG_KILLS = {"ingest": 10, "replay": 10, "nightly": 4}
LONG_SEEDS = (1, 2, 3)
#: The longest delay drawn for a kill by time (the rest are kills by events stored).
MAX_DELAY = {"ingest": 4.0, "replay": 4.0, "nightly": 25.0}


@dataclass(frozen=True)
class Day:
    """The input: ``root/<DAY>/`` holds the day's input files (300 hands at two tables)."""

    root: Path

    @property
    def folder(self) -> Path:
        return self.root / DAY.isoformat()


@dataclass(frozen=True)
class Reference:
    """An uninterrupted run into a fresh store: its exit code and what it left."""

    code: int
    holdings: Holdings


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Day:
    root = tmp_path_factory.mktemp("fault-day")
    generate_day(5, DAY, hands=300, tables=2, out=root / DAY.isoformat(), fault_rate=0.04)
    return Day(root)


def arguments(command: str, day: Day, out: Path, workers: int = 1) -> tuple[str, ...]:
    """The command under test, as run (and rerun) on the day (``nightly`` in ``workers``
    processes: the result does not depend on their number)."""
    if command == "ingest":
        return ("ingest", str(day.folder))
    if command == "replay":
        return ("replay",)
    return (
        "nightly",
        "--date",
        DAY.isoformat(),
        "--input",
        str(day.root),
        "--out",
        str(out),
        "--workers",
        str(workers),
    )


def prepare(command: str, store: str, day: Day) -> None:
    """What the store holds before the command: replay judges an ingested day."""
    if command == "replay":
        ingested = run_cli(store, "ingest", str(day.folder))
        assert ingested.code == 0, ingested


@pytest.fixture(scope="module")
def references(day: Day, tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Reference]:
    """Each command's uninterrupted run on SQLite, made once when first asked for."""
    made: dict[str, Reference] = {}

    def reference(command: str) -> Reference:
        if command not in made:
            folder = tmp_path_factory.mktemp(f"reference-{command}")
            store = sqlite_url(folder / "store.db")
            prepare(command, store, day)
            result = run_cli(store, *arguments(command, day, folder / "out"))
            assert result.code in (0, 1), result
            assert_clean(result)
            made[command] = Reference(result.code, holdings(store))
        return made[command]

    return reference


def draw(rng: random.Random, command: str, now: int, final: int) -> Point:
    """A kill point: by events stored (between now and the end) or by time."""
    if now < final - 1 and rng.random() < 0.6:
        return Point(events=rng.randrange(now, final - 1))
    return Point(delay=round(rng.uniform(0.2, MAX_DELAY[command]), 2))


def kill_then_rerun(
    command: str,
    store: str,
    day: Day,
    out: Path,
    reference: Reference,
    kills: int,
    seed: int,
    workers: int = 1,
) -> None:
    """``kills`` runs killed at seeded points (each leaving a store that verifies), then a
    run to the end; the store must hold what the reference holds."""
    prepare(command, store, day)
    args = arguments(command, day, out, workers)
    rng = random.Random(f"{seed}:{command}:{store.split(':')[0]}")
    for _ in range(kills):
        point = draw(rng, command, events_in(store), reference.holdings.events)
        run_until(store, args, point)
        if events_in(store):
            verified = run_cli(store, "verify")
            assert verified.code == 0, f"after a kill at {point}: {verified}"
    rerun = run_cli(store, *args)
    assert_clean(rerun)
    assert rerun.code == reference.code, rerun
    assert holdings(store) == reference.holdings


@pytest.mark.parametrize("command", COMMANDS)
def test_kill_9_then_rerun_stores_exactly_one_run(
    command: str,
    store_url: str,
    day: Day,
    references: Callable[[str], Reference],
    tmp_path: Path,
) -> None:
    kill_then_rerun(
        command, store_url, day, tmp_path / "out", references(command), CI_KILLS[command], 0
    )


@pytest.mark.long
@pytest.mark.parametrize("seed", LONG_SEEDS)
@pytest.mark.parametrize("command", COMMANDS)
def test_many_kills_then_rerun_store_exactly_one_run(
    command: str,
    seed: int,
    store_url: str,
    day: Day,
    references: Callable[[str], Reference],
    tmp_path: Path,
) -> None:
    kill_then_rerun(
        command,
        store_url,
        day,
        tmp_path / "out",
        references(command),
        LONG_KILLS[command],
        seed,
        workers=2,
    )
