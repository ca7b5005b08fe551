"""Issue #25 renamed the input sense of "shard" to "input file" (a chain shard kept the
word): what was written before the rename stays readable, and a store holding a night
judged before it reads, reports and reruns as before.

Written before the rename: a day's ``manifest.json`` naming its input files ``shards``
(top level and per table), a data-quality result (the DAG's XCom) naming its input file
``shard``. A data-quality finding keeps its detail key ``shard`` on purpose (its id is a
hash of its content), so a rerun stores nothing new.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from audit.judging import current_findings
from audit.store import AuditStore
from pipelines.input_files import read_input_file
from pipelines.nightly import NightlySummary, append_findings, run_nightly
from pipelines.quality import QualityResult, readability
from simulate import DayManifest, generate_day
from simulate.manifest import MANIFEST_NAME

DAY = date(2025, 3, 1)
BROKEN = "poker/broken.avro"


def _as_before_rename(manifest: dict[str, Any]) -> dict[str, Any]:
    """A manifest in the shape written before issue #25."""
    old = {k: v for k, v in manifest.items() if k != "input_files"}
    old["shards"] = manifest["input_files"]
    old["tables"] = [
        {**{k: v for k, v in t.items() if k != "input_files"}, "shards": t["input_files"]}
        for t in manifest["tables"]
    ]
    return old


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A small synthetic day with an input file that is not Avro, its manifest rewritten
    in the old shape, judged once; then the same night run again."""
    base = tmp_path_factory.mktemp("renamed")
    folder = base / "in" / DAY.isoformat()
    written = generate_day(11, DAY, hands=120, out=folder, fault_rate=0.05)
    (folder / BROKEN).parent.mkdir(exist_ok=True)
    (folder / BROKEN).write_bytes(b"not an Avro container file")
    manifest = json.loads((folder / MANIFEST_NAME).read_text())
    (folder / MANIFEST_NAME).write_text(json.dumps(_as_before_rename(manifest)))
    url = f"sqlite:///{base / 'store.db'}"
    first = run_nightly(url, base / "in", DAY, base / "out")
    second = run_nightly(url, base / "in", DAY, base / "out")
    return {"url": url, "folder": folder, "written": written, "first": first, "second": second}


def test_a_manifest_written_before_the_rename_reads_as_today(night: dict[str, Any]) -> None:
    assert "shards" in json.loads((night["folder"] / MANIFEST_NAME).read_text())
    read = DayManifest.read(night["folder"])
    assert read.input_files == night["written"].input_files
    assert read.tables == night["written"].tables
    assert all("input_files" in t and "shards" not in t for t in read.tables)


def test_a_new_manifest_names_input_files(tmp_path: Path) -> None:
    generate_day(11, DAY, hands=40, out=tmp_path)
    data = json.loads((tmp_path / MANIFEST_NAME).read_text())
    assert "input_files" in data and "shards" not in data
    assert all("input_files" in t and "shards" not in t for t in data["tables"])


def test_the_unreadable_input_file_is_a_finding_with_its_old_words(
    night: dict[str, Any],
) -> None:
    first: NightlySummary = night["first"]
    skipped = [i for i in first.ingested if i.skipped]
    assert [i.input_file for i in skipped] == [BROKEN]
    store = AuditStore(night["url"], create=False)
    try:
        about = [f for f in current_findings(store) if f["subject"] == BROKEN]
    finally:
        store.close()
    assert len(about) == 1
    assert about[0]["detail"] == {"shard": BROKEN, "events_read": 0}
    assert about[0]["citation"].endswith(": shard.readable")


def test_the_rerun_stores_nothing_new_and_reports_the_same(night: dict[str, Any]) -> None:
    first, second = night["first"], night["second"]
    assert second.units_stored == 0
    assert second.findings == first.findings
    assert second.report.jsonl.read_bytes() == first.report.jsonl.read_bytes()
    assert BROKEN in first.report.jsonl.read_text()


def test_a_data_quality_result_written_before_the_rename_appends_nothing_new(
    night: dict[str, Any],
) -> None:
    """The DAG's ``append`` task given the XCom value of a run before the rename: the
    unreadable file's result naming it ``shard``."""
    path = night["folder"] / BROKEN
    data = readability(path, read_input_file(path)).to_json()
    old = {("shard" if key == "part" else key): value for key, value in data.items()}
    assert "part" not in old
    result = QualityResult.from_json(old)
    assert result.part == BROKEN and len(result.findings) == 1
    assert append_findings(night["url"], DAY, [result], []) == 0
