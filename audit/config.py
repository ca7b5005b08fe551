"""Where the store lives: the ``--store`` URL (or ``CASINO_AUDIT_STORE``).

``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db`` (the default is
``sqlite:///casino-audit.db`` in the working directory) or
``postgresql://user:password@host:port/dbname[?schema=NAME]`` (tables go in that
PostgreSQL schema, default ``public``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

STORE_ENV = "CASINO_AUDIT_STORE"
DEFAULT_STORE_URL = "sqlite:///casino-audit.db"


class StoreURLError(ValueError):
    """The store URL cannot be used; the message says why."""


@dataclass(frozen=True)
class StoreURL:
    """A parsed store location."""

    kind: str
    sqlite_path: str = ""
    host: str = ""
    port: int = 5432
    user: str = ""
    password: str = ""
    dbname: str = ""
    schema: str = ""

    def redacted(self) -> str:
        """The URL without its password, safe to print."""
        if self.kind == "sqlite":
            return f"sqlite:///{self.sqlite_path}"
        suffix = f"?schema={self.schema}" if self.schema else ""
        return f"postgresql://{self.user}@{self.host}:{self.port}/{self.dbname}{suffix}"


def store_url_from_env(explicit: str | None = None) -> str:
    """The explicit URL, else ``$CASINO_AUDIT_STORE``, else the SQLite default."""
    return explicit or os.environ.get(STORE_ENV) or DEFAULT_STORE_URL


def _without_password(url: str) -> str:
    """``url`` with any password replaced by ``***``, for messages."""
    return re.sub(r"(://[^/@:]*):[^/@]*@", r"\1:***@", url)


def parse_store_url(url: str) -> StoreURL:
    """Parse ``sqlite:///…`` or ``postgresql://…``; raise StoreURLError otherwise (the
    message never shows the URL's password)."""
    try:
        return _parse(url)
    except ValueError as error:  # urlsplit: a port that is not a number, bad IPv6, ...
        if isinstance(error, StoreURLError):
            raise
        raise StoreURLError(
            f"store URL {_without_password(url)!r} cannot be read: {error}"
        ) from None


def _parse(url: str) -> StoreURL:
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if not path:
            raise StoreURLError(f"store URL {url!r} names no database file")
        return StoreURL(kind="sqlite", sqlite_path=path)
    parts = urlsplit(url)
    if parts.scheme in ("postgresql", "postgres", "postgresql+psycopg"):
        dbname = parts.path.lstrip("/")
        if not (parts.hostname and dbname):
            raise StoreURLError(
                f"store URL {_without_password(url)!r} needs a host and a database name"
            )
        return StoreURL(
            kind="postgresql",
            host=parts.hostname,
            port=parts.port or 5432,
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            dbname=dbname,
            schema=parse_qs(parts.query).get("schema", [""])[0],
        )
    raise StoreURLError(
        f"store URL {_without_password(url)!r} is not sqlite:///PATH or "
        "postgresql://USER:PASS@HOST:PORT/DB"
    )
