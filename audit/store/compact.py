"""Compact stored state: a family record in Avro binary under its schema.

A record of an event family (``schemas/*.avsc``) is stored, since issue #24, as Avro's
single-object encoding of a *storage schema* derived from its family's schema::

    state = 0xC3 0x01 ‖ fingerprint (8 bytes, little-endian CRC-64-AVRO) ‖ Avro binary

The storage schema (``storage_schema``) is the family's envelope and body union with
what the row or the record already says left out or made small: the record ``type`` is
the union branch (one byte), the recording time (``timestamp`` of the domain event) is
an integer of microseconds, ``event_id`` is null when it is ``<subject id>#<sequence>``
(the format every input of this project uses), a ``source`` (provenance) is an optional
string. The fingerprint of the storage schema's parsing canonical form names the writer
schema in every row, so a row written under an earlier version of a family's schema
(``schemas/history/``) decodes under that version for ever: the registry holds every
version found there and the current one. Building storage schemas from family schemas
is itself part of the format (``FORMAT_NAME`` names its version): changing how it is
done means a new name, and keeping this one for the rows already stored.

A record is stored compactly only when decoding the bytes gives back what its JSON row
would (the same JSON: every key in the same order, each value of the same JSON type and
equal, each time at the same UTC offset): anything else (a field the schema lacks, a
time in another zone, a test's partial record) is stored as JSON, the format every row
had before. The writer generated for each storage schema (``audit.store.compact_writer``)
decides it from the record's keys and exact types, without decoding the bytes again.
Rows start with ``{`` in JSON and with 0xC3 in this form, so a reader tells them apart by their
first byte and a store holding both reads either (``audit.store.transcoder``). The hash
chain covers the state as stored (``audit.store.chain``), the writer schema's
fingerprint included.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import fastavro
from fastavro.schema import fingerprint, to_parsing_canonical_form
from fastavro.types import Schema

from audit.families import FAMILIES, SCHEMA_DIR, Family
from audit.store.compact_reader import Reader, reader, timestamp
from audit.store.compact_writer import Writer, writer

MAGIC = b"\xc3\x01"
"""Avro's single-object encoding marker: a compact state starts with it (JSON with ``{``)."""
FINGERPRINT_SIZE = 8
FORMAT_NAME = "StoredState1"
"""The storage schema's record name: the version of how storage schemas are derived."""
HISTORY_DIR = SCHEMA_DIR / "history"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NULLABLE_STRING = ["null", "string"]


class CompactStateError(ValueError):
    """A compact state that cannot be decoded (the message names why)."""


@dataclass(frozen=True)
class StorageSchema:
    """One family schema version's storage schema, parsed, with what decoding needs."""

    family: Family
    fingerprint: bytes
    parsed: Schema
    envelope: tuple[str, ...]
    """The envelope fields, in schema order (``event_id``, subject id, sequence, time)."""
    bodies: Mapping[str, tuple[str, ...]]
    """Record type -> its body fields, in schema order."""
    later_optional: frozenset[str]
    """Body fields a later version added: a record stores them only when set."""
    namespace_length: int
    """The length of ``<namespace>.`` before a decoded record type's name."""
    read: Reader
    """Its states' reader (``audit.store.compact_reader``): the record, straight from
    the bytes after the fingerprint."""
    write: Writer
    """Its states' writer (``audit.store.compact_writer``): the state, straight from the
    record, or None when the reader would not give the record back identical."""


def storage_schema(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The storage schema of a family schema (``raw``, a parsed ``.avsc``): its envelope
    with a nullable ``event_id`` (null: ``<subject id>#<sequence>``), the recording time
    (``recorded_at``, microseconds since the epoch) first, an optional ``source``, and the
    body union last, its record types and named types as the family declares them."""
    fields: list[dict[str, Any]] = [{"name": "recorded_at", "type": "long"}]
    body: dict[str, Any] | None = None
    for field in raw["fields"]:
        if field["name"] == "body":
            body = {"name": "body", "type": copy.deepcopy(field["type"])}
        elif field["name"] == "event_id":
            fields.append({"name": "event_id", "type": _NULLABLE_STRING})
        else:
            fields.append({"name": field["name"], "type": copy.deepcopy(field["type"])})
    if body is None:
        raise CompactStateError(f"family schema {raw.get('name')!r} has no body union")
    fields += [{"name": "source", "type": _NULLABLE_STRING}, body]
    return {
        "type": "record",
        "name": FORMAT_NAME,
        "namespace": raw["namespace"],
        "fields": fields,
    }


def _build(family: Family, raw: Mapping[str, Any]) -> StorageSchema:
    schema = storage_schema(raw)
    parsed = fastavro.parse_schema(schema)
    body = schema["fields"][-1]["type"]
    envelope = tuple(f["name"] for f in raw["fields"] if f["name"] != "body")
    later_optional = frozenset(
        f["name"] for record in body for f in record["fields"] if "added_in" in f
    )
    namespace_length = len(schema["namespace"]) + 1
    expanded = fastavro.parse_schema(schema, expand=True)
    assert isinstance(expanded, dict)  # a record schema parses to one
    key = bytes.fromhex(fingerprint(to_parsing_canonical_form(parsed), "CRC-64-AVRO"))
    return StorageSchema(
        family=family,
        fingerprint=key,
        parsed=parsed,
        envelope=envelope,
        bodies={record["name"]: tuple(f["name"] for f in record["fields"]) for record in body},
        later_optional=later_optional,
        namespace_length=namespace_length,
        read=reader(expanded, envelope, later_optional, namespace_length),
        write=writer(expanded, envelope, later_optional, namespace_length, MAGIC + key),
    )


def _family_versions(family: Family) -> list[Path]:
    """The family's schema files: every version kept in ``schemas/history/``, then the
    current one (``<file stem>.v<N>.avsc`` beside ``<file stem>.avsc``)."""
    stem = family.schema_path.stem
    return [*sorted(HISTORY_DIR.glob(f"{stem}.v*.avsc")), family.schema_path]


@cache
def registry() -> dict[bytes, StorageSchema]:
    """Fingerprint -> storage schema, for every version of every family schema."""
    found: dict[bytes, StorageSchema] = {}
    for family in FAMILIES.values():
        for path in _family_versions(family):
            if path.exists():
                built = _build(family, json.loads(path.read_text()))
                found[built.fingerprint] = built
    return found


@cache
def writer_schema(kind: str) -> StorageSchema | None:
    """The storage schema new records of family ``kind`` are written under (its current
    schema's), None for a kind that is no family (verdicts, accounts: stored as JSON)."""
    family = FAMILIES.get(kind)
    if family is None or not family.schema_path.exists():
        return None
    return _build(family, family.raw_schema)


def _micros(moment: datetime) -> int:
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def encode(kind: str, recorded_at: datetime, record: Mapping[str, Any]) -> bytes | None:
    """The compact state of a ``kind`` subject's ``record`` recorded at ``recorded_at``,
    under its family's current schema, or None when it cannot be stored compactly without
    changing it (not a family record, not of its schema, or not given back identical:
    then it is stored as JSON)."""
    schema = writer_schema(kind)
    return None if schema is None else encode_under(schema, recorded_at, record)


def encode_under(
    schema: StorageSchema, recorded_at: datetime, record: Mapping[str, Any]
) -> bytes | None:
    """``encode`` under a given storage schema, by its generated writer
    (``audit.store.compact_writer``), which refuses every record the schema's reader, and
    so every later read of the row, would not give back identical; None also for a
    recording time not at UTC offset zero (it is read back in UTC)."""
    if recorded_at.utcoffset() != timedelta(0):
        return None
    return schema.write(_micros(recorded_at), record)


def is_compact(state: bytes) -> bool:
    """Whether a stored state is in this form (else JSON)."""
    return state[:2] == MAGIC


def decode(state: bytes) -> tuple[datetime, dict[str, Any]]:
    """(recording time, record) of a compact state; ``CompactStateError`` naming why when
    the bytes are not one (unknown writer schema, truncated or malformed)."""
    recorded_at, record = _read(state)
    return timestamp(recorded_at), record


def decode_record(state: bytes) -> dict[str, Any]:
    """The record of a compact state alone (what bulk reads need), as ``decode``."""
    return _read(state)[1]


def _read(state: bytes) -> tuple[int, dict[str, Any]]:
    """(recording time in microseconds, record) of a compact state, read by the reader of
    the storage schema it names (``audit.store.compact_reader``)."""
    data = state if type(state) is bytes else bytes(state)
    key = data[2 : 2 + FINGERPRINT_SIZE]
    schema = registry().get(key)
    if schema is None or not is_compact(data):
        raise CompactStateError(
            f"stored state is not compact Avro under a known schema (fingerprint {key.hex()})"
        )
    try:
        return schema.read(data, 2 + FINGERPRINT_SIZE)
    except (ValueError, TypeError, EOFError, IndexError, KeyError, OverflowError) as error:
        raise CompactStateError(
            f"stored state under schema {key.hex()} of family {schema.family.name!r} "
            f"does not decode: {error}"
        ) from None
