"""Nightly benchmark: wall time and peak memory of a whole night, SQLite and PostgreSQL.

    .ci/with-postgres .venv/bin/python benchmarks/nightly.py [--hands 100000]
        [--rounds 100000] [--machines 500] [--tournaments 50] [--backends sqlite,postgresql]
        [--workers N] [--day DIR] [--breakdown] [--profile LABELS]

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

``--day DIR`` reuses the day an earlier run generated (its folder, printed by that run:
``DIR/in`` and the manifest in it) instead of generating one. ``--breakdown`` also
prints where the time went, step by step (``nightly_breakdown``: each input file's
intake, each partition's judging, the serial steps; wall and CPU seconds per process),
the CPU seconds of the main process, of its workers and, on PostgreSQL, of the server;
``--profile poker/0001.avro,p03`` writes cProfile stats of those calls beside the day.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
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


def child(url: str, input_dir: str, out_dir: str, workers: int, breakdown: Path | None) -> None:
    """In a child process: the whole night; seconds, events, peak RSS and CPU seconds as
    JSON (this process's, and the largest of its worker processes' / all of theirs)."""
    from pipelines.nightly import run_nightly

    if breakdown is not None:
        from nightly_breakdown import install

        install(breakdown)
    began = time.perf_counter()
    summary = run_nightly(url, Path(input_dir), DAY, Path(out_dir), workers=workers)
    seconds = time.perf_counter() - began
    # The workers are left to exit while the night's last serial steps run: reap them
    # all, so that their CPU seconds and peak RSS are counted (RUSAGE_CHILDREN).
    while multiprocessing.active_children():
        time.sleep(0.05)
    print(
        json.dumps(
            {
                "seconds": seconds,
                "events": summary.events,
                "findings": summary.findings,
                "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "worker_peak_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
                "cpu": _cpu(resource.RUSAGE_SELF),
                "worker_cpu": _cpu(resource.RUSAGE_CHILDREN),
            }
        )
    )


def _cpu(who: int) -> float:
    """User + system CPU seconds (``resource.getrusage``)."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def server_cpu(url: str) -> float | None:
    """CPU seconds the PostgreSQL server behind ``url`` has used so far: its postmaster's
    own and its ended backends' (``/proc``; None when not readable, or not PostgreSQL)."""
    if not url.startswith("postgresql"):
        return None
    import psycopg

    with psycopg.connect(url.split("?")[0]) as conn:
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()
    try:
        parent = Path(f"/proc/{backend[0] if backend else 0}/stat").read_text().split()[3]
        fields = Path(f"/proc/{parent}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


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
    parser.add_argument("--day", type=Path, help="reuse the day generated under DIR")
    parser.add_argument("--breakdown", action="store_true", help="time every step")
    parser.add_argument("--profile", default="", help="cProfile these files/partitions")
    parser.add_argument("--child", nargs=3, metavar=("URL", "INPUT", "OUT"))
    parser.add_argument("--breakdown-log", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    from pipelines.nightly import default_workers

    workers = args.workers or default_workers()
    if args.child:
        child(*args.child, workers, args.breakdown_log)
        return
    if args.day:
        from simulate.manifest import DayManifest

        work = args.day
        manifest = DayManifest.read(work / "in" / DAY.isoformat())
        print(f"reusing the day under {work}: {manifest.hands} hands")
    else:
        work, manifest = generate(args)
    for backend in args.backends.split(","):
        run_backend(backend, work, manifest, workers, args)


def generate(args: argparse.Namespace) -> tuple[Path, DayManifest]:
    """A fresh synthetic day (see the module docstring) under a new folder."""
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
    return work, manifest


def run_backend(
    backend: str, work: Path, manifest: DayManifest, workers: int, args: argparse.Namespace
) -> None:
    """The night on one store, in a child process, and its figures printed."""
    if backend == "sqlite":
        (work / "store.db").unlink(missing_ok=True)
        url: str | None = f"sqlite:///{work / 'store.db'}"
    else:
        url = fresh_pg_url()
    if url is None:
        print(f"{backend}: skipped (CASINO_AUDIT_TEST_PG_URL not set)")
        return
    log = work / f"breakdown-{backend}.jsonl"
    log.unlink(missing_ok=True)
    extra = ["--breakdown-log", str(log)] if args.breakdown or args.profile else []
    env = dict(os.environ)
    if args.profile:
        env |= {"NIGHTLY_PROFILE_DIR": str(work), "NIGHTLY_PROFILE": args.profile}
    server_before = server_cpu(url)
    out = subprocess.run(
        [
            *(sys.executable, __file__, "--workers", str(workers), *extra),
            *("--child", url, str(work / "in"), str(work / backend)),
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    if out.returncode:
        print(f"{backend}: the night failed (exit {out.returncode}):\n{out.stderr}")
        return
    result = json.loads(out.stdout.strip().splitlines()[-1])
    # Workers run side by side: parent + workers x the largest worker bounds the total.
    bound = result["peak_mib"] + workers * result["worker_peak_mib"]
    print(
        f"{backend:<11} {result['seconds']:8.0f} s  "
        f"{result['events'] / result['seconds']:8.0f} events/s  {workers} workers  "
        f"peak {result['peak_mib']:.0f} MiB + {workers} x {result['worker_peak_mib']:.0f} "
        f"MiB <= {bound:.0f} MiB  findings {result['findings']}"
    )
    server_after = server_cpu(url)
    server = (
        f", server {server_after - server_before:.0f} s"
        if server_before is not None and server_after is not None
        else ""
    )
    print(f"{'':<12}cpu: main {result['cpu']:.0f} s, workers {result['worker_cpu']:.0f} s{server}")
    if log.exists():
        from nightly_breakdown import table

        for line in table(log):
            print(f"{'':<12}{line}")
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
