"""PHH (Poker Hand History, phh-std) files read into records, one hand each.

``iter_phh_records`` streams the records of a ``.phh`` file (one hand) or of a ``.phhs``
file (one hand per ``[N]`` section, as PokerKit's ``HandHistory.loads_all`` reads them),
yielding a ``RecordRejected`` for text that is not valid TOML instead of raising. A
record's TOML is bounded before it is parsed (``audit.ingest.toml_guard``), and no
integer may be wider than 64 bits.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from audit.ingest.errors import FieldError, RecordRejected, cap
from audit.ingest.limits import DEFAULT_LIMITS, Limits
from audit.ingest.phh.flat_toml import flat_toml
from audit.ingest.text_files import read_text
from audit.ingest.toml_guard import LIMIT_FIELD, check_toml_shape

#: Field name used in a ``RecordRejected`` for text that is not valid TOML.
SYNTAX = "(syntax)"

_SECTION_HEADER = re.compile(
    r"^[ \t]*\[[ \t]*([^\[\]\s#]+)[ \t]*\][ \t]*(?:#[^\n]*)?$", re.MULTILINE
)
_TOML_LINE = re.compile(r"at line (\d+)")


@dataclass(frozen=True, slots=True)
class PhhRecord:
    """One hand as read: its file, position in the file, TOML fields and raw text."""

    source: Path
    position: str
    fields: dict[str, Any]
    raw: str
    section: str | None = None


def iter_phh_records(
    path: Path, limits: Limits = DEFAULT_LIMITS
) -> Iterator[PhhRecord | RecordRejected]:
    """Stream the records of a ``.phh`` (one) or ``.phhs`` file (one per section).

    A file larger than ``limits.max_phh_file_bytes`` is one rejection and is not read;
    every record's text is pre-scanned against the TOML limits before it is parsed.
    """
    path = path if isinstance(path, Path) else Path(path)
    text = read_text(path, limits, field=SYNTAX, encoding="utf-8")
    if isinstance(text, RecordRejected):
        yield text
        return
    if path.suffix == ".phhs":
        yield from _sections(path, text, limits)
    else:
        yield _single(path, text, limits)


def _single(path: Path, text: str, limits: Limits) -> PhhRecord | RecordRejected:
    try:
        fields = _parse_toml(text, first_line=1, limits=limits)
    except FieldError as error:
        return RecordRejected(path, "file", error.field, error.reason, text)
    position = f"hand {cap(str(fields['hand']), 100)}" if "hand" in fields else "file"
    return PhhRecord(path, position, fields, text)


def _sections(path: Path, text: str, limits: Limits) -> Iterator[PhhRecord | RecordRejected]:
    """The ``[N]`` sections of a ``.phhs`` file, each parsed on its own, lazily (a file
    of a million sections is never held as a million strings)."""
    headers = _SECTION_HEADER.finditer(text)
    header = next(headers, None)
    if header is None:
        yield RecordRejected(path, "file", SYNTAX, "no [section] header such as [1]", text)
        return
    preamble = text[: header.start()]
    try:
        stray = _parse_toml(preamble, first_line=1, part="preamble", limits=limits)
    except FieldError as error:
        yield RecordRejected(path, "preamble", error.field, error.reason, preamble)
    else:
        if stray:
            reason = f"fields outside any section: {', '.join(stray)}"
            yield RecordRejected(path, "preamble", next(iter(stray)), reason, preamble)
    seen: set[str] = set()
    line = preamble.count("\n") + 1
    count = 0
    while header is not None:
        following = next(headers, None)
        end = following.start() if following is not None else len(text)
        name = header.group(1).strip("\"'")
        count += 1
        if count > limits.max_phhs_sections:
            yield RecordRejected(
                path,
                f"section {cap(name, 100)} and after",
                LIMIT_FIELD,
                f"more than {limits.max_phhs_sections:,} sections, beyond "
                f"{limits.describe('max_phhs_sections')}: the rest of the file is not read",
                text[header.start() :],
            )
            return
        raw = text[header.start() : end]
        yield _section(path, name, raw, header.end() - header.start(), line, seen, limits)
        seen.add(name)
        line += raw.count("\n")
        header = following


def _section(
    path: Path,
    name: str,
    raw: str,
    header_length: int,
    line: int,
    seen: set[str],
    limits: Limits,
) -> PhhRecord | RecordRejected:
    position = f"section {cap(name, 100)}"
    if name in seen:
        return RecordRejected(path, position, SYNTAX, f"duplicate section [{name}]", raw)
    try:
        fields = _parse_toml(raw[header_length:], first_line=line, part="section", limits=limits)
    except FieldError as error:
        return RecordRejected(path, position, error.field, error.reason, raw)
    return PhhRecord(path, position, fields, raw, section=name)


def _parse_toml(
    text: str, first_line: int, part: str = "file", limits: Limits = DEFAULT_LIMITS
) -> dict[str, Any]:
    """TOML with floats as ``Decimal``; errors cite file lines (``first_line`` is line 1).

    The text is pre-scanned for nesting and size (``audit.ingest.toml_guard``) first;
    the flat TOML of real hand histories is then read by ``flat_toml``, the rest by
    ``tomllib`` (the same value either way); what ``tomllib`` raises besides its own
    error (an integer of more than 4,300 digits, a float exponent past ``Decimal``'s
    range) is a syntax rejection too, and no integer wider than 64 bits gets past this
    point.
    """
    check_toml_shape(text, limits, first_line=first_line)
    fields = flat_toml(text)
    if fields is not None:  # its integers have at most 18 digits: none is too wide
        return fields
    fields = _tomllib(text, first_line, part)
    if _LONG_DIGITS.search(text):
        _check_integers(fields)
    return fields


def _tomllib(text: str, first_line: int, part: str) -> dict[str, Any]:
    """``tomllib.loads`` with its errors as ``FieldError`` citing the file's lines."""
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        message = _TOML_LINE.sub(
            lambda match: f"at line {int(match.group(1)) + first_line - 1}", str(error)
        ).replace("end of document", f"end of {part}")
        raise FieldError(SYNTAX, f"not valid TOML: {message}") from None
    except ArithmeticError:  # decimal.InvalidOperation: 1e99999999999999999999
        raise FieldError(SYNTAX, "not valid TOML: a float out of Decimal's range") from None
    except (ValueError, RecursionError) as error:  # an integer of more than 4,300 digits
        reason = "an integer of more than 4,300 digits" if "digits" in str(error) else error
        raise FieldError(SYNTAX, f"not valid TOML: {reason}") from None


#: A run of 17 or more digits: only such text can hold an integer wider than 64 bits
#: (2^64 has 20 decimal digits, 17 hex digits; octal and binary runs are longer still).
_LONG_DIGITS = re.compile(r"[0-9a-fA-F_]{17,}")


#: Widest integer a PHH field may hold: amounts, counts and seats are 64-bit at most.
MAX_INTEGER_BITS = 64


def _check_integers(fields: dict[str, Any]) -> None:
    """Raise FieldError at the first integer wider than 64 bits (its path named)."""
    stack: list[tuple[str, Any]] = [("", fields)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack += [(f"{path}.{key}" if path else str(key), item) for key, item in value.items()]
        elif isinstance(value, list):
            stack += [(f"{path}[{index}]", item) for index, item in enumerate(value)]
        elif isinstance(value, int) and value.bit_length() > MAX_INTEGER_BITS:
            raise FieldError(
                path,
                f"an integer of {value.bit_length():,} bits: at most {MAX_INTEGER_BITS} bits "
                "(amounts, counts and seats are 64-bit)",
            )
