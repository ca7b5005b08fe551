"""Synthetic banked floors and slot fleets (``simulate.floor``, ``fleet``): seeded
and byte-identical, every planted fault found with exactly its kinds, nothing else found;
and the scorer's arithmetic (``simulate.score``)."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from pathlib import Path

import fastavro
import pytest

from audit.families import family_named
from audit.ingest.avro_files import read_events
from replayer.casino import adjudicate_round
from replayer.casino.garage import check_banker_runs
from replayer.casino.shoes import check_shoe
from replayer.slots import reconcile_machine
from replayer.slots.jackpot import jackpot_records, related_machines
from simulate import DayManifest, PlantedFault, generate_day
from simulate.casino import BANKED_FAULTS
from simulate.fleet import METER_FAULTS, slot_fleet
from simulate.floor import GAMES, banked_rounds, patrons
from simulate.jackpots import JACKPOT_FAULTS
from simulate.score import score
from simulate.shoes import CHEMIN_FAULTS, SHOE_FAULTS
from simulate.slots import machine_month
from tests.determinism import assert_same_seed_same_bytes

DAY = date(2025, 3, 1)
Day = tuple[Path, list[str], list[PlantedFault]]


def generate(out: Path, seed: int = 12) -> tuple[list[str], list[PlantedFault]]:
    """Seed 12: every fault kind, lawful garages, a clean recorded RAM clear."""
    banked, banked_faults = banked_rounds(1_000, fault_rate=0.1, per_file=400)(seed, DAY, out)
    slots, slot_faults = slot_fleet(30, fault_rate=0.4, per_file=10)(seed, DAY, out)
    return banked + slots, banked_faults + slot_faults


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Day:
    out = tmp_path_factory.mktemp("floor")
    return out, *generate(out)


def subjects(folder: Path, files: list[str], key: str) -> dict[str, list[dict]]:
    events: dict[str, list[dict]] = defaultdict(list)
    for name in files:
        for event in read_events(folder / name):
            if key in event:
                events[event[key]].append(event)
    return events


def found_kinds(findings: list) -> dict[str, set[str]]:
    kinds: dict[str, set[str]] = defaultdict(set)
    for finding in findings:
        kinds[finding.subject].add(str(finding.kind))
    return kinds


def planted_kinds(faults: list[PlantedFault]) -> dict[str, set[str]]:
    return {fault.subject: set(fault.findings) for fault in faults}


def test_same_seed_gives_byte_identical_input_files(day: Day, tmp_path: Path) -> None:
    folder, files, faults = day
    assert_same_seed_same_bytes(generate, folder, files, faults, tmp_path, seed=13)


def test_input_file_headers_spell_the_schema_as_its_file(day: Day) -> None:
    # fastavro's parsed schema orders field properties by hash seed; the file's order does not.
    folder, files, _ = day
    for name in (files[0], files[-1]):
        with (folder / name).open("rb") as stream:
            header = json.loads(fastavro.reader(stream).metadata["avro.schema"])
        family = family_named("slots" if name.startswith("slots") else "banked")
        assert header == family.raw_schema
        assert list(header) == list(family.raw_schema)


def test_every_banked_fault_is_found_with_exactly_its_kinds(day: Day) -> None:
    folder, files, faults = day
    rounds = subjects(folder, [f for f in files if f.startswith("banked")], "round_id")
    assert len(rounds) == 1_000
    assert {events[0]["game"] for events in rounds.values()} == set(GAMES)
    assert len({events[0]["table_id"] for events in rounds.values()}) >= 8
    findings = [f for events in rounds.values() for f in adjudicate_round(events).findings]
    chemmy: dict[str, list[list[dict]]] = defaultdict(list)
    for events in rounds.values():
        if events[0]["game"] == "chemin_de_fer":
            chemmy[events[0]["table_id"]].append(events)
    for table in chemmy.values():  # the garage, judged across each table's coups
        findings += check_banker_runs(table).findings
    shoes: dict[tuple[str, str], list[list[dict]]] = defaultdict(list)
    for events in rounds.values():
        if events[0].get("shoe_id"):
            shoes[events[0]["table_id"], events[0]["shoe_id"]].append(events)
    for dealt in shoes.values():  # each shoe judged whole
        findings += check_shoe(dealt).findings
    banked = [f for f in faults if f.subject in rounds]
    assert found_kinds(findings) == planted_kinds(banked)
    kinds = {f.kind for f in banked}  # chemin de fer's faults across coups too, where drawn
    assert {*BANKED_FAULTS, *SHOE_FAULTS} <= kinds <= {*BANKED_FAULTS, *SHOE_FAULTS, *CHEMIN_FAULTS}


def judged_across(rounds: dict[str, list[dict]]) -> list:
    """Each round alone, each chemin de fer table's banker runs, each shoe whole."""
    findings = [f for events in rounds.values() for f in adjudicate_round(events).findings]
    tables: dict[str, list[list[dict]]] = defaultdict(list)
    shoes: dict[tuple[str, str], list[list[dict]]] = defaultdict(list)
    for events in rounds.values():
        if events[0]["game"] == "chemin_de_fer":
            tables[events[0]["table_id"]].append(events)
        if events[0].get("shoe_id"):
            shoes[events[0]["table_id"], events[0]["shoe_id"]].append(events)
    findings += [f for coups in tables.values() for f in check_banker_runs(coups).findings]
    return findings + [f for dealt in shoes.values() for f in check_shoe(dealt).findings]


def test_chemin_de_fer_faults_across_coups_are_found_and_sabots_close(tmp_path: Path) -> None:
    """A day long enough for sabots to end: a banker keeping the hand after losing the
    sabot's last coup (PT-217/2007 I.32), a coup with three players seated (I.16), the
    shoe faults; every one found with exactly its kinds, nothing else; a winning banker
    sometimes halves the bank at the new sabot, which is lawful (I.33)."""
    files, faults = banked_rounds(6_000, fault_rate=0.2, per_file=6_000)(5, DAY, tmp_path)
    rounds = subjects(tmp_path, files, "round_id")
    chemmy = {r: e for r, e in rounds.items() if e[0]["game"] == "chemin_de_fer"}
    planted = [f for f in faults if f.subject in chemmy]
    assert found_kinds(judged_across(chemmy)) == planted_kinds(planted)
    # a sabot ends 7 cards from its end: rarely enough left for one more coup, so the
    # "dealt past its last coup" fault is planted at the blackjack tables (previous test)
    assert {f.kind for f in planted} >= {*CHEMIN_FAULTS, "card_shown_too_often"}
    sabots = {(e[0]["table_id"], e[0]["shoe_id"]) for e in chemmy.values()}
    assert len(sabots) >= 8


def test_chemin_de_fer_tables_play_banker_runs_with_lawful_garages(day: Day) -> None:
    folder, files, _ = day
    rounds = subjects(folder, [f for f in files if f.startswith("banked")], "round_id")
    coups = sorted(
        (e for e in rounds.values() if e[0]["game"] == "chemin_de_fer"),
        key=lambda e: (e[0]["table_id"], e[0]["occurred_at"]),
    )
    runs, garages = 0, 0
    for before, after in pairwise(coups):
        bank, next_bank = (
            next(e for e in coup if e.get("bet_type") == "bank") for coup in (before, after)
        )
        if bank["player_id"] != next_bank["player_id"]:
            continue
        runs += 1
        left = adjudicate_round(before).expected_payouts["bank"]
        garages += next_bank["amount"] < left
    assert runs >= 10 and garages >= 1


def test_every_slot_fault_is_found_and_clean_machines_reconcile(day: Day) -> None:
    folder, files, faults = day
    machines = subjects(folder, [f for f in files if f.startswith("slots")], "machine_id")
    assert len(machines) == 30
    verdicts = {  # each with the jackpot records of the machines it names (III.4, III.6)
        m: reconcile_machine(
            events,
            [r for o in related_machines(events) for r in jackpot_records(machines.get(o, ()))],
        )
        for m, events in machines.items()
    }
    findings = [f for verdict in verdicts.values() for f in verdict.findings]
    slots = [f for f in faults if f.subject in machines]
    assert found_kinds(findings) == planted_kinds(slots)
    assert {f.kind for f in slots} >= set(METER_FAULTS)
    assert {f.kind for f in slots} & set(JACKPOT_FAULTS)
    metered = {f.subject for f in slots if f.kind in METER_FAULTS}  # a jackpot fault moves no meter
    clean = [v for m, v in verdicts.items() if m not in metered]
    assert any(w.rollovers for v in clean for w in v.windows)  # the edge cases are there
    assert any(w.status == "after_ram_clear" for v in clean for w in v.windows)


def test_hourly_readings_fall_on_the_hour_and_reconcile() -> None:
    start = datetime(2025, 3, 1, tzinfo=UTC)
    events = machine_month(random.Random(3), "slot-1", start, days=2, readings_per_day=24)
    reads = [e for e in events if e["type"] == "MeterRead"]
    assert len(reads) == 1 + 48
    hourly = [e["occurred_at"] for e in reads if e["reason"] == "scheduled"]
    assert [t for t in hourly if t.minute == 0] == [
        start + timedelta(hours=h) for h in range(1, 48) if h != 24
    ]
    times = [e["occurred_at"] for e in events]
    assert times == sorted(times) and times[-1] < start + timedelta(days=2)
    assert reconcile_machine(events).findings == ()
    assert sum(e["type"] == "GamePlayed" for e in events) == 2 * 400


def test_generate_day_adds_the_floor_and_the_fleet_to_its_manifest(tmp_path: Path) -> None:
    extra = [banked_rounds(40, fault_rate=0.2), slot_fleet(4, fault_rate=0.5)]
    manifest = generate_day(7, DAY, hands=80, out=tmp_path, fault_rate=0.05, extra=extra)
    assert {"banked-001.avro", "slots-001.avro"} <= set(manifest.input_files)
    kinds = {fault.kind for fault in DayManifest.read(tmp_path).faults}
    assert kinds & set(BANKED_FAULTS) and kinds & set(METER_FAULTS)


def manifest_of(*faults: PlantedFault) -> DayManifest:
    return DayManifest(1, DAY.isoformat(), 0, [], [], list(faults), [])


def test_the_score_compares_subject_kind_pairs() -> None:
    manifest = manifest_of(
        PlantedFault("rake_over_cap", "h1", ("mispaid_pot", "rake_cap_breach"), {}),
        PlantedFault("overpaid", "r1", ("mispaid_bet",), {}),
        PlantedFault("missing_bill", "m1", ("meter_discrepancy",), {}),
        PlantedFault("odd", "h9", ("data_quality",), {}),
    )
    found = [
        ("h1", "mispaid_pot"),
        ("h1", "mispaid_pot"),  # twice the same kind: one pair
        ("r1", "mispaid_bet"),
        ("m2", "meter_discrepancy"),
        ("pair:a|b", "collusion_suspected"),  # scored separately, on both sides
        ("day/poker/p03", "data_quality"),  # no fault planted there: listed
        ("h1", "data_quality"),  # on a faulty hand (chips not conserved): expected
    ]
    result = score(manifest, found)
    assert result.quality_elsewhere == frozenset({"day/poker/p03"})
    assert result.missed == [("h1", "rake_cap_breach"), ("m1", "meter_discrepancy")]
    assert result.unexpected == [("m2", "meter_discrepancy")]
    assert (result.precision, result.recall) == (2 / 3, 2 / 4)
    assert result.lines()[0].startswith("precision 66.7% (2 of 3 found were planted), recall 50.0%")
    assert "  missed: h1 rake_cap_breach" in result.lines()


def test_nothing_planted_and_nothing_found_is_perfect() -> None:
    result = score(manifest_of(), [])
    assert (result.precision, result.recall, result.missed, result.unexpected) == (1.0, 1.0, [], [])
    assert score(manifest_of(), [("r", "mispaid_bet")]).precision == 0.0


def test_banked_players_are_patron_ids_by_seat_and_the_banker_is_one(day: Day) -> None:
    """No seat label (``p0``) reaches a record: every bettor is one of the table's patrons
    of the day (``floor.patrons``), the chemin de fer bank is held by a patron and his
    pontos sit at other seats; no patron of a table's day sat at it the day before."""
    folder, files, _ = day
    for round_id, events in subjects(
        folder, [f for f in files if "banked" in f], "round_id"
    ).items():
        table = round_id.split("/")[0]
        seated = patrons(12, DAY, table)
        named = [e["player_id"] for e in events if "player_id" in e]
        assert named and set(named) <= set(seated), round_id
        bank = [e["player_id"] for e in events if e.get("bet_type") == "bank"]
        pontos = {e["player_id"] for e in events if e.get("bet_type") == "ponto"}
        assert not set(bank) & pontos, round_id
    for table in ("bac-01", "chemmy-01"):
        today, yesterday = patrons(12, DAY, table), patrons(12, DAY - timedelta(days=1), table)
        assert len(set(today)) == 8 and not set(today) & set(yesterday)
        assert all(p.startswith("live-p") and len(p) == 10 for p in today)
