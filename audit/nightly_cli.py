"""``casino-audit nightly`` and ``casino-audit demo``: the nightly job without a scheduler.

``cmd_nightly`` runs ``pipelines.nightly.run_nightly`` for one date; ``cmd_demo`` writes a
synthetic day with planted faults (``pipelines.simulate``) and runs the nightly over it.
Exit codes as for every command (``audit.cli``): 0 done; 1 done, but the day's data has
problems (failed data-quality checks or quarantined records); 2 could not run.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from audit.config import StoreURLError, parse_store_url, store_url_from_env

if TYPE_CHECKING:
    from pipelines.nightly import NightlySummary

EXIT_OK, EXIT_DATA_PROBLEMS, EXIT_CANNOT_RUN = 0, 1, 2
INPUT_ENV, OUT_ENV = "CASINO_AUDIT_INPUT", "CASINO_AUDIT_OUT"
DEFAULT_INPUT, DEFAULT_OUT = "casino-audit-input", "casino-audit-reports"
DEMO_DIR, DEMO_DAY, DEMO_SEED, DEMO_HANDS = Path("casino-audit-demo"), date(2025, 3, 1), 7, 3_000


def _fail(command: str, message: str) -> int:
    print(f"casino-audit {command}: {message}", file=sys.stderr)
    return EXIT_CANNOT_RUN


def _store_url(args: argparse.Namespace) -> str:
    url = store_url_from_env(getattr(args, "store", None))
    parse_store_url(url)  # raises StoreURLError with the reason
    return url


def _run(
    command: str, url: str, input_dir: Path, day: date, out_dir: Path
) -> NightlySummary | None:
    """run_nightly, or None after saying why it could not run."""
    from eventsourcing.persistence import PersistenceError

    from pipelines.nightly import discover_shards, run_nightly

    if not discover_shards(input_dir, day):
        _fail(command, f"no Avro shards for {day} under {input_dir / day.isoformat()}/")
        return None
    try:
        return run_nightly(url, input_dir, day, out_dir)
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
    """``casino-audit [--store URL] nightly --date D [--input DIR] [--out DIR]``."""
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
    summary = _run("nightly", url, input_dir, day, out_dir)
    if summary is None:
        return EXIT_CANNOT_RUN
    _print_summary(summary)
    return _exit_code(summary)


def cmd_demo(args: argparse.Namespace) -> int:
    """``casino-audit demo``: a seeded synthetic day with planted faults, end to end."""
    try:
        from pipelines.simulate.day import generate_day
    except ImportError as error:
        return _fail("demo", f"the synthetic-day generator is not available ({error})")
    try:
        url = _store_url(args)
    except StoreURLError as error:
        return _fail("demo", str(error))
    folder = DEMO_DIR / DEMO_DAY.isoformat()
    print(f"generating {DEMO_HANDS} hands of {DEMO_DAY} (seed {DEMO_SEED}) into {folder}/ ...")
    manifest = generate_day(
        DEMO_SEED, DEMO_DAY, hands=DEMO_HANDS, out=folder, colluders=2, fault_rate=0.01
    )
    summary = _run("demo", url, DEMO_DIR, DEMO_DAY, DEMO_DIR / "reports")
    if summary is None:
        return EXIT_CANNOT_RUN
    _print_summary(summary)
    planted: Counter[str] = Counter()
    for fault in manifest.faults:
        planted.update(fault.findings)
    planted["collusion_suspected"] += len(manifest.collusion)
    print("found vs planted (planted: manifest.json):")
    for kind in sorted(set(planted) | set(summary.findings)):
        print(f"  {kind:<24}{summary.findings.get(kind, 0):>6} found {planted[kind]:>6} planted")
    print(f"look up one: casino-audit --store {parse_store_url(url).redacted()} hand <subject>")
    return _exit_code(summary)
