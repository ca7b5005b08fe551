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
    findings.csv         every finding (audit.reports columns: with currency, table,
                         players and owed, formula-safe)
    findings.jsonl       every finding with its context, table, family, source, day and
                         what it says is owed (integer minor units)
    plots/*.png          rake against cap per table, collusion chip flows, meter variance
    data-docs/<shard>/   Great Expectations Data Docs (written by the validation step)

Files are rewritten whole and depend only on the store's content: rerunning gives the
same bytes. A finding row carries its verdict's context (``currency``, ``players``,
``operator``, ``subject_kind``, ``rulebook``, ``started_at``: what
``audit.judging.current_findings`` adds; a detector's finding about a judged subject
gets that subject's), beside the report's own ``table``, ``family``, ``source`` and
``day``. Every name shown (players, tables, subjects) comes from operators' data and
is HTML-escaped, control and bidirectional characters made visible. Without a context
(verdicts stored before it was recorded) amounts read in minor units, seats have no
names and the operator is ``(operator not declared)`` (``audit.wording.operator_name``:
never guessed from a table id).
"""

from __future__ import annotations

import base64
import html
import json
import shlex
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from audit.config import parse_store_url
from audit.judging import KIND as ADJUDICATION
from audit.money import format_money
from audit.reports import write_findings
from audit.store import AuditStore
from audit.wording import OwedTotals, Sums, owed_totals, sentence, show_command, terminal_safe
from pipelines import report_counts as agg
from pipelines import report_plots
from pipelines.expectations.profile import RakeProfile
from pipelines.night_units import LEDGER, QUALITY, UnitLookup, iter_days_units, scanned_units

DETECTORS = ("collusion", "meters")
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
    give the replayer's findings and name the table of every subject found.

    ``unit_ids`` finds the night's units by index (``pipelines.night_units.UnitLookup``;
    the console's read model); without it they are found by scanning the store."""
    data = DayData(day)
    found: list[tuple[dict[str, Any], str]] = []
    rake = RakeProfile()
    for (kind, scope), record in iter_days_units(store, [day], (QUALITY, *DETECTORS), unit_ids):
        if kind == QUALITY:
            data.events += record.get("events_judged", 0)
            shard = scope.partition("/")[2]
            data.checks.extend({"shard": shard, **c} for c in record.get("checks", []))
            profile = record.get("profile", {})
            rake.merge(profile.get("rake", {}))
            # nights judged before rake profiles were mergeable stored figures per shard
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
        verdicts = store.iter_records(ADJUDICATION, (e["verdict"] for e in ledger.values()))
        for (subject, entry), (_, verdict) in zip(ledger.items(), verdicts, strict=True):
            about = _about(verdict[0])
            if subject in wanted:
                contexts[subject] = about
            data.rows.extend(
                _row({**f, **about}, entry["table"], family, "replay", day)
                for f in verdict[0]["findings"]
            )
    for finding, source in found:
        table, family = tables.get(finding["subject"], ("", ""))
        about = contexts.get(finding["subject"], {})
        data.rows.append(_row({**finding, **about}, table, family, source, day))
    data.rows.sort(key=lambda r: (r["kind"], r["table"], r["subject"], r["finding_id"]))
    return data


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

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em} h2{margin-top:1.8em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6em 0;font-size:13px}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f4f6f7} td.n{text-align:right;font-variant-numeric:tabular-nums}
.tiles{display:flex;gap:1em;flex-wrap:wrap}
.tile{border:1px solid #ddd;border-radius:6px;padding:.6em 1em;min-width:9em}
.tile b{display:block;font-size:1.6em} .bad{color:#c0392b} .ok{color:#1e8449}
code{background:#f4f6f7;padding:0 3px;border-radius:3px;font-size:12px}
img{max-width:100%;border:1px solid #eee;margin:.5em 0} .muted{color:#777}
"""


def _e(value: Any) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return html.escape(terminal_safe(text if len(text) <= 160 else text[:157] + "..."))


def _text(value: Any) -> str:
    """Operator-supplied text in full, HTML-escaped, control characters made visible."""
    return html.escape(terminal_safe(value))


def _in_context(row: dict[str, Any]) -> dict[str, Any]:
    """The row with the context the wording needs; what the store did not add is
    derived from the report's own columns (subject kind from the family) or left out."""
    extra: dict[str, Any] = {}
    if not row.get("subject_kind") and row.get("family"):
        extra["subject_kind"] = row["family"]
    return {**row, **extra} if extra else row


def _tile(label: str, value: Any, bad: bool = False) -> str:
    cls = " class='bad'" if bad else ""
    return f"<div class='tile'><b{cls}>{_e(str(value))}</b>{_e(label)}</div>"


def _counts_table(title: str, groups: dict[str, Counter[str]], kinds: list[str]) -> str:
    if not groups:
        return ""
    ranked = sorted(groups.items(), key=lambda g: (-sum(g[1].values()), g[0]))[:MAX_GROUPS]
    head = "".join(f"<th>{_e(k)}</th>" for k in kinds)
    body = "".join(
        f"<tr><td>{_e(name)}</td><td class='n'>{sum(c.values())}</td>"
        + "".join(f"<td class='n'>{c.get(k, '') or ''}</td>" for k in kinds)
        + "</tr>"
        for name, c in ranked
    )
    more = len(groups) - len(ranked)
    note = f"<p class='muted'>{more} more in findings.csv</p>" if more > 0 else ""
    return f"<h3>{_e(title)}</h3><table><tr><th></th><th>all</th>{head}</tr>{body}</table>" + note


def _image(path: Path) -> str:
    encoded = base64.b64encode(path.read_bytes()).decode()
    return f"<img alt='{_e(path.stem)}' src='data:image/png;base64,{encoded}'>"


SHOWN_FAMILIES = frozenset({"poker", "banked", "slots", "tournament", "table"})
"""Families whose subjects ``casino-audit show`` explains (plus collusion pairs)."""


def _command(row: dict[str, Any], store: str) -> str:
    """The full, shell-quoted command an inspector runs to look the finding up."""
    prefix = f"casino-audit --store {shlex.quote(store)}"
    if row["family"] in SHOWN_FAMILIES or row["kind"] == "collusion_suspected":
        command = show_command(row["subject"]).replace("casino-audit", prefix, 1)
    else:
        command = f"{prefix} findings --kind {shlex.quote(str(row['kind']))}"
    return f"<code>{html.escape(terminal_safe(command))}</code>"


def render(data: DayData, paths: ReportPaths, docs: list[Path], store: str) -> str:
    """The report page (self-contained: plots embedded); ``store`` is the store's URL
    without its password, for the look-it-up commands."""
    kinds_count = agg.by_kind(data.rows)
    kinds = sorted(kinds_count)
    failed = [c for c in data.checks if not c["success"]]
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>casino-audit nightly {data.day}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Nightly reconciliation: {data.day}</h1>",
        "<p class='muted'>Every finding cites the rule it applies; replay one with the "
        "command beside it. Exports: <a href='findings.csv'>findings.csv</a>, "
        "<a href='findings.jsonl'>findings.jsonl</a>.</p>",
        "<div class='tiles'>",
        _tile("events checked", data.events),
        *(_tile(f"{family} subjects judged", n) for family, n in sorted(data.subjects.items())),
        _tile("findings", len(data.rows), bad=bool(data.rows)),
        _tile("failed data-quality checks", len(failed), bad=bool(failed)),
        "</div>",
        "<h2>Findings by kind</h2>",
    ]
    if kinds_count:
        parts.append("<table><tr><th>kind</th><th>findings</th><th>found by</th></tr>")
        for kind in kinds:
            sources = sorted({r["source"] for r in data.rows if r["kind"] == kind})
            parts.append(
                f"<tr><td>{_e(kind)}</td><td class='n'>{kinds_count[kind]}</td>"
                f"<td>{_e(', '.join(sources))}</td></tr>"
            )
        parts.append("</table>")
    else:
        parts.append("<p class='ok'>No findings.</p>")
    if paths.plots:
        parts.append("<h2>Plots</h2>")
        parts.extend(_image(p) for p in paths.plots)
    parts.append("<h2>Where</h2>")
    parts.append(_counts_table("By table", agg.by_table(data.rows), kinds))
    parts.append(_counts_table("By machine", agg.by_machine(data.rows), kinds))
    parts.append(_counts_table("By operator", agg.by_operator(data.rows), kinds))
    parts.append(_owed(owed_totals(_in_context(r) for r in data.rows)))
    parts.append(_quality(data, failed, docs, paths.html.parent))
    parts.append(_listing(data.rows, store))
    parts.append("</body></html>\n")
    return "\n".join(p for p in parts if p)


def _quality(data: DayData, failed: list[dict[str, Any]], docs: list[Path], base: Path) -> str:
    lines = ["<h2>Data quality (Great Expectations, before replay)</h2>"]
    lines.append(f"<p>{len(data.checks)} checks run, {len(failed)} failed.</p>")
    if failed:
        lines.append(
            "<table><tr><th>shard</th><th>check</th><th>expectation</th><th>rows</th></tr>"
        )
        lines.extend(
            f"<tr><td>{_e(c['shard'])}</td><td>{_e(c['name'])}</td>"
            f"<td>{_e(c['expectation'])}</td><td class='n'>{c['unexpected']}</td></tr>"
            for c in failed
        )
        lines.append("</table>")
    if docs:
        links = ", ".join(
            f"<a href='{html.escape(d.relative_to(base).as_posix())}'>{_e(d.parent.name)}</a>"
            for d in docs
        )
        lines.append(f"<p>Data Docs: {links}</p>")
    return "\n".join(lines)


def _listing(rows: list[dict[str, Any]], store: str) -> str:
    if not rows:
        return ""
    shown = rows[:MAX_LISTED]
    lines = [
        "<h2>Findings</h2>",
        f"<p class='muted'>{len(shown)} of {len(rows)} shown; all in the exports (with "
        "expected, recorded and difference in integer minor units).</p>",
        "<table><tr><th>kind</th><th>subject</th><th>table / machine</th><th>finding</th>"
        "<th>look it up</th></tr>",
    ]
    lines.extend(
        f"<tr><td>{_e(r['kind'])}</td><td>{_e(r['subject'])}</td><td>{_e(r['table'])}</td>"
        f"<td>{_text(sentence(_in_context(r)))}</td>"
        f"<td>{_command(r, store)}</td></tr>"
        for r in shown
    )
    lines.append("</table>")
    return "\n".join(lines)


def _currency_order(currency: str | None) -> tuple[bool, str]:
    return (currency is None, currency or "")


def _owed_table(title: str, groups: dict[str, dict[str | None, Sums]], whom: str) -> str:
    """One row per (name, currency), largest amounts first within each currency."""
    entries = [
        (currency, name, sums)
        for name, by_currency in groups.items()
        for currency, sums in by_currency.items()
    ]
    entries.sort(key=lambda e: (_currency_order(e[0]), -(e[2].to_player + e[2].to_house), e[1]))
    shown = entries[:MAX_GROUPS]
    body = "".join(
        f"<tr><td>{_text(name)}</td><td>{_text(currency or 'no currency')}</td>"
        f"<td class='n'>{_text(format_money(sums.to_player, currency))}</td>"
        f"<td class='n'>{_text(format_money(sums.to_house, currency))}</td></tr>"
        for currency, name, sums in shown
    )
    more = len(entries) - len(shown)
    note = f"<p class='muted'>{more} more not shown (largest first)</p>" if more > 0 else ""
    return (
        f"<h3>{_text(title)}</h3><table><tr><th></th><th>currency</th>"
        f"<th>owed to {_text(whom)}</th><th>owed back to the house</th></tr>{body}</table>" + note
    )


def _owed(totals: OwedTotals) -> str:
    """Who is owed what, per player, table and operator, by currency."""
    lines = ["<h2>Owed</h2>"]
    if not totals.counted:
        lines.append("<p class='ok'>No finding says money is owed.</p>")
        return "\n".join(lines)
    lines.append(
        "<p class='muted'>difference = recorded &minus; expected: less than the rules give "
        "is owed to the player, more is owed back to the house. Money two findings hold "
        "(rake already in a pot's payout, a commission in the bet's payout, a replay "
        "finding on a subject an incident investigation settles) is counted once"
        + (f" ({len(totals.not_counted)} finding(s) not added)" if totals.not_counted else "")
        + ". Currencies are never added together"
        + (
            "; amounts without a currency are minor units of subjects whose currency was "
            "not recorded with their verdict, and may mix currencies"
            if None in totals.currencies
            else ""
        )
        + ".</p>"
    )
    lines.append(
        "<table><tr><th>currency</th><th>owed to players</th><th>owed back to the house</th></tr>"
    )
    lines.extend(
        f"<tr><td>{_text(currency or 'no currency')}</td>"
        f"<td class='n'>{_text(format_money(sums.to_player, currency))}</td>"
        f"<td class='n'>{_text(format_money(sums.to_house, currency))}</td></tr>"
        for currency, sums in sorted(totals.currencies.items(), key=lambda c: _currency_order(c[0]))
    )
    lines.append("</table>")
    lines.append(_owed_table("By player", totals.players, "the player"))
    lines.append(_owed_table("By table", totals.tables, "players"))
    lines.append(_owed_table("By operator", totals.operators, "players"))
    return "\n".join(lines)
