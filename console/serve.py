"""``casino-audit serve``: the inspector console on uvicorn.

    casino-audit [--store URL] serve [--host 127.0.0.1] [--port 8765] [--reports DIR]
        [--public-key FILE] [--secret-key-file FILE] [--secure-cookies]

``--reports`` defaults to the nightly's report root (``$CASINO_AUDIT_OUT`` or
``./casino-audit-reports``); a missing folder only means no plots.
Listens on loopback by default; put it behind a TLS proxy (and pass ``--secure-cookies``)
to serve it further. Without ``--secret-key-file`` (or ``CASINO_AUDIT_CONSOLE_SECRET``
naming one) a random key is made at start: restarting signs everyone out.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

SECRET_ENV = "CASINO_AUDIT_CONSOLE_SECRET"
OUT_ENV, DEFAULT_OUT = "CASINO_AUDIT_OUT", "casino-audit-reports"
"""The nightly report root (``casino-audit nightly --out``), whose plots the night pages show."""


def _secret(path: str | None) -> bytes | None:
    from audit.cli import CannotRun

    path = path or os.environ.get(SECRET_ENV)
    if not path:
        return None
    try:
        key = Path(path).read_bytes().strip()
    except OSError as error:
        raise CannotRun(f"cannot read the secret key file {path}: {error}") from None
    if len(key) < 16:
        raise CannotRun(f"the secret key file {path} holds fewer than 16 bytes")
    return key


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the console until interrupted (exit 0), or 2 when it cannot start."""
    import uvicorn
    from eventsourcing.persistence import PersistenceError

    from audit.cli import EXIT_OK, CannotRun
    from audit.config import StoreURLError, parse_store_url, store_url_from_env
    from audit.store.existing import StoreMissing
    from audit.store.signing import KeyError_, load_public_key
    from console.app import create_app

    url = store_url_from_env(args.store)
    try:
        public_key = load_public_key(Path(args.public_key)) if args.public_key else None
        app = create_app(
            url,
            secret_key=_secret(args.secret_key_file),
            reports_dir=args.reports or os.environ.get(OUT_ENV) or DEFAULT_OUT,
            public_key=public_key,
            cookie_secure=args.secure_cookies,
        )
    except (StoreMissing, StoreURLError, KeyError_) as error:
        raise CannotRun(str(error)) from None
    except (PersistenceError, OSError) as error:
        raise CannotRun(
            f"cannot open the store {parse_store_url(url).redacted()}: {error}"
        ) from None
    print(f"casino-audit console on http://{args.host}:{args.port}/ (Ctrl-C stops it)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", server_header=False)
    return EXIT_OK
