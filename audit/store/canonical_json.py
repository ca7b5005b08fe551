"""Byte-stable JSON and short digests: how records are compared and subjects named.

``canonical`` is the one serialisation used for content digests (conflict checks, verdict
ids, evidence); ``record_digest`` makes the deterministic ids of subjects and verdict
units from strings (``canonical_bytes`` and ``bytes_digest``: the same, from bytes, for
the verdict's inputs digest, made once per subject judged).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

import orjson


def json_default(value: Any) -> Any:
    """What orjson cannot encode by itself: datetimes as ISO 8601, bytes as hex."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    raise TypeError(f"cannot serialise {type(value).__name__}")


def canonical(record: Mapping[str, Any]) -> str:
    """Byte-stable JSON of a flat record (keys sorted at every level, no spaces, UTF-8,
    datetimes as ISO 8601, bytes as hex), for comparisons and content digests."""
    return canonical_bytes(record).decode()


def canonical_bytes(record: Mapping[str, Any]) -> bytes:
    """``canonical`` UTF-8 encoded, as digests take it (without a round trip through
    ``str``)."""
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS, default=json_default)


def record_digest(parts: Iterable[str]) -> str:
    """A short stable digest of strings, for deterministic subject ids."""
    return bytes_digest([part.encode() for part in parts])


def bytes_digest(parts: Iterable[bytes]) -> str:
    """``record_digest`` of parts already UTF-8 encoded (the same digest): SHA-256 of
    each part followed by a zero byte, in hex, its first 32 digits."""
    return hashlib.sha256(b"\x00".join([*parts, b""])).hexdigest()[:32]
