"""CPU of ingest and verify on a partitioned store against a plain one (and a reference
build), and of each retention step, through the CLI on PostgreSQL.

    .ci/with-postgres .venv/bin/python benchmarks/retention_cpu.py HANDS_FOLDER \\
        [--reference /work/main/.venv/bin] [--rounds 2]

HANDS_FOLDER: PHH hands (e.g. 3,000 Pluribus hands copied flat). Part 1, per round: the
hands ingested, then ``verify``, into a new schema by the reference build's CLI (another
clone's ``.venv/bin``: the speed reference of the same run), by this build's on a plain
store and on a ``db init --partitioned`` one. Part 2: a partitioned store, the first half
of the hands as day 1, ``retention cut``, the second half as day 2, ``verify``,
``retention archive`` of day 1, ``verify-archive``, ``verify`` from the retention record.
Client CPU is the command's user + sys (``RUSAGE_CHILDREN``); wall time beside it. No
server in ``CASINO_AUDIT_TEST_PG_URL`` prints why and exits 0. No assertion: a benchmark.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import psycopg

HERE = Path(sys.executable).parent
RULEBOOK = "gg-2022-cash-holdem"


def timed(cli: Path, *args: str) -> tuple[float, float, str]:
    """(client CPU s, wall s, stdout) of one ``casino-audit`` command."""
    before, began = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = subprocess.run([str(cli), *args], check=True, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, time.perf_counter() - began, done.stdout


def line(what: str, cpu: float, wall: float) -> None:
    print(f"| {what} | {cpu:.2f} | {wall:.2f} |", flush=True)


def compare(conn: psycopg.Connection, base: str, hands: Path, reference: Path, rounds: int) -> None:
    print("\n| round, build, store, step | client CPU s | wall s |\n|---|---|---|")
    builds = {"reference": reference / "casino-audit", "this": HERE / "casino-audit"}
    for round_ in range(1, rounds + 1):
        for name, cli, parted in [
            ("reference, plain", builds["reference"], False),
            ("this, plain", builds["this"], False),
            ("this, partitioned", builds["this"], True),
        ]:
            schema = f"bench_{uuid.uuid4().hex[:8]}"
            conn.execute(f"CREATE SCHEMA {schema}")
            url = f"{base}?schema={schema}"
            if parted:
                timed(cli, "--store", url, "db", "init", "--partitioned")
            try:
                cpu, wall, _ = timed(
                    cli, "--store", url, "ingest", "--rulebook", RULEBOOK, str(hands)
                )
                line(f"{round_}, {name}, ingest", cpu, wall)
                cpu, wall, _ = timed(cli, "--store", url, "verify")
                line(f"{round_}, {name}, verify", cpu, wall)
            finally:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")


def retention(conn: psycopg.Connection, base: str, hands: Path, work: Path) -> None:
    files = sorted(hands.glob("*.phh"))
    days = [work / "day1", work / "day2"]
    for n, day in enumerate(days):
        day.mkdir()
        half = files[: len(files) // 2] if n == 0 else files[len(files) // 2 :]
        for path in half:
            (day / path.name).symlink_to(path.resolve())
    cli = HERE / "casino-audit"
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    conn.execute(f"CREATE SCHEMA {schema}")
    url = f"{base}?schema={schema}"
    print(f"\n{len(files) // 2:,} hands a day, partitioned store\n")
    print("| step | client CPU s | wall s |\n|---|---|---|")
    try:
        timed(cli, "--store", url, "db", "init", "--partitioned")
        timed(cli, "--store", url, "ingest", "--rulebook", RULEBOOK, str(days[0]))
        cpu, wall, out = timed(cli, "--store", url, "retention", "cut")
        line("retention cut", cpu, wall)
        found = re.search(r"checkpoint (\d+)", out)
        assert found, out
        timed(cli, "--store", url, "ingest", "--rulebook", RULEBOOK, str(days[1]))
        line("verify, two days", *timed(cli, "--store", url, "verify")[:2])
        archive = work / "day1.jsonl"
        cpu, wall, _ = timed(
            cli, "--store", url, "retention", "archive", "--through", found.group(1),
            "--out", str(archive),
        )  # fmt: skip
        line(f"retention archive of day 1 ({archive.stat().st_size:,} B)", cpu, wall)
        line("verify-archive", *timed(cli, "verify-archive", str(archive))[:2])
        line("verify from the retention record", *timed(cli, "--store", url, "verify")[:2])
    finally:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("hands", type=Path, help="a folder of .phh hands")
    parser.add_argument("--reference", type=Path, default=Path("/work/main/.venv/bin"))
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    base = os.environ.get("CASINO_AUDIT_TEST_PG_URL")
    if not base:
        print("no PostgreSQL (run through .ci/with-postgres): nothing measured")
        return
    print(f"command: {' '.join(sys.argv)}")
    print(f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average {os.getloadavg()}")
    with psycopg.connect(base, autocommit=True) as conn, tempfile.TemporaryDirectory() as tmp:
        compare(conn, base, args.hands, args.reference, args.rounds)
        retention(conn, base, args.hands, Path(tmp))
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
