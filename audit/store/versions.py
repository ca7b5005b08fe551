"""Events of a subject: when two inputs hold the same (subject, sequence), are they the same?

The event is the unit of identity: the record a subject holds at one ``sequence``. Two
records there are the same event when they are equal as canonical JSON without
``source`` (a record's provenance, "which file, which position", says where it was read,
not what happened: the same hand read from two files is one hand), a renamed record type
counting as its first name (``first_named``: a verdict stored as ``HandAdjudicated`` is
the same event as that verdict recorded now). A different record at
a stored (subject, sequence) is a conflicting version of that event: the stored one is
never overwritten. Sequences not yet stored are new events, whichever input brings them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

import orjson

from audit.notation.escape import show_command
from audit.store.canonical_json import json_default
from audit.store.subjects import first_named

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
    """SHA-256 of a run of events: the canonical JSON array of its records in sequence
    order, provenance left out (the same hand read twice has one digest)."""
    ordered = sorted(records, key=itemgetter("sequence"))
    return hashlib.sha256(_json([_fact(record) for record in ordered])).digest()


def event_digest(record: Mapping[str, Any]) -> bytes:
    """A digest of one event's content, provenance left out: equal digests, same event."""
    return hashlib.blake2b(_content(record), digest_size=16).digest()


def same_event(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """True when ``a`` and ``b`` are the same event (equal without provenance, a renamed
    record type under its first name)."""
    # Equal records are equal as JSON too (each field's type is fixed by its schema);
    # only unequal ones need the comparison without provenance.
    return a == b or _content(first_named(a)) == _content(first_named(b))


def sequence_conflict(unit: Any, stored: Mapping[str, Any]) -> str:
    """Why a unit's event at ``stored``'s sequence is refused: a different event is stored
    there (the unit is a ``SubjectRecords``). Where the stored event names no source, the
    ``show`` command that prints it, as it runs (``--`` before an id starting with ``-``)."""
    origin = provenance([stored])
    where = (
        f"the stored event was read from {origin}"
        if origin
        else f"`{show_command(unit.subject_id)}` shows the stored event"
    )
    return (
        f"{unit.kind} subject {unit.subject_id!r} sequence {stored['sequence']} is already "
        f"stored with different content ({where}); this event is quarantined, the stored "
        "one is untouched"
    )


def provenance(records: Sequence[Mapping[str, Any]]) -> str:
    """The first ``source`` a version's records name, or ''."""
    for record in records:
        source = record.get("source")
        if isinstance(source, str) and source:
            return source
    return ""
