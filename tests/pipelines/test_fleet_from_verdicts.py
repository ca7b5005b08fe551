"""The nightly's slot fleet figures (the report's meter-variance plot) are read from the
machines' verdicts, end to end: input files -> store -> nightly -> the ``meters``
detection's figures. A RAM clear recorded between two readings (MachineReset) restarts
every meter at zero in the replayer, so it shows no variance; a game the machine metered
but the events lack shows as exactly its wager on coin_in; hand pays are not coin out.
The oracles are the simulator's own events (counted here with plain sums), never the
code under test."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from audit.families import family_named
from audit.store import AuditStore
from pipelines.night_units import iter_days_units
from pipelines.nightly import run_nightly
from simulate.avro_out import write_input_file
from simulate.envelope import renumbered
from simulate.fleet import FLEET_OPERATOR, TERMS_FILE
from simulate.slots import CURRENCY, machine_month
from simulate.tables import operator_declarations

DAY = date(2025, 3, 1)
CLEARED, SHORT, PLAIN = "slot-clear", "slot-short", "slot-plain"


def machine(machine_id: str, *, ram_clear: bool) -> list[dict[str, Any]]:
    """A machine's day with hourly readings (a RAM clear in it when asked)."""
    return machine_month(
        random.Random(machine_id),
        machine_id,
        datetime(DAY.year, DAY.month, DAY.day, tzinfo=UTC),
        days=1,
        games_per_day=80,
        ram_clear_day=0 if ram_clear else None,
        readings_per_day=6,
    )


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("fleet")
    folder = root / "in" / DAY.isoformat()
    folder.mkdir(parents=True)
    streams = {CLEARED: machine(CLEARED, ram_clear=True), PLAIN: machine(PLAIN, ram_clear=False)}
    whole = machine(SHORT, ram_clear=False)
    games = [e for e in whole if e["type"] == "GamePlayed"]
    left_out = games[len(games) // 2]  # metered by the machine, missing from the events
    streams[SHORT] = renumbered("machine_id", [e for e in whole if e is not left_out])
    write_input_file(
        folder / TERMS_FILE,
        family_named("table"),
        operator_declarations([(m, "slots") for m in streams], FLEET_OPERATOR, CURRENCY),
        stream_id="fleet:machines",
    )
    events = [event for stream in streams.values() for event in stream]
    write_input_file(folder / "slots-001.avro", family_named("slots"), events, stream_id="fleet")
    url = f"sqlite:///{root / 'fleet.db'}"
    run_nightly(url, root / "in", DAY, root / "out")
    store = AuditStore(url)
    try:
        [(_, record)] = list(iter_days_units(store, [DAY], ["meters"]))
    finally:
        store.close()
    return {"streams": streams, "left_out": left_out, "machines": record["figures"]["machines"]}


def test_the_streams_are_what_the_test_needs(night: dict[str, Any]) -> None:
    cleared = night["streams"][CLEARED]
    resets = [e for e in cleared if e["type"] == "MachineReset" and e["kind"] == "ram_clear"]
    reads = [e["sequence"] for e in cleared if e["type"] == "MeterRead"]
    assert resets and reads[0] < resets[0]["sequence"] < reads[-1]  # between two readings


def test_a_recorded_ram_clear_between_readings_is_no_variance(night: dict[str, Any]) -> None:
    assert night["machines"][CLEARED]["meter_variance"] == {}
    assert night["machines"][PLAIN]["meter_variance"] == {}


def test_a_game_missing_from_the_events_is_its_wager_on_coin_in(night: dict[str, Any]) -> None:
    variance = night["machines"][SHORT]["meter_variance"]
    left_out = night["left_out"]
    assert variance["coin_in"] == left_out["wager"]
    assert variance["games_played"] == 1


@pytest.mark.parametrize("machine_id", [CLEARED, SHORT, PLAIN])
def test_the_days_play_is_the_events(night: dict[str, Any], machine_id: str) -> None:
    games = [e for e in night["streams"][machine_id] if e["type"] == "GamePlayed"]
    figures = night["machines"][machine_id]
    assert figures["games"] == len(games)
    assert figures["coin_in"] == sum(e["wager"] for e in games)
    credited = sum(e["win"] for e in games if not e.get("handpaid"))
    assert figures["coin_out"] == credited
    assert figures["actual_return_bps"] == credited * 10_000 // figures["coin_in"]
    first = night["streams"][machine_id][0]
    assert figures["theoretical_return_bps"] == first["theoretical_return_bps"]


def test_every_machine_judged_is_in_the_plot_data(night: dict[str, Any], tmp_path: Path) -> None:
    from pipelines.report_plots import meter_variance

    assert sorted(night["machines"]) == sorted(night["streams"])
    assert meter_variance(night["machines"], tmp_path / "plot.png") is not None
