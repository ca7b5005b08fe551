"""``casino-audit incident …``: record, amend and investigate incidents.

    casino-audit incident record --id ID --kind K --start ISO --end ISO
        [--tables T …] [--tournaments T …] [--machines M …] [--games G …]
        [--description TEXT] [--reported-by NAME] [--allow-unknown-scope]
    casino-audit incident amend ID --start ISO --end ISO --reason TEXT
        [--tables T …] [--tournaments T …] [--machines M …] [--games G …]
        [--allow-unknown-scope]
    casino-audit incident investigate ID [--as-of ISO] [--format text|json|csv]
        [--out FILE] [--append-findings] [--fail-on-findings]

Times are ISO 8601; without a zone they are taken as UTC. ``--as-of`` defaults to now.
A scope naming a table, game, machine or tournament the store does not hold is refused
with the names it holds (``audit.incidents.scope``); ``--allow-unknown-scope`` records
it anyway (the data is not ingested yet), with a warning.
Exit codes as ``cli.common``: 0 done, 1 ``--fail-on-findings`` and there are findings,
2 could not run.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from cli.common import EXIT_DATA_PROBLEMS, EXIT_OK, CannotRun, Subcommands, open_store

if TYPE_CHECKING:
    from audit.store import AuditStore

SCOPES = ("tables", "tournaments", "machines", "games")


def _when(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an ISO 8601 time") from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _scope_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--start", type=_when, required=True, help="window start, ISO 8601")
    parser.add_argument("--end", type=_when, required=True, help="window end, ISO 8601")
    parser.add_argument("--tables", nargs="+", default=[], metavar="T", help="poker tables")
    parser.add_argument("--tournaments", nargs="+", default=[], metavar="T")
    parser.add_argument("--machines", nargs="+", default=[], metavar="M", help="slot machines")
    parser.add_argument(
        "--games", nargs="+", default=[], metavar="G", help="live tables and RNG game instances"
    )
    parser.add_argument(
        "--allow-unknown-scope",
        action="store_true",
        help="record names the store does not hold yet (warns instead of refusing)",
    )


def add_parsers(subparsers: Subcommands) -> None:
    """Add ``incident`` and its subcommands to the ``casino-audit`` parser."""
    parser = subparsers.add_parser(
        "incident", help="record an incident and investigate refunds after a failure"
    )
    sub = parser.add_subparsers(dest="incident_command", required=True, metavar="SUBCOMMAND")
    p = sub.add_parser("record", help="record an incident (window and scope)")
    p.add_argument("--id", required=True, dest="incident_id")
    p.add_argument("--kind", required=True, help="e.g. server_failure, network_outage")
    _scope_arguments(p)
    p.add_argument("--description", default="")
    p.add_argument("--reported-by", default="")
    p = sub.add_parser("amend", help="replace an incident's window and scope")
    p.add_argument("incident_id", metavar="ID")
    _scope_arguments(p)
    p.add_argument("--reason", required=True)
    p = sub.add_parser("investigate", help="in-flight play, required vs recorded refunds")
    p.add_argument("incident_id", metavar="ID")
    p.add_argument("--as-of", type=_when, help="judge as of this time (default: now)")
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    p.add_argument("--out", type=Path, help="write the report here instead of stdout")
    p.add_argument(
        "--append-findings", action="store_true", help="store the findings (kind 'incident')"
    )
    p.add_argument(
        "--fail-on-findings", action="store_true", help="exit 1 when there is any finding"
    )
    parser.set_defaults(run=cmd_incident)


def cmd_incident(args: argparse.Namespace) -> int:
    from audit.incidents.record import IncidentError

    store = open_store(args)
    try:
        if args.incident_command == "investigate":
            return EXIT_DATA_PROBLEMS if _investigate(store, args) else EXIT_OK
        _record(store, args)
    except IncidentError as error:
        raise CannotRun(str(error)) from None
    return EXIT_OK


def _record(store: AuditStore, args: argparse.Namespace) -> None:
    from audit.incidents.record import amend_incident, record_incident

    scope = {name: getattr(args, name) for name in SCOPES}
    _check_scope(store, scope, allow_unknown=args.allow_unknown_scope)
    now = datetime.now(UTC)
    if args.incident_command == "record":
        record_incident(
            store,
            args.incident_id,
            kind=args.kind,
            window_start=args.start,
            window_end=args.end,
            recorded_at=now,
            description=args.description,
            reported_by=args.reported_by,
            **scope,
        )
        print(f"incident {args.incident_id} recorded")
    else:
        amend_incident(
            store,
            args.incident_id,
            window_start=args.start,
            window_end=args.end,
            reason=args.reason,
            recorded_at=now,
            **scope,
        )
        print(f"incident {args.incident_id} amended")


def _check_scope(store: AuditStore, scope: dict[str, list[str]], *, allow_unknown: bool) -> None:
    """Refuse a scope naming what the store does not hold, or warn when allowed."""
    from audit.incidents.scope import unknown_names

    problems = unknown_names(store, scope)
    if problems and not allow_unknown:
        raise CannotRun("; ".join(problems) + " (record it anyway with --allow-unknown-scope)")
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)


def _investigate(store: AuditStore, args: argparse.Namespace) -> bool:
    """Write the report; True when the fail-on-findings exit applies."""
    from audit.incidents.investigation import append_findings, investigate
    from audit.incidents.report import render_text, to_json, write_csv

    investigation = investigate(store, args.incident_id, as_of=args.as_of or datetime.now(UTC))
    out = args.out.open("w", newline="") if args.out else sys.stdout
    try:
        if args.format == "json":
            out.write(to_json(investigation))
        elif args.format == "csv":
            write_csv(investigation, out)
        else:
            out.write(render_text(investigation))
    finally:
        if args.out:
            out.close()
    if args.append_findings:
        stored = append_findings(store, investigation)
        print(f"findings {'stored' if stored else 'already stored'}", file=sys.stderr)
    return bool(investigation.findings) and args.fail_on_findings
