"""Nightly runs as the console shows them: the report's own data, from the store.

A night is what ``pipelines.report.load_day`` reads (its findings with context, the
data-quality checks of each part of the night, the subjects judged; its units found by the read
model's index of unit ids, ``console.readmodel.queries.unit_ids_with_prefix``, not by a scan of
the store), summarised (findings by kind, owed totals by currency counted once) and kept
per day until the read model sees a new verdict unit (``ReadModel.generation``). The
data-quality results are the stored ``data_quality`` units' ``checks``: one row per
expectation per frame per part of the night (a family's partition, ``poker/p03``; in a
night judged before partitions, an input file), with its outcome and failing row count
(the GX Data Docs need a CDN, so they are not shown).
Plots are the PNG files of the report folder (``--reports DIR``:
``DIR/<day>/plots/*.png``), served from this site.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

from audit.wording import OwedTotals, owed_totals
from console.readmodel.queries import unit_ids_with_prefix
from console.runtime import Runtime
from pipelines.report import load_day

PLOT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.png")


@dataclass
class Night:
    """One night's summary (see the module docstring)."""

    day: str
    rows: list[dict[str, Any]]
    by_kind: Counter[str]
    owed: OwedTotals
    checks: list[dict[str, Any]]
    subjects: Counter[str]
    events: int
    parts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """part of the night -> its checks."""

    @property
    def failed(self) -> list[dict[str, Any]]:
        return [c for c in self.checks if not c.get("success")]


def night(rt: Runtime, day: date) -> Night:
    """The night of ``day`` (cached until a new verdict unit is stored)."""
    key = day.isoformat()
    cached = rt.night_cache.get(key)
    if cached is not None and cached[0] == rt.model.generation and isinstance(cached[1], Night):
        return cached[1]
    data = load_day(rt.store, day, partial(unit_ids_with_prefix, rt.model))
    rows = list(data.rows)
    parts: dict[str, list[dict[str, Any]]] = {}
    for check in data.checks:
        parts.setdefault(str(check.get("part")), []).append(check)
    summary = Night(
        key,
        rows,
        Counter(str(r.get("kind")) for r in rows),
        owed_totals(rows),
        data.checks,
        data.subjects,
        data.events,
        parts,
    )
    rt.night_cache[key] = (rt.model.generation, summary)
    return summary


def plots(rt: Runtime, day: str) -> list[str]:
    """The report's PNG plots for ``day`` (names only), when a report folder is set."""
    folder = _plot_folder(rt, day)
    if folder is None or not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if PLOT.fullmatch(p.name) and p.is_file())


def plot_path(rt: Runtime, day: str, name: str) -> Path | None:
    """The file of one plot, only if it is one ``plots`` lists (no path escapes)."""
    if not PLOT.fullmatch(name) or name not in plots(rt, day):
        return None
    folder = _plot_folder(rt, day)
    return folder / name if folder is not None else None


def _plot_folder(rt: Runtime, day: str) -> Path | None:
    root = rt.settings.reports_dir
    if root is None:
        return None
    try:
        date.fromisoformat(day)
    except ValueError:
        return None
    return Path(root) / day / "plots"
