"""The daily report for inspectors and operators, from the store alone.

``write_report(store_url, day, out_dir)`` reads the night's units (``pipelines.night_units``:
ledgers -> verdicts, data-quality units, detector units) and writes, under
``<out_dir>/<YYYY-MM-DD>/``::

    report.html          findings by kind, table, machine and operator with citations,
                         each finding as a sentence in money words
                         (``audit.wording.sentence``), who is owed what per player, table
                         and operator by currency (``audit.wording.owed_totals``: money
                         held by two findings counted once), a
                         ``casino-audit hand <subject>`` command per finding, plots
    findings.csv         every finding (audit.show.finding_rows columns: with currency, table,
                         players and owed, formula-safe)
    findings.jsonl       every finding with its context, table, family, source, day and
                         what it says is owed (integer minor units)
    plots/*.png          rake against cap per table, collusion chip flows, meter variance
    data-docs/<partition>/  Great Expectations Data Docs (written by the judging step)

Files are rewritten whole and depend only on the store's content: rerunning gives the
same bytes. A finding row carries its verdict's context (``currency``, ``players``,
``operator``, ``subject_kind``, ``rulebook``, ``started_at``: what
``audit.judging.current_findings`` adds; a detector's finding about a judged subject
gets that subject's), beside the report's own ``table``, ``family``, ``source`` and
``day``. The page is rendered from ``pipelines/templates/report.html`` (Jinja2, autoescape on:
``audit.pages``, whose findings parts the console renders too). Every name shown
(players, tables, subjects) comes from operators' data and is HTML-escaped, control
and bidirectional characters made visible. Without a context
(verdicts stored before it was recorded) amounts read in minor units, seats have no
names and the operator is ``(operator not declared)`` (``audit.wording.operator_name``:
never guessed from a table id).
"""

from __future__ import annotations

import base64
import json
import shlex
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from audit.config import parse_store_url
from audit.judging import KIND as ADJUDICATION
from audit.pages import environment
from audit.show.finding_rows import write_findings
from audit.store import AuditStore
from audit.wording import (
    Sums,
    kind_label,
    owed_totals,
    sentence,
    show_command,
    subject_count,
    terminal_safe,
)
from pipelines import report_counts as agg
from pipelines import report_plots
from pipelines.expectations.profile import RakeProfile
from pipelines.night_units import (
    DETECTORS,
    LEDGER,
    QUALITY,
    UnitLookup,
    iter_days_units,
    scanned_units,
)

MAX_LISTED = 1000
MAX_GROUPS = 60


@dataclass
class ReportPaths:
    """What ``write_report`` wrote."""

    html: Path
    csv: Path
    jsonl: Path
    plots: list[Path] = field(default_factory=list)


@dataclass
class DayData:
    """The night's findings with their context, and the figures the plots need."""

    day: date
    rows: list[dict[str, Any]] = field(default_factory=list)
    subjects: Counter[str] = field(default_factory=Counter)
    events: int = 0
    checks: list[dict[str, Any]] = field(default_factory=list)
    rake_by_table: dict[str, dict[str, Any]] = field(default_factory=dict)
    detector_figures: dict[str, dict[str, Any]] = field(default_factory=dict)


def load_day(store: AuditStore, day: date, unit_ids: UnitLookup | None = None) -> DayData:
    """Everything the report shows for ``day``, read from the store one unit at a time:
    the data-quality and detector units first, then the night's ledgers, whose verdicts
    give the replayer's findings and name the table of every subject found (a ledger
    that notes which verdicts have findings: those verdicts alone).

    ``unit_ids`` finds the night's units by index (``pipelines.night_units.UnitLookup``;
    the console's read model); without it they are found by scanning the store."""
    data = DayData(day)
    found: list[tuple[dict[str, Any], str]] = []
    rake = RakeProfile()
    for (kind, scope), record in iter_days_units(store, [day], (QUALITY, *DETECTORS), unit_ids):
        if kind == QUALITY:
            data.events += record.get("events_judged", 0)
            part = scope.partition("/")[2]  # <family>/<partition>, or an input file's name
            data.checks.extend({"part": part, **c} for c in record.get("checks", []))
            profile = record.get("profile", {})
            rake.merge(profile.get("rake", {}))
            # nights judged before rake profiles were mergeable stored figures per input file
            data.rake_by_table |= profile.get("rake_by_table", {})
        else:
            data.detector_figures[kind] = record.get("figures", {})
        found.extend((finding, kind) for finding in record["findings"])
    data.rake_by_table |= rake.figures()
    wanted = {finding["subject"] for finding, _ in found}
    tables: dict[str, tuple[str, str]] = {}
    contexts: dict[str, dict[str, Any]] = {}
    for _, record in iter_days_units(store, [day], [LEDGER], unit_ids):
        family, ledger = record["family"], record["ledger"]
        data.subjects[family] += len(ledger)
        tables |= {s: (e["table"], family) for s, e in ledger.items() if s in wanted}
        read = _verdicts_to_read(record, wanted)
        verdicts = store.iter_records(ADJUDICATION, (ledger[s]["verdict"] for s in read))
        for subject, (_, verdict) in zip(read, verdicts, strict=True):
            about = _about(verdict[0])
            if subject in wanted:
                contexts[subject] = about
            data.rows.extend(
                _row({**f, **about}, ledger[subject]["table"], family, "replay", day)
                for f in verdict[0]["findings"]
            )
    for finding, source in found:
        table, family = tables.get(finding["subject"], ("", ""))
        about = contexts.get(finding["subject"], {})
        data.rows.append(_row({**finding, **about}, table, family, source, day))
    data.rows.sort(key=lambda r: (r["kind"], r["table"], r["subject"], r["finding_id"]))
    return data


def _verdicts_to_read(ledger: dict[str, Any], wanted: set[str]) -> list[str]:
    """The subjects of a ledger whose verdicts the report reads, in the ledger's order:
    those whose verdicts have findings (the ledger's ``with_findings``) and those another
    finding is about (``wanted``: their context); every subject when the ledger does not
    say which verdicts have findings (one stored before it did, or a banker runs
    ledger)."""
    if "with_findings" not in ledger:
        return list(ledger["ledger"])
    flagged = set(ledger["with_findings"])
    return [s for s in ledger["ledger"] if s in flagged or s in wanted]


def _about(verdict: dict[str, Any]) -> dict[str, Any]:
    """Who and what a stored verdict is about (the context ``current_findings`` adds to
    its rows: currency, players, operator, ...); only what the verdict holds."""
    about = {k: verdict[k] for k in ("rulebook",) if verdict.get(k) is not None}
    if verdict.get("kind"):
        about["subject_kind"] = verdict["kind"]
    context = verdict.get("context")
    if isinstance(context, dict):
        about |= {k: v for k, v in context.items() if k != "table"}
    return about


def _row(
    finding: dict[str, Any], table: str, family: str, source: str, day: date
) -> dict[str, Any]:
    return {**finding, "table": table, "family": family, "source": source, "day": day.isoformat()}


def write_report(store_url: str, day: date, out_dir: Path) -> ReportPaths:
    """Write the day's report and exports (see the module docstring); their paths."""
    store = AuditStore(store_url)
    try:
        data = load_day(store, day, scanned_units(store, (QUALITY, *DETECTORS, LEDGER)))
    finally:
        store.close()
    folder = Path(out_dir) / day.isoformat()
    folder.mkdir(parents=True, exist_ok=True)
    paths = ReportPaths(folder / "report.html", folder / "findings.csv", folder / "findings.jsonl")
    with paths.csv.open("w", newline="") as out:
        write_findings(data.rows, "csv", out)
    with paths.jsonl.open("w") as out:
        write_findings(data.rows, "jsonl", out)
    paths.plots = _plots(data, folder / "plots")
    docs = sorted((folder / "data-docs").glob("*/index.html"))
    store_name = parse_store_url(store_url).redacted()
    paths.html.write_text(render(data, paths, docs, store_name))
    return paths


def _plots(data: DayData, folder: Path) -> list[Path]:
    collusion = data.detector_figures.get("collusion", {})
    machines = data.detector_figures.get("meters", {}).get("machines", {})
    drawn = [
        report_plots.rake_vs_cap(data.rake_by_table, folder / "rake-vs-cap.png"),
        report_plots.collusion_graph(
            collusion.get("flows", []), collusion.get("suspects", []), folder / "collusion.png"
        ),
        report_plots.meter_variance(machines, folder / "meter-variance.png"),
    ]
    return [p for p in drawn if p is not None]


# -- HTML ---------------------------------------------------------------------------


def _short(value: Any) -> str:
    """A value as a cell shows it (the ``short`` filter): text up to 160 characters (a
    longer one cut with ``...``), anything else as JSON, control characters made
    visible; autoescape escapes it."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return terminal_safe(text if len(text) <= 160 else text[:157] + "...")


@cache
def templates() -> jinja2.Environment:
    """The report's templates (``pipelines/templates``) over the shared findings parts
    (``audit.pages``)."""
    env = environment(Path(__file__).resolve().parent / "templates")
    env.filters["short"] = _short
    env.filters["kind"] = kind_label  # a finding kind in plain words (audit.wording)
    return env


def _in_context(row: dict[str, Any]) -> dict[str, Any]:
    """The row with the context the wording needs; what the store did not add is
    derived from the report's own columns (subject kind from the family) or left out."""
    extra: dict[str, Any] = {}
    if not row.get("subject_kind") and row.get("family"):
        extra["subject_kind"] = row["family"]
    return {**row, **extra} if extra else row


def _counts(
    title: str, groups: dict[str, Counter[str]]
) -> tuple[str, list[tuple[str, Counter[str]]], int] | None:
    """A *Where* table: the groups with most findings first (at most ``MAX_GROUPS``) and
    how many more there are; None when there are none."""
    if not groups:
        return None
    ranked = sorted(groups.items(), key=lambda g: (-sum(g[1].values()), g[0]))[:MAX_GROUPS]
    return title, ranked, len(groups) - len(ranked)


SHOWN_FAMILIES = frozenset({"poker", "banked", "slots", "tournament", "table"})
"""Families whose subjects ``casino-audit show`` explains (plus collusion pairs)."""


def _command(row: dict[str, Any], store: str) -> str:
    """The full, shell-quoted command an inspector runs to look the finding up."""
    prefix = f"casino-audit --store {shlex.quote(store)}"
    if row["family"] in SHOWN_FAMILIES or row["kind"] == "collusion_suspected":
        return show_command(row["subject"]).replace("casino-audit", prefix, 1)
    return f"{prefix} findings --kind {shlex.quote(str(row['kind']))}"


def render(data: DayData, paths: ReportPaths, docs: list[Path], store: str) -> str:
    """The report page (self-contained: plots embedded; ``pipelines/templates/report.html``);
    ``store`` is the store's URL without its password, for the look-it-up commands."""
    kinds_count = agg.by_kind(data.rows)
    kinds = sorted(kinds_count)
    failed = [c for c in data.checks if not c["success"]]
    totals = owed_totals(_in_context(r) for r in data.rows)
    counts = (
        _counts("By table", agg.by_table(data.rows)),
        _counts("By machine", agg.by_machine(data.rows)),
        _counts("By operator", agg.by_operator(data.rows)),
    )
    base = paths.html.parent
    return (
        templates()
        .get_template("report.html")
        .render(
            day=data.day,
            tiles=[
                ("events checked", f"{data.events:,}", False),
                *(
                    (f"{subject_count(family, n).split(' ', 1)[1]} judged", f"{n:,}", False)
                    for family, n in sorted(data.subjects.items())
                ),
                ("findings", f"{len(data.rows):,}", bool(data.rows)),
                ("failed data-quality checks", f"{len(failed):,}", bool(failed)),
            ],
            by_kind=[
                (
                    kind,
                    kinds_count[kind],
                    ", ".join(sorted({r["source"] for r in data.rows if r["kind"] == kind})),
                )
                for kind in kinds
            ],
            plots=[(p.stem, base64.b64encode(p.read_bytes()).decode()) for p in paths.plots],
            kinds=kinds,
            counts=[c for c in counts if c is not None],
            owed=totals,
            currencies=sorted(totals.currencies.items(), key=lambda c: _currency_order(c[0])),
            owed_tables=[
                _owed_table("By player", totals.players, "the player"),
                _owed_table("By table", totals.tables, "players"),
                _owed_table("By operator", totals.operators, "players"),
            ],
            checks=len(data.checks),
            failed=failed,
            docs=[(d.relative_to(base).as_posix(), d.parent.name) for d in docs],
            listed=[
                (r["kind"], r["subject"], r["table"], sentence(_in_context(r)), _command(r, store))
                for r in data.rows[:MAX_LISTED]
            ],
            total=len(data.rows),
        )
    )


def _currency_order(currency: str | None) -> tuple[bool, str]:
    return (currency is None, currency or "")


def _owed_table(
    title: str, groups: dict[str, dict[str | None, Sums]], whom: str
) -> tuple[str, str, list[tuple[str | None, str, Sums]], int]:
    """An owed table: one row per (name, currency), largest amounts first within each
    currency (at most ``MAX_GROUPS``), and how many more there are."""
    entries = [
        (currency, name, sums)
        for name, by_currency in groups.items()
        for currency, sums in by_currency.items()
    ]
    entries.sort(key=lambda e: (_currency_order(e[0]), -(e[2].to_player + e[2].to_house), e[1]))
    shown = entries[:MAX_GROUPS]
    return title, whom, shown, len(entries) - len(shown)
