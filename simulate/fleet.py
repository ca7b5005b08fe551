"""``slot_fleet``: a day of slot machines for ``generate_day(extra=...)``.

Each machine plays one day (``slots.machine_month(days=1, readings_per_day=24)``: its
meters read every hour) from its own named streams ``"<seed>:<day>:<machine>"`` (play)
and ``"...:faults"`` (faults); no global random state, no clock; the same seed and day
give byte-identical input files. Machine ids are the same every day and each day's stream
opens with its MachineConfigured. Without ``first_day`` one store holds one generated day
of a fleet; with it, each later day continues every machine's stream where the day before
ended (``Opening``: its next sequence, the meters of its last reading, its jackpots' last
read levels), so the days of one store are one stream per machine, without gaps or
conflicts (a schema's sequences run 0, 1, 2, ... per subject).

Clean edge cases, which must reconcile without a finding: about one machine in eight has
its money meters start less than a day's coin in below 10^width, so they roll over
during the day (the wrapped delta reconciles, SAS practice); one in twenty has a recorded
RAM clear (MachineReset between the readings before and after it).

Faults (``METER_FAULTS``), each a ``meter_discrepancy`` on the machine (PT-217/2007 III.9:
between two readings each meter must advance by what the events in between add):

* ``missing_game``: a GamePlayed left out of the stream: its wager, game and win are on
  the meters but in no event;
* ``missing_bill``: a BillInserted left out: bills_in and drop advance without it;
* ``skimmed_drop``: from one hourly reading on, the drop meter reads a bill less than the
  bills and tickets inserted;
* ``misread_meter``: one hourly reading misreads one meter: the windows on both sides
  of it disagree with the events;
* ``unrecorded_ram_clear``: a RAM clear without its MachineReset: the meters fall to zero
  unexplained (III.9; the span cannot be reconciled).

The machines' jackpots (``simulate.jackpots``: superjackpots of linked machines and
machines' own jackpots, one moved whole to a like machine in each group of own jackpots)
reconcile clean too; ``JACKPOT_FAULTS`` plants their faults (PT-217/2007 III.3-6, III.8),
and a missing game is also missing from its jackpot deduction.

``fault_rate`` is the share of machines that get a meter fault, and of the others that
get a jackpot fault.

Who runs the machines is declared as a floor system records it: a ``TableTermsDeclared``
under each machine id (``slots-machines.avro``: the machine is its own table,
``SubjectKind.own_table`` in ``audit.judging.kinds``) naming the operator, Casino Estoril,
and the currency; the rulebook stays each configuration's (``MachineConfigured.rulebook``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from audit.families import family_named
from simulate.avro_out import write_input_file
from simulate.day import ExtraGenerator
from simulate.envelope import event_id, renumbered
from simulate.jackpots import (
    EXCESSIVE_RATE_BPS,
    GROUP,
    JACKPOT_FAULTS,
    MACHINE_PLANTERS,
    SHARE_BELOW_RETURN,
    JackpotPlan,
    can_carry,
    close_pools,
    plans_for_group,
)
from simulate.manifest import PlantedFault
from simulate.slots import CURRENCY, WAGERS, FlatEvent, machine_month
from simulate.tables import OPERATORS, operator_declarations

MISSING_GAME = "missing_game"
MISSING_BILL = "missing_bill"
SKIMMED_DROP = "skimmed_drop"
MISREAD_METER = "misread_meter"
UNRECORDED_RAM_CLEAR = "unrecorded_ram_clear"
#: Fault kind -> the finding kinds the replayer raises for it.
METER_FAULTS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        (MISSING_BILL, SKIMMED_DROP, MISREAD_METER, UNRECORDED_RAM_CLEAR), ("meter_discrepancy",)
    ),
    # the missing game's wager is in the jackpot's deduction too (PT-217/2007 III.3)
    MISSING_GAME: ("meter_discrepancy", "jackpot_contribution"),
}
GAMES_PER_DAY = 400
FLEET_OPERATOR = OPERATORS["pt"]
"""Who runs the slot floor (each machine's declared operator)."""
TERMS_FILE = "slots-machines.avro"
"""The machines' declarations (not listed among the input files of subjects)."""

Planted = tuple[list[FlatEvent], dict[str, Any]]
#: Planted faults' detail fields that name a sequence of the machine's stream.
SEQUENCE_DETAILS = ("sequence", "from_sequence")


@dataclass(frozen=True)
class Opening:
    """Where a group's streams stand when a day continues them: each machine's next
    sequence and the meters of its last reading, each jackpot pool's last read level."""

    sequences: Mapping[str, int]
    meters: Mapping[str, Mapping[str, int]]
    levels: Mapping[str, int]


def slot_fleet(
    machines: int,
    *,
    fault_rate: float = 0.0,
    per_file: int = 100,
    games_per_day: int = GAMES_PER_DAY,
    first_day: date | None = None,
) -> ExtraGenerator:
    """An ``extra`` generator: ``machines`` slot machines in ``slots-<k>.avro`` input files of
    at most ``per_file`` machines, a meter fault in about ``fault_rate`` of them. With
    ``first_day`` a later day continues each machine's stream from the day before
    (``opening``); without, each day's streams start afresh (one day to a store)."""

    def extra(seed: int, day: date, out: Path) -> tuple[list[str], list[PlantedFault]]:
        faults: list[PlantedFault] = []
        files: list[str] = []
        buffer: list[FlatEvent] = []
        family = family_named("slots")
        out.mkdir(parents=True, exist_ok=True)
        ids = [f"slot-{number + 1:04d}" for number in range(machines)]
        write_input_file(
            out / TERMS_FILE,
            family_named("table"),
            operator_declarations([(m, "slots") for m in ids], FLEET_OPERATOR, CURRENCY),
            stream_id=f"{seed}:slot-machines",
        )
        for group, start in enumerate(range(0, machines, GROUP)):
            members = ids[start : start + GROUP]
            streams, planted = group_day(
                seed,
                day,
                group,
                members,
                fault_rate,
                games_per_day,
                opening=opening(
                    seed, day, first_day, group, tuple(members), fault_rate, games_per_day
                ),
            )
            for number, machine_id in enumerate(members, start):
                buffer += streams[machine_id]
                faults += [planted[machine_id]] if machine_id in planted else []
                if (number + 1) % per_file == 0 or number + 1 == machines:
                    files.append(f"slots-{len(files) + 1:03d}.avro")
                    write_input_file(
                        out / files[-1],
                        family,
                        buffer,
                        stream_id=f"{seed}:{day.isoformat()}:slots",
                    )
                    buffer = []
        return files, faults

    return extra


def group_day(
    seed: int,
    day: date,
    group: int,
    members: list[str],
    fault_rate: float = 0.0,
    games: int = GAMES_PER_DAY,
    faults: Mapping[str, str] | None = None,
    opening: Opening | None = None,
) -> tuple[dict[str, list[FlatEvent]], dict[str, PlantedFault]]:
    """One day of a group of machines sharing jackpots (``jackpots.plans_for_group``):
    each machine's stream, and the faults planted (``faults`` names a machine's fault
    instead of drawing it at ``fault_rate``); ``opening`` continues the streams of the day
    before (the jackpots open at their last read levels, the meters at their last reading,
    the sequences after the last event)."""
    plans = plans_for_group(seed, day, group, members)
    if opening is not None:
        plans = {
            m: replace(p, opening_level=opening.levels[p.pool]) if p.reads_level else p
            for m, p in plans.items()
        }
    streams: dict[str, list[FlatEvent]] = {}
    planted: dict[str, PlantedFault] = {}
    for machine_id in members:
        forced = (faults or {}).get(machine_id)
        events, fault = machine_day(
            seed,
            day,
            machine_id,
            plans[machine_id],
            fault_rate,
            games,
            fault=forced,
            opening_meters=None if opening is None else opening.meters[machine_id],
        )
        streams[machine_id] = events
        planted |= {machine_id: fault} if fault is not None else {}
    end = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)
    closing = {m: f.kind for m, f in planted.items()}
    for machine_id, detail in close_pools(streams, plans, closing, end).items():
        planted[machine_id].detail.update(detail)
    if opening is not None:
        for machine_id, first in opening.sequences.items():
            streams[machine_id] = _continued(streams[machine_id], first)
            detail = planted[machine_id].detail if machine_id in planted else {}
            detail |= {k: detail[k] + first for k in SEQUENCE_DETAILS if k in detail}
    return streams, planted


@lru_cache(maxsize=64)
def opening(
    seed: int,
    day: date,
    first_day: date | None,
    group: int,
    members: tuple[str, ...],
    fault_rate: float,
    games: int,
) -> Opening | None:
    """Where the group's streams stand at the start of ``day``: None on ``first_day`` (or
    without one: each day a stream of its own), else at the end of the day before, as
    ``group_day`` made it (cached: a run of days computes each day's end once)."""
    if first_day is None or day <= first_day:
        return None
    before = day - timedelta(days=1)
    streams, _ = group_day(
        seed,
        before,
        group,
        list(members),
        fault_rate,
        games,
        opening=opening(seed, before, first_day, group, members, fault_rate, games),
    )
    reads = {m: [e for e in events if e["type"] == "MeterRead"] for m, events in streams.items()}
    levels = {
        e["pool"]: e["amount"]
        for events in streams.values()
        for e in sorted(events, key=lambda e: e["occurred_at"])
        if e["type"] == "JackpotLevelRead"
    }
    return Opening(
        sequences={m: events[-1]["sequence"] + 1 for m, events in streams.items()},
        meters={m: dict(reads[m][-1]["meters"]) for m in streams},
        levels=levels,
    )


def _continued(events: list[FlatEvent], first: int) -> list[FlatEvent]:
    """``events`` numbered on from ``first`` (the day before's stream ended at ``first - 1``)."""
    return [
        {
            **e,
            "sequence": e["sequence"] + first,
            "event_id": event_id(e["machine_id"], e["sequence"] + first),
        }
        for e in events
    ]


def machine_day(
    seed: int,
    day: date,
    machine_id: str,
    plan: JackpotPlan | None = None,
    fault_rate: float = 0.0,
    games: int = GAMES_PER_DAY,
    *,
    fault: str | None = None,
    opening_meters: Mapping[str, int] | None = None,
) -> tuple[list[FlatEvent], PlantedFault | None]:
    """One machine's day with hourly readings and its jackpot ``plan`` (None: none), and the fault
    planted in it (if any; a fault of its jackpot's level or transfer is planted when its
    group's day closes, ``jackpots.close_pools``); ``fault`` plants that fault;
    ``opening_meters`` continue the day before's last reading."""
    stream_id = f"{seed}:{day.isoformat()}:{machine_id}"
    rng, fault_rng = random.Random(stream_id), random.Random(f"{stream_id}:faults")
    near_rollover, ram_clear = rng.random() < 1 / 8, rng.random() < 1 / 20
    kind = fault_rng.choice(sorted(METER_FAULTS)) if fault_rng.random() < fault_rate else None
    if kind is None and plan is not None:  # its own stream: the meter faults stay as they were
        jackpot_rng = random.Random(f"{stream_id}:jackpot-faults")
        carried = sorted(k for k in JACKPOT_FAULTS if can_carry(k, plan))
        kind = jackpot_rng.choice(carried) if jackpot_rng.random() < fault_rate else None
    kind = fault or kind
    if kind == SHARE_BELOW_RETURN and plan is not None:
        plan = replace(plan, rate_bps=EXCESSIVE_RATE_BPS)
    events = machine_month(
        rng,
        machine_id,
        datetime(day.year, day.month, day.day, tzinfo=UTC),
        days=1,
        games_per_day=games,
        near_rollover=near_rollover,
        ram_clear_day=0 if ram_clear or kind == UNRECORDED_RAM_CLEAR else None,
        readings_per_day=24,
        rollover_margin=min(WAGERS) * games,  # below the day's coin in: it rolls over
        jackpot=plan,
        opening_meters=opening_meters,
    )
    if kind is None:
        return events, None
    if kind in METER_FAULTS:
        events, detail = PLANTERS[kind](events, fault_rng)
        return events, PlantedFault(kind, machine_id, _meter_findings(kind, plan), detail)
    planter = MACHINE_PLANTERS.get(kind)
    detail = planter(events, fault_rng) if planter is not None else {}
    return events, PlantedFault(kind, machine_id, JACKPOT_FAULTS[kind][0], detail)


def _meter_findings(kind: str, plan: JackpotPlan | None) -> tuple[str, ...]:
    """What a meter fault raises: a missing game on a machine without a jackpot misses
    from no deduction."""
    found = METER_FAULTS[kind]
    return found if plan is not None else tuple(f for f in found if f != "jackpot_contribution")


def _leave_out(body_type: str) -> Callable[[list[FlatEvent], random.Random], Planted]:
    def planter(events: list[FlatEvent], rng: random.Random) -> Planted:
        gone = rng.choice([e for e in events if e["type"] == body_type])
        detail = {"left_out": body_type, "sequence": gone["sequence"]}
        return renumbered("machine_id", [e for e in events if e is not gone]), detail

    return planter


def _reads(events: list[FlatEvent]) -> list[int]:
    return [i for i, e in enumerate(events) if e["type"] == "MeterRead"]


def _skim(events: list[FlatEvent], rng: random.Random) -> Planted:
    """A bill's worth off the drop meter from the first reading after that bill on (until
    a RAM clear zeroes the meters), so that reading's window is short by exactly it."""
    bill = rng.choice([e for e in events if e["type"] == "BillInserted"])
    modulus = 10 ** events[0]["meter_width_digits"]
    events = list(events)
    first = next(i for i in _reads(events) if i > bill["sequence"])
    for index in range(first, len(events)):
        if events[index]["type"] == "MachineReset":
            break
        if events[index]["type"] == "MeterRead":
            meters = {**events[index]["meters"]}
            meters["drop"] = (meters["drop"] - bill["amount"]) % modulus
            events[index] = {**events[index], "meters": meters}
    return events, {"meter": "drop", "short": bill["amount"], "from_sequence": first}


def _misread(events: list[FlatEvent], rng: random.Random) -> Planted:
    """One hourly reading (not the day's last) reads one meter high, by no more than the
    meter advances over the next hour, so neither window seems to run backwards (which
    would read as a rollover)."""
    modulus = 10 ** events[0]["meter_width_digits"]
    reads = _reads(events)
    candidates = [
        (index, meter, (events[after]["meters"][meter] - events[index]["meters"][meter]) % modulus)
        for index, after in pairwise(reads)
        if events[index]["reason"] == "scheduled"
        for meter in ("coin_in", "coin_out", "drop", "games_played", "bills_in")
    ]
    index, meter, advance = rng.choice([c for c in candidates if c[2] > 0])
    misread = rng.randint(1, advance)
    meters = {**events[index]["meters"]}
    meters[meter] = (meters[meter] + misread) % modulus
    events = list(events)
    events[index] = {**events[index], "meters": meters}
    return events, {"meter": meter, "misread_by": misread, "sequence": index}


def _hide_ram_clear(events: list[FlatEvent], rng: random.Random) -> Planted:
    reset = next(e for e in events if e["type"] == "MachineReset")
    kept = [e for e in events if e is not reset]
    return renumbered("machine_id", kept), {"sequence": reset["sequence"]}


#: Fault kind -> planter(events, rng) -> (faulty events, detail).
PLANTERS: dict[str, Callable[[list[FlatEvent], random.Random], Planted]] = {
    MISSING_GAME: _leave_out("GamePlayed"),
    MISSING_BILL: _leave_out("BillInserted"),
    SKIMMED_DROP: _skim,
    MISREAD_METER: _misread,
    UNRECORDED_RAM_CLEAR: _hide_ram_clear,
}
