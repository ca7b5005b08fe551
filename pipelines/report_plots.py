"""The report's plots (matplotlib, Agg backend, PNG files).

Each function draws one figure into ``path`` and returns it, or returns ``None`` when
there is nothing to draw (no poker tables, no collusion detector, no slot machines).
Amounts are drawn in major units (minor units / 100) for reading only; amounts written
in labels use ``audit.notation.money.format_money`` (a table's ``currency`` when its figures carry
one, else the amount in minor units).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from audit.notation.money import format_money

MAX_BARS = 40
FLAGGED = "#c0392b"
NORMAL = "#2e86c1"
MUTED = "#aab7b8"


def _save(figure: Any, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    figure.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(figure)
    return path


def rake_vs_cap(tables: Mapping[str, Mapping[str, Any]], path: Path) -> Path | None:
    """Per table with a cap: median, 95th percentile and largest rake per hand, as a
    share of the table's cap (tables differ in stakes and currency; 100% is the cap)."""
    capped = {n: t for n, t in tables.items() if t.get("cap")}
    if not capped:
        return None
    ranked = sorted(
        capped.items(),
        key=lambda item: (-item[1].get("over_cap", 0), -item[1]["rake_max"] / item[1]["cap"]),
    )[:MAX_BARS]
    ranked.reverse()
    share = {
        n: {k: 100 * t[k] / t["cap"] for k in ("rake_median", "rake_p95", "rake_max")}
        for n, t in ranked
    }
    figure, axes = plt.subplots(figsize=(9, max(3.0, 0.32 * len(ranked) + 1.5)))
    rows = range(len(ranked))
    colours = [FLAGGED if t.get("over_cap") else NORMAL for _, t in ranked]
    axes.barh(
        rows,
        [share[n]["rake_max"] for n, _ in ranked],
        color=colours,
        alpha=0.35,
        label="largest rake in a hand",
    )
    axes.barh(
        rows,
        [share[n]["rake_p95"] for n, _ in ranked],
        color=colours,
        alpha=0.75,
        label="95% of hands at most",
    )
    axes.scatter(
        [share[n]["rake_median"] for n, _ in ranked],
        rows,
        color="black",
        s=12,
        zorder=3,
        label="median hand",
    )
    axes.axvline(100, color=FLAGGED, lw=1.5, ls="--", label="cap per hand")
    axes.set_yticks(
        list(rows),
        [
            f"{n} (cap {format_money(t['cap'], t.get('currency'))}; {t['over_cap']} over)"
            if t.get("over_cap")
            else f"{n} (cap {format_money(t['cap'], t.get('currency'))})"
            for n, t in ranked
        ],
        fontsize=8,
    )
    axes.set_xlabel("rake per hand, % of the table's cap")
    axes.set_title("Rake against cap, per table (red: hands above the cap)")
    axes.legend(loc="lower right", fontsize=8)
    axes.grid(axis="x", alpha=0.3)
    return _save(figure, path)


def collusion_graph(
    flows: Sequence[Sequence[Any]], suspects: Sequence[str], path: Path
) -> Path | None:
    """Chip flows between players (``[from, to, amount]``); suspected players in red."""
    if not flows:
        return None
    players = sorted({str(f[0]) for f in flows} | {str(f[1]) for f in flows})
    angle = {p: 2 * math.pi * i / len(players) for i, p in enumerate(players)}
    where = {p: (math.cos(a), math.sin(a)) for p, a in angle.items()}
    largest = max(float(f[2]) for f in flows) or 1.0
    figure, axes = plt.subplots(figsize=(7, 7))
    suspected = set(suspects)
    for source, target, amount in flows:
        (x0, y0), (x1, y1) = where[str(source)], where[str(target)]
        both = str(source) in suspected and str(target) in suspected
        axes.annotate(
            "",
            xy=(x1, y1),
            xytext=(x0, y0),
            arrowprops={
                "arrowstyle": "-|>",
                "lw": 0.5 + 4.5 * float(amount) / largest,
                "color": FLAGGED if both else MUTED,
                "alpha": 0.8,
                "connectionstyle": "arc3,rad=0.12",
                "shrinkA": 9,
                "shrinkB": 9,
            },
        )
    for player, (x, y) in where.items():
        colour = FLAGGED if player in suspected else NORMAL
        axes.scatter([x], [y], s=160, color=colour, zorder=3)
        axes.text(x * 1.13, y * 1.13, player, ha="center", va="center", fontsize=8)
    axes.set_xlim(-1.4, 1.4)
    axes.set_ylim(-1.4, 1.4)
    axes.set_aspect("equal")
    axes.axis("off")
    axes.set_title("Chip flows between players (width: amount; red: suspected ring)")
    return _save(figure, path)


def meter_variance(machines: Mapping[str, Mapping[str, Any]], path: Path) -> Path | None:
    """Left: meter variance per machine (movement less events); right: return vs theory."""
    if not machines:
        return None
    bars = ((-0.2, "coin_in", FLAGGED), (0.2, "coin_out", NORMAL))

    def off(figures: Mapping[str, Any]) -> int:
        return sum(abs(figures.get("meter_variance", {}).get(meter, 0)) for _, meter, _ in bars)

    varied = sorted(
        ((m, f) for m, f in machines.items() if off(f)), key=lambda item: (-off(item[1]), item[0])
    )[:MAX_BARS]
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, max(3.5, 0.3 * len(varied) + 2)))
    if varied:
        rows = range(len(varied))
        for offset, meter, colour in bars:
            left.barh(
                [r + offset for r in rows],
                [f["meter_variance"].get(meter, 0) / 100 for _, f in varied],
                height=0.4,
                color=colour,
                label=meter,
            )
        left.set_yticks(list(rows), [m for m, _ in varied], fontsize=8)
        left.axvline(0, color="black", lw=0.8)
        left.legend(fontsize=8)
    else:
        left.text(
            0.5,
            0.5,
            "no variance between two readings of the day\n(a machine needs two readings)",
            ha="center",
            transform=left.transAxes,
        )
        left.set_yticks([])
    left.set_xlabel("meter movement less events (major units)")
    left.set_title("Meter variance per machine")
    played = [(m, f) for m, f in machines.items() if f.get("games")]
    right.scatter(
        [f["theoretical_return_bps"] / 100 for _, f in played],
        [f["actual_return_bps"] / 100 for _, f in played],
        c=[FLAGGED if abs(f["z"]) >= 3 else NORMAL for _, f in played],
        s=14,
    )
    if played:
        low = min(min(f["theoretical_return_bps"], f["actual_return_bps"]) for _, f in played)
        high = max(max(f["theoretical_return_bps"], f["actual_return_bps"]) for _, f in played)
        right.plot([low / 100, high / 100], [low / 100, high / 100], color=MUTED, lw=1)
    right.set_xlabel("theoretical return (%)")
    right.set_ylabel("actual return today (%)")
    right.set_title("Return per machine (red: 3 standard errors or more off)")
    return _save(figure, path)
