"""The event is the unit of ingest: subjects that continue across files, ingests and days
are appended, never quarantined as conflicts; only a different event at a stored
(subject, sequence) is a conflict (both stores)."""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

from audit.families import family_named
from audit.ingest.avro_files import write_events
from audit.ingest.pipeline import ingest
from audit.judging import current_findings, judge_stored, replay
from audit.store import AuditStore
from simulate.fleet import machine_day
from tests.audit.ingest.test_ingest_avro import hand_events

SLOTS, POKER = family_named("slots"), family_named("poker")
DAY = date(2025, 3, 1)


def machine() -> list[dict]:
    """A slot machine's day with hourly readings (the simulator's, no fault planted)."""
    events, fault = machine_day(7, DAY, "slot-0001", games=120)
    assert fault is None
    return events


def hourly_files(folder: Path, events: list[dict], parts: int = 24) -> list[Path]:
    """The machine's day cut into ``parts`` consecutive files, as an hourly export."""
    folder.mkdir(parents=True, exist_ok=True)
    size = -(-len(events) // parts)
    paths = []
    for number in range(parts):
        chunk = events[number * size : (number + 1) * size]
        if chunk:
            paths.append(folder / f"hour-{number:02d}.avro")
            write_events(paths[-1], SLOTS, chunk)
    return paths


def findings_of(store: AuditStore, subject: str) -> list[dict]:
    return sorted(
        (f for f in current_findings(store) if f["subject"] == subject),
        key=lambda f: f["finding_id"],
    )


def test_a_day_in_24_files_is_one_machine_in_one_run_or_24(tmp_path: Path, store_url: str) -> None:
    events = machine()
    whole = AuditStore(f"sqlite:///{tmp_path / 'whole.db'}")
    write_events(tmp_path / "one.avro", SLOTS, events)
    assert ingest(whole, [tmp_path / "one.avro"]).quarantined == 0
    replay(whole)
    expected = findings_of(whole, "slot-0001")

    paths = hourly_files(tmp_path / "day", events)
    random.Random(1).shuffle(paths)
    one_run = AuditStore(store_url)
    summary = ingest(one_run, paths)
    assert (summary.quarantined, summary.events_stored) == (0, len(events) + 1)
    assert one_run.records_of("slots", "slot-0001") == whole.records_of("slots", "slot-0001")
    replay(one_run)
    assert findings_of(one_run, "slot-0001") == expected

    runs = AuditStore(f"sqlite:///{tmp_path / 'runs.db'}")
    for path in paths:  # 24 ingests, in shuffled order
        assert ingest(runs, [path]).quarantined == 0
    assert runs.records_of("slots", "slot-0001") == whole.records_of("slots", "slot-0001")
    replay(runs)
    assert findings_of(runs, "slot-0001") == expected


def test_interleaved_rounds_of_a_live_floor_are_stored_whole(
    tmp_path: Path, store_url: str
) -> None:
    hands = [hand_events(f"t1/{n}") for n in range(5)]
    interleaved = [hand[i] for i in range(6) for hand in hands]  # one event of each in turn
    write_events(tmp_path / "floor.avro", POKER, interleaved)
    store = AuditStore(store_url)
    summary = ingest(store, [tmp_path / "floor.avro"])
    assert summary.quarantined == 0
    for n in range(5):
        assert [r["sequence"] for r in store.records_of("poker", f"t1/{n}")] == list(range(6))


def test_a_resend_is_already_stored_and_a_changed_one_is_a_conflict_finding(
    tmp_path: Path, store_url: str
) -> None:
    events = machine()
    store = AuditStore(store_url)
    write_events(tmp_path / "a.avro", SLOTS, events)
    assert ingest(store, [tmp_path / "a.avro"]).quarantined == 0
    again = ingest(store, [tmp_path / "a.avro"])
    assert (again.subjects_already_stored, again.events_stored, again.quarantined) == (1, 0, 0)
    changed = [dict(e) for e in events]
    reading = next(e for e in changed if e["type"] == "MeterRead" and e["sequence"] > 5)
    reading["occurred_at"] = reading["occurred_at"].replace(microsecond=1)
    write_events(tmp_path / "b.avro", SLOTS, changed)
    before = store.records_of("slots", "slot-0001")
    resent = ingest(store, [tmp_path / "b.avro"])
    assert (resent.quarantined, resent.events_quarantined, resent.events_stored) == (1, 1, 0)
    assert f"sequence {reading['sequence']} is already stored" in resent.rejected[0].reason
    assert store.records_of("slots", "slot-0001") == before  # never overwritten
    replay(store)
    kinds = [f["kind"] for f in findings_of(store, "slot-0001")]
    assert "conflicting_versions" in kinds
    assert ingest(store, [tmp_path / "b.avro"]).events_stored == 0  # one conflict, kept once
    assert replay(store).adjudications_stored == 0


def test_a_gap_is_judged_incomplete_until_it_is_filled(tmp_path: Path, store_url: str) -> None:
    events = hand_events("t1/1", amount=900)  # a mispaid pot, once the hand is whole
    store = AuditStore(store_url)
    write_events(tmp_path / "late.avro", POKER, [events[0], *events[3:]])
    assert ingest(store, [tmp_path / "late.avro"]).quarantined == 0  # kept, not lost
    replay(store)
    (finding,) = findings_of(store, "t1/1")
    assert finding["kind"] == "data_quality" and finding["detail"]["missing"] == [[1, 2]]
    assert "incomplete" in finding["reason"]
    write_events(tmp_path / "early.avro", POKER, events[1:3])
    assert ingest(store, [tmp_path / "early.avro"]).events_stored == 2
    assert replay(store).adjudications_stored == 1
    kinds = {f["kind"] for f in findings_of(store, "t1/1")}
    assert "data_quality" not in kinds and "mispaid_pot" in kinds
    whole = AuditStore(f"sqlite:///{tmp_path / 'whole.db'}")
    write_events(tmp_path / "whole.avro", POKER, events)
    ingest(whole, [tmp_path / "whole.avro"])
    assert (
        judge_stored(whole, "poker", "t1/1")[1].findings
        == judge_stored(store, "poker", "t1/1")[1].findings
    )


def test_two_files_that_disagree_keep_what_they_agree_on(tmp_path: Path, store_url: str) -> None:
    write_events(tmp_path / "a.avro", POKER, hand_events("t1/1", amount=100))
    write_events(tmp_path / "b.avro", POKER, hand_events("t1/1", amount=900))
    store = AuditStore(store_url)
    summary = ingest(store, [tmp_path / "a.avro", tmp_path / "b.avro"])
    assert summary.events_quarantined == 2
    assert [r["sequence"] for r in store.records_of("poker", "t1/1")] == [0, 1, 2, 3, 4]
    reasons = " ".join(r.reason for r in summary.rejected)
    assert "a.avro" in reasons and "b.avro" in reasons
    replay(store)
    kinds = {f["kind"] for f in findings_of(store, "t1/1")}
    assert "conflicting_versions" in kinds and "mispaid_pot" not in kinds
