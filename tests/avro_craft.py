"""Avro container files as an attacker writes them, for the poison and fuzz tests.

``write_crafted`` encodes records with the family's schema *widened* (every ``int`` a
``long``) and frames them under the family's real schema, so a file can hold what a
well-behaved writer refuses: a 40-bit value in an ``int`` field, a timestamp past year
9999, a ``sequence`` near 2^63. ``container`` frames raw blocks (any codec, any sync).
"""

from __future__ import annotations

import io
import json
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import fastavro

from audit.families import Family
from audit.ingest.avro_shape import to_avro

SYNC = b"casino-audit-syn"


def varint(value: int) -> bytes:
    """Avro's zig-zag varint of a 64-bit long."""
    value = (value << 1) ^ (value >> 63)
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _bytes(data: bytes) -> bytes:
    return varint(len(data)) + data


def container(
    schema: dict[str, Any],
    blocks: Iterable[tuple[int, bytes]],
    *,
    codec: str = "null",
    sync: bytes = SYNC,
) -> bytes:
    """A container file: header with ``schema`` and ``codec``, then (count, bytes) blocks
    written as given (already compressed for ``codec``)."""
    meta = {"avro.schema": json.dumps(schema).encode(), "avro.codec": codec.encode()}
    out = bytearray(b"Obj\x01")
    out += varint(len(meta))
    for key, value in meta.items():
        out += _bytes(key.encode()) + _bytes(value)
    out += varint(0) + sync
    for count, data in blocks:
        out += varint(count) + varint(len(data)) + data + sync
    return bytes(out)


def _widened(schema: Any) -> Any:
    """``schema`` with every ``int`` made a ``long`` (same bytes, wider values)."""
    if schema == "int":
        return "long"
    if isinstance(schema, list):
        return [_widened(branch) for branch in schema]
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    if "fields" in out:
        out["fields"] = [{**item, "type": _widened(item["type"])} for item in out["fields"]]
    for key in ("items", "values", "type"):
        if key in out and (out[key] == "int" or isinstance(out[key], dict | list)):
            out[key] = _widened(out[key])
    return out


def encode(family: Family, events: Iterable[dict[str, Any]]) -> tuple[int, bytes]:
    """(count, bytes) of flat events encoded with the widened schema."""
    wide = fastavro.parse_schema(_widened(family.raw_schema))
    buffer = io.BytesIO()
    count = 0
    for event in events:
        fastavro.schemaless_writer(buffer, wide, to_avro(event, namespace=family.namespace))
        count += 1
    return count, buffer.getvalue()


def deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def write_crafted(
    path: Path,
    family: Family,
    batches: Iterable[Iterable[dict[str, Any]]],
    *,
    codec: str = "deflate",
) -> Path:
    """One block per batch of flat events, under the family's real schema."""
    blocks = []
    for batch in batches:
        count, data = encode(family, batch)
        blocks.append((count, deflate(data) if codec == "deflate" else data))
    path.write_bytes(container(family.raw_schema, blocks, codec=codec))
    return path
