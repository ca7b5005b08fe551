"""The investigation as a report: text an investigator can hand on, JSON and CSV.

Text: the incident (window, scope, amendments), every subject in flight with its state
at the failure, required against recorded per player, the findings with their
citations, and totals owed per currency; every amount in money
(``audit.notation.money.format_money``: ``MOP 18,665.00``, never ``1866500``). JSON: everything,
sorted keys, byte-stable. CSV: one row per player and subject (required, recorded, owed
to the player, the rule, and the finding id when they differ), amounts in integer minor
units with the currency column.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import IO, Any

from audit.incidents.compare import SubjectResult
from audit.incidents.investigation import Investigation
from audit.notation.money import format_money
from audit.wording import kind_label, sentence

CSV_COLUMNS = (
    "incident_id",
    "family",
    "subject",
    "currency",
    "status",
    "player_id",
    "required",
    "recorded",
    "owed_to_player",
    "citation",
    "finding_id",
)


def _incident(investigation: Investigation) -> dict[str, Any]:
    incident = investigation.incident
    return {
        "incident_id": incident.incident_id,
        "kind": incident.kind,
        "window_start": incident.window_start.isoformat(),
        "window_end": incident.window_end.isoformat(),
        "tables": list(incident.tables),
        "tournaments": list(incident.tournaments),
        "machines": list(incident.machines),
        "games": list(incident.games),
        "description": incident.description,
        "reported_by": incident.reported_by,
        "amendments": list(incident.amendments),
    }


def _subject(result: SubjectResult) -> dict[str, Any]:
    return {
        "family": result.family,
        "subject": result.subject,
        "currency": result.currency,
        "status": result.status,
        "citation": result.citation,
        "state": result.state,
        "required": [
            {
                "player_id": r.player_id,
                "amount": r.amount,
                "component": r.component,
                "citation": r.citation,
                "basis": r.basis,
            }
            for r in result.required
        ],
        "lines": [
            {
                "player_id": line.player_id,
                "required": line.required,
                "recorded": line.recorded,
                "owed_to_player": line.owed,
            }
            for line in result.lines
        ],
        "findings": [f.to_record() for f in result.findings],
    }


def as_dict(investigation: Investigation) -> dict[str, Any]:
    return {
        "incident": _incident(investigation),
        "as_of": investigation.as_of.isoformat(),
        "input_digest": investigation.input_digest,
        "subjects": [_subject(s) for s in investigation.subjects],
        "findings": [f.to_record() for f in investigation.findings],
        "owed_to_players": owed_by_currency(investigation),
    }


def to_json(investigation: Investigation) -> str:
    return json.dumps(as_dict(investigation), sort_keys=True, indent=1) + "\n"


def owed_by_currency(investigation: Investigation) -> dict[str, dict[str, int]]:
    """Currency -> {"owed": still owed to players, "excess": given back in excess}."""
    out: dict[str, dict[str, int]] = {}
    for subject in investigation.subjects:
        sums = out.setdefault(subject.currency, {"owed": 0, "excess": 0})
        for line in subject.lines:
            sums["owed" if line.owed > 0 else "excess"] += abs(line.owed)
    return out


def write_csv(investigation: Investigation, out: IO[str]) -> int:
    """One row per player line; returns the number of rows."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    rows = 0
    for subject in investigation.subjects:
        finding_of = {f.detail.get("player_id"): f.finding_id for f in subject.findings}
        for line in subject.lines:
            writer.writerow(
                [
                    investigation.incident.incident_id,
                    subject.family,
                    subject.subject,
                    subject.currency,
                    subject.status,
                    line.player_id,
                    line.required,
                    line.recorded,
                    line.owed,
                    subject.citation,
                    finding_of.get(line.player_id, "") if line.owed else "",
                ]
            )
            rows += 1
    return rows


_CAMEL = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b")


def plain(text: Any) -> str:
    """A record's code in words: ``RefundPaid`` -> ``refund paid``,
    ``started_not_in_the_money`` -> ``started not in the money``."""
    spaced = _CAMEL.sub(lambda m: re.sub(r"(?<!^)(?=[A-Z])", " ", m.group()).lower(), str(text))
    return spaced.replace("_", " ")


def _state_line(result: SubjectResult) -> str:
    state = result.state
    if result.family == "poker":
        step = state.get("step") or {}
        pot = step.get("pot")
        pot_text = format_money(pot, result.currency) if isinstance(pot, int) else "unknown"
        said = step.get("words") or step.get("text")
        return f"stopped at #{step.get('sequence')} {step.get('street')}: {said}; pot {pot_text}"
    if result.family in ("live", "rng"):
        due = f", due {state['due_at']}" if state.get("due_at") else ""
        game = plain(state["game"])
        return f"{game} at {state['table_id']}, last event: {plain(state['last_event'])}{due}"
    pool = state.get("prize_pool", state["collected"])
    return (
        f"{state['entries']} entries, {len(state['remaining'])} remaining, "
        f"pool {format_money(pool, result.currency)}"
    )


def _finding_sentence(result: SubjectResult, record: dict[str, Any]) -> str:
    """The finding in words and money, as every other report writes it."""
    return sentence({**record, "subject_kind": result.family, "currency": result.currency})


def render_text(investigation: Investigation) -> str:
    incident = investigation.incident
    scope = " | ".join(
        f"{name}: {', '.join(values) or '-'}"
        for name, values in (
            ("tables", incident.tables),
            ("games", incident.games),
            ("tournaments", incident.tournaments),
            ("machines", incident.machines),
        )
    )
    lines = [
        f"INCIDENT {incident.incident_id} ({incident.kind})",
        f"  window   {incident.window_start.isoformat()} .. {incident.window_end.isoformat()}",
        f"  scope    {scope}",
        f"  as of    {investigation.as_of.isoformat()}  (inputs {investigation.input_digest})",
    ]
    if incident.description or incident.reported_by:
        lines.append(f"  report   {incident.description} ({incident.reported_by or 'unknown'})")
    lines += [f"  amended  {reason}" for reason in incident.amendments]
    if incident.machines:
        lines.append("  machines are listed for the record: the sources set no refund rule")
    lines += ["", f"IN FLIGHT ({len(investigation.subjects)})"]
    for result in investigation.subjects:
        lines.append(
            f"  {result.family:<10} {result.subject:<32} {plain(result.status):<30} "
            f"{_state_line(result)}"
        )
    lines += ["", "REQUIRED vs RECORDED (owed = required - recorded; positive: owed to the player)"]
    for result in investigation.subjects:
        if not result.lines:
            continue
        lines.append(f"  {result.subject} [{result.currency}] {result.citation}")
        lines.append(f"    {'player':<20} {'required':>16} {'recorded':>16} {'owed':>16}")
        for line in result.lines:
            mark = "  !" if line.owed else ""
            money = [format_money(v, result.currency) for v in (line.required, line.recorded)]
            lines.append(
                f"    {line.player_id:<20} {money[0]:>16} {money[1]:>16} "
                f"{format_money(line.owed, result.currency):>16}{mark}"
            )
    lines += ["", f"FINDINGS ({len(investigation.findings)})"]
    for result in investigation.subjects:
        for finding in result.findings:
            lines.append(f"  {kind_label(finding.kind)}: {finding.subject} [{finding.citation}]")
            lines.append(f"    {_finding_sentence(result, finding.to_record())}")
    lines += ["", "OWED TO PLAYERS"]
    for currency, sums in sorted(owed_by_currency(investigation).items()):
        lines.append(
            f"  {currency}: {format_money(sums['owed'], currency)} still owed, "
            f"{format_money(sums['excess'], currency)} given back in excess"
        )
    return "\n".join(lines) + "\n"


def write_reports(investigation: Investigation, folder: Path) -> list[Path]:
    """``report.txt``, ``report.json`` and ``refunds.csv`` under ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    text, data, table = folder / "report.txt", folder / "report.json", folder / "refunds.csv"
    text.write_text(render_text(investigation))
    data.write_text(to_json(investigation))
    with table.open("w", newline="") as out:
        write_csv(investigation, out)
    return [text, data, table]
