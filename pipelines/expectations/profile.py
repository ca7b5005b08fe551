"""Per-table figures of poker hands that the report plots: rake per hand against the cap.

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


def rulebook_cap(start: Mapping[str, Any], declared: Any = None) -> int | None:
    """The rake cap per hand for this HandStarted: the table's declared terms, else the
    rulebook's; None when neither sets one."""
    at = start.get("occurred_at")
    if not isinstance(at, datetime):
        return None
    book = choose_rulebook(
        start.get("rulebook"),
        str(start.get("variant")),
        at,
        tournament=start.get("tournament_id") is not None,
    )
    terms = declared or (None if isinstance(book, Finding) else getattr(book, "rake", None))
    if terms is None:
        return None
    big_blind = int(start.get("big_blind") or 0)
    caps = [terms.cap, None if terms.cap_big_blinds is None else terms.cap_big_blinds * big_blind]
    known = [c for c in caps if c is not None]
    return min(known) if known else None


def _quantile(counts: Sequence[tuple[int, int]], q: int) -> int:
    """The q-th percentile of amounts given as sorted (amount, hands) pairs: the amount
    of the hand at rank ``hands * q // 100`` (the largest for q = 100)."""
    total = sum(n for _, n in counts)
    rank = min(total - 1, total * q // 100)
    for amount, hands in counts:
        rank -= hands
        if rank < 0:
            return amount
    return 0


class RakeProfile:
    """Per table: how many hands took each rake amount, and the table's cap. Built a
    hand at a time and merged across parts of a night in any order (counts add), so the
    figures of a table do not depend on how its hands were split over files or
    partitions; ``figures`` gives what the report plots."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, Any]] = {}

    def add_hand(self, events: Sequence[Mapping[str, Any]], declared: Any = None) -> None:
        """One poker hand's stored events; ``declared``: its table's declared RakeTerms."""
        start = next((e for e in events if e.get("type") == "HandStarted"), None)
        if start is None:
            return
        rake = sum(int(e["amount"]) for e in events if e.get("type") == "RakeTaken")
        name = str(start.get("table_id", ""))
        table = self.tables.get(name)
        if table is None:  # the table's first hand gives its cap and currency
            table = self.tables[name] = {
                "cap": rulebook_cap(start, declared),
                "currency": start.get("currency"),
                "rake": {},
            }
        table["rake"][str(rake)] = table["rake"].get(str(rake), 0) + 1

    def to_json(self) -> dict[str, dict[str, Any]]:
        return {
            name: {
                "cap": t["cap"],
                "currency": t.get("currency"),
                "rake": dict(sorted(t["rake"].items(), key=_amount)),
            }
            for name, t in sorted(self.tables.items())
        }

    def merge(self, profile: Mapping[str, Mapping[str, Any]]) -> None:
        """Add another part's ``to_json``: counts add; a table keeps the first cap and
        currency known."""
        for name, other in profile.items():
            table = self.tables.setdefault(
                name, {"cap": other.get("cap"), "currency": other.get("currency"), "rake": {}}
            )
            for key in ("cap", "currency"):
                if table.get(key) is None:
                    table[key] = other.get(key)
            for amount, hands in other.get("rake", {}).items():
                table["rake"][amount] = table["rake"].get(amount, 0) + int(hands)

    def figures(self) -> dict[str, dict[str, Any]]:
        """table -> hands, rake median/p95/max per hand, hands over the cap, the cap
        (minor units) and the currency."""
        found: dict[str, dict[str, Any]] = {}
        for name, table in sorted(self.tables.items()):
            counts = sorted((int(a), n) for a, n in table["rake"].items())
            if not counts:
                continue
            cap = table["cap"]
            found[name] = {
                "cap": cap,
                "currency": table.get("currency"),
                "hands": sum(n for _, n in counts),
                "rake_median": _quantile(counts, 50),
                "rake_p95": _quantile(counts, 95),
                "rake_max": counts[-1][0],
                "over_cap": 0 if cap is None else sum(n for a, n in counts if a > cap),
            }
        return found


def _amount(item: tuple[str, int]) -> int:
    return int(item[0])
