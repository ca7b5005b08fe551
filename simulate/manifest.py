"""The ground truth of a synthetic day: ``manifest.json``.

It lists the tables (rulebook, stakes, declared rake terms), the input files written, every
planted fault (hand, fault kind, the finding kinds the replayer must raise for that hand,
and the detail of what was changed) and every colluding group (players, method). Written
with sorted keys and fixed separators, so the same seed gives byte-identical files.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pipelines.input_files import written_before_rename

MANIFEST_NAME = "manifest.json"
RENAMED_KEYS = {"shards": "input_files"}
"""A manifest written before issue #25 names its input files (top level and per table)
``shards``; ``DayManifest.read`` reads both shapes."""


@dataclass(frozen=True, slots=True)
class PlantedFault:
    """A deliberate departure from the rules in one hand."""

    kind: str
    """Fault kind: wrong_winner, wrong_side_pot, odd_chip_wrong_player, rake_over_cap,
    rake_out_of_band, void_not_refunded."""
    subject: str
    """The hand id."""
    findings: tuple[str, ...]
    """Finding kinds (``replayer.findings.FindingKind`` values) the replayer must raise."""
    detail: dict[str, Any]


@dataclass(frozen=True, slots=True)
class CollusionGroup:
    """Players who cooperate at the table (a pair, or a ring of three)."""

    group_id: str
    method: str
    """chip_dumping, soft_play or whipsaw (``strategy.METHODS``)."""
    players: tuple[str, ...]
    """For chip dumping the first player receives, the others dump."""
    intensity: float
    """Share of eligible hands in which the method is applied."""

    @property
    def subject(self) -> str:
        """``pair:a|b`` or ``ring:a|b|c`` (sorted ids), as collusion findings name it."""
        kind = "pair" if len(self.players) == 2 else "ring"
        return f"{kind}:{'|'.join(sorted(self.players))}"


@dataclass(slots=True)
class DayManifest:
    """What ``generate_day`` wrote and what it planted."""

    seed: int
    day: str
    hands: int
    tables: list[dict[str, Any]]
    input_files: list[str]
    """The day's input files of subjects (not the declarations ingested first)."""
    faults: list[PlantedFault]
    collusion: list[CollusionGroup]
    stats: dict[str, int] = field(default_factory=dict)

    def faults_by_hand(self) -> dict[str, PlantedFault]:
        return {fault.subject: fault for fault in self.faults}

    def to_json(self) -> str:
        data = asdict(self)
        data["collusion"] = [
            {**asdict(group), "subject": group.subject} for group in self.collusion
        ]
        return json.dumps(data, sort_keys=True, indent=1, separators=(",", ": ")) + "\n"

    def write(self, folder: Path) -> Path:
        path = folder / MANIFEST_NAME
        path.write_text(self.to_json())
        return path

    @classmethod
    def read(cls, folder: Path) -> DayManifest:
        data = written_before_rename(json.loads((folder / MANIFEST_NAME).read_text()), RENAMED_KEYS)
        return cls(
            seed=data["seed"],
            day=data["day"],
            hands=data["hands"],
            tables=[written_before_rename(t, RENAMED_KEYS) for t in data["tables"]],
            input_files=data["input_files"],
            faults=[
                PlantedFault(f["kind"], f["subject"], tuple(f["findings"]), f["detail"])
                for f in data["faults"]
            ],
            collusion=[
                CollusionGroup(g["group_id"], g["method"], tuple(g["players"]), g["intensity"])
                for g in data["collusion"]
            ],
            stats=data["stats"],
        )
