"""The inspector console's commands: ``serve``, ``user`` and ``verify-evidence``.

    casino-audit [--store URL] serve [--host 127.0.0.1] [--port 8765] [--reports DIR]
        [--public-key FILE] [--secret-key-file FILE] [--secure-cookies]
        [--trusted-proxy ADDRESS ...]
    casino-audit [--store URL] user add NAME --role R [--password-file F]
    casino-audit [--store URL] user list | user disable NAME | user revoke NAME
    casino-audit verify-evidence FILE --public-key KEY

``serve``: forwarded headers (``X-Forwarded-For``) are believed only from the addresses
given as ``--trusted-proxy``, so the sign-in limit per address counts the real client's
address behind a named proxy and the connecting address otherwise. ``--reports``
defaults to the nightly's report root (``$CASINO_AUDIT_OUT`` or
``./casino-audit-reports``); a missing folder only means no plots. It listens on loopback
by default; put it behind a TLS proxy (and pass ``--secure-cookies``) to serve it further.
Without ``--secret-key-file`` (or ``CASINO_AUDIT_CONSOLE_SECRET`` naming one) a random key
is made at start: restarting signs everyone out.

``verify-evidence`` needs no store (``audit.evidence.verify_bundle``): exit 0 proven,
1 not proven, 2 unusable file or key.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from cli.common import EXIT_DATA_PROBLEMS, EXIT_OK, CannotRun, Subcommands, open_store

if TYPE_CHECKING:
    from console.auth.accounts import User

SECRET_ENV = "CASINO_AUDIT_CONSOLE_SECRET"
OUT_ENV, DEFAULT_OUT = "CASINO_AUDIT_OUT", "casino-audit-reports"
"""The nightly report root (``casino-audit nightly --out``), whose plots the night pages show."""
#: Bounds of the files these commands read (``audit.bounded``): a secret key file, and an
#: evidence bundle (the console writes one subject's events, at most a few MiB, nested
#: under 20 levels).
MAX_SECRET_BYTES = 1 << 16
MAX_BUNDLE_BYTES, MAX_BUNDLE_DEPTH = 64 << 20, 64


def add_parsers(sub: Subcommands) -> None:
    """Add ``serve``, ``user`` and ``verify-evidence`` to the ``casino-audit`` parser."""
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
        "--sign-key",
        metavar="PRIVATE_KEY",
        help="Ed25519 private key (casino-audit keygen): the console signs a checkpoint over "
        "each event of its access trail as it writes it (default: $CASINO_AUDIT_SIGNING_KEY)",
    )
    p.add_argument(
        "--secret-key-file",
        help="key signing sessions (default $CASINO_AUDIT_CONSOLE_SECRET, else random)",
    )
    p.add_argument("--secure-cookies", action="store_true", help="Secure cookies (behind TLS)")
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy's address or network whose X-Forwarded-For/-Proto headers are "
        "believed (repeatable); without it no forwarded header is, not even from loopback",
    )
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("user", help="console accounts: add, list, disable")
    users = p.add_subparsers(dest="user_command", required=True, metavar="SUBCOMMAND")
    q = users.add_parser("add", help="add an account (password: a prompt or --password-file)")
    q.add_argument("name")
    q.add_argument("--role", required=True, choices=("inspector", "investigator", "admin"))
    q.add_argument("--password-file", type=Path, help="its first line is the password")
    users.add_parser("list", help="accounts, their roles, enabled or not")
    q = users.add_parser("disable", help="disable an account (its history stays)")
    q.add_argument("name")
    q = users.add_parser("revoke", help="end every console session of an account, now")
    q.add_argument("name")
    p.set_defaults(run=cmd_user)

    p = sub.add_parser("verify-evidence", help="check an evidence bundle, without any store")
    p.add_argument("file", help="the bundle (JSON) from the console's evidence download")
    p.add_argument("--public-key", required=True, help="Ed25519 public key of the checkpoints")
    p.set_defaults(run=cmd_verify_evidence)


def _secret(path: str | None) -> bytes | None:
    path = path or os.environ.get(SECRET_ENV)
    if not path:
        return None
    from audit.bounded import UnusableInput, read_bounded

    try:
        key = read_bounded(Path(path), MAX_SECRET_BYTES).strip()
    except UnusableInput as error:
        raise CannotRun(f"cannot read the secret key file: {error}") from None
    if len(key) < 16:
        raise CannotRun(f"the secret key file {path} holds fewer than 16 bytes")
    return key


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the console until interrupted (exit 0), or 2 when it cannot start."""
    import uvicorn
    from eventsourcing.persistence import PersistenceError

    from audit.config import StoreURLError, parse_store_url, store_url_from_env
    from audit.store import KeyError_, StoreMissing, load_private_key, load_public_key
    from console.app import create_app

    url = store_url_from_env(args.store)
    proxies = proxy_options(args.trusted_proxy)
    try:
        public_key = load_public_key(Path(args.public_key)) if args.public_key else None
        signing_key = load_private_key(Path(args.sign_key)) if args.sign_key else None
        app = create_app(
            url,
            secret_key=_secret(args.secret_key_file),
            reports_dir=args.reports or os.environ.get(OUT_ENV) or DEFAULT_OUT,
            public_key=public_key,
            signing_key=signing_key,
            cookie_secure=args.secure_cookies,
        )
    except (StoreMissing, StoreURLError, KeyError_) as error:
        raise CannotRun(str(error)) from None
    except (PersistenceError, OSError) as error:
        raise CannotRun(
            f"cannot open the store {parse_store_url(url).redacted()}: {error}"
        ) from None
    print(f"casino-audit console on http://{args.host}:{args.port}/ (Ctrl-C stops it)")
    uvicorn.run(
        app, host=args.host, port=args.port, log_level="warning", server_header=False, **proxies
    )
    return EXIT_OK


class ProxyOptions(TypedDict):
    """The keywords of ``uvicorn.run`` that ``proxy_options`` sets."""

    proxy_headers: bool
    forwarded_allow_ips: list[str]


def proxy_options(trusted: Sequence[str]) -> ProxyOptions:
    """uvicorn's proxy settings for ``serve --trusted-proxy``: forwarded headers are read
    only from the addresses the operator names (uvicorn's default believes any local
    client, which could then choose its address for the per-address sign-in limit).
    ``*`` is refused: the operator names the proxies."""
    import ipaddress

    for address in trusted:
        try:
            ipaddress.ip_network(address, strict=False)
        except ValueError:
            raise CannotRun(f"--trusted-proxy {address!r}: not an IP address or network") from None
    return {"proxy_headers": bool(trusted), "forwarded_allow_ips": list(trusted)}


def _password(args: argparse.Namespace) -> str:
    """The new account's password: the first line of ``--password-file``, else asked twice
    at the terminal (never an argument: it would show in the process list)."""
    import getpass

    from console.auth.accounts import AccountError

    if args.password_file is not None:
        try:
            lines = args.password_file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise AccountError(f"cannot read {args.password_file}: {error}") from None
        return lines[0] if lines else ""
    if not sys.stdin.isatty():
        raise AccountError("no terminal to ask for the password: give --password-file")
    first = getpass.getpass(f"password for {args.name}: ")
    if getpass.getpass("again: ") != first:
        raise AccountError("the two passwords differ")
    return first


def cmd_user(args: argparse.Namespace) -> int:
    """``casino-audit user …``: exit 0 done, 2 could not (the message says why)."""
    from audit.wording import terminal_safe
    from console.auth.accounts import (
        AccountError,
        add_user,
        all_users,
        disable_user,
        revoke_sessions,
    )

    store = open_store(args, create=args.user_command != "list")
    try:
        if args.user_command == "list":
            _print_users(all_users(store))
        elif args.user_command == "add":
            password = _password(args)
            user = add_user(store, args.name, args.role, password, by="cli", needs_approval=False)
            print(f"user {terminal_safe(user.name)} added ({user.role})")
        elif args.user_command == "revoke":
            revoke_sessions(store, args.name, by="cli")
            print(f"every session of user {terminal_safe(args.name)} ended")
        else:
            disable_user(store, args.name, by="cli")
            print(f"user {terminal_safe(args.name)} disabled")
    except AccountError as error:
        raise CannotRun(str(error)) from None
    finally:
        store.close()
    return EXIT_OK


def _print_users(users: Sequence[User]) -> None:
    from audit.wording import terminal_safe

    for user in users:
        state = "enabled" if user.enabled else f"disabled {user.disabled_at}"
        name, by = terminal_safe(user.name), terminal_safe(user.added_by)
        print(f"{name:<24} {user.role:<13} added {user.added_at} by {by}; {state}")
    print(f"{len(users)} user(s)")


def cmd_verify_evidence(args: argparse.Namespace) -> int:
    """``casino-audit verify-evidence FILE --public-key KEY``: 0 proven, 1 not, 2 unusable."""
    from audit.bounded import UnusableInput, json_bounded, read_bounded
    from audit.evidence.check import verify_bundle
    from audit.store import KeyError_, load_public_key
    from audit.wording import terminal_safe

    try:
        public_key = load_public_key(Path(args.public_key))
    except KeyError_ as error:
        raise CannotRun(str(error)) from None
    try:
        text = read_bounded(Path(args.file), MAX_BUNDLE_BYTES).decode("utf-8")
        bundle = json_bounded(text, args.file, max_depth=MAX_BUNDLE_DEPTH)
    except UnicodeDecodeError as error:
        raise CannotRun(f"{args.file}: not UTF-8 text ({error.reason})") from None
    except UnusableInput as error:
        raise CannotRun(f"not a usable evidence bundle: {error}") from None
    report = verify_bundle(bundle if isinstance(bundle, dict) else {}, public_key)
    for line in report.proven:
        print(f"PROVEN: {terminal_safe(line)}")
    for line in report.problems:
        print(f"NOT PROVEN: {terminal_safe(line)}")
    for line in report.notes:
        print(f"NOTE: {terminal_safe(line)}")
    return EXIT_OK if report.ok else EXIT_DATA_PROBLEMS
