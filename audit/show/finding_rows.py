"""Findings and verdicts for people and programs: table, JSON lines, CSV, step listings.

A finding row is a stored finding record plus the context the store adds (``currency``,
``table``, ``players``, ``operator``, ...: ``audit.wording``); rows without the context
(older callers) still work, a missing key counting as None (``{}`` for ``players``).

* ``table``: per finding its kind, subject and sentence (``audit.wording.sentence``,
  money in words), made terminal-safe: names come from operators' data.
* ``jsonl``: the row as stored (integer minor units, never floats), its ``reason`` in
  words (money with its currency, players by name; the replayer's terse reason, in
  minor units, as ``replayer_reason``), with ``currency``, ``table``, ``players`` and
  ``owed`` (``[{party, amount, currency, direction}]``, what the finding alone says is
  owed; add them up with ``owed_totals``, which counts money held by two findings once)
  on every line.
* ``csv``: the columns of ``COLUMNS`` (amounts in minor units, ``reason`` in words as in
  ``jsonl``; dicts and lists as JSON text), every cell neutralised against spreadsheet
  formulas (``audit.wording.csv_safe``).

``write_owed_summary`` prints the owed totals per player, table and operator in money
words (``audit.wording.owed_totals``).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping
from typing import IO, Any

from audit.notation.money import format_money
from audit.wording import Sums, owed, owed_totals, sentence, terminal_safe
from audit.wording import csv_safe as _csv_safe

COLUMNS = (
    "finding_id",
    "kind",
    "subject",
    "citation",
    "reason",
    "expected",
    "recorded",
    "difference",
    "currency",
    "table",
    "players",
    "owed",
    "replayer_reason",
)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _players(row: Mapping[str, Any]) -> dict[str, Any]:
    players = row.get("players")
    return dict(players) if isinstance(players, Mapping) else {}


def exported(row: Mapping[str, Any]) -> dict[str, Any]:
    """The row with its context keys always present and what it says is owed; its
    ``reason`` in words (``audit.wording.sentence``: money with its currency, people by
    name), the replayer's own terse reason (minor units) kept as ``replayer_reason``."""
    return {
        **row,
        "reason": sentence(dict(row)),
        "replayer_reason": row.get("reason"),
        "currency": row.get("currency"),
        "table": row.get("table"),
        "players": _players(row),
        "owed": [item.as_dict() for item in owed(row)],
    }


def write_findings(findings: Iterable[dict[str, Any]], fmt: str, out: IO[str]) -> int:
    """Write findings in ``fmt`` (table, jsonl, csv); return how many."""
    count = 0
    if fmt == "jsonl":
        for finding in findings:
            line = json.dumps(exported(finding), sort_keys=True, separators=(",", ":"))
            out.write(line + "\n")
            count += 1
        return count
    if fmt == "csv":
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for finding in findings:
            row = exported(finding)
            writer.writerow([_csv_safe(_cell(row.get(c))) for c in COLUMNS])
            count += 1
        return count
    for finding in findings:
        kind = terminal_safe(finding.get("kind"))
        subject = terminal_safe(finding.get("subject"))
        out.write(f"{kind:<24} {subject:<24} {terminal_safe(sentence(finding))}\n")
        count += 1
    return count


def _sums_words(currency: str | None, sums: Sums, whom: str) -> str:
    parts = []
    if sums.to_player:
        parts.append(f"{format_money(sums.to_player, currency)} owed to {whom}")
    if sums.to_house:
        parts.append(f"{format_money(sums.to_house, currency)} owed back to the house")
    return "; ".join(parts) or "nothing owed"


def _currency_order(currency: str | None) -> tuple[bool, str]:
    return (currency is None, currency or "")


def write_owed_summary(rows: Iterable[Mapping[str, Any]], out: IO[str]) -> int:
    """Print who is owed what by ``rows`` (per player, table and operator, each by
    currency, money counted once: ``audit.wording.owed_totals``); return how many
    findings the totals count."""
    totals = owed_totals(rows)
    out.write(
        "OWED (difference = recorded - expected: less than the rules give is owed to the "
        "player, more is owed back to the house; money held by two findings counted once)\n"
    )
    if not totals.counted:
        out.write("  nothing owed\n")
        return 0
    sections = (
        ("by player", totals.players, "the player"),
        ("by table", totals.tables, "players"),
        ("by operator", totals.operators, "players"),
    )
    for title, groups, whom in sections:
        out.write(f"  {title}\n")
        width = min(40, max(len(terminal_safe(name)) for name in groups))
        for name in sorted(groups):
            by_currency = groups[name]
            words = "; ".join(
                _sums_words(c, by_currency[c], whom)
                for c in sorted(by_currency, key=_currency_order)
            )
            out.write(f"    {terminal_safe(name):<{width}}  {words}\n")
    out.write("  all\n")
    for currency in sorted(totals.currencies, key=_currency_order):
        sums = totals.currencies[currency]
        to_players = format_money(sums.to_player, currency)
        to_house = format_money(sums.to_house, currency)
        out.write(
            f"    {terminal_safe(currency or 'no currency')}: {to_players} owed to players, "
            f"{to_house} owed back to the house\n"
        )
    if None in totals.currencies:
        out.write(
            "  (amounts without a currency are minor units of subjects whose currency was not "
            "recorded with their verdict and may mix currencies: replay them to record it)\n"
        )
    if totals.not_counted:
        out.write(
            f"  ({len(totals.not_counted)} finding(s) not added: their money is in another "
            "finding of the same subject)\n"
        )
    return len(totals.counted)
