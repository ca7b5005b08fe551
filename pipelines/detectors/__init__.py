"""Detectors over a whole day, after replay: patterns no single hand or round shows.

``meters_detection(store, day)`` and ``collusion_detection(store, day)``, the installed
detectors, each look over the subjects the night's replay judged (the ledgers and
collusion states of ``pipelines.night_units``) and return a ``Detection``: its findings
(stored by ``pipelines.nightly.append_findings``) and the figures the report plots
(``pipelines.nightly.run_detectors`` runs both, meters first). ``meters`` is the fleet
view of slot machines; ``collusion`` scores pairs and rings of players over the hands
judged in its window (``WINDOW_DAYS`` nights ending on the day) and keeps the chip flows
around the suspects for the report's graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from audit.store import AuditStore
from pipelines.detectors.collusion import WINDOW_DAYS, CollusionDetector
from pipelines.night_units import (
    COLLUSION_STATE,
    LEDGER,
    UnitLookup,
    finding_of,
    iter_days_units,
)
from replayer.findings import Finding

MAX_FLOWS = 40


@dataclass
class Detection:
    """One detector's conclusions for a day."""

    name: str
    findings: list[Finding] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "findings": [f.to_record() for f in self.findings],
            "figures": self.figures,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Detection:
        return cls(data["name"], [finding_of(f) for f in data["findings"]], data["figures"])


def meters_detection(store: AuditStore, day: date, unit_ids: UnitLookup | None = None) -> Detection:
    """The slot fleet's figures for the day, machine by machine, as the night's ledgers
    note them from the machines' verdicts (``meters.fleet_noted``)."""
    machines: dict[str, Any] = {}
    for _, record in iter_days_units(store, [day], [LEDGER], unit_ids):
        if record["family"] == "slots":
            machines.update(record.get("fleet") or {})
    return Detection("meters", [], {"machines": dict(sorted(machines.items()))})


def collusion_window(
    store: AuditStore, day: date, unit_ids: UnitLookup | None = None
) -> CollusionDetector:
    """The collusion detector over the window ending on ``day``: the collusion states its
    nights stored (one per partition of its poker hands), merged in (day, partition)
    order."""
    window = [day - timedelta(days=n) for n in range(WINDOW_DAYS)]
    detector = CollusionDetector(as_of=day)
    for _, record in iter_days_units(store, window, [COLLUSION_STATE], unit_ids):
        detector.merge(record["state"])
    return detector


def collusion_detection(
    store: AuditStore, day: date, unit_ids: UnitLookup | None = None
) -> Detection:
    """Pairs and rings over the window ending on ``day``; the figures name the pairs left
    undecided (not enough shared hands to judge), at most ``MAX_FLOWS``."""
    from pipelines.detectors.collusion_findings import collusion_findings

    detector = collusion_window(store, day, unit_ids)
    report = detector.report()
    suspects = sorted({p for s in report.suspicions for p in s.players})
    return Detection(
        "collusion",
        collusion_findings(report),
        {
            "pairs_scored": report.pairs_scored,
            "min_hands": detector.min_hands,
            "suspects": suspects,
            "flows": chip_flows(detector, set(suspects), detector.min_hands),
            "undecided": [
                [*v.players, v.shared_hands, v.score] for v in report.undecided[:MAX_FLOWS]
            ],
        },
    )


def chip_flows(detector: Any, suspects: set[str], min_hands: int) -> list[list[Any]]:
    """[from, to, big blinds] between suspects and the players they shared most hands with.

    A pair's ``flow`` is what its first player lost to the second, net, in big blinds;
    the edge points the way the chips went. At most ``MAX_FLOWS`` edges, largest first.
    """
    edges = []
    for (a, b), pair in sorted(detector.pairs.items()):
        if pair.n >= min_hands and ({a, b} & suspects) and pair.flow:
            source, target = (a, b) if pair.flow > 0 else (b, a)
            edges.append([source, target, round(abs(pair.flow), 2)])
    edges.sort(key=lambda e: (-e[2], e[0], e[1]))
    return edges[:MAX_FLOWS]
