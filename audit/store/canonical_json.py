"""Byte-stable JSON and short digests: how records are compared and subjects named.

``canonical`` is the one serialisation used for content digests (conflict checks, verdict
ids, evidence); ``record_digest`` makes the deterministic ids of subjects and verdict
units from strings.
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
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS, default=json_default).decode()


def record_digest(parts: Iterable[str]) -> str:
    """A short stable digest of strings, for deterministic subject ids."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\x00")
    return digest.hexdigest()[:32]
