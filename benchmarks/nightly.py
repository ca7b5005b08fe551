"""Nightly benchmark: wall time and peak memory of a whole night, SQLite and PostgreSQL.

    .ci/with-postgres .venv/bin/python benchmarks/nightly.py [--hands 100000]
        [--rounds 100000] [--machines 500] [--tournaments 50] [--backends sqlite,postgresql]
        [--workers N]

1. Generates one synthetic day (``simulate.day.generate_day``, seeded, two
   colluding groups) with banked rounds of the four games (``floor.banked_rounds``) and
   slot machines with hourly readings (``fleet.slot_fleet``) and tournaments
   (``tournaments.tournament_day``) beside the poker hands, 1% of hands, rounds and
   machines and 10% of the tournaments (so that some are planted) with a fault.
2. Runs ``pipelines.nightly.run_nightly`` over it into a fresh store on each backend, in
   a child process so its peak RSS (ru_maxrss) is its own; PostgreSQL needs
   ``CASINO_AUDIT_TEST_PG_URL`` (``.ci/with-postgres`` sets it), each run a new schema.
3. Prints seconds, events/s and peak MiB per backend (the main process's and the largest
   worker's: ``run_nightly`` spreads input files over ``--workers`` processes, default one
   per CPU), then the precision and recall of the planted faults against the store's
   findings (``simulate.score``). No assertion: a benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simulate.manifest import DayManifest
    from simulate.score import Score

DAY = date(2025, 3, 1)
FILE_SIZE = 10_000
"""Hands (and banked rounds) per input file of the generated day."""


def child(url: str, input_dir: str, out_dir: str, workers: int) -> None:
    """In a child process: the whole night; seconds, events and peak RSS as JSON (this
    process's, and the largest of its worker processes')."""
    from pipelines.nightly import run_nightly

    began = time.perf_counter()
    summary = run_nightly(url, Path(input_dir), DAY, Path(out_dir), workers=workers)
    print(
        json.dumps(
            {
                "seconds": time.perf_counter() - began,
                "events": summary.events,
                "findings": summary.findings,
                "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "worker_peak_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
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
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--workers", type=int, default=0, help="default: one per CPU")
    parser.add_argument("--child", nargs=3, metavar=("URL", "INPUT", "OUT"))
    args = parser.parse_args()
    from pipelines.nightly import default_workers

    workers = args.workers or default_workers()
    if args.child:
        child(*args.child, workers)
        return
    from simulate.day import generate_day
    from simulate.fleet import slot_fleet
    from simulate.floor import banked_rounds
    from simulate.tournaments import tournament_day

    work = Path(tempfile.mkdtemp(prefix="nightly-bench-"))
    began = time.perf_counter()
    manifest = generate_day(
        7,
        DAY,
        hands=args.hands,
        out=work / "in" / DAY.isoformat(),
        colluders=2,
        fault_rate=0.01,
        hands_per_file=FILE_SIZE,
        extra=[
            banked_rounds(args.rounds, fault_rate=0.01, per_file=FILE_SIZE),
            slot_fleet(args.machines, fault_rate=0.01),
            tournament_day(args.tournaments, fault_rate=0.1),
        ],
    )
    print(
        f"generated {manifest.hands} hands, {args.rounds} rounds, {args.machines} machines, "
        f"{args.tournaments} tournaments in {time.perf_counter() - began:.0f} s ({work})"
    )
    for backend in args.backends.split(","):
        url = f"sqlite:///{work / 'store.db'}" if backend == "sqlite" else fresh_pg_url()
        if url is None:
            print(f"{backend}: skipped (CASINO_AUDIT_TEST_PG_URL not set)")
            continue
        out = subprocess.run(
            [
                *(sys.executable, __file__, "--workers", str(workers)),
                *("--child", url, str(work / "in"), str(work / backend)),
            ],
            capture_output=True,
            text=True,
        )
        if out.returncode:
            print(f"{backend}: the night failed (exit {out.returncode}):\n{out.stderr}")
            continue
        result = json.loads(out.stdout.strip().splitlines()[-1])
        # Workers run side by side: parent + workers x the largest worker bounds the total.
        bound = result["peak_mib"] + workers * result["worker_peak_mib"]
        print(
            f"{backend:<11} {result['seconds']:8.0f} s  "
            f"{result['events'] / result['seconds']:8.0f} events/s  {workers} workers  "
            f"peak {result['peak_mib']:.0f} MiB + {workers} x {result['worker_peak_mib']:.0f} "
            f"MiB <= {bound:.0f} MiB  findings {result['findings']}"
        )
        for line in scored(url, manifest).lines():
            print(f"{'':<12}{line}")


def scored(url: str, manifest: DayManifest) -> Score:
    """The planted faults against the store's current findings."""
    from audit.judging import current_findings
    from pipelines.nightly import open_store
    from simulate.score import finding_pairs, score

    with open_store(url) as store:
        return score(manifest, finding_pairs(current_findings(store)))


if __name__ == "__main__":
    main()
