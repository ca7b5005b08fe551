"""``casino-audit export --format phh``: stored hands out as PHH, for re-checking in PokerKit."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cli.common import EXIT_DATA_PROBLEMS, EXIT_OK, CannotRun, Subcommands, open_store, parse_day


def add_parser(sub: Subcommands) -> None:
    """Add ``export`` to the ``casino-audit`` parser."""
    p = sub.add_parser("export", help="write stored poker hands as PHH (phh-std)")
    p.add_argument("--format", choices=["phh"], default="phh", help="output format (phh)")
    p.add_argument("--subject", metavar="ID", help="one hand, by its id")
    p.add_argument("--since", metavar="YYYY-MM-DD", help="hands started on or after this day")
    p.add_argument("--until", metavar="YYYY-MM-DD", help="hands started on or before this day")
    p.add_argument(
        "out",
        metavar="OUT",
        help="a .phhs file (one [N] section per hand) or, with --subject, a .phh file",
    )
    p.set_defaults(run=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    """Write the chosen hands; exit 1 when none matched."""
    from audit.ingest.phh.export import in_period, write_phh

    out = Path(args.out)
    if out.suffix not in (".phh", ".phhs"):
        raise CannotRun(f"{args.out}: the output must end in .phhs (or .phh for one hand)")
    if out.suffix == ".phh" and not args.subject:
        raise CannotRun(f"{args.out}: a .phh file holds one hand: give --subject or use .phhs")
    if args.subject and (args.since or args.until):
        raise CannotRun("give --subject or --since/--until, not both")
    since, until = parse_day(args.since), parse_day(args.until)
    if not out.parent.is_dir():
        raise CannotRun(f"{args.out}: no such folder {out.parent}")
    store = open_store(args, create=False)
    try:
        hands: Iterable[list[dict[str, Any]]]
        if args.subject:
            records = store.records_of("poker", args.subject)
            hands = [records] if records else []
        else:
            hands = (r for _, r in store.iter_subjects("poker") if r and in_period(r, since, until))
        summary = write_phh(hands, out)
    finally:
        store.close()
    print(f"{summary.hands} hand(s) written to {out}")
    if not summary.hands:
        print("no stored hand matched" + (f": {args.subject!r}" if args.subject else ""))
        return EXIT_DATA_PROBLEMS
    return EXIT_OK
