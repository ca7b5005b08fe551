"""Versions of a subject: when two inputs hold the same subject, are they the same?

A *version* is everything one input unit holds for a subject (a PHH hand, a run of Avro
records). Two versions are the same when they have the same sequence numbers and, at
every sequence, the same record, compared as canonical JSON without ``source`` (a
record's provenance, "which file, which position", says where it was read, not what
happened: the same hand read from two files is one hand). Anything else, a different
record at one sequence or a different set of sequences (one more event, one less), is a
different version: ingest never merges two versions and never overwrites a stored one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

import orjson

from audit.store.canonical import json_default

#: Record fields that say where a record was read from, not what happened.
PROVENANCE_FIELDS = frozenset({"source"})


def _fact(record: Mapping[str, Any]) -> Mapping[str, Any]:
    """The record without its provenance."""
    if PROVENANCE_FIELDS.isdisjoint(record):
        return record
    return {key: value for key, value in record.items() if key not in PROVENANCE_FIELDS}


def _json(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS, default=json_default)


def _content(record: Mapping[str, Any]) -> bytes:
    return _json(_fact(record))


def version_digest(records: Iterable[Mapping[str, Any]]) -> bytes:
    """SHA-256 of a version: the canonical JSON array of its records in sequence order,
    provenance left out."""
    ordered = sorted(records, key=itemgetter("sequence"))
    return hashlib.sha256(_json([_fact(record) for record in ordered])).digest()


def _span(sequences: Sequence[int]) -> str:
    if not sequences:
        return "none"
    low, high = sequences[0], sequences[-1]
    gaps = "" if high - low + 1 == len(sequences) else ", with gaps"
    return f"{low}" if low == high else f"{low}..{high}{gaps}"


def version_difference(
    reference: Sequence[Mapping[str, Any]], other: Sequence[Mapping[str, Any]]
) -> str:
    """'' when the two versions are the same; else where they first part ways."""
    mine = {r["sequence"]: r for r in reference}
    theirs = {r["sequence"]: r for r in other}
    if mine.keys() != theirs.keys():
        a, b = sorted(mine), sorted(theirs)
        return (
            f"{len(a)} events (sequences {_span(a)}) against {len(b)} events (sequences {_span(b)})"
        )
    for sequence in sorted(mine):
        a, b = mine[sequence], theirs[sequence]
        # Equal records are equal as JSON too (each field's type is fixed by its schema);
        # only unequal ones need the comparison without provenance.
        if a != b and _content(a) != _content(b):
            return f"sequence {sequence} differs"
    return ""


def provenance(records: Sequence[Mapping[str, Any]]) -> str:
    """The first ``source`` a version's records name, or ''."""
    for record in records:
        source = record.get("source")
        if isinstance(source, str) and source:
            return source
    return ""
