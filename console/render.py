"""Turning the audit's words into HTML pieces: the ``show`` explanation line by line
(cards as coloured glyphs, the first divergence marked), findings in sentences with
their rules, stored records as JSON.

Every piece of text is escaped *before* markup is added (``markupsafe.escape``), and
the only markup added is a ``span`` around a card glyph: names from the records stay
text, whatever they hold.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from audit.money import format_money
from audit.show.common import FIRST
from audit.store import canonical
from audit.wording import owed, sentence, terminal_safe
from console.runtime import subject_url
from replayer.rulebooks.citations import summary_line

_CARD = re.compile(r"(?<![\w])(10|[2-9AKQJ])([♠♥♦♣])")
_RED = {"♥": "suit-h", "♦": "suit-d", "♠": "suit-s", "♣": "suit-c"}
_rule = lru_cache(maxsize=4096)(summary_line)
"""``summary_line`` kept per citation: a pure function of the citation and the rulebook
catalogue (code, not data), and a findings page would otherwise resolve each row's."""


@dataclass(frozen=True)
class Line:
    """One line of an explanation: its CSS class and its HTML."""

    css: str
    html: Markup


def _cards(text: str) -> Markup:
    escaped = str(escape(terminal_safe(text)))
    return Markup(
        _CARD.sub(lambda m: f'<span class="card {_RED[m.group(2)]}">{m.group(0)}</span>', escaped)
    )


_SHOW = re.compile(r"(?P<indent>\s*)casino-audit show (?P<subject>\S+)")


def _show_link(line: str) -> Markup | None:
    """A ``casino-audit show ID`` hint (a pair's evidence hands) as links to the
    subject's page and its evidence bundle; None for any other line."""
    match = _SHOW.fullmatch(line)
    if match is None:
        return None
    subject = match.group("subject")
    return Markup('{}<a href="{}">{}</a> · <a href="{}">evidence bundle</a>').format(
        match.group("indent"),
        subject_url(subject),
        terminal_safe(subject),
        subject_url(subject, "/evidence"),
    )


def explain(lines: Iterable[str]) -> list[Line]:
    """``audit.show.show_lines`` output as HTML lines: headings (unindented lines), the
    first-divergence mark, card glyphs coloured by suit, ``casino-audit show ID`` hints
    as links (the page and the evidence bundle of that subject)."""
    out = []
    for line in lines:
        if line.startswith(FIRST):
            css = "divergence"
        elif line and not line.startswith(" "):
            css = "heading"
        else:
            css = ""
        out.append(Line(css, _show_link(line) or _cards(line)))
    return out


@dataclass(frozen=True)
class FindingView:
    """A finding as a page shows it."""

    finding_id: str
    kind: str
    subject: str
    subject_kind: str
    sentence: str
    citation: str
    rule: str
    table: str
    started: str
    owed: list[str]
    row: Mapping[str, Any]


def finding_view(row: Mapping[str, Any]) -> FindingView:
    """The row in words: ``audit.wording.sentence`` and the citation's ``summary_line``."""
    citation = str(row.get("citation") or "")
    owed_lines = []
    for item in owed(row):
        whom = "owed to" if item.direction == "to_player" else "owed back to the house by"
        owed_lines.append(f"{format_money(item.amount, item.currency)} {whom} {item.party}")
    return FindingView(
        str(row.get("finding_id") or ""),
        str(row.get("kind") or ""),
        str(row.get("subject") or ""),
        str(row.get("subject_kind") or ""),
        sentence(row),
        citation,
        _rule(citation) if citation else "",
        str(row.get("table") or ""),
        str(row.get("started_at") or ""),
        owed_lines,
        row,
    )


def views(rows: Sequence[Mapping[str, Any]]) -> list[FindingView]:
    return [finding_view(r) for r in rows]


def record_json(record: Mapping[str, Any]) -> str:
    """A stored record as canonical JSON (sorted keys; control characters, ANSI escapes
    included, are JSON escapes: inert; so are DEL, line separators and bidirectional
    overrides, which JSON leaves as they are: the text still reads back the same)."""
    return _INVISIBLE.sub(_json_escape, canonical(dict(record)))


_INVISIBLE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"
