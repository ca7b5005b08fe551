"""``casino-audit nightly`` and ``casino-audit demo``: the nightly job without a scheduler.

``cmd_nightly`` runs ``pipelines.nightly.run_nightly`` for one date; ``cmd_demo`` writes a
synthetic day with planted faults (``simulate``) and runs the nightly over it.
Exit codes (``cli.common``): 0 done; 1 done, but the day's data has problems (failed
data-quality checks or quarantined records); 2 could not run.
"""

from __future__ import annotations

import argparse
import shlex
from collections import Counter
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from audit.config import StoreURLError, parse_store_url, store_url_from_env
from audit.notation.escape import terminal_safe
from cli.common import EXIT_DATA_PROBLEMS, EXIT_OK, CannotRun, Subcommands, parse_day
from pipelines.settings import input_root, report_root

if TYPE_CHECKING:
    from pipelines.nightly import NightlySummary
    from simulate.manifest import DayManifest

DEMO_DIR = Path("casino-audit-demo")


def add_parsers(sub: Subcommands) -> None:
    """Add ``nightly`` and ``demo`` to the ``casino-audit`` parser."""
    p = sub.add_parser("nightly", help="the nightly reconciliation without a scheduler")
    p.add_argument("--date", required=True, help="the day, YYYY-MM-DD (UTC)")
    p.add_argument(
        "--input",
        help="input root: <input>/<date>/**/*.avro "
        "(default $CASINO_AUDIT_INPUT or ./casino-audit-input)",
    )
    p.add_argument(
        "--out", help="report root (default $CASINO_AUDIT_OUT or ./casino-audit-reports)"
    )
    p.add_argument(
        "--workers",
        type=int,
        help="processes validating, ingesting and replaying input files (default: one per CPU)",
    )
    p.set_defaults(run=cmd_nightly)
    p = sub.add_parser("demo", help="a synthetic day with planted faults, end to end")
    p.set_defaults(run=cmd_demo)


def _store_url(args: argparse.Namespace) -> str:
    url = store_url_from_env(getattr(args, "store", None))
    try:
        parse_store_url(url)  # raises StoreURLError with the reason
    except StoreURLError as error:
        raise CannotRun(str(error)) from None
    return url


def _run(
    url: str, input_dir: Path, day: date, out_dir: Path, workers: int | None = None
) -> NightlySummary:
    """run_nightly in ``workers`` processes (default: one per CPU)."""
    from eventsourcing.persistence import PersistenceError

    from audit.store import StoreUnusable
    from pipelines.night_window import BadTolerance, tolerance_from_env
    from pipelines.nightly import NoInput, default_workers, run_nightly

    try:
        tolerance_from_env()  # a bad setting stops the night before anything is read
        return run_nightly(url, input_dir, day, out_dir, workers=workers or default_workers())
    except (NoInput, StoreUnusable, BadTolerance) as error:  # their messages say what
        raise CannotRun(str(error)) from None
    except (PersistenceError, OSError) as error:
        where = parse_store_url(url).redacted()
        raise CannotRun(f"cannot use the store {where}: {error}") from None


def _print_summary(summary: NightlySummary) -> None:
    print(f"day:                   {summary.day}")
    print(f"input files:           {summary.input_files}")
    print(f"events checked:        {summary.events}")
    for kind, count in summary.judged.items():
        print(f"{kind + ' judged:':<23}{count}")
    for ingested in summary.ingested:
        if ingested.skipped:
            name, why = terminal_safe(ingested.input_file), terminal_safe(ingested.skipped)
            print(f"  not judged: {name}: {why}")
    print(f"records quarantined:   {summary.quarantined}")
    print(f"new facts stored:      {summary.units_stored} finding unit(s)")
    print("findings by kind:")
    for kind, count in summary.findings.items():
        print(f"  {kind:<30}{count}")
    if not summary.findings:
        print("  (none)")
    if summary.report:
        print(f"report:                {summary.report.html}")


def _exit_code(summary: NightlySummary) -> int:
    return EXIT_DATA_PROBLEMS if summary.quality_findings or summary.quarantined else EXIT_OK


def cmd_nightly(args: argparse.Namespace) -> int:
    """``casino-audit [--store URL] nightly --date D [--input DIR] [--out DIR] [--workers N]``."""
    day = parse_day(args.date)
    assert day is not None  # --date is required
    url = _store_url(args)
    input_dir = Path(input_root(getattr(args, "input", None)))
    out_dir = Path(report_root(getattr(args, "out", None)))
    summary = _run(url, input_dir, day, out_dir, getattr(args, "workers", None))
    _print_summary(summary)
    return _exit_code(summary)


def cmd_demo(args: argparse.Namespace) -> int:
    """``casino-audit demo``: a seeded synthetic day with planted faults, end to end."""
    from simulate.demo import (
        DEMO_DAY,
        DEMO_HANDS,
        DEMO_MACHINES,
        DEMO_ROUNDS,
        DEMO_SEED,
        DEMO_TOURNAMENTS,
        demo_day,
    )

    url = _store_url(args)
    folder = DEMO_DIR / DEMO_DAY.isoformat()
    print(
        f"generating {DEMO_HANDS} hands, {DEMO_ROUNDS} banked rounds, {DEMO_MACHINES} slot"
        f" machines and {DEMO_TOURNAMENTS} tournaments of {DEMO_DAY} (seed {DEMO_SEED})"
        f" into {folder}/ ..."
    )
    manifest = demo_day(DEMO_DIR)
    summary = _run(url, DEMO_DIR, DEMO_DAY, DEMO_DIR / "reports")
    _print_summary(summary)
    elsewhere = _print_found_vs_planted(url, manifest)
    store = shlex.quote(parse_store_url(url).redacted())
    print(f"look up one: casino-audit --store {store} show <subject>")
    print(f"console:     casino-audit --store {store} user add NAME --role inspector")
    reports = shlex.quote(str(DEMO_DIR / "reports"))
    print(
        f"             casino-audit --store {store} serve --reports {reports}"
        "   # then http://127.0.0.1:8765/"
    )
    problems = summary.quarantined or elsewhere
    return EXIT_DATA_PROBLEMS if problems else EXIT_OK


def _print_found_vs_planted(url: str, manifest: DayManifest) -> int:
    """Subjects found and planted per finding kind, then the deterministic faults' score;
    returns how many subjects raised data-quality findings where no fault was planted (a
    planted fault may break a data expectation: a chip count naming a player without an
    entry, a tournament a late entry leaves without a winner)."""
    from audit.judging import current_findings
    from pipelines.detectors import collusion_window
    from pipelines.nightly import open_store
    from simulate.across import across_lines
    from simulate.score import COLLUSION, collusion_lines, finding_pairs, score

    with open_store(url) as store:
        found = set(finding_pairs(current_findings(store)))
        window = collusion_window(store, date.fromisoformat(manifest.day))
    planted = Counter(kind for fault in manifest.faults for kind in set(fault.findings))
    subjects = Counter(kind for _, kind in found if kind != COLLUSION)
    print("found vs planted, in subjects (planted: manifest.json):")
    for kind in sorted(set(planted) | set(subjects)):
        print(f"  {kind:<30}{subjects[kind]:>6} found {planted[kind]:>6} planted")
    for line in collusion_lines(manifest, found, window.verdict):
        print(f"  {line}")
    print("hands, rounds, machines and tournaments (collusion and data quality aside):")
    scored = score(manifest, found)
    for line in scored.lines():
        print(f"  {line}")
    for line in across_lines(manifest, found):
        print(terminal_safe(line))
    return len(scored.quality_elsewhere)
