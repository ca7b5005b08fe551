"""Per-table figures of a poker shard that the report plots: rake per hand against the cap.

The cap is the table's declared one, else the rulebook's (``RakeTerms.cap`` or
``cap_big_blinds`` x big blind) for the table's first hand; ``None`` when neither sets one.
Figures are integers of minor units of the table's ``currency`` (its first hand's
``HandStarted.currency``), so the plot's labels read as money (``EUR 3.00``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from replayer.findings import Finding
from replayer.rulebooks.registry import choose_rulebook


def rulebook_cap(start: dict[str, Any], declared: Any = None) -> int | None:
    """The rake cap per hand for this HandStarted: the table's declared terms, else the
    rulebook's; None when neither sets one."""
    at = start.get("occurred_at")
    if not isinstance(at, datetime):
        return None
    book = choose_rulebook(start.get("rulebook"), str(start.get("variant")), at)
    terms = declared or (None if isinstance(book, Finding) else getattr(book, "rake", None))
    if terms is None:
        return None
    big_blind = int(start.get("big_blind") or 0)
    caps = [terms.cap, None if terms.cap_big_blinds is None else terms.cap_big_blinds * big_blind]
    known = [c for c in caps if c is not None]
    return min(known) if known else None


def _quantile(ordered: list[int], q: int) -> int:
    return ordered[min(len(ordered) - 1, len(ordered) * q // 100)] if ordered else 0


def rake_by_table(
    events: Sequence[dict[str, Any]], declared: Mapping[str, Any] | None = None
) -> dict[str, dict[str, Any]]:
    """table -> hands, rake median/p95/max per hand, hands over the cap, the cap and the
    currency (``declared``: table -> declared RakeTerms)."""
    starts: dict[str, dict[str, Any]] = {}
    rake: dict[str, int] = {}
    for event in events:
        if event.get("type") == "HandStarted":
            starts[event["hand_id"]] = event
            rake.setdefault(event["hand_id"], 0)
        elif event.get("type") == "RakeTaken":
            rake[event["hand_id"]] = rake.get(event["hand_id"], 0) + int(event["amount"])
    tables: dict[str, dict[str, Any]] = {}
    per_table: dict[str, list[int]] = {}
    for hand_id, start in starts.items():
        table = str(start.get("table_id", ""))
        per_table.setdefault(table, []).append(rake[hand_id])
        if table not in tables:
            tables[table] = {
                "cap": rulebook_cap(start, (declared or {}).get(table)),
                "currency": start.get("currency"),
            }
    for table, amounts in per_table.items():
        amounts.sort()
        cap = tables[table]["cap"]
        tables[table] |= {
            "hands": len(amounts),
            "rake_median": _quantile(amounts, 50),
            "rake_p95": _quantile(amounts, 95),
            "rake_max": amounts[-1],
            "over_cap": 0 if cap is None else sum(1 for a in amounts if a > cap),
        }
    return dict(sorted(tables.items()))
