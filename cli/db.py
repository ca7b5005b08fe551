"""``casino-audit db …``: set up the store and its PostgreSQL roles (migrations only).

    casino-audit --store URL db init [--owner ROLE] [--partitioned]
    casino-audit --store URL db grant [--writer ROLE]… [--reader ROLE]…

``db init`` creates the schema (the URL's ``?schema=``), tables, indexes, triggers,
functions and types, as the connecting role or, with ``--owner``, as ROLE (the
connecting role must be a superuser or a member of ROLE); run again, it adds what a
newer version needs. On SQLite it creates the file's tables. ``db grant`` gives a
writer exactly what ``ingest``, ``replay``, ``checkpoint``, ``nightly`` and ``incident
record`` need and a reader exactly what ``findings``, ``show``, ``verify`` and
``quarantine`` need (``audit.store.roles`` lists every privilege and why); PostgreSQL
only. Exit codes as ``cli.common``: 0 done, 2 could not run.
"""

from __future__ import annotations

import argparse

from cli.common import EXIT_OK, CannotRun, Subcommands


def add_parsers(sub: Subcommands) -> None:
    """Add ``db`` and its actions to the ``casino-audit`` parser."""
    parser = sub.add_parser(
        "db", help="set up the store and its PostgreSQL roles (owner, writer, reader)"
    )
    db = parser.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    p = db.add_parser(
        "init",
        help="create the store's schema, tables, triggers and functions (migrations)",
    )
    p.add_argument(
        "--owner",
        metavar="ROLE",
        help="PostgreSQL: create them as this role (SET ROLE), which then owns them",
    )
    p.add_argument(
        "--partitioned",
        action="store_true",
        help="PostgreSQL, a new store: partition the events table by notification id, "
        "for retention by day (casino-audit retention)",
    )
    p = db.add_parser("grant", help="PostgreSQL: give roles exactly what they need")
    p.add_argument(
        "--writer",
        action="append",
        default=[],
        metavar="ROLE",
        help="SELECT and INSERT on events and checkpoints (ingest, replay, checkpoint, "
        "nightly); repeat for more roles",
    )
    p.add_argument(
        "--reader",
        action="append",
        default=[],
        metavar="ROLE",
        help="SELECT on events and checkpoints (findings, show, verify, quarantine)",
    )
    parser.set_defaults(run=cmd_db)


def cmd_db(args: argparse.Namespace) -> int:
    from audit.config import StoreURLError, parse_store_url, store_url_from_env
    from audit.store import StoreUnusable, grant, init_store

    try:
        url = parse_store_url(store_url_from_env(args.store))
        if args.db_command == "init":
            print(init_store(url, args.owner, partitioned=args.partitioned))
            return EXIT_OK
        if not (args.writer or args.reader):
            raise CannotRun("name at least one --writer ROLE or --reader ROLE")
        for granted in grant(url, writers=args.writer, readers=args.reader):
            print(granted.line())
    except (StoreURLError, StoreUnusable) as error:
        raise CannotRun(str(error)) from None
    return EXIT_OK
