"""Escaping for the terminal and for CSV: what a hostile name must not do there."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\x1b": "\\e"}


def _escaped(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: Any) -> str:
    """``text`` safe to print on a terminal, on one line: control characters (ANSI
    escape sequences start with ESC, so they are disarmed), newlines, line and paragraph
    separators and bidirectional overrides are written as visible escapes (``\\e``,
    ``\\n``, ``\\x07``, ``\\u202e``)."""
    text = "" if text is None else str(text)
    if text.isprintable():  # no Cc, Zl, Zp nor Cf (every bidirectional control is Cf)
        return text
    return "".join(
        _escaped(c) if c in _BIDI or unicodedata.category(c) in ("Cc", "Zl", "Zp") else c
        for c in text
    )


_FORMULA_START = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")
_PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def csv_safe(cell: Any) -> str:
    """A CSV cell a spreadsheet will not run as a formula: a cell starting with ``=``,
    ``+``, ``-``, ``@``, tab, CR or LF (or their full-width forms, or any of these after
    leading spaces) gets a leading ``'``; a plain negative number (``-35``, ``-0.35``)
    stays a number. None is the empty cell."""
    if cell is None:
        return ""
    text = str(cell)
    if _PLAIN_NUMBER.fullmatch(text):
        return text
    first = text.lstrip(" ")[:1]
    return "'" + text if first and first in _FORMULA_START else text
