"""The report's rake plot labels caps in money (``EUR 3.00``), never in minor units."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import matplotlib.axes
import pytest

from pipelines import report_plots
from pipelines.expectations.profile import RakeProfile

AT = datetime(2025, 3, 1, 12, tzinfo=UTC)


def _hand(hand_id: str, table: str, currency: str, rake: int) -> list[dict[str, Any]]:
    start = {
        "type": "HandStarted",
        "hand_id": hand_id,
        "table_id": table,
        "currency": currency,
        "occurred_at": AT,
        "variant": "NT",
        "big_blind": 100,
        "rulebook": None,
    }
    return [start, {"type": "RakeTaken", "hand_id": hand_id, "amount": rake}]


def test_the_rake_plot_writes_each_tables_cap_in_its_currency(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    caps = {
        "gg-nt-001": SimpleNamespace(cap=300, cap_big_blinds=None),
        "mo-po-002": SimpleNamespace(cap=1_000_000, cap_big_blinds=None),
    }
    part, other = RakeProfile(), RakeProfile()  # two parts of a night, merged
    part.add_hand(_hand("gg/1", "gg-nt-001", "EUR", 250), caps["gg-nt-001"])
    other.add_hand(_hand("gg/2", "gg-nt-001", "EUR", 320), caps["gg-nt-001"])
    other.add_hand(_hand("mo/1", "mo-po-002", "MOP", 1_000_000), caps["mo-po-002"])
    part.merge(other.to_json())
    tables = part.figures()
    assert {name: t["currency"] for name, t in tables.items()} == {
        "gg-nt-001": "EUR",
        "mo-po-002": "MOP",
    }
    labels: list[str] = []
    real = matplotlib.axes.Axes.set_yticks

    def capture(self: Any, ticks: Any, names: Any = None, **kwargs: Any) -> Any:
        labels.extend(names or [])
        return real(self, ticks, names, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "set_yticks", capture)
    assert report_plots.rake_vs_cap(tables, tmp_path / "rake.png") is not None
    assert sorted(labels) == ["gg-nt-001 (cap EUR 3.00; 1 over)", "mo-po-002 (cap MOP 10,000.00)"]
    assert not any("minor units" in label for label in labels)
