"""``casino-audit``: the parser of every command and the guard around them.

Exit codes (``cli.common``): 0 done; 1 done, but the data has problems; 2 could not run.
No command ends in a traceback: ``CannotRun`` and a store failing mid-run are exit 2 with
a message (the store URL's password scrubbed), output piped to ``head`` stops quietly.
Every command first checks the compiled build (``audit.compiled.check_build``): a stale one
is exit 2, naming the modules to rebuild.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from audit.config import StoreURLError, store_url_from_env
from cli import console, db, export, incident, judging, nightly, retention, store
from cli.common import EXIT_CANNOT_RUN, EXIT_OK, CannotRun, Command


def build_parser() -> argparse.ArgumentParser:
    """The ``casino-audit`` parser: each module of ``cli`` adds its commands."""
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
    for commands in (store, judging, nightly, incident, db, retention, console):
        commands.add_parsers(sub)
    export.add_parser(sub)
    return parser


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


def _check_build() -> None:
    """Refuse to run on a stale compiled build (``audit.compiled.check_build``): a
    compiled module older than its source would stand in for the edited ``.py``."""
    from audit.compiled import check_build
    from replayer.compiled import StaleBuildError

    try:
        check_build()
    except StaleBuildError as error:
        raise CannotRun(str(error)) from None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        _check_build()
        run: Command = args.run
        return run(args)
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
