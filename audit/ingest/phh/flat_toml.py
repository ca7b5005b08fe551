"""The flat TOML of real PHH files read without ``tomllib``, or ``None`` to let it read them.

Real hand histories (the Pluribus and WSOP archives) are one ``key = value`` per line:
bare keys; values that are literal strings, basic strings without escapes, decimal
integers, decimal fractions and booleans, or single-line arrays of those. ``flat_toml``
reads exactly that subset and returns what ``tomllib.loads(text, parse_float=Decimal)``
returns for it, several times faster. Anything else (a table, a dotted or quoted key,
an escape, an exponent, an underscore, a date, a multi-line array, a ``\\r``, a key
given twice, invalid text) is ``None``: the caller parses with ``tomllib``, which gives
the result or the error. ``tests/audit/ingest/test_phh_flat_toml.py`` checks both agree on generated
documents.

Every pattern is possessive or delimited by one character class, so matching is linear.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

#: TOML whitespace (``ws``): spaces and tabs only.
_WS = r"[ \t]*+"
#: A string's or comment's character: anything but the ASCII control characters
#: (tab allowed), as ``tomllib`` has it.
_TEXT = r"[^\x00-\x08\x0a-\x1f\x7f"


def _scalar(group: str) -> str:
    """A literal string, basic string without escapes, decimal integer or fraction (no
    leading zero, underscore or exponent), or boolean; each in a group opened by ``group``."""
    return (
        f"(?:'{group}{_TEXT}']*+)'|\"{group}{_TEXT}\"\\\\]*+)\"|{group}{_FRACTION})|"
        f"{group}true|false))"
    )


def _array(item: str) -> str:
    """A single-line array of ``item``, a trailing comma allowed."""
    return rf"\[{_WS}(?:{item}{_WS}(?:,{_WS}{item}{_WS})*+(?:,{_WS})?)?\]"


#: At most 18 digits, so within 64 bits: a longer integer (perhaps wider than the reader
#: allows, perhaps beyond ``int``'s 4,300 digits) is left to ``tomllib`` and the reader.
_INTEGER = r"[+-]?(?:0|[1-9][0-9]{0,17}+)"
_FRACTION = rf"{_INTEGER}(?:\.[0-9]++)?"
_LITERAL = rf"'{_TEXT}']*+'"
_SCALAR = _scalar("(")
_COMMENT = rf"(?:#{_TEXT}]*+)?"

#: ``key = value``: the key, then one group per kind of scalar, else the array's text in
#: one of three groups: literal strings only, integers only, anything else.
_KEY_VALUE = re.compile(
    rf"{_WS}([A-Za-z0-9_-]++){_WS}={_WS}"
    rf"(?:{_SCALAR}|({_array(_LITERAL)})|({_array(_INTEGER)})|({_array(_scalar('(?:'))}))"
    rf"{_WS}{_COMMENT}"
)
_BLANK = re.compile(rf"{_WS}{_COMMENT}")
_LITERAL_ITEM = re.compile(rf"'({_TEXT}']*+)'")
_INTEGER_ITEM = re.compile(_INTEGER)
_ITEM = re.compile(_SCALAR)


def flat_toml(text: str) -> dict[str, Any] | None:
    """``tomllib.loads(text, parse_float=Decimal)`` for the flat subset, else ``None``."""
    if "\r" in text:
        return None
    fields: dict[str, Any] = {}
    for line in text.split("\n"):
        match = _KEY_VALUE.fullmatch(line)
        if match is None:
            if _BLANK.fullmatch(line) is None:
                return None
            continue
        key, literal, basic, number, boolean, literals, integers, array = match.groups()
        if key in fields:
            return None
        if literals is not None:
            fields[key] = _LITERAL_ITEM.findall(literals)
        elif integers is not None:
            fields[key] = [int(item) for item in _INTEGER_ITEM.findall(integers)]
        elif array is not None:
            fields[key] = [_value(*item) for item in _ITEM.findall(array)]
        else:
            fields[key] = _value(literal, basic, number, boolean)
    return fields


def _value(literal: str | None, basic: str | None, number: str | None, boolean: str | None) -> Any:
    """One scalar from its groups: ``findall`` gives ``""`` for a group that did not take
    part, ``fullmatch`` ``None``; the string groups are told apart by the others."""
    if number:
        return Decimal(number) if "." in number else int(number)
    if boolean:
        return boolean == "true"
    if literal:
        return literal
    return basic or ""
