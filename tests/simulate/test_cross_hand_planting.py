"""Issue 38 items 2 and 4 planted in simulated days: every planted fault is found with
exactly the kinds it must raise, and the untouched subjects raise nothing.

Tournaments: ``simulate.cross_hand_faults`` (chips leaving between hands, a player counted
after his elimination, an entry once in the money), beside the other tournament faults.
The clock: ``simulate.late_actions`` (an action after GG-2022's time to act and time
bank), read back from the Avro file it wrote.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from audit.ingest.avro_files import read_events
from replayer.poker.replay import adjudicate_hand
from replayer.tournaments import adjudicate_tournament
from simulate.cross_hand_faults import CROSS_HAND_KINDS
from simulate.late_actions import TERMS_FILE, late_actions
from simulate.manifest import PlantedFault
from simulate.tournaments import _units

DAY = date(2025, 3, 1)
SCORED_APART = {"data_quality"}


def _tournament_kinds(unit: list[list[dict[str, Any]]]) -> dict[str, set[str]]:
    by_id = {str(events[0]["tournament_id"]): events for events in unit}
    kinds = {}
    for subject, events in by_id.items():
        target = by_id.get(str(events[0].get("satellite_for")))
        verdict = adjudicate_tournament(events, target_events=target)
        kinds[subject] = {str(f.kind) for f in verdict.findings} - SCORED_APART
    return kinds


@pytest.mark.parametrize("seed", range(6))
def test_tournament_faults_across_hands_are_found_and_nothing_else(seed: int) -> None:
    """MO-97/2010 art.4(2) (chips between hands), the eliminations against the counts,
    GG-2022 Política de torneios (no entry in the money): found / planted, no false alarm."""
    faults: list[PlantedFault] = []
    found: dict[str, set[str]] = {}
    for unit in _units(seed, DAY, 12, 0.2, faults, cross_hand_rate=1.0):
        found.update(_tournament_kinds(unit))
    planted = {fault.subject: set(fault.findings) for fault in faults}
    assert {f.kind for f in faults} & set(CROSS_HAND_KINDS)
    for subject, kinds in found.items():
        assert kinds == planted.get(subject, set()), subject


def test_every_cross_hand_kind_is_planted_over_a_few_days() -> None:
    kinds: set[str] = set()
    for seed in range(3):
        faults: list[PlantedFault] = []
        for _ in _units(seed, DAY, 12, 0.0, faults, cross_hand_rate=1.0):
            pass
        kinds |= {f.kind for f in faults}
    assert kinds == set(CROSS_HAND_KINDS)


def test_cross_hand_planting_changes_no_tournament_at_rate_zero() -> None:
    plain: list[PlantedFault] = []
    with_rate: list[PlantedFault] = []
    a = list(_units(4, DAY, 12, 0.3, plain))
    b = list(_units(4, DAY, 12, 0.3, with_rate, cross_hand_rate=0.0))
    assert a == b and plain == with_rate


@pytest.mark.parametrize("seed", [7, 11])
def test_late_actions_are_found_and_hands_in_time_are_clean(seed: int, tmp_path: Path) -> None:
    """GG-2022 Política de limite de tempo de jogo; Política de banco de horas."""
    files, faults = late_actions(60, fault_rate=0.2)(seed, DAY, tmp_path)
    [terms] = read_events(tmp_path / TERMS_FILE)
    hands: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for event in read_events(tmp_path / files[0]):
        hands[str(event["hand_id"])].append(event)
    planted = {fault.subject for fault in faults}
    assert len(hands) == 60 and planted
    for hand_id, events in hands.items():
        verdict = adjudicate_hand(events, table_terms=terms, with_steps=False)
        kinds = {str(f.kind) for f in verdict.findings}
        assert kinds == ({"acted_out_of_time"} if hand_id in planted else set()), hand_id
