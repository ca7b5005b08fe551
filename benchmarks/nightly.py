"""Nightly benchmark: wall time and peak memory of a whole night, SQLite and PostgreSQL.

    .ci/with-postgres .venv/bin/python benchmarks/nightly.py [--hands 100000]
        [--rounds 100000] [--machines 500] [--backends sqlite,postgresql]

1. Generates one synthetic day (``pipelines.simulate.day.generate_day``, seeded, 1%
   planted faults, two colluding groups) with banked rounds (punto banco and roulette,
   alternating) and slot machines (one day's stream each) beside the poker hands.
2. Runs ``pipelines.nightly.run_nightly`` over it into a fresh store on each backend, in
   a child process so its peak RSS (ru_maxrss) is its own; PostgreSQL needs
   ``CASINO_AUDIT_TEST_PG_URL`` (``.ci/with-postgres`` sets it), each run a new schema.
3. Prints seconds, events/s and peak MiB per backend. No assertion: a benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

DAY = date(2025, 3, 1)
SHARD = 10_000


def banked_and_slots(rounds: int, machines: int):
    """An ``extra`` generator for generate_day: banked and slot shards, no faults."""

    def extra(seed: int, day: date, out: Path) -> tuple[list[str], list]:
        from audit.families import family_named
        from audit.ingest.avro_files import write_events
        from pipelines.simulate.casino import punto_banco_round, roulette_round
        from pipelines.simulate.slots import machine_month

        rng = random.Random(f"{seed}:{day}:bench")
        start = datetime(day.year, day.month, day.day, tzinfo=UTC)
        files = []
        for first in range(0, rounds, SHARD):
            events = []
            for n in range(first, min(rounds, first + SHARD)):
                game = punto_banco_round if n % 2 else roulette_round
                at = start + timedelta(seconds=n * 80_000 // max(rounds, 1))
                events += game(rng, f"bench-{'pb' if n % 2 else 'rl'}/{n:06d}", at)
            name = f"banked-{first // SHARD:03d}.avro"
            write_events(out / name, family_named("banked"), events)
            files.append(name)
        for first in range(0, machines, 100):
            events = []
            for m in range(first, min(machines, first + 100)):
                events += machine_month(rng, f"slot-{m:04d}", start, days=1, games_per_day=400)
            name = f"slots-{first // 100:03d}.avro"
            write_events(out / name, family_named("slots"), events)
            files.append(name)
        return files, []

    return extra


def child(url: str, input_dir: str, out_dir: str) -> None:
    """In a child process: the whole night; seconds, events and peak RSS as JSON."""
    from pipelines.nightly import run_nightly

    began = time.perf_counter()
    summary = run_nightly(url, Path(input_dir), DAY, Path(out_dir))
    print(
        json.dumps(
            {
                "seconds": time.perf_counter() - began,
                "events": summary.events,
                "findings": summary.findings,
                "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            }
        )
    )


def fresh_pg_url() -> str | None:
    base = os.environ.get("CASINO_AUDIT_TEST_PG_URL")
    if not base:
        return None
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return f"{base}?schema={schema}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--machines", type=int, default=500)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--child", nargs=3, metavar=("URL", "INPUT", "OUT"))
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    from pipelines.simulate.day import generate_day

    work = Path(tempfile.mkdtemp(prefix="nightly-bench-"))
    began = time.perf_counter()
    manifest = generate_day(
        7,
        DAY,
        hands=args.hands,
        out=work / "in" / DAY.isoformat(),
        colluders=2,
        fault_rate=0.01,
        hands_per_shard=SHARD,
        extra=[banked_and_slots(args.rounds, args.machines)],
    )
    print(
        f"generated {manifest.hands} hands, {args.rounds} rounds, {args.machines} machines "
        f"in {time.perf_counter() - began:.0f} s ({work})"
    )
    for backend in args.backends.split(","):
        url = f"sqlite:///{work / 'store.db'}" if backend == "sqlite" else fresh_pg_url()
        if url is None:
            print(f"{backend}: skipped (CASINO_AUDIT_TEST_PG_URL not set)")
            continue
        out = subprocess.run(
            [sys.executable, __file__, "--child", url, str(work / "in"), str(work / backend)],
            check=True,
            capture_output=True,
            text=True,
        )
        result = json.loads(out.stdout.strip().splitlines()[-1])
        print(
            f"{backend:<11} {result['seconds']:8.0f} s  "
            f"{result['events'] / result['seconds']:8.0f} events/s  "
            f"peak {result['peak_mib']:6.0f} MiB  findings {result['findings']}"
        )


if __name__ == "__main__":
    main()
