"""``casino-audit``: the command line (contract in ARCHITECTURE.md).

Exit codes, for every command:
  0  done; for ``ingest``: every record stored (or already stored)
  1  done, but the data has problems: ``ingest`` quarantined records, ``verify`` found a
     broken chain, ``findings --fail-on-findings`` found some
  2  could not run: bad arguments, a missing path, an unreachable or unusable store
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from audit.config import StoreURLError, store_url_from_env

EXIT_OK, EXIT_DATA_PROBLEMS, EXIT_CANNOT_RUN = 0, 1, 2


class CannotRun(Exception):
    """The command cannot run; the message says why (no traceback for the user)."""


def _open_store(args: argparse.Namespace, *, create: bool = True):
    """The store of ``--store``; a read command (``create=False``) never creates one."""
    from eventsourcing.persistence import PersistenceError

    from audit.config import parse_store_url
    from audit.store import AuditStore
    from audit.store.existing import StoreUnusable
    from audit.store.signing import KeyError_

    url = store_url_from_env(args.store)
    try:
        return AuditStore(url, create=create)
    except StoreUnusable as error:  # missing, or the role may not use it so
        raise CannotRun(str(error)) from None
    except (StoreURLError, KeyError_) as error:
        raise CannotRun(str(error)) from None
    except (PersistenceError, OSError) as error:
        where = parse_store_url(url).redacted()
        raise CannotRun(f"cannot open the store {where}: {error}") from None


def cmd_ingest(args: argparse.Namespace) -> int:
    from audit.ingest.limits import BadLimit
    from audit.ingest.pipeline import ingest
    from audit.ingest.rulebook_choice import UnknownRulebook
    from audit.ingest.sources import MissingInput
    from audit.progress import file_progress

    store = _open_store(args)
    try:
        with file_progress("ingest") as advance:
            summary = ingest(
                store,
                [Path(p) for p in args.paths],
                rulebooks=args.rulebook or (),
                on_file=advance,
            )
    except (MissingInput, UnknownRulebook, BadLimit) as error:
        raise CannotRun(str(error)) from None
    print(f"files read:            {summary.files}")
    print(f"subjects stored:       {summary.subjects_stored}")
    print(f"already stored:        {summary.subjects_already_stored}")
    print(f"events stored:         {summary.events_stored}")
    print(f"records quarantined:   {summary.quarantined}")
    for rejected in summary.rejected:
        print(f"  quarantined: {rejected}")
    if summary.not_listed:
        print(f"  … and {summary.not_listed} more (`casino-audit quarantine` lists them all)")
    return EXIT_DATA_PROBLEMS if summary.quarantined else EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    from audit.store.signing import KeyError_, load_public_key

    try:
        public_key = load_public_key(Path(args.public_key)) if args.public_key else None
    except KeyError_ as error:
        raise CannotRun(str(error)) from None
    store = _open_store(args, create=False)
    if args.witness:
        return _verify_witness(store, args.witness, public_key)
    report = store.verify(public_key)
    if not report.ok:
        _print_chain_problem(report)
        return EXIT_DATA_PROBLEMS
    print(
        f"chain intact: {report.events_checked} events, "
        f"{report.checkpoints_checked} checkpoints, head {report.head_hash.hex()}"
    )
    if public_key is not None:
        print(
            f"signatures: {report.signatures_checked} valid, "
            f"{report.unsigned_checkpoints} checkpoint(s) unsigned"
        )
    return EXIT_OK


def _print_chain_problem(report) -> None:
    if report.broken_at is None:  # nothing broken in the chain, but not vouched for
        print(f"NOT VERIFIED: {report.problem}")
        return
    print(f"CHAIN BROKEN at notification {report.broken_at}: {report.problem}")
    print(f"({report.events_checked} events verified before the break)")


def _verify_witness(store, witness: str, public_key) -> int:
    """``verify --witness``: the store against every head kept outside the database."""
    from audit.store.witness import WitnessError, describe

    try:
        report = store.verify_witness(witness, public_key)
    except WitnessError as error:
        raise CannotRun(str(error)) from None
    chain = report.chain
    if chain.ok:
        print(
            f"chain intact: {chain.events_checked} events, "
            f"{chain.checkpoints_checked} checkpoints, head {chain.head_hash.hex()}"
        )
    else:
        _print_chain_problem(chain)
    for problem in report.problems:
        print(f"WITNESS: {problem}")
    signatures = (
        f"{report.signatures_checked} signature(s) valid"
        if public_key is not None
        else "signatures not checked (no --public-key)"
    )
    largest = f", the largest: {describe(report.largest_head)}" if report.largest_head else ""
    print(
        f"witness {witness}: {report.heads_checked} head(s){largest}; {signatures}; "
        f"{report.unwitnessed} event(s) unwitnessed"
    )
    if not report.ok:
        return EXIT_DATA_PROBLEMS
    print("consistent with every witnessed head")
    return EXIT_OK


def cmd_keygen(args: argparse.Namespace) -> int:
    from audit.store.signing import SIGNING_KEY_ENV, KeyError_, generate_keypair

    try:
        private, public = generate_keypair(Path(args.folder))
    except KeyError_ as error:  # a key is already there: never overwritten
        raise CannotRun(str(error)) from None
    print(f"private key: {private} (keep it off the database host; set {SIGNING_KEY_ENV})")
    print(f"public key:  {public} (give it to whoever verifies: verify --public-key)")
    return EXIT_OK


def cmd_checkpoint(args: argparse.Namespace) -> int:
    from audit.store.signing import KeyError_, load_private_key
    from audit.store.witness import WitnessError, witness_from_env

    store = _open_store(args)
    if args.sign_key:
        try:
            store.signing_key = load_private_key(Path(args.sign_key))
        except KeyError_ as error:
            raise CannotRun(str(error)) from None
    try:
        checkpoint = store.checkpoint(publish=args.publish)
    except WitnessError as error:
        raise CannotRun(f"{error} (the checkpoint is recorded in the store)") from None
    if checkpoint is None:
        print("the store is empty: nothing to checkpoint")
        return EXIT_OK
    signed = f", signed by key {checkpoint.key_id}" if checkpoint.signature else ", unsigned"
    root = f", root {checkpoint.tree_root.hex()}" if checkpoint.tree_root else ""
    print(
        f"checkpoint at notification {checkpoint.notification_id}: "
        f"{checkpoint.event_count} events, head {checkpoint.chain_hash.hex()}{root}{signed}"
    )
    if store.signing_key is not None and not checkpoint.signature:
        print(
            "  (this head was already checkpointed unsigned; the next checkpoint after "
            "new events is signed)"
        )
    if args.publish or witness_from_env():
        print(f"published to the witness {args.publish or witness_from_env()}")
    return EXIT_OK


def cmd_quarantine(args: argparse.Namespace) -> int:
    from audit.quarantine import entries

    store = _open_store(args, create=False)
    count = 0
    for entry in entries(store):
        count += 1
        print(entry.line())
        if args.raw:
            print(entry.raw)
    print(f"{count} quarantined record(s)")
    return EXIT_OK


def _day(text: str | None):
    from datetime import date

    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CannotRun(f"{text!r} is not a date (YYYY-MM-DD)") from None


def cmd_replay(args: argparse.Namespace) -> int:
    from audit.adjudicate import replay

    store = _open_store(args)
    summary = replay(store, since=_day(args.since), until=_day(args.until))
    for kind, count in summary.subjects.items():
        print(f"{kind} subjects judged:  {count}")
    print(f"subjects with findings: {summary.with_findings}")
    for kind, count in sorted(summary.findings.items()):
        print(f"  {kind}: {count}")
    print(f"new verdicts stored:    {summary.adjudications_stored}")
    return EXIT_OK


def cmd_findings(args: argparse.Namespace) -> int:
    from audit.adjudicate import current_findings
    from audit.reports import write_findings, write_owed_summary
    from replayer.findings import FindingKind

    known = sorted(str(kind) for kind in FindingKind)
    if args.kind is not None and args.kind not in known:
        raise CannotRun(f"unknown finding kind {args.kind!r}; known: {', '.join(known)}")
    store = _open_store(args, create=False)
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
    from audit.show import show_lines

    store = _open_store(args, create=False)
    lines = show_lines(store, args.id)
    if lines is None:
        raise CannotRun(f"no subject {args.id!r} in the store (hand, round, machine, "
                        "tournament, table, collusion pair, banker run or incident)")
    for line in lines:
        print(line)
    return EXIT_OK


def _lazy(module: str, function: str) -> Callable[[argparse.Namespace], int]:
    """A command implemented elsewhere, imported only when it runs (fast --help)."""

    def run(args: argparse.Namespace) -> int:
        import importlib

        return getattr(importlib.import_module(module), function)(args)

    return run


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="casino-audit",
        description="Event-sourced compliance and audit for casino gaming.",
        epilog="Exit codes: 0 done; 1 data problems (quarantined records, broken chain); "
        "2 could not run.",
    )
    parser.add_argument(
        "--store",
        help="sqlite:///PATH or postgresql://USER:PASS@HOST:PORT/DB "
        "(default: $CASINO_AUDIT_STORE or sqlite:///casino-audit.db)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("ingest", help="store Avro (.avro) and PHH (.phh/.phhs) files or folders")
    p.add_argument(
        "--rulebook",
        action="append",
        metavar="ID",
        help="rulebook for hands and rounds that name none; repeat it: each "
        "record gets the first that covers its variant or game",
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(run=cmd_ingest)

    p = sub.add_parser("verify", help="recompute the hash chain and check the checkpoints")
    p.add_argument(
        "--public-key",
        help="also check every checkpoint's Ed25519 signature; without --witness, refuse a "
        "store whose checkpoints are missing or unsigned",
    )
    p.add_argument(
        "--witness",
        metavar="PATH",
        help="check the store against every tree head published there (checkpoint "
        "--publish, $CASINO_AUDIT_WITNESS): a directory or a JSON-lines file",
    )
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser("checkpoint", help="record (and sign) the chain head now")
    p.add_argument("--sign-key", help="Ed25519 private key (default: $CASINO_AUDIT_SIGNING_KEY)")
    p.add_argument(
        "--publish",
        metavar="PATH",
        help="also write the signed tree head outside the database: a directory (one file "
        "per head) or an append-only JSON-lines file (default: $CASINO_AUDIT_WITNESS)",
    )
    p.set_defaults(run=cmd_checkpoint)

    p = sub.add_parser("keygen", help="make an Ed25519 key pair for signed checkpoints")
    p.add_argument("folder")
    p.set_defaults(run=cmd_keygen)

    p = sub.add_parser("quarantine", help="list quarantined records with their reasons")
    p.add_argument("--raw", action="store_true", help="also print each record as received")
    p.set_defaults(run=cmd_quarantine)

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
        help="processes validating, ingesting and replaying shards (default: one per CPU)",
    )
    p.set_defaults(run=_lazy("audit.nightly_cli", "cmd_nightly"))

    from audit.incident_cli import add_incident_parser

    add_incident_parser(sub)

    from audit.db_cli import add_db_parser

    add_db_parser(sub)

    p = sub.add_parser("demo", help="a synthetic day with planted faults, end to end")
    p.set_defaults(run=_lazy("audit.nightly_cli", "cmd_demo"))
    _add_console_parsers(sub)
    return parser


def _add_console_parsers(sub: argparse._SubParsersAction) -> None:
    """``serve``, ``user`` (the inspector console, package ``console``, imported only when
    run) and ``verify-evidence`` (``audit.evidence``: needs no store)."""
    p = sub.add_parser("serve", help="the inspector console (web pages) over the store")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="port (8765)")
    p.add_argument(
        "--reports",
        help="nightly report root, whose plots the night pages show "
        "(default $CASINO_AUDIT_OUT or ./casino-audit-reports)",
    )
    p.add_argument("--public-key", help="check checkpoint signatures on the overview")
    p.add_argument(
        "--secret-key-file",
        help="key signing sessions (default $CASINO_AUDIT_CONSOLE_SECRET, else random)",
    )
    p.add_argument("--secure-cookies", action="store_true", help="Secure cookies (behind TLS)")
    p.set_defaults(run=_lazy("console.serve", "cmd_serve"))

    p = sub.add_parser("user", help="console accounts: add, list, disable")
    users = p.add_subparsers(dest="user_command", required=True, metavar="SUBCOMMAND")
    q = users.add_parser("add", help="add an account (password: a prompt or --password-file)")
    q.add_argument("name")
    q.add_argument("--role", required=True, choices=("inspector", "investigator", "admin"))
    q.add_argument("--password-file", type=Path, help="its first line is the password")
    users.add_parser("list", help="accounts, their roles, enabled or not")
    q = users.add_parser("disable", help="disable an account (its history stays)")
    q.add_argument("name")
    p.set_defaults(run=_lazy("console.accounts", "cmd_user"))

    p = sub.add_parser("verify-evidence", help="check an evidence bundle, without any store")
    p.add_argument("file", help="the bundle (JSON) from the console's evidence download")
    p.add_argument("--public-key", required=True, help="Ed25519 public key of the checkpoints")
    p.set_defaults(run=_lazy("audit.evidence", "cmd_verify_evidence"))


def _safe(args: argparse.Namespace, error: BaseException) -> str:
    """An error's message without the store URL's password (a last guard: messages are
    made without it already)."""
    from audit.config import scrub

    return " ".join(scrub(str(error), store_url_from_env(getattr(args, "store", None))).split())


def _store_name(args: argparse.Namespace) -> str:
    """``the store URL`` (without its password), for a message."""
    from audit.config import parse_store_url

    try:
        url = parse_store_url(store_url_from_env(getattr(args, "store", None)))
    except StoreURLError:
        return "the store"
    return f"the store {url.redacted()}"


def _is_store_failure(error: BaseException) -> bool:
    """A database error that reached the top (the store went away or refused a
    statement mid-run): exit 2 with its message, not a traceback."""
    import sqlite3

    import psycopg
    from eventsourcing.persistence import PersistenceError

    return isinstance(error, (PersistenceError, psycopg.Error, sqlite3.Error))


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except CannotRun as error:
        print(f"casino-audit {args.command}: {_safe(args, error)}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped to ``head``: stop quietly
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except Exception as error:
        if not _is_store_failure(error):
            raise
        message = f"{_store_name(args)} failed: {_safe(args, error)}"
        print(f"casino-audit {args.command}: {message}", file=sys.stderr)
        return EXIT_CANNOT_RUN


if __name__ == "__main__":  # python -m audit.cli: run the importable module's main, so
    # that commands defined elsewhere (db, incident) raise the CannotRun main catches
    from audit.cli import main as _main

    sys.exit(_main())
