"""Where the store lives: the ``--store`` URL (or ``CASINO_AUDIT_STORE``).

``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db`` (the default is
``sqlite:///casino-audit.db`` in the working directory) or
``postgresql://user:password@host:port/dbname[?schema=NAME]`` (tables go in that
PostgreSQL schema, default ``public``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
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


_SCHEME = re.compile(r"[^:/?#@]*://")  # any scheme, or none: "://user:pw@…"
_QUERY_PASSWORD = re.compile(r"(?i)(password=).*", re.S)
# Reserved by PostgreSQL for its own schemas (CREATE SCHEMA refuses "pg_*"; tables cannot
# go into pg_catalog or information_schema).
_RESERVED_SCHEMA = re.compile(r"(?i)pg_.*|information_schema", re.S)
_MAX_IDENTIFIER_BYTES = 63  # PostgreSQL silently truncates longer names
_PLAIN_SCHEMA = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _without_password(url: str) -> str:
    """``url`` as typed, with whatever may be a password replaced by ``***``, for
    messages about URLs that cannot be parsed (whatever their shape).

    Conservative: everything between the user name and the *last* ``@`` is hidden (a
    password may itself hold ``@``, ``/``, ``:``, ``?`` or ``#``), so is a
    ``password=`` query value up to the end, and, without any ``@``, a non-numeric
    "port" right after ``user:`` (a password whose ``@host`` was forgotten)."""
    url = _QUERY_PASSWORD.sub(r"\1***", url)
    head, at, tail = url.rpartition("@")
    if at:
        scheme = _SCHEME.match(head)
        start = scheme.end() if scheme else 0
        user, colon, _ = head[start:].partition(":")
        return f"{head[:start]}{user}:***@{tail}" if colon else url
    scheme = _SCHEME.match(url)
    if scheme is None:
        return url
    authority = url[scheme.end() :].partition("/")[0]
    user, colon, port = authority.partition(":")
    if colon and not authority.startswith("[") and not port.isdigit():
        return f"{url[: scheme.end()]}{user}:***"
    return url


def mask_secrets(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret replaced by ``***`` wherever it occurs whole (not as a
    piece of a longer word: a one-letter password must not turn "cannot open" into
    "cann***t ***pen"), longest first, and also as the secret reads once its whitespace
    is collapsed. The project's one way to mask a secret in a message: ``scrub`` (a
    store URL's password, as typed and decoded) and ``audit.store.existing.safe_message``
    (a driver's error) both call it."""
    for secret in sorted(set(filter(None, secrets)), key=len, reverse=True):
        text = _whole(secret).sub("***", text)
        if secret.split():  # also as it reads once its whitespace is collapsed
            text = _whole(" ".join(secret.split())).sub("***", text)
    return text


def url_secrets(url: str) -> set[str]:
    """The secrets a store URL holds: its password and any ``password=`` query value, as
    typed and as decoded (nothing when the URL cannot be split)."""
    secrets: set[str] = set()
    try:
        parts = urlsplit(url)
        secrets |= {parts.password or "", unquote(parts.password or "")}
        for value in parse_qs(parts.query).get("password", []):
            secrets |= {value, unquote(value)}
    except ValueError:
        pass
    return secrets - {""}


def scrub(text: str, url: str) -> str:
    """``text`` (an error message) with the password of the store URL ``url`` masked
    (``mask_secrets``): a last guard before anything is printed."""
    return mask_secrets(text, url_secrets(url))


def _whole(secret: str) -> re.Pattern[str]:
    """Where ``secret`` occurs whole: not inside a longer word."""
    return re.compile(rf"(?<![^\W_]){re.escape(secret)}(?![^\W_])")


def parse_store_url(url: str) -> StoreURL:
    """Parse ``sqlite:///…`` or ``postgresql://…``; raise StoreURLError otherwise (the
    message never shows the URL's password, whatever the URL's shape)."""
    try:
        return _parse(url)
    except StoreURLError:
        raise
    except ValueError as error:  # urlsplit: bad IPv6 brackets, NFKC-unstable characters
        # Never the error's own text: urllib quotes the netloc (password included).
        reason = (
            "an unbalanced '[' or ']' in the host"
            if "IPv6" in str(error)
            else "it cannot be split into user, password, host, port and database"
        )
        raise StoreURLError(
            f"store URL {_without_password(url)!r} cannot be read: {reason}"
        ) from None


def _parse(url: str) -> StoreURL:
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if not path:
            raise StoreURLError(f"store URL {url!r} names no database file")
        if "\x00" in path:
            raise StoreURLError(f"store URL {url!r}: a file name cannot hold a NUL character")
        return StoreURL(kind="sqlite", sqlite_path=path)
    parts = urlsplit(url)
    shown = _without_password(url)
    if parts.scheme in ("postgresql", "postgres", "postgresql+psycopg"):
        dbname = unquote(parts.path.lstrip("/"))
        if not (parts.hostname and dbname):
            raise StoreURLError(f"store URL {shown!r} needs a host and a database name")
        if "@" in parts.path + parts.query + parts.fragment:
            raise StoreURLError(
                f"store URL {shown!r} has '@' after its host: percent-encode '/', '?', "
                "'#' and '@' in a password (%2F, %3F, %23, %40)"
            )
        if parts.fragment:
            raise StoreURLError(f"store URL {shown!r} has a '#' part, which means nothing here")
        try:
            port = parts.port
        except ValueError:  # not a number, or out of range; never echo it
            port = 0
        if port == 0:
            raise StoreURLError(
                f"store URL {shown!r} has a port that is not a number from 1 to 65535"
            )
        params = parse_qs(parts.query, keep_blank_values=True)
        if set(params) - {"schema"}:  # never named: they may be a password's pieces
            raise StoreURLError(
                f"store URL {shown!r} takes no query parameter but ?schema= (the password "
                "goes before the host: postgresql://USER:PASSWORD@HOST/DB)"
            )
        user, password = unquote(parts.username or ""), unquote(parts.password or "")
        schema = params.get("schema", [""])[0]
        if any("\x00" in text for text in (parts.hostname, user, password, dbname, schema)):
            raise StoreURLError(f"store URL {shown!r} holds a NUL character (%00)")
        _check_schema(schema, shown)
        return StoreURL(
            kind="postgresql",
            host=parts.hostname,
            port=port or 5432,
            user=user,
            password=password,
            dbname=dbname,
            schema=schema,
        )
    raise StoreURLError(
        f"store URL {shown!r} is not sqlite:///PATH or postgresql://USER:PASS@HOST:PORT/DB"
    )


def _check_schema(schema: str, shown: str) -> None:
    if schema and not _PLAIN_SCHEMA.fullmatch(schema):
        raise StoreURLError(
            f"store URL {shown!r}: schema {schema!r} must be letters, digits and '_', "
            "not starting with a digit (eventsourcing looks its types up by unquoted name)"
        )
    if _RESERVED_SCHEMA.fullmatch(schema):
        raise StoreURLError(
            f"store URL {shown!r}: schema {schema!r} is reserved for PostgreSQL itself "
            "(pg_*, information_schema); name a schema of your own"
        )
    if len(schema.encode()) > _MAX_IDENTIFIER_BYTES:
        raise StoreURLError(
            f"store URL {shown!r}: schema name longer than {_MAX_IDENTIFIER_BYTES} bytes "
            "(PostgreSQL would cut it short)"
        )
