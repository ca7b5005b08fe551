"""The night reads an input file once when ingest read all of it, and again as it stands
when ingest rejected anything: either way the file's intake and readability are those of
``read_input_file`` (``pipelines.nightly.intake.ReadByIngest``)."""

from __future__ import annotations

from pathlib import Path

from audit.families import family_named
from audit.ingest.avro_files import write_events
from audit.judging import KIND
from audit.store import AuditStore
from pipelines.input_files import read_input_file, subject_ids
from pipelines.nightly.intake import day_intakes
from pipelines.nightly.steps import prepare_store, take_in_input_file
from tests.pipelines.test_nightly import DAY, poker_hand, write_day


def _intake_subjects(url: str) -> list[str]:
    """Every subject the day's stored intakes name, sorted."""
    store = AuditStore(url)
    try:
        ids = day_intakes(store, DAY)
        units = store.iter_records(KIND, ids)
        return sorted(s for _, records in units for s in records[0]["subjects"])
    finally:
        store.close()


def test_a_whole_file_is_taken_in_as_read_input_file_reads_it(tmp_path: Path) -> None:
    path = write_day(tmp_path / "in") / DAY.isoformat() / "poker" / "0001.avro"
    url = f"sqlite:///{tmp_path / 'store.db'}"
    prepare_store(url)
    intake = take_in_input_file(url, DAY, path)
    read = read_input_file(path)
    assert not read.error
    assert intake.quality.findings == []
    assert (intake.quality.family, intake.quality.events) == ("poker", len(read.events))
    assert intake.quality.subjects == len(subject_ids(read)) == 5
    assert _intake_subjects(url) == sorted(subject_ids(read))


def test_a_damaged_file_is_read_again_for_its_readability_and_intake(tmp_path: Path) -> None:
    """Ingest skips a block that does not decode and reads on; ``read_input_file`` stops there,
    and the intake and readability are what it read."""
    path = tmp_path / "in" / DAY.isoformat() / "poker" / "0001.avro"
    path.parent.mkdir(parents=True)
    hands = [e for n in range(1, 601) for e in poker_hand("casino-a/t1", n)]
    write_events(path, family_named("poker"), hands, codec="null")
    data = bytearray(path.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 64] = b"\xff" * 64  # a block in the middle
    path.write_bytes(bytes(data))
    url = f"sqlite:///{tmp_path / 'store.db'}"
    prepare_store(url)
    intake = take_in_input_file(url, DAY, path)
    read = read_input_file(path)
    assert read.error and 0 < len(subject_ids(read)) < 600
    [finding] = intake.quality.findings
    assert finding.reason == f"shard cannot be read in full: {read.error}"
    assert finding.detail["events_read"] == len(read.events) == intake.quality.events
    assert intake.ingested.quarantined  # ingest read on past the damage
    assert _intake_subjects(url) == sorted(subject_ids(read))
