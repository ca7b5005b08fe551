"""The synthetic day generator: deterministic, schema-valid, and its planted faults are
exactly what the replayer finds (precision and recall 100%)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from pathlib import Path

import pytest

from audit.ingest.avro_files import iter_avro_units, read_events
from audit.ingest.errors import RecordRejected
from replayer.poker.replay import adjudicate_hand
from replayer.poker.verdict import HandVerdict
from simulate import DayManifest, generate_day
from simulate.day import TERMS_FILE
from simulate.faults import FAULT_KINDS
from simulate.tables import rake_terms_from

DAY = date(2025, 3, 1)


def hands_of(folder: Path, manifest: DayManifest) -> dict[str, list[dict]]:
    hands: dict[str, list[dict]] = defaultdict(list)
    for name in manifest.input_files:
        for event in read_events(folder / name):
            hands[event["hand_id"]].append(event)
    return hands


def verdicts(folder: Path, manifest: DayManifest) -> dict[str, HandVerdict]:
    """Every hand judged with its table's declared rake terms."""
    terms = {t["table_id"]: rake_terms_from(t["rake_terms"]) for t in manifest.tables}
    return {
        hand_id: adjudicate_hand(events, rake_terms=terms[events[0]["table_id"]], with_steps=False)
        for hand_id, events in hands_of(folder, manifest).items()
    }


@pytest.fixture(scope="module")
def faulty_day(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, DayManifest]:
    out = tmp_path_factory.mktemp("faulty")
    return out, generate_day(7, DAY, hands=2_000, out=out, fault_rate=0.03, colluders=2)


def test_same_seed_gives_byte_identical_files(tmp_path: Path) -> None:
    first = generate_day(3, DAY, hands=240, out=tmp_path / "a", fault_rate=0.05, colluders=3)
    generate_day(3, DAY, hands=240, out=tmp_path / "b", fault_rate=0.05, colluders=3)
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "b").iterdir())
    assert "manifest.json" in names and TERMS_FILE in names
    assert len(names) == len(first.input_files) + 2
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    other = generate_day(4, DAY, hands=240, out=tmp_path / "c", fault_rate=0.05, colluders=3)
    assert other.to_json() != first.to_json()


def test_input_files_pass_ingest_validation(faulty_day: tuple[Path, DayManifest]) -> None:
    folder, manifest = faulty_day
    venues = set()
    for table in manifest.tables[:3]:  # one table per venue: ingest validation is slow
        venues.add(table["venue"])
        hands = 0
        for name in table["input_files"]:
            for unit in iter_avro_units(folder / name):
                assert not isinstance(unit, RecordRejected), unit
                assert unit.records[0]["type"] == "HandStarted"
                hands += 1
        assert hands == table["hands"]
    assert venues == {"gg", "mo", "pt"}
    assert manifest.hands == sum(t["hands"] for t in manifest.tables) == 2_000
    assert DayManifest.read(folder).to_json() == manifest.to_json()


def test_day_is_realistic(faulty_day: tuple[Path, DayManifest]) -> None:
    folder, manifest = faulty_day
    stats = manifest.stats
    assert {t["rulebook"] for t in manifest.tables} == {
        "gg-2022-cash-holdem",
        "gg-2022-cash-omaha",
        "mo-97-2010-omaha",
        "pt-217-2007-holdem",
        "pt-217-2007-omaha",
        "pt-217-2007-synthetic",
    }
    assert {t["currency"] for t in manifest.tables} >= {"EUR", "MOP"}
    for key in ("misdeals", "side_pots", "split_pots", "all_ins"):
        assert stats[key] > 0, key
    assert 0.2 < stats["showdowns"] / stats["hands"] < 0.7
    sizes = {len(events[0]["seats"]) for events in hands_of(folder, manifest).values()}
    assert min(sizes) <= 4 and max(sizes) >= 9
    assert len(manifest.collusion) == 2


def test_planted_faults_are_exactly_the_findings(faulty_day: tuple[Path, DayManifest]) -> None:
    folder, manifest = faulty_day
    # each hand judged alone: chips taken between two hands (simulate.session_faults) leave
    # both legal on their own, and are the table session's to find (tests/replayer/test_sessions.py)
    in_hands = [fault for fault in manifest.faults if fault.kind in FAULT_KINDS]
    planted = {fault.subject: fault for fault in in_hands}
    assert {fault.kind for fault in in_hands} == set(FAULT_KINDS)
    found = {
        hand_id: sorted({str(f.kind) for f in verdict.findings})
        for hand_id, verdict in verdicts(folder, manifest).items()
        if verdict.findings
    }
    assert set(found) == set(planted)
    for hand_id, kinds in found.items():
        assert kinds == sorted(planted[hand_id].findings), hand_id


def test_clean_day_has_no_findings_and_conserves_chips(tmp_path: Path) -> None:
    manifest = generate_day(11, DAY, hands=400, out=tmp_path, colluders=2)
    assert manifest.faults == []
    hands = hands_of(tmp_path, manifest)
    for hand_id, verdict in verdicts(tmp_path, manifest).items():
        assert verdict.findings == (), hand_id
        events = hands[hand_id]
        before = sum(seat["stack"] for seat in events[0]["seats"])
        ended = next(e for e in events if e["type"] == "HandEnded")
        after = sum(ended["finishing_stacks"])
        assert before == after + verdict.recorded_rake + verdict.house_retained, hand_id
