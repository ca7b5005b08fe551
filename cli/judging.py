"""Commands that judge and explain: ``replay``, ``findings``, ``show`` (alias ``hand``)."""

from __future__ import annotations

import argparse
import sys

from cli.common import EXIT_DATA_PROBLEMS, EXIT_OK, CannotRun, Subcommands, open_store, parse_day


def add_parsers(sub: Subcommands) -> None:
    """Add the judging commands to the ``casino-audit`` parser."""
    p = sub.add_parser("replay", help="re-adjudicate stored hands and rounds")
    p.add_argument("--since", help="first day, YYYY-MM-DD (UTC)")
    p.add_argument("--until", help="last day, YYYY-MM-DD (UTC)")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("findings", help="list findings")
    p.add_argument("--kind", help="only findings of this kind, e.g. mispaid_pot")
    p.add_argument("--format", choices=("table", "jsonl", "csv"), default="table")
    p.add_argument(
        "--fail-on-findings", action="store_true", help="exit 1 when there is any finding"
    )
    p.add_argument(
        "--summary",
        action="store_true",
        help="print what is owed, per player, table and operator, by currency",
    )
    p.set_defaults(run=cmd_findings)

    p = sub.add_parser(
        "show",
        aliases=["hand"],
        help="explain one subject step by step: where expected and recorded part ways",
    )
    p.add_argument("id", help="hand, round, machine, tournament, table, pair:A|B, table:T, ...")
    p.set_defaults(run=cmd_show)


def cmd_replay(args: argparse.Namespace) -> int:
    from audit.judging import replay

    store = open_store(args)
    summary = replay(store, since=parse_day(args.since), until=parse_day(args.until))
    for kind, count in summary.subjects.items():
        print(f"{kind} subjects judged:  {count}")
    print(f"subjects with findings: {summary.with_findings}")
    for kind, count in sorted(summary.findings.items()):
        print(f"  {kind}: {count}")
    print(f"new verdicts stored:    {summary.adjudications_stored}")
    return EXIT_OK


def cmd_findings(args: argparse.Namespace) -> int:
    from audit.judging import current_findings
    from audit.show.finding_rows import write_findings, write_owed_summary
    from replayer.findings import FindingKind

    known = sorted(str(kind) for kind in FindingKind)
    if args.kind is not None and args.kind not in known:
        raise CannotRun(f"unknown finding kind {args.kind!r}; known: {', '.join(known)}")
    store = open_store(args, create=False)
    if args.summary:
        rows = list(current_findings(store, args.kind))
        write_owed_summary(rows, sys.stdout)
        count = len(rows)
    else:
        count = write_findings(current_findings(store, args.kind), args.format, sys.stdout)
        if args.format == "table":
            print(f"{count} finding(s)")
    return EXIT_DATA_PROBLEMS if count and args.fail_on_findings else EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    from audit.explain import show_lines

    store = open_store(args, create=False)
    lines = show_lines(store, args.id)
    if lines is None:
        raise CannotRun(
            f"no subject {args.id!r} in the store (hand, round, machine, "
            "tournament, table, collusion pair, banker run, shoe or incident)"
        )
    for line in lines:
        print(line)
    return EXIT_OK
