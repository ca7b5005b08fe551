"""A night whose subjects are split across files is the same night (both stores).

The simulator's day (hands, banked rounds, slot machines, tournaments, table terms) is
written twice: as the simulator writes it, one file per table, fleet or tournament
batch, and with every subject of more than one event dealt over three files, its events
interleaved with other subjects' in each. The nightly stores the same events from both
and gives byte-identical findings and report exports: each subject is judged once,
whole, after every file is in (``pipelines.nightly.partitions``). A process killed between two
files of one subject loses nothing once the ingest is run again.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from audit.families import family_named
from audit.ingest.avro_files import read_events, write_events
from audit.ingest.pipeline import ingest
from audit.judging import current_findings, replay
from audit.store import AuditStore
from pipelines.input_files import read_input_file
from pipelines.nightly import NightlySummary, run_nightly
from simulate.day import generate_day
from simulate.fleet import machine_day, slot_fleet
from simulate.floor import banked_rounds
from simulate.tournaments import tournament_day
from tests.fault_harness import DAY, Point, run_cli, run_until

PARTS = 3
"""Files each multi-event subject is dealt over."""


def _subject_key(family: str) -> str:
    return family_named(family).subject_key


def split_day(whole: Path, split: Path) -> dict[str, dict[str, set[str]]]:
    """Write ``whole``'s day folder again under ``split``: each file as ``PARTS`` files,
    every subject's events dealt round robin over them (a subject's first event in a
    file that depends on the subject), order within a file kept. Returns family ->
    subject -> the files that hold its events."""
    where: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for path in sorted((whole / DAY.isoformat()).rglob("*.avro")):
        family = read_input_file(path).family
        assert family is not None, path
        key = _subject_key(family)
        events = read_events(path)
        first: dict[str, int] = {}
        seen: dict[str, int] = defaultdict(int)
        parts: list[list[dict[str, Any]]] = [[] for _ in range(PARTS)]
        for event in events:
            subject = str(event[key])
            first.setdefault(subject, len(first))
            part = (first[subject] + seen[subject]) % PARTS
            seen[subject] += 1
            parts[part].append(event)
        relative = path.relative_to(whole)
        for number, part in enumerate(parts):
            if part:
                target = split / relative.with_name(f"{path.stem}-part{number}.avro")
                target.parent.mkdir(parents=True, exist_ok=True)
                write_events(target, family_named(family), part)
                for event in part:
                    where[family][str(event[key])].add(target.name)
    return where


@pytest.fixture(scope="module")
def days(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The simulator's day as written and split; the nightly over the whole one."""
    root = tmp_path_factory.mktemp("split-night")
    generate_day(
        13,
        DAY,
        hands=360,
        out=root / "whole" / DAY.isoformat(),
        colluders=1,
        fault_rate=0.05,
        extra=[
            banked_rounds(160, fault_rate=0.05),
            slot_fleet(4, fault_rate=0.5),
            tournament_day(3, fault_rate=0.34),
        ],
    )
    where = split_day(root / "whole", root / "split")
    url = f"sqlite:///{root / 'whole.db'}"
    summary = run_nightly(url, root / "whole", DAY, root / "whole-out")
    return {"root": root, "where": where, "url": url, "summary": summary}


def stored_events(url: str, families: list[str]) -> dict[str, dict[str, list[dict]]]:
    """family -> subject -> its stored events (subjects in any order of arrival)."""
    store = AuditStore(url)
    try:
        return {family: dict(store.iter_subjects(family)) for family in families}
    finally:
        store.close()


def test_every_multi_event_subject_is_split_over_three_files(days: dict[str, Any]) -> None:
    where = days["where"]
    assert set(where) == {"poker", "banked", "slots", "tournament", "table"}
    for family in ("poker", "banked", "slots", "tournament"):
        assert all(len(files) == PARTS for files in where[family].values()), family


def test_a_split_night_stores_the_same_events_and_finds_the_same(
    days: dict[str, Any], store_url: str
) -> None:
    root = days["root"]
    whole: NightlySummary = days["summary"]
    split = run_nightly(store_url, root / "split", DAY, root / f"split-out-{id(store_url)}")
    assert split.quarantined == whole.quarantined
    assert split.judged == whole.judged
    assert split.findings == whole.findings
    assert "conflicting_versions" not in split.findings
    families = sorted(days["where"])
    assert stored_events(store_url, families) == stored_events(days["url"], families)
    assert split.report is not None and whole.report is not None
    assert split.report.jsonl.read_bytes() == whole.report.jsonl.read_bytes()
    assert split.report.csv.read_bytes() == whole.report.csv.read_bytes()


def test_a_kill_between_two_files_of_one_machine_loses_nothing(
    tmp_path: Path, store_url: str
) -> None:
    events, _ = machine_day(5, DAY, "slot-0042", games=160)
    slots = family_named("slots")
    write_events(tmp_path / "whole.avro", slots, events)
    reference = AuditStore(f"sqlite:///{tmp_path / 'reference.db'}")
    assert ingest(reference, [tmp_path / "whole.avro"]).quarantined == 0
    replay(reference)
    expected = sorted(f["finding_id"] for f in current_findings(reference))
    machine = reference.records_of("slots", "slot-0042")
    reference.close()

    half = len(events) // 2
    morning, afternoon = tmp_path / "day" / "0-morning.avro", tmp_path / "day" / "1-afternoon.avro"
    morning.parent.mkdir()
    write_events(morning, slots, events[:half])
    write_events(afternoon, slots, events[half:])
    first = run_cli(store_url, "ingest", str(morning))
    assert first.code == 0, first
    store = AuditStore(store_url)
    after_morning = store.count_events()
    store.close()
    # the afternoon's ingest killed -9 midway: part of the machine's afternoon is stored
    killed = run_until(store_url, ("ingest", str(tmp_path / "day")), Point(events=after_morning))
    again = run_cli(store_url, "ingest", str(tmp_path / "day"))
    assert again.code == 0, (killed, again)
    store = AuditStore(store_url)
    try:
        assert store.records_of("slots", "slot-0042") == machine
        replay(store)
        assert sorted(f["finding_id"] for f in current_findings(store)) == expected
        assert store.verify().ok
    finally:
        store.close()
