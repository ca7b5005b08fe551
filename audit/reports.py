"""Findings and verdicts for people and programs: table, JSON lines, CSV, step listings."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from typing import IO, Any

COLUMNS = (
    "finding_id",
    "kind",
    "subject",
    "citation",
    "reason",
    "expected",
    "recorded",
    "difference",
)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def write_findings(findings: Iterable[dict[str, Any]], fmt: str, out: IO[str]) -> int:
    """Write findings in ``fmt`` (table, jsonl, csv); return how many."""
    count = 0
    if fmt == "jsonl":
        for finding in findings:
            out.write(json.dumps(finding, sort_keys=True, separators=(",", ":")) + "\n")
            count += 1
        return count
    if fmt == "csv":
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for finding in findings:
            writer.writerow([_cell(finding.get(c)) for c in COLUMNS])
            count += 1
        return count
    for finding in findings:
        out.write(
            f"{finding['kind']:<24} {finding['subject']:<24} {finding['citation']:<26} "
            f"{finding['reason']}\n"
        )
        count += 1
    return count


def render_verdict(kind: str, verdict: Any) -> list[str]:
    """Step-by-step lines of one verdict, findings under the step that raised them."""
    if kind == "poker":
        from replayer.poker.verdict import render_steps

        lines = render_steps(verdict)
    else:
        lines = [f"round {verdict.round_id} under {verdict.rulebook_id or 'no rulebook'}"]
        for step in verdict.steps:
            state = " ".join(f"{k}={_cell(v)}" for k, v in step.state.items())
            lines.append(f"#{step.sequence:<3} {step.event.get('type', ''):<16} {state}")
            lines.extend(f"     ! {f.kind}: {f.reason} [{f.citation}]" for f in step.findings)
    lines.append(f"{len(verdict.findings)} finding(s)")
    lines.extend(f"  {f.kind} [{f.citation}]: {f.reason}" for f in verdict.findings)
    return lines
