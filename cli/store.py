"""Commands on the store itself: ``ingest``, ``verify``, ``checkpoint``, ``keygen``,
``quarantine``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from cli.common import EXIT_DATA_PROBLEMS, EXIT_OK, CannotRun, Subcommands, open_store

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from audit.store import AuditStore, ChainReport


def add_parsers(sub: Subcommands) -> None:
    """Add the store commands to the ``casino-audit`` parser."""
    p = sub.add_parser(
        "ingest", help="store Avro (.avro), PHH (.phh/.phhs) and room text (.txt) files or folders"
    )
    p.add_argument(
        "--rulebook",
        action="append",
        metavar="ID",
        help="rulebook for hands and rounds that name none; repeat it: each "
        "record gets the first that covers its variant or game",
    )
    p.add_argument(
        "--rake-schedule",
        metavar="FILE",
        help="a room's published rake schedule (JSON or YAML): declares the rake terms "
        "of each of its tables met in this ingest",
    )
    p.add_argument(
        "--header-zone",
        metavar="ZONE",
        help="the zone of the room's clock for text hand headers that give none "
        "(GGPoker): UTC, CET, Europe/Malta, ...; without it such hands are quarantined",
    )
    p.add_argument(
        "--manifest-key",
        metavar="PUBLIC_KEY",
        help="Ed25519 public key (PEM) the SHA256SUMS manifest beside every input must be "
        "signed with (SHA256SUMS.sig); without it, a SHA256SUMS present is still checked",
    )
    p.add_argument(
        "--chain-shard",
        metavar="NAME",
        help="append to this chain shard's hash chain (default: the main chain); ingests "
        "into different chain shards run side by side on PostgreSQL",
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


def cmd_ingest(args: argparse.Namespace) -> int:
    from audit.ingest.limits import BadLimit
    from audit.ingest.manifest_check import UnusableManifest
    from audit.ingest.pipeline import ingest
    from audit.ingest.room_text.schedule import BadSchedule, RakeSchedule
    from audit.ingest.rulebook_choice import UnknownRulebook
    from audit.ingest.sources import MissingInput
    from cli.progress import file_progress

    try:
        schedule = RakeSchedule(Path(args.rake_schedule)) if args.rake_schedule else None
    except BadSchedule as error:
        raise CannotRun(f"--rake-schedule: {error}") from None
    if args.header_zone:
        from audit.ingest.room_text.common import TextError, zone_info

        try:
            zone_info(args.header_zone)
        except TextError as error:
            raise CannotRun(f"--header-zone: {error}") from None
    manifest_key = _manifest_key(args.manifest_key)
    store = open_store(args, chain_shard=args.chain_shard)
    try:
        with file_progress("ingest") as advance:
            summary = ingest(
                store,
                [Path(p) for p in args.paths],
                rulebooks=args.rulebook or (),
                on_file=advance,
                rake_schedule=schedule,
                manifest_key=manifest_key,
                header_zone=args.header_zone,
            )
    except (MissingInput, UnknownRulebook, BadLimit, UnusableManifest) as error:
        raise CannotRun(str(error)) from None
    print(f"files read:            {summary.files}")
    print(f"subjects stored:       {summary.subjects_stored}")
    print(f"already stored:        {summary.subjects_already_stored}")
    print(f"events stored:         {summary.events_stored}")
    print(f"events already stored: {summary.events_already_stored}")
    print(f"events quarantined:    {summary.events_quarantined}")
    print(f"records quarantined:   {summary.quarantined}")
    for rejected in summary.rejected:
        print(f"  quarantined: {rejected}")
    if summary.not_listed:
        print(f"  … and {summary.not_listed} more (`casino-audit quarantine` lists them all)")
    return EXIT_DATA_PROBLEMS if summary.quarantined else EXIT_OK


def _manifest_key(path: str | None) -> Ed25519PublicKey | None:
    """``--manifest-key``'s public key (None without it); an unusable key cannot run."""
    from audit.store import KeyError_, load_public_key

    try:
        return load_public_key(Path(path)) if path else None
    except KeyError_ as error:
        raise CannotRun(f"--manifest-key: {error}") from None


def cmd_verify(args: argparse.Namespace) -> int:
    from audit.store import KeyError_, load_public_key

    try:
        public_key = load_public_key(Path(args.public_key)) if args.public_key else None
    except KeyError_ as error:
        raise CannotRun(str(error)) from None
    store = open_store(args, create=False)
    retired = store.retention()
    if retired is not None:
        print(f"retention: {retired.describe()}; verified from that checkpoint")
    if args.witness:
        return _verify_witness(store, args.witness, public_key)
    report = store.verify(public_key)
    if not report.ok:
        _print_chain_problem(report)
        return EXIT_DATA_PROBLEMS
    print(
        f"chain intact: {report.events_checked} rows, "
        f"{report.checkpoints_checked} checkpoints, {report.shards} chain shard(s), "
        f"head {report.head_hash.hex()}"
    )
    if public_key is not None:
        print(
            f"signatures: {report.signatures_checked} valid, "
            f"{report.unsigned_checkpoints} checkpoint(s) unsigned"
        )
    if report.trail_unsigned:
        print(
            f"unsigned tail: the {report.trail_unsigned} row(s) after the last signed "
            "checkpoint are the console's own access trail (page views, sessions, sign-offs, "
            "notes), not yet signed: the next signed checkpoint covers them (serve "
            "--sign-key signs them as they are written)"
        )
    return EXIT_OK


def _print_chain_problem(report: ChainReport) -> None:
    if report.broken_at is None:  # nothing broken in the chain, but not vouched for
        print(f"NOT VERIFIED: {report.problem}")
        return
    print(f"CHAIN BROKEN at notification {report.broken_at}: {report.problem}")
    print(f"({report.events_checked} rows verified before the break)")


def _verify_witness(store: AuditStore, witness: str, public_key: Ed25519PublicKey | None) -> int:
    """``verify --witness``: the store against every head kept outside the database."""
    from audit.store import WitnessError, describe_head

    try:
        report = store.verify_witness(witness, public_key)
    except WitnessError as error:
        raise CannotRun(str(error)) from None
    chain = report.chain
    if chain.ok:
        print(
            f"chain intact: {chain.events_checked} rows, "
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
    largest = f", the largest: {describe_head(report.largest_head)}" if report.largest_head else ""
    print(
        f"witness {witness}: {report.heads_checked} head(s){largest}; {signatures}; "
        f"{report.unwitnessed} event(s) unwitnessed"
    )
    if not report.ok:
        return EXIT_DATA_PROBLEMS
    print("consistent with every witnessed head")
    return EXIT_OK


def cmd_keygen(args: argparse.Namespace) -> int:
    from audit.store import SIGNING_KEY_ENV, KeyError_, generate_keypair

    try:
        private, public = generate_keypair(Path(args.folder))
    except KeyError_ as error:  # a key is already there: never overwritten
        raise CannotRun(str(error)) from None
    print(f"private key: {private} (keep it off the database host; set {SIGNING_KEY_ENV})")
    print(f"public key:  {public} (give it to whoever verifies: verify --public-key)")
    return EXIT_OK


def cmd_checkpoint(args: argparse.Namespace) -> int:
    from audit.store import KeyError_, WitnessError, load_private_key, witness_from_env

    store = open_store(args)
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
        f"{checkpoint.event_count} rows, head {checkpoint.chain_hash.hex()}{root}{signed}"
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
    from audit.ingest.quarantine import entries
    from audit.wording import multiline_safe

    store = open_store(args, create=False)
    count = 0
    for entry in entries(store):
        count += 1
        print(entry.line())
        if args.raw:  # as received, its control characters made visible
            print(multiline_safe(entry.raw))
    print(f"{count} quarantined record(s)")
    return EXIT_OK
