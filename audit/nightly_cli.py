"""``casino-audit nightly`` and ``casino-audit demo``: the nightly job without a scheduler.

``cmd_nightly`` runs ``pipelines.nightly.run_nightly`` for one date; ``cmd_demo`` writes a
synthetic day with planted faults (``pipelines.simulate``) and runs the nightly over it.
Exit codes as for every command (``audit.cli``): 0 done; 1 done, but the day's data has
problems (failed data-quality checks or quarantined records); 2 could not run.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections import Counter
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from audit.config import StoreURLError, parse_store_url, store_url_from_env

if TYPE_CHECKING:
    from pipelines.nightly import NightlySummary
    from pipelines.simulate.manifest import DayManifest

EXIT_OK, EXIT_DATA_PROBLEMS, EXIT_CANNOT_RUN = 0, 1, 2
INPUT_ENV, OUT_ENV = "CASINO_AUDIT_INPUT", "CASINO_AUDIT_OUT"
DEFAULT_INPUT, DEFAULT_OUT = "casino-audit-input", "casino-audit-reports"
DEMO_DIR = Path("casino-audit-demo")


def _fail(command: str, message: str) -> int:
    print(f"casino-audit {command}: {message}", file=sys.stderr)
    return EXIT_CANNOT_RUN


def _store_url(args: argparse.Namespace) -> str:
    url = store_url_from_env(getattr(args, "store", None))
    parse_store_url(url)  # raises StoreURLError with the reason
    return url


def _run(
    command: str, url: str, input_dir: Path, day: date, out_dir: Path, workers: int | None = None
) -> NightlySummary | None:
    """run_nightly in ``workers`` processes (default: one per CPU), or None after saying why
    it could not run."""
    from eventsourcing.persistence import PersistenceError

    from audit.store.existing import StoreUnusable
    from pipelines.nightly import NoInput, default_workers, run_nightly

    try:
        return run_nightly(url, input_dir, day, out_dir, workers=workers or default_workers())
    except (NoInput, StoreUnusable) as error:  # their messages name the store already
        _fail(command, str(error))
        return None
    except (PersistenceError, OSError) as error:
        _fail(command, f"cannot use the store {parse_store_url(url).redacted()}: {error}")
        return None


def _print_summary(summary: NightlySummary) -> None:
    print(f"day:                   {summary.day}")
    print(f"shards:                {summary.shards}")
    print(f"events checked:        {summary.events}")
    judged: Counter[str] = Counter()
    for replayed in summary.replayed:
        if replayed.kind:
            judged[replayed.kind] += replayed.subjects
    for kind, count in sorted(judged.items()):
        print(f"{kind + ' judged:':<23}{count}")
    for replayed in summary.replayed:
        if replayed.skipped:
            print(f"  not judged: {replayed.shard}: {replayed.skipped}")
    print(f"records quarantined:   {summary.quarantined}")
    print(f"new facts stored:      {summary.units_stored} finding unit(s)")
    print("findings by kind:")
    for kind, count in summary.findings.items():
        print(f"  {kind:<24}{count}")
    if not summary.findings:
        print("  (none)")
    if summary.report:
        print(f"report:                {summary.report.html}")


def _exit_code(summary: NightlySummary) -> int:
    return EXIT_DATA_PROBLEMS if summary.quality_findings or summary.quarantined else EXIT_OK


def cmd_nightly(args: argparse.Namespace) -> int:
    """``casino-audit [--store URL] nightly --date D [--input DIR] [--out DIR] [--workers N]``."""
    try:
        day = date.fromisoformat(args.date)
    except (TypeError, ValueError):
        return _fail("nightly", f"{args.date!r} is not a date (YYYY-MM-DD)")
    try:
        url = _store_url(args)
    except StoreURLError as error:
        return _fail("nightly", str(error))
    input_dir = Path(getattr(args, "input", None) or os.environ.get(INPUT_ENV, DEFAULT_INPUT))
    out_dir = Path(getattr(args, "out", None) or os.environ.get(OUT_ENV, DEFAULT_OUT))
    summary = _run("nightly", url, input_dir, day, out_dir, getattr(args, "workers", None))
    if summary is None:
        return EXIT_CANNOT_RUN
    _print_summary(summary)
    return _exit_code(summary)


def cmd_demo(args: argparse.Namespace) -> int:
    """``casino-audit demo``: a seeded synthetic day with planted faults, end to end."""
    try:
        from pipelines.simulate.demo import (
            DEMO_DAY,
            DEMO_HANDS,
            DEMO_MACHINES,
            DEMO_ROUNDS,
            DEMO_SEED,
            DEMO_TOURNAMENTS,
            demo_day,
        )
    except ImportError as error:
        return _fail("demo", f"the synthetic-day generator is not available ({error})")
    try:
        url = _store_url(args)
    except StoreURLError as error:
        return _fail("demo", str(error))
    folder = DEMO_DIR / DEMO_DAY.isoformat()
    print(
        f"generating {DEMO_HANDS} hands, {DEMO_ROUNDS} banked rounds, {DEMO_MACHINES} slot"
        f" machines and {DEMO_TOURNAMENTS} tournaments of {DEMO_DAY} (seed {DEMO_SEED})"
        f" into {folder}/ ..."
    )
    manifest = demo_day(DEMO_DIR)
    summary = _run("demo", url, DEMO_DIR, DEMO_DAY, DEMO_DIR / "reports")
    if summary is None:
        return EXIT_CANNOT_RUN
    _print_summary(summary)
    _print_found_vs_planted(url, manifest)
    store = shlex.quote(parse_store_url(url).redacted())
    print(f"look up one: casino-audit --store {store} show <subject>")
    print(f"console:     casino-audit --store {store} user add NAME --role inspector")
    print(f"             casino-audit --store {store} serve   # then http://127.0.0.1:8765/")
    return _exit_code(summary)


def _print_found_vs_planted(url: str, manifest: DayManifest) -> None:
    """Subjects found and planted per finding kind, then the deterministic faults' score."""
    from audit.adjudicate import current_findings
    from pipelines.nightly import open_store
    from pipelines.simulate.score import finding_pairs, score

    with open_store(url) as store:
        found = set(finding_pairs(current_findings(store)))
    planted = Counter(kind for fault in manifest.faults for kind in set(fault.findings))
    planted["collusion_suspected"] += len(manifest.collusion)
    subjects = Counter(kind for _, kind in found)
    print("found vs planted, in subjects (planted: manifest.json):")
    for kind in sorted(set(planted) | set(subjects)):
        print(f"  {kind:<24}{subjects[kind]:>6} found {planted[kind]:>6} planted")
    print("hands, rounds, machines and tournaments (collusion and data quality aside):")
    for line in score(manifest, found).lines():
        print(f"  {line}")
