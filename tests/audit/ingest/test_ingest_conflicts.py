"""Versions of a subject: conflicting versions are quarantined, never stored or merged;
the same content twice is stored once; identity never depends on the path given."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from audit.families import family_named
from audit.ingest.avro_files import write_events
from audit.ingest.pipeline import ingest
from audit.ingest.quarantine import entries
from audit.judging import current_findings, replay
from audit.store import AuditStore
from cli.main import main
from tests.audit.ingest.test_ingest_avro import hand_events

POKER = family_named("poker")


def pluribus_hand(phh_sample: Path) -> str:
    """A real hand (Pluribus 83/63) as table t9, hand 63: its id is ``t9/63`` whatever
    the file is called."""
    return (phh_sample / "pluribus" / "83" / "63.phh").read_text() + '\n_table = "t9"\n'


def forged(text: str) -> str:
    """The same hand with p1's winnings moved to p2."""
    return text.replace("finishing_stacks = [9900, 10100,", "finishing_stacks = [10100, 9900,")


def shorter(text: str) -> str:
    """The same hand without p2's last show: one event fewer."""
    return text.replace(", 'p2 sm Ah8s']", "]")


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)
    return folder / name


def test_conflicting_phh_versions_quarantine_only_the_events_they_disagree_on(
    phh_sample: Path, tmp_path: Path, store_url: str
) -> None:
    genuine = pluribus_hand(phh_sample)
    assert forged(genuine) != genuine and shorter(genuine) != genuine
    day = tmp_path / "day"
    write(day, "a-forged.phh", forged(genuine))  # sorts first
    write(day, "b-genuine.phh", genuine)
    write(day, "c-shorter.phh", shorter(genuine))
    store = AuditStore(store_url)
    summary = ingest(store, [day])
    assert summary.units_read == 3 and summary.quarantined == 3
    accounted = summary.subjects_stored + summary.subjects_already_stored
    assert accounted + summary.units_quarantined == summary.units_read
    versions = [units_of_text(day / name) for name in sorted(p.name for p in day.iterdir())]
    stored = {r["sequence"]: r for r in store.records_of("poker", "t9/63")}
    assert stored  # the events all three files agree on went in
    for sequence, record in stored.items():
        assert all(same(v.get(sequence), record) for v in versions), sequence
    disputed = {q for v in versions for q in v} - set(stored)
    assert disputed and all(not agree(versions, q) for q in disputed)
    by_file = {Path(r.source).name: r for r in summary.rejected}
    assert set(by_file) == {"a-forged.phh", "b-genuine.phh", "c-shorter.phh"}
    for rejected in by_file.values():
        assert rejected.field == "(event)"
        assert "this ingest's files disagree about this event" in rejected.reason
        assert "day/" in rejected.reason and ", hand 63" in rejected.reason
    replay(store)
    kinds = {f["kind"] for f in current_findings(store) if f["subject"] == "t9/63"}
    assert "conflicting_versions" in kinds and "mispaid_pot" not in kinds  # two stories


def units_of_text(path: Path) -> dict[int, dict]:
    from audit.ingest.pipeline import units_of

    (unit,) = list(units_of(path))
    return {r["sequence"]: r for r in unit.records}


def same(a: dict | None, b: dict) -> bool:
    return a is not None and {**a, "source": None} == {**b, "source": None}


def agree(versions: list[dict[int, dict]], sequence: int) -> bool:
    records = [v.get(sequence) for v in versions]
    return all(r is not None and same(r, records[0]) for r in records)


def test_a_version_with_one_more_event_appends_it(tmp_path: Path, store_url: str) -> None:
    events = hand_events("t1/1")
    longer = [*events, {**events[-1], "sequence": 6, "event_id": "t1/1#6", "amount": 1}]
    write_events(tmp_path / "a.avro", POKER, events)
    write_events(tmp_path / "b.avro", POKER, longer)
    write_events(tmp_path / "c.avro", POKER, hand_events("t1/2"))
    store = AuditStore(store_url)
    summary = ingest(store, [tmp_path / "a.avro", tmp_path / "b.avro", tmp_path / "c.avro"])
    assert (summary.subjects_stored, summary.subjects_already_stored) == (3, 0)
    assert (summary.quarantined, summary.events_already_stored) == (0, 6)
    assert [r["sequence"] for r in store.records_of("poker", "t1/1")] == list(range(7))


def test_a_different_record_at_the_same_sequence_is_a_conflict(tmp_path: Path) -> None:
    write_events(tmp_path / "a.avro", POKER, hand_events("t1/1", amount=100))
    write_events(tmp_path / "b.avro", POKER, hand_events("t1/1", amount=900))
    store = AuditStore(f"sqlite:///{tmp_path / 's.db'}")
    summary = ingest(store, [tmp_path])
    assert (summary.quarantined, summary.events_quarantined) == (2, 2)
    assert [r["sequence"] for r in store.records_of("poker", "t1/1")] == [0, 1, 2, 3, 4]
    reasons = sorted(r.reason for r in summary.rejected)
    assert "sequence 5: this ingest's files disagree" in reasons[0]


def test_a_subject_split_within_one_file_is_one_subject(tmp_path: Path) -> None:
    """Interleaved subjects (a live floor's export): runs of one subject anywhere in a
    file are one subject's events."""
    a, b = hand_events("t1/1"), hand_events("t1/2")
    write_events(tmp_path / "x.avro", POKER, a[:3] + b + a[3:])
    store = AuditStore(f"sqlite:///{tmp_path / 's.db'}")
    summary = ingest(store, [tmp_path / "x.avro"])
    assert (summary.subjects_stored, summary.quarantined) == (3, 0)
    assert [r["sequence"] for r in store.records_of("poker", "t1/1")] == list(range(6))
    assert [r["type"] for r in store.records_of("poker", "t1/1")] == [e["type"] for e in a]


def test_a_later_different_version_leaves_the_stored_one_untouched(
    phh_sample: Path, tmp_path: Path, store_url: str
) -> None:
    genuine = pluribus_hand(phh_sample)
    store = AuditStore(store_url)
    first = ingest(store, [write(tmp_path / "day1", "63.phh", genuine)])
    assert first.subjects_stored == 1
    stored = store.records_of("poker", "t9/63")
    for number, version in enumerate((forged(genuine), genuine + "_rake = 1\n")):
        later = ingest(store, [write(tmp_path / f"day{number + 2}", "63.phh", version)])
        assert later.quarantined == 1
        reason = later.rejected[0].reason
        assert "'t9/63' sequence" in reason and "already stored with different content" in reason
        assert "`casino-audit show t9/63` shows the stored event" in reason
        assert "the stored one is untouched" in reason
        now = store.records_of("poker", "t9/63")
        assert now[: len(stored)] == stored  # untouched (a new sequence may follow)


def test_the_same_content_twice_is_stored_once(
    phh_sample: Path, tmp_path: Path, store_url: str
) -> None:
    genuine = pluribus_hand(phh_sample)
    one = write(tmp_path / "a", "63.phh", genuine)
    copy = write(tmp_path / "b", "copy-of-63.phh", genuine)  # same hand, another file
    write_events(tmp_path / "h.avro", POKER, hand_events("t1/1"))
    store = AuditStore(store_url)
    summary = ingest(store, [one, one, copy, tmp_path / "h.avro", tmp_path / "h.avro"])
    assert summary.quarantined == 0
    assert (summary.subjects_stored, summary.subjects_already_stored) == (2, 3)
    assert summary.units_read == 5
    assert store.records_of("poker", "t9/63")[0]["source"] == "a/63.phh, hand 63; time unknown"


def test_a_contested_subject_is_stored_when_one_version_comes_alone(
    phh_sample: Path, tmp_path: Path
) -> None:
    genuine = pluribus_hand(phh_sample)
    store = AuditStore(f"sqlite:///{tmp_path / 's.db'}")
    good = write(tmp_path / "in", "genuine.phh", genuine)
    bad = write(tmp_path / "in", "forged.phh", forged(genuine))
    assert ingest(store, [bad, good]).quarantined == 2
    assert ingest(store, [good]).subjects_stored == 1
    assert store.records_of("poker", "t9/63")[-1]["finishing_stacks"][:2] == [990000, 1010000]


def field(out: str, name: str) -> int:
    return int(re.search(rf"^{name}:\s+(\d+)$", out, re.M).group(1))


def test_relative_then_absolute_paths_are_one_ingest(
    phh_sample: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    day = tmp_path / "work" / "day"
    day.mkdir(parents=True)
    for path in sorted((phh_sample / "pluribus" / "83").glob("*.phh"))[:30]:
        shutil.copy(path, day / path.name)
    write_events(day / "hands.avro", POKER, hand_events("t1/1") + hand_events("t1/2"))
    store = f"sqlite:///{tmp_path / 's.db'}"
    monkeypatch.chdir(tmp_path / "work")

    assert main(["--store", store, "ingest", "day"]) == 0
    out = capsys.readouterr().out
    assert (field(out, "subjects stored"), field(out, "records quarantined")) == (32, 0)
    for given in (str(day), "./day", "../work/day/"):
        assert main(["--store", store, "ingest", given]) == 0, given
        out = capsys.readouterr().out
        assert (field(out, "subjects stored"), field(out, "already stored")) == (0, 32)
        assert (field(out, "events stored"), field(out, "records quarantined")) == (0, 0)

    app = AuditStore(store)
    started = app.records_of("poker", "day/0")[0]
    assert started["source"] == "day/0.phh, hand 0; time unknown"
    assert str(tmp_path) not in started["source"]


def test_a_rejection_read_by_two_paths_is_quarantined_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "bad", "corrupt.phh", "variant = 'NT'\nactions = ['d dh p1 AsKs'\n")
    store = f"sqlite:///{tmp_path / 's.db'}"
    monkeypatch.chdir(tmp_path)
    assert main(["--store", store, "ingest", "bad"]) == 1
    assert main(["--store", store, "ingest", str(tmp_path / "bad")]) == 1
    out = capsys.readouterr().out
    assert f"quarantined: {tmp_path / 'bad' / 'corrupt.phh'}, file" in out  # the path as given
    kept = list(entries(AuditStore(store)))
    assert [(e.source, e.position, e.field) for e in kept] == [
        ("bad/corrupt.phh", "file", "(syntax)")
    ]


def test_units_held_in_memory_or_spilled_to_disk_ingest_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pass one holds the units of an ingest's first ``HELD_EVENTS`` events in memory and
    pickles the rest to the spill: where the line falls changes nothing stored, counted
    or quarantined (a conflict, a resend and a longer version across the line)."""
    import audit.ingest.pipeline as pipeline

    events = hand_events("t1/1")
    longer = [*events, {**events[-1], "sequence": 6, "event_id": "t1/1#6", "amount": 1}]
    (tmp_path / "in").mkdir()
    write_events(tmp_path / "in" / "a.avro", POKER, events + hand_events("t1/2", amount=100))
    write_events(tmp_path / "in" / "b.avro", POKER, hand_events("t1/2", amount=900) + events)
    write_events(tmp_path / "in" / "c.avro", POKER, longer + hand_events("t1/3"))
    outcomes = []
    for held in (0, 7, 14, pipeline.HELD_EVENTS):  # none, one unit, two, every unit held
        monkeypatch.setattr(pipeline, "HELD_EVENTS", held)
        store = AuditStore(f"sqlite:///{tmp_path / f'{held}.db'}")
        summary = ingest(store, [tmp_path / "in"])
        records = {s: store.records_of("poker", s) for s in ("t1/1", "t1/2", "t1/3")}
        reasons = sorted(r.reason for r in summary.rejected)
        outcomes.append((summary.subjects_stored, summary.events_already_stored, reasons, records))
    assert outcomes[0][2] and outcomes[0][3]["t1/3"]  # a dispute quarantined, t1/3 stored
    assert all(outcome == outcomes[0] for outcome in outcomes[1:])
