"""``casino-audit retention …`` and ``verify-archive``: a partitioned PostgreSQL store's
day cut and archive (the owner's), and checking an archive alone.

    casino-audit --store URL retention cut
    casino-audit --store URL retention archive --through CHECKPOINT --out FILE
    casino-audit --store URL retention attest --archive FILE
    casino-audit [--store URL] verify-archive FILE [--public-key KEY] [--max-bytes N]

``retention cut`` records a checkpoint (signed with ``$CASINO_AUDIT_SIGNING_KEY``,
published to ``$CASINO_AUDIT_WITNESS`` when set) and starts the next partition after it.
``retention archive`` writes the rows up to a cut's checkpoint, as stored, with the
checkpoints, to FILE, checks FILE alone, then records the retention and detaches and
drops the retired partitions (``audit.store.partitions``); the record is signed with the
store's key and published to the witness (``audit.store.retention_trust``). ``retention
attest`` signs a record made before records were signed. ``verify-archive`` needs no
store; given one (``--store`` or ``$CASINO_AUDIT_STORE``) it also compares the archive
with the store's retention record (range, rows and SHA-256), else prints what to
compare. Exit codes as ``cli.common``: 0 done (an archive that verifies and, given a
store, is the one its record names), 1 an archive that does not, 2 could not run.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from audit.config import STORE_ENV
from cli.common import EXIT_DATA_PROBLEMS, EXIT_OK, CannotRun, Subcommands, open_store

if TYPE_CHECKING:
    from audit.store import ArchiveReport


def add_parsers(sub: Subcommands) -> None:
    """Add ``retention`` and ``verify-archive`` to the ``casino-audit`` parser."""
    parser = sub.add_parser(
        "retention", help="PostgreSQL, partitioned store: cut the day, archive retired days"
    )
    actions = parser.add_subparsers(dest="retention_command", required=True, metavar="ACTION")
    actions.add_parser(
        "cut", help="checkpoint the head and start the next partition after it (owner)"
    )
    p = actions.add_parser(
        "archive",
        help="archive the rows up to a cut's checkpoint to a file, then drop their partitions",
    )
    p.add_argument(
        "--through", type=int, required=True, metavar="CHECKPOINT",
        help="the notification id of the checkpoint a day cut printed",
    )  # fmt: skip
    p.add_argument("--out", required=True, metavar="FILE", help="the archive (must not exist)")
    p = actions.add_parser(
        "attest",
        help="sign and publish a retention record made before records were signed (owner)",
    )
    p.add_argument("--archive", required=True, metavar="FILE", help="the record's archive file")
    parser.set_defaults(run=cmd_retention)

    p = sub.add_parser("verify-archive", help="check a retention archive alone, without any store")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--public-key", help="also check every checkpoint's Ed25519 signature")
    p.add_argument(
        "--max-bytes", type=int, default=None, metavar="N",
        help="refuse a larger file (default 1 TiB)",
    )  # fmt: skip
    p.set_defaults(run=cmd_verify_archive)


def cmd_retention(args: argparse.Namespace) -> int:
    from audit.config import parse_store_url, store_url_from_env
    from audit.store import RetentionError, attest, cut_day, retire
    from audit.wording import terminal_safe

    url = parse_store_url(store_url_from_env(args.store))
    if url.kind != "postgresql":
        raise CannotRun("retention is for partitioned PostgreSQL stores only")
    store = open_store(args, create=False)
    try:
        if args.retention_command == "cut":
            checkpoint, index = cut_day(store, url)
            print(
                f"day cut at checkpoint {checkpoint.notification_id} "
                f"({checkpoint.event_count} rows); partition {index} takes the next writes"
            )
            return EXIT_OK
        if args.retention_command == "attest":
            try:
                record = attest(store, url, Path(args.archive))
            except OSError as error:
                raise CannotRun(f"--archive {args.archive}: {error.strerror}") from None
            print(f"attested: {record.describe()}")
            return EXIT_OK
        try:
            record = retire(store, url, args.through, Path(args.out))
        except FileExistsError:
            raise CannotRun(f"--out {args.out}: the file exists (never overwritten)") from None
        except OSError as error:
            raise CannotRun(f"--out {args.out}: {error.strerror}") from None
        print(f"archived to {terminal_safe(args.out)}: {record.describe()}")
        return EXIT_OK
    except RetentionError as error:
        raise CannotRun(str(error)) from None
    finally:
        store.close()


def cmd_verify_archive(args: argparse.Namespace) -> int:
    """Check the archive alone; given a store (``--store`` or ``$CASINO_AUDIT_STORE``),
    also against the store's retention record, else print what to compare with it."""
    from audit.store import (
        MAX_ARCHIVE_BYTES,
        ArchiveError,
        KeyError_,
        load_public_key,
        verify_archive,
    )
    from audit.wording import terminal_safe

    try:
        public_key = load_public_key(Path(args.public_key)) if args.public_key else None
    except KeyError_ as error:
        raise CannotRun(str(error)) from None
    bound = args.max_bytes if args.max_bytes is not None else MAX_ARCHIVE_BYTES
    if bound < 1:
        raise CannotRun("--max-bytes must be at least 1")
    try:
        report = verify_archive(args.file, public_key, bound)
    except ArchiveError as error:
        raise CannotRun(str(error)) from None
    except OSError as error:
        raise CannotRun(f"{args.file}: {error.strerror}") from None
    span = f"rows after notification {report.first} through {report.through}"
    if not report.ok:
        print(f"ARCHIVE BROKEN ({span}): {terminal_safe(report.problem)}")
        return EXIT_DATA_PROBLEMS
    signed = (
        f", {report.signatures_checked} signature(s) valid"
        if public_key is not None
        else "; signatures and key ids not checked (no --public-key)"
    )
    print(
        f"archive intact: {report.rows} rows ({span}), {report.checkpoints} checkpoints"
        f"{signed}; sha256 {report.sha256}"
    )
    return _against_the_store(args, report)


def _against_the_store(args: argparse.Namespace, report: ArchiveReport) -> int:
    """The archive against the store's retention record (``compare_with_record``), or,
    with no store named, what to compare it with."""
    import os

    from audit.store import StoreUnusable, compare_with_record

    if args.store is None and not os.environ.get(STORE_ENV):
        print(
            "not compared with a store: it is the archive a store retired only if that "
            f"store's retention record at checkpoint {report.through} names sha256 "
            f"{report.sha256} and {report.rows} rows after {report.first} (casino-audit "
            "verify prints the record; or run verify-archive with --store)"
        )
        return EXIT_OK
    try:
        store = open_store(args, create=False)
    except StoreUnusable as error:
        raise CannotRun(str(error)) from None
    try:
        problem = compare_with_record(report, store.chained.retention_records())
    finally:
        store.close()
    if problem:
        print(f"NOT THE STORE'S ARCHIVE: {problem}")
        return EXIT_DATA_PROBLEMS
    print(f"the store's retention record at checkpoint {report.through} names this archive")
    return EXIT_OK
