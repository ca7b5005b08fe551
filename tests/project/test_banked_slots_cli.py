"""Issue #4 end to end: a folder of rounds and meter readings with planted errors yields
exactly the planted findings through ingest, replay and findings; a clean one none."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from audit.families import family_named
from audit.ingest.avro_files import write_events
from cli.main import main
from simulate.casino import FAULTS, SIMULATORS, plant
from simulate.slots import machine_month

START = datetime(2024, 5, 4, 18, 0, tzinfo=UTC)


def _renumber(events: list[dict]) -> list[dict]:
    return [
        {**e, "sequence": i, "event_id": f"{e['machine_id']}#{i}"} for i, e in enumerate(events)
    ]


def write_day(folder: Path, *, faults: bool) -> set[str]:
    """Avro files of rounds and machines; the subjects given a planted error."""
    folder.mkdir()
    rng = random.Random("cli-day")
    rounds, planted = [], set()
    for game in sorted(SIMULATORS):
        for index in range(12):
            events = SIMULATORS[game](rng, f"{game}-{index}", START)
            faulty = (
                plant(events, FAULTS[index % len(FAULTS)]) if faults and index % 3 == 0 else None
            )
            if faulty is not None:
                events = faulty[0]
                planted.add(f"{game}-{index}")
            rounds += events
    write_events(folder / "rounds.avro", family_named("banked"), rounds)
    machines = []
    for m in range(4):
        events = machine_month(
            rng, f"slot-{m}", START, days=3, games_per_day=150, ram_clear_day=1 if m == 3 else None
        )
        if faults and m == 1:  # a winning game lost from the event stream
            lost = next(
                i
                for i, e in enumerate(events)
                if e["type"] == "GamePlayed" and e["win"] and not e["handpaid"]
            )
            events = _renumber(events[:lost] + events[lost + 1 :])
            planted.add("slot-1")
        if faults and m == 3:  # a RAM clear nobody recorded
            events = _renumber([e for e in events if e["type"] != "MachineReset"])
            planted.add("slot-3")
        machines += events
    write_events(folder / "machines.avro", family_named("slots"), machines)
    return planted


@pytest.mark.parametrize("faults", [False, True])
def test_folder_of_rounds_and_meters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], faults: bool
) -> None:
    planted = write_day(tmp_path / "day", faults=faults)
    store = f"sqlite:///{tmp_path / 's.db'}"
    assert main(["--store", store, "ingest", str(tmp_path / "day")]) == 0
    assert main(["--store", store, "replay"]) == 0
    capsys.readouterr()
    assert main(["--store", store, "findings", "--format", "jsonl"]) == 0
    found = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {f["subject"] for f in found} == planted
    assert all(f["citation"] for f in found)
    if faults:
        assert main(["--store", store, "hand", sorted(planted)[0]]) == 0
        assert "finding(s)" in capsys.readouterr().out
