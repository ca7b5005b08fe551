"""The small synthetic day the store-backed tests build on (the console's store, ``show``'s
store, the browser tests' served store): one writer, so the three stay one fixture
(issue 42 item 8). A day of ``hands`` poker hands of seed ``seed`` with faults at
``fault_rate``, and beside them ``rounds`` banked rounds, ``machines`` slot machines (60
games a day) and ``tournaments`` tournaments, their faults at the rates named here."""

from __future__ import annotations

from datetime import date
from pathlib import Path

ROUND_FAULTS, MACHINE_FAULTS, TOURNAMENT_FAULTS = 0.1, 0.5, 0.5
"""The fault rates of the day's banked rounds, slot machines and tournaments."""


def write_small_day(
    folder: Path,
    day: date,
    *,
    seed: int = 7,
    hands: int = 200,
    fault_rate: float = 0.05,
    rounds: int = 120,
    machines: int = 3,
    tournaments: int = 4,
    round_faults: float = ROUND_FAULTS,
    machine_faults: float = MACHINE_FAULTS,
) -> None:
    """Write the day's input files into ``folder`` (see the module docstring)."""
    from simulate.day import ExtraGenerator, generate_day
    from simulate.fleet import slot_fleet
    from simulate.floor import banked_rounds
    from simulate.tournaments import tournament_day

    extra: list[ExtraGenerator] = [
        banked_rounds(rounds, fault_rate=round_faults),
        slot_fleet(machines, fault_rate=machine_faults, games_per_day=60),
    ]
    if tournaments:
        extra.append(tournament_day(tournaments, fault_rate=TOURNAMENT_FAULTS))
    generate_day(seed, day, hands=hands, out=folder, fault_rate=fault_rate, extra=extra)
