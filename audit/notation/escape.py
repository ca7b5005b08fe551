"""Escaping for the terminal, for CSV and for the shell: what a hostile name must not do
there."""

from __future__ import annotations

import re
import shlex
import unicodedata
from typing import Any

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Characters that take no room at all: ``olga\u200b_p`` would print as ``olga_p``, a
#: name that is not hers (zero-width space, non-joiner, joiner, word joiner, invisible
#: operators, the Mongolian vowel separator and the zero-width no-break space).
ZERO_WIDTH = frozenset("\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\x1b": "\\e"}


def _escaped(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: Any) -> str:
    """``text`` safe to print on a terminal, on one line: control characters (ANSI
    escape sequences start with ESC, so they are disarmed), newlines, line and paragraph
    separators, bidirectional overrides and zero-width characters are written as
    visible escapes (``\\e``, ``\\n``, ``\\x07``, ``\\u202e``, ``\\u200b``)."""
    shown = "" if text is None else str(text)
    if shown.isprintable():  # no Cc, Zl, Zp nor Cf (bidirectional, zero-width: all Cf)
        return shown
    return "".join(_escaped(c) if _unsafe(c) else c for c in shown)


_FORMULA_START = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")
_PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _unsafe(char: str) -> bool:
    return char in _BIDI or char in ZERO_WIDTH or unicodedata.category(char) in ("Cc", "Zl", "Zp")


def multiline_safe(text: Any) -> str:
    """``terminal_safe`` line by line: the line breaks stay, every other control
    character, ANSI escape and bidirectional override is made visible."""
    return "\n".join(terminal_safe(line) for line in str(text).split("\n"))


def csv_safe(cell: Any) -> str:
    """A CSV cell a spreadsheet will not run as a formula: a cell starting with ``=``,
    ``+``, ``-``, ``@``, tab, CR or LF (or their full-width forms, or any of these after
    leading spaces) gets a leading ``'``; a plain negative number (``-35``, ``-0.35``)
    stays a number. None is the empty cell. Control characters other than tab, CR and LF
    (ESC, BEL…), bidirectional overrides and zero-width characters are written as visible
    escapes, as on the terminal, so a cell cannot reorder or hide what a viewer of the
    file reads."""
    if cell is None:
        return ""
    text = "".join(_escaped(c) if c not in "\t\r\n" and _unsafe(c) else c for c in str(cell))
    if _PLAIN_NUMBER.fullmatch(text):
        return text
    first = text.lstrip(" ")[:1]
    return "'" + text if first and first in _FORMULA_START else text


def show_command(subject: Any) -> str:
    """``casino-audit show ID`` as a shell command that works for any id: quoted for the
    shell, after ``--`` when the id starts with ``-`` (else it reads as an option), and
    safe on a terminal."""
    text = str(subject)
    return terminal_safe(
        f"casino-audit show {'-- ' if text.startswith('-') else ''}{shlex.quote(text)}"
    )
