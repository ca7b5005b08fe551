"""Aggregations of a day's findings: by kind, and per table, operator, machine and day.

A row is a finding record (``Finding.to_record``) with where it was found: ``table``
(table id, the machine id for slots, '' for findings about players such as
collusion), ``family`` (poker, banked, slots), ``source`` (``replay``,
``data_quality`` or a detector's name) and ``day`` (the night's date).
The operator of a table is the part of its id before the first ``/`` or ``:``
(``casino-lisboa/pb-3`` is operated by ``casino-lisboa``); a table id without one names
no operator and counts under ``(unnamed)``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

Row = dict[str, Any]
UNNAMED = "(unnamed)"
_OPERATOR = re.compile(r"^([^/:]+)[/:]")


def operator_of(table: str) -> str:
    """The operator named by a table id's prefix (see the module docstring)."""
    match = _OPERATOR.match(table)
    return match.group(1) if match else UNNAMED


def count_by(rows: Iterable[Row], key: Callable[[Row], str]) -> dict[str, Counter[str]]:
    """key -> findings by kind, keys in order."""
    counts: dict[str, Counter[str]] = {}
    for row in rows:
        counts.setdefault(key(row), Counter())[row["kind"]] += 1
    return dict(sorted(counts.items()))


def by_kind(rows: Iterable[Row]) -> Counter[str]:
    return Counter(row["kind"] for row in rows)


def by_table(rows: Iterable[Row]) -> dict[str, Counter[str]]:
    return count_by(
        (r for r in rows if r["table"] and r.get("family") != "slots"), lambda r: r["table"]
    )


def by_machine(rows: Iterable[Row]) -> dict[str, Counter[str]]:
    return count_by((r for r in rows if r.get("family") == "slots"), lambda r: r["table"])


def by_operator(rows: Iterable[Row]) -> dict[str, Counter[str]]:
    return count_by((r for r in rows if r["table"]), lambda r: operator_of(r["table"]))
