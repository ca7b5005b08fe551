"""Turning the audit's words into pieces of a page: findings in sentences with their
rules, an incident's report line by line, stored records as JSON. (A subject's
explanation is data, ``audit.show.model``, rendered by ``templates/explanation.html``.)

No markup is made here: the templates add it, autoescape on, so names from the records
stay text, whatever they hold.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from audit.notation.money import format_money
from audit.show.common import label_of, summary_of
from audit.store import canonical
from audit.wording import owed, sentence


@dataclass(frozen=True)
class ReportLine:
    """One line of an incident's investigation report: a heading or not, and its text."""

    heading: bool
    text: str


def report_lines(text: str) -> list[ReportLine]:
    """``audit.incidents.report.render_text`` as lines, its unindented lines headings.
    (A subject's explanation is data, ``audit.show.model``: its page reads no text.)"""
    return [ReportLine(bool(line) and not line.startswith(" "), line) for line in text.splitlines()]


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
    rule_label: str
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
        summary_of(citation) if citation else "",
        label_of(citation),
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
