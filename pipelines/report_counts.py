"""Aggregations of a day's findings: by kind, and per table, operator, machine and day.

A row is a finding record (``Finding.to_record``) with where it was found: ``table``
(table id, the machine id for slots, '' for findings about players such as
collusion), ``family`` (poker, banked, slots), ``source`` (``replay``,
``data_quality`` or a detector's name) and ``day`` (the night's date).
The operator of a finding is the one rule ``audit.wording.operator_name`` states (the
table's declared operator, as its verdict recorded it), so the *By operator* counts, the
owed tables, ``findings --summary`` and the console name the same operator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from audit.wording import operator_name

Row = dict[str, Any]


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
    return count_by((r for r in rows if r["table"]), operator_name)
