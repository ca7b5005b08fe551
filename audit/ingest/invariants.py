"""Record invariants checked at ingest, for every event family.

Schema conformance comes from Avro itself; these are the rules a schema cannot say:

* amounts, stacks, meters, seats and sequences are non-negative integers (money is
  integer minor units, never negative on the wire; a correction is a new event);
* card strings are real cards (rank ``23456789TJQKA``, suit ``cdhs``) or ``??``
  (not disclosed), and no card appears twice within one subject (one deck per hand for
  poker; banked games deal from multi-deck shoes, so uniqueness applies to poker only);
* currency codes are three upper-case letters (ISO 4217 form);
* within one input unit, sequence numbers do not repeat;
* every integer fits its schema field (``int`` 32-bit, ``long`` 64-bit: a crafted Avro
  file can put a 40-bit value in an ``int`` field, and fastavro reads it), and every
  ``sequence`` fits an ``int`` whatever the family (``check_widths``), so nothing out of
  range reaches the transcoder or the database.

Whether the chips of a hand are conserved is *not* an ingest rule: a hand whose recorded
payouts do not add up is a faithful record of a mispayment, and hiding it in quarantine
would hide the finding. The replayer reports it as ``mispaid_pot``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from audit.families import FAMILIES
from audit.ingest.errors import FieldError
from audit.ingest.limits import INT_MAX, INT_MIN, LONG_MAX, LONG_MIN, MAX_SEQUENCE

CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|\?\?)$")
CURRENCY = re.compile(r"^[A-Z]{3}$")
CARD_FIELDS = frozenset({"cards", "card", "order"})
UNIQUE_CARD_FAMILIES = frozenset({"poker"})


def _check_mapping(mapping: Mapping[str, Any], prefix: str) -> int:
    # Hot path (every ingested record): the common values (non-negative ints, plain text,
    # None, timestamps) are judged inline; a field's path is built only for an error.
    # Returns how many values the mapping holds, nested ones included.
    count = len(mapping)
    for key, value in mapping.items():
        kind = type(value)
        if kind is int:
            if value < 0:
                raise FieldError(f"{prefix}{key}", f"must not be negative, got {value}")
        elif kind is str:
            if key in CARD_FIELDS or key == "currency":
                _check_value(key, value, f"{prefix}{key}")
        elif kind is dict or kind is list or kind is tuple:
            count += _check_value(key, value, f"{prefix}{key}")
    return count


def _check_value(key: str, value: Any, path: str) -> int:
    kind = type(value)
    if kind is int:
        if value < 0:
            raise FieldError(path, f"must not be negative, got {value}")
    elif kind is str:
        if key in CARD_FIELDS and not CARD.match(value):
            shown = value if len(value) <= 20 else f"{value[:20]}…"
            raise FieldError(path, f"{shown!r} is not a card (rank 2-9TJQKA, suit cdhs, or ??)")
        if key == "currency" and not CURRENCY.match(value):
            shown = value if len(value) <= 20 else f"{value[:20]}…"
            raise FieldError(path, f"{shown!r} is not an ISO 4217 currency code")
    elif kind is dict:
        return _check_mapping(value, f"{path}.")
    elif kind is list or kind is tuple:
        count = len(value)
        for index, item in enumerate(value):
            count += _check_value(key, item, f"{path}[{index}]")
        return count
    return 0


def check_record(record: Mapping[str, Any]) -> int:
    """Raise FieldError for the first invariant a flat record breaks; else return how
    many values (fields, array items, map entries) it holds, for the per-subject bound."""
    return _check_mapping(record, "")


# -- integer widths ---------------------------------------------------------------------

_WIDTHS = {"int": (INT_MIN, INT_MAX), "long": (LONG_MIN, LONG_MAX)}
_Check = Callable[[Any, str], None]
_Named = dict[str, _Check | None]
"""Full name of a named schema (record, enum, fixed) -> its checker, None if it has none."""


def _integer(kind: str) -> _Check:
    low, high = _WIDTHS[kind]

    def check(value: Any, path: str) -> None:
        if type(value) is not int and (isinstance(value, bool) or not isinstance(value, int)):
            raise FieldError(path, f"{type(value).__name__} where an Avro {kind} belongs")
        if not low <= value <= high:
            shown = (
                f"{value}" if value.bit_length() < 4000 else f"a {value.bit_length()}-bit number"
            )
            raise FieldError(path, f"{shown} does not fit an Avro {kind} ({low}..{high})")

    return check


def _compiled(schema: Any, names: _Named, namespace: str) -> _Check | None:
    """A checker of the integers inside values of ``schema``, or None when it has none
    (strings, enums, booleans, timestamps, which fastavro hands over as datetimes)."""
    if isinstance(schema, str):
        if schema in _WIDTHS:
            return _integer(schema)
        return names.get(schema) or names.get(f"{namespace}.{schema}")
    if isinstance(schema, list):  # a union: null, then one branch (all our schemas)
        branches = [b for b in schema if b != "null"]
        if len(branches) != 1:
            return None
        branch = _compiled(branches[0], names, namespace)
        if branch is None:
            return None

        def optional(value: Any, path: str) -> None:
            if value is not None:
                branch(value, path)

        return optional
    kind = schema.get("type")
    if "logicalType" in schema or kind in ("enum", "fixed"):
        if kind in ("enum", "fixed"):
            names[_full_name(schema, namespace)] = None
        return None
    if kind in _WIDTHS:
        return _integer(kind)
    if kind in ("array", "map"):
        inner = _compiled(schema["items" if kind == "array" else "values"], names, namespace)
        if inner is None:
            return None
        return _array(inner) if kind == "array" else _map(inner)
    if kind == "record":
        name = _full_name(schema, namespace)
        fields = _fields(schema["fields"], names, schema.get("namespace", namespace))
        check = _record(fields) if fields else None
        names[name] = check
        return check
    return None


def _full_name(schema: dict[str, Any], namespace: str) -> str:
    name = schema["name"]
    return name if "." in name else f"{schema.get('namespace', namespace)}.{name}"


def _fields(
    fields: list[dict[str, Any]], names: _Named, namespace: str
) -> list[tuple[str, _Check]]:
    found = []
    for item in fields:
        check = _compiled(item["type"], names, namespace)
        if check is not None:
            found.append((item["name"], check))
    return found


def _array(inner: _Check) -> _Check:
    def check(value: Any, path: str) -> None:
        if isinstance(value, list | tuple):
            for index, item in enumerate(value):
                inner(item, f"{path}[{index}]")

    return check


def _map(inner: _Check) -> _Check:
    def check(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                inner(item, f"{path}.{key}")

    return check


def _record(fields: list[tuple[str, _Check]]) -> _Check:
    def check(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for name, inner in fields:
                if name in value:
                    inner(value[name], f"{path}.{name}")

    return check


@cache
def _width_checks(family: str) -> dict[str, list[tuple[str, _Check]]]:
    """Record type -> (flat field, checker) for the integers of the family's events."""
    raw = FAMILIES[family].raw_schema
    namespace = raw.get("namespace", "")
    names: _Named = {}
    envelope = [f for f in raw["fields"] if f["name"] != "body"]
    body = next(f for f in raw["fields"] if f["name"] == "body")
    head = [(n, c) for n, c in _fields(envelope, names, namespace) if n != "sequence"]
    checks = {}
    for branch in body["type"]:
        own = _fields(branch["fields"], names, branch.get("namespace", namespace))
        names[_full_name(branch, namespace)] = None
        checks[branch["name"]] = head + own
    return checks


def check_widths(family: str, record: Mapping[str, Any]) -> None:
    """Raise FieldError when an integer of a flat record does not fit its schema field,
    or its ``sequence`` is not 0..``MAX_SEQUENCE`` (an Avro ``int``, in every family)."""
    sequence = record.get("sequence")
    if type(sequence) is not int or not 0 <= sequence <= MAX_SEQUENCE:
        shown = sequence if type(sequence) is not int or sequence.bit_length() < 4000 else "huge"
        raise FieldError("sequence", f"sequence {shown!r} is not in 0..{MAX_SEQUENCE}")
    record_type = record.get("type")
    if not isinstance(record_type, str):  # no record type: none of its fields is known
        return
    for name, check in _width_checks(family).get(record_type, ()):
        if name in record:
            check(record[name], name)


class UnitChecker:
    """Cross-record rules within one subject's run of records."""

    def __init__(self, family: str):
        self.unique_cards = family in UNIQUE_CARD_FAMILIES
        self.cards_seen: set[str] = set()
        self.sequences: set[int] = set()

    def check(self, record: Mapping[str, Any]) -> None:
        """Raise FieldError when the record clashes with earlier ones of the unit."""
        sequence = record["sequence"]
        if sequence in self.sequences:
            raise FieldError("sequence", f"sequence {sequence} appears twice for this subject")
        if self.unique_cards and record.get("type") == "CardsDealt":
            seen = set(self.cards_seen)
            for index, card in enumerate(record.get("cards", ())):
                if card == "??":
                    continue
                if card in seen:
                    raise FieldError(
                        f"cards[{index}]", f"card {card} was already dealt in this hand"
                    )
                seen.add(card)
            self.cards_seen = seen
        self.sequences.add(sequence)
