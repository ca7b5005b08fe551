"""Synthetic tournament days (``simulate.tournaments``): seeded and
byte-identical; every planted fault found by the replayer with exactly its finding kinds
and citing its rule, clean tournaments (with the rules' edge cases) without a finding;
the tournament data-quality suite; and a night over hands and tournaments that scores
precision = recall = 1."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import date
from pathlib import Path

import pytest

from audit.families import family_named
from audit.ingest.avro_files import read_events, write_events
from audit.judging import current_findings
from audit.store import AuditStore
from pipelines.nightly import run_nightly
from pipelines.quality import validate_events
from replayer.tournaments import adjudicate_tournament
from simulate import PlantedFault, generate_day
from simulate.score import finding_pairs, score
from simulate.tournament_faults import TOURNAMENT_FAULTS
from simulate.tournaments import payout_table, tournament_day
from tests.determinism import assert_same_seed_same_bytes

DAY = date(2025, 3, 1)
SEED, COUNT, RATE = 2, 50, 0.5  # seed 2: every fault kind among the 50 tournaments
CITATIONS = {
    ("wrong_place", "GG-2022 Política de eliminação de torneios"),
    ("mispaid_bounty", "GG-2022 Bounty Política de torneios"),
    ("mispaid_prize", "GG-2022 Política de prêmios para vários satélites/assentos"),
    ("mispaid_prize", "PT-217/2007 II n.º 115, n.º 118"),
}
Events = dict[str, list[dict]]
Day = tuple[Path, list[str], list[PlantedFault]]


def generate(out: Path, seed: int = SEED, rate: float = RATE) -> tuple[list[str], list]:
    return tournament_day(COUNT, fault_rate=rate, per_file=8)(seed, DAY, out)


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Day:
    out = tmp_path_factory.mktemp("tournaments")
    return out, *generate(out)


def tournaments(folder: Path, files: list[str]) -> Events:
    events: Events = defaultdict(list)
    for name in files:
        for event in read_events(folder / name):
            events[event["tournament_id"]].append(event)
    return events


def verdicts(events: Events) -> dict[str, list]:
    """Each tournament's findings, a satellite judged against its target."""
    judged = {}
    for tournament_id, own in events.items():
        target = own[0]["satellite_for"]
        judged[tournament_id] = list(
            adjudicate_tournament(own, target_events=events.get(target)).findings
        )
    return judged


def test_same_seed_gives_byte_identical_input_files(day: Day, tmp_path: Path) -> None:
    folder, files, faults = day
    assert_same_seed_same_bytes(generate, folder, files, faults, tmp_path, seed=SEED + 1)


def test_a_satellite_is_written_with_its_target(day: Day) -> None:
    folder, files, _ = day
    assert len(files) >= 4
    for name in files:
        own = tournaments(folder, [name])
        targets = {e[0]["satellite_for"] for e in own.values()} - {None}
        assert targets <= set(own)
    assert len(tournaments(folder, files)) == COUNT


def test_every_fault_is_found_with_exactly_its_kinds(day: Day) -> None:
    folder, files, faults = day
    judged = verdicts(tournaments(folder, files))
    found = {t: {str(f.kind) for f in findings} for t, findings in judged.items() if findings}
    assert found == {fault.subject: set(fault.findings) for fault in faults}
    assert {fault.kind for fault in faults} == set(TOURNAMENT_FAULTS)
    assert len(judged) - len(found) >= 10  # clean tournaments, no finding
    cited = {(str(f.kind), f.citation) for findings in judged.values() for f in findings}
    assert cited == CITATIONS


def test_clean_tournaments_have_the_edge_cases_and_no_finding(day: Day, tmp_path: Path) -> None:
    folder, files, faults = day
    clean_files, none = generate(tmp_path, rate=0.0)
    assert none == []
    clean = tournaments(tmp_path, clean_files)
    assert all(findings == [] for findings in verdicts(clean).values())
    faulty = {fault.subject for fault in faults}
    assert {t: e for t, e in tournaments(folder, files).items() if t not in faulty} == {
        t: e for t, e in clean.items() if t not in faulty
    }  # the fault rate changes no clean tournament
    events = [e for own in clean.values() for e in own]
    eliminated = defaultdict(list)
    for e in events:
        if e["type"] == "PlayerEliminated":
            eliminated[e["tournament_id"], e["hand_id"]].append(e)
    same_hand = [busted for busted in eliminated.values() if len(busted) > 1]
    assert any(b[0]["chips_at_hand_start"] is None for b in same_hand)  # in a chip count
    assert any(len({e["chips_at_hand_start"] for e in b}) == 1 for b in same_hand)  # tie
    bounties = defaultdict(list)
    for e in events:
        if e["type"] == "BountyAwarded":
            bounties[e["tournament_id"], e["eliminated_player_id"]].append(e["amount"])
    assert any(len(paid) == 3 for paid in bounties.values())  # a fraction of a cent dropped
    prizes = {e["kind"] for e in events if e["type"] == "PrizePaid"}
    assert prizes == {"cash", "satellite_seat", "tournament_money"}
    assert any(e.get("paid_with") == "satellite_ticket" for e in events)


def test_payouts_share_the_pool_among_fifteen_percent_of_the_field() -> None:
    prizes = payout_table(1_234_500, 120)
    assert sum(prizes) == 1_234_500 and len(prizes) == 18
    assert prizes == sorted(prizes, reverse=True)
    assert all(prize % 100 == 0 for prize in prizes[1:])
    assert len(payout_table(24_000, 12)) == 3


def test_the_tournament_suite_flags_an_unregistered_player(day: Day, tmp_path: Path) -> None:
    folder, files, _ = day
    events = list(read_events(folder / files[0]))
    subjects = len({e["tournament_id"] for e in events})
    assert validate_events("t", "tournament", events, subjects).findings == []
    award = next(i for i, e in enumerate(events) if e["type"] == "PrizePaid")
    events[award] = {**events[award], "player_id": "nobody"}
    write_events(tmp_path / "broken.avro", family_named("tournament"), events)
    broken = list(read_events(tmp_path / "broken.avro"))
    [finding] = validate_events("t", "tournament", broken, subjects).findings
    assert (finding.subject, finding.citation) == (
        events[award]["tournament_id"],
        "casino-audit data quality: player.registered",
    )


def test_a_night_of_hands_and_tournaments_scores_one(tmp_path: Path) -> None:
    folder = tmp_path / "in" / DAY.isoformat()
    extra = [tournament_day(4, fault_rate=0.5)]  # seed 7: a satellite's extra seat mispaid
    manifest = generate_day(7, DAY, hands=20, tables=2, out=folder, extra=extra)
    assert {f.kind for f in manifest.faults} >= {"extra_seat_fee_included"}
    url = f"sqlite:///{tmp_path / 'store.db'}"
    summary = run_nightly(url, tmp_path / "in", DAY, tmp_path / "out", workers=1)
    assert summary.quality_findings == 0
    assert set(summary.judged) == {"poker", "table", "tournament"}
    store = AuditStore(url)
    try:
        found = list(finding_pairs(current_findings(store)))
    finally:
        store.close()
    result = score(manifest, found)
    assert (result.precision, result.recall) == (1.0, 1.0), result.lines()
    assert result.planted & {(f.subject, "mispaid_prize") for f in manifest.faults}
    assert summary.report is not None
    rows = [json.loads(line) for line in summary.report.jsonl.read_text().splitlines()]
    assert {(r["family"], r["kind"]) for r in rows} >= {("tournament", "mispaid_prize")}
    assert "mispaid_prize" in summary.report.html.read_text()
