"""Events outside the night's window (``pipelines.night_window``): one day's files copied
into another day's folder are a data-quality finding of that night, per subject, with
the tolerance (``CASINO_AUDIT_NIGHT_TOLERANCE``) a named setting; the night they belong
to has none. ``casino-audit nightly`` and the DAG's partition task share the step
(``pipelines.nightly.steps.judge_partition``)."""

from __future__ import annotations

import shutil
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from audit.judging import current_findings
from audit.store import AuditStore
from cli.main import main
from pipelines.night_window import (
    CITATION,
    BadTolerance,
    NightWindow,
    outside_night,
    tolerance_from_env,
)
from tests.pipelines.test_nightly import DAY, write_day

OTHER = date(2025, 3, 5)


def _at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


def test_the_window_is_the_utc_day_widened_by_the_tolerance() -> None:
    window = NightWindow(DAY, timedelta(minutes=60))
    assert window.holds(_at(DAY, 0)) and window.holds(_at(DAY, 23, 59))
    assert window.holds(_at(DAY, 0) - timedelta(minutes=60))
    assert not window.holds(_at(DAY, 0) - timedelta(minutes=61))
    assert window.holds(_at(DAY + timedelta(days=1), 0, 59))
    assert not window.holds(_at(DAY + timedelta(days=1), 1))


def test_a_subject_is_outside_only_when_none_of_its_events_is_in_the_window() -> None:
    window = NightWindow(OTHER, timedelta(minutes=60))
    across = [
        {"occurred_at": _at(OTHER - timedelta(days=1), 23, 50)},
        {"occurred_at": _at(OTHER, 0, 5)},
    ]
    assert outside_night(window, "h/1", across) is None  # a hand across midnight
    assert outside_night(window, "h/2", [{"occurred_at": "no time"}]) is None
    late = outside_night(
        window, "h/3", [{"occurred_at": _at(DAY, 12)}, {"occurred_at": _at(DAY, 13)}]
    )
    assert late is not None and late.subject == "h/3" and late.citation == CITATION
    assert "2025-03-05" in late.reason and "2025-03-01 12:00 to 2025-03-01 13:00" in late.reason


def test_the_tolerance_is_a_named_setting_and_a_bad_one_is_refused() -> None:
    assert tolerance_from_env({}) == timedelta(minutes=60)
    assert tolerance_from_env({"CASINO_AUDIT_NIGHT_TOLERANCE": "0"}) == timedelta(0)
    for bad in ("-5", "1.5", "1441", "soon"):
        with pytest.raises(BadTolerance, match="CASINO_AUDIT_NIGHT_TOLERANCE"):
            tolerance_from_env({"CASINO_AUDIT_NIGHT_TOLERANCE": bad})


def _outside(url: str) -> dict[str, set[str]]:
    """Night scope -> subjects of its ``events.in_night`` findings."""
    store = AuditStore(url)
    try:
        found: dict[str, set[str]] = {}
        for finding in current_findings(store):
            if finding["citation"] == CITATION:
                found.setdefault(finding["subject"], set()).add(finding["reason"])
        return found
    finally:
        store.close()


def test_another_days_files_in_a_days_folder_are_found_by_the_nightly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = write_day(tmp_path / "in")  # 2025-03-01's files
    shutil.copytree(inputs / DAY.isoformat(), inputs / OTHER.isoformat())
    url = f"sqlite:///{tmp_path / 'store.db'}"
    nightly = ["--store", url, "nightly", "--input", str(inputs), "--out", str(tmp_path / "out")]
    assert main([*nightly, "--date", DAY.isoformat(), "--workers", "1"]) in (0, 1)
    assert _outside(url) == {}  # the night the files belong to
    assert main([*nightly, "--date", OTHER.isoformat(), "--workers", "1"]) == 1
    outside = _outside(url)
    assert set(outside) == {
        f"casino-{t}/{n}" for t, count in (("a/t1", 5), ("b/t2", 4)) for n in range(1, count + 1)
    }
    assert all(
        "no event falls in the night of 2025-03-05" in r for rs in outside.values() for r in rs
    )
    capsys.readouterr()


def test_the_dags_mapped_steps_find_them_too(tmp_path: Path) -> None:
    """The DAG's task instances (``pipelines.nightly.chunk_steps``: ``ingest_chunk`` over
    input files, ``judge_chunk`` over partitions) give the same finding."""
    from pipelines.nightly.chunk_steps import ingest_chunk, judge_chunk
    from pipelines.nightly.partitions import PARTITIONS

    inputs = write_day(tmp_path / "in")
    shutil.copytree(inputs / DAY.isoformat(), inputs / OTHER.isoformat())
    url = f"sqlite:///{tmp_path / 'store.db'}"
    files = sorted(str(p) for p in (inputs / OTHER.isoformat()).rglob("*.avro"))
    ingest_chunk(url, OTHER, files)
    judged = judge_chunk(url, OTHER, list(range(PARTITIONS)))
    assert sum(p["quality_findings"] for p in judged) >= 9
    assert len(_outside(url)) == 9


def test_a_tables_standing_declaration_is_never_outside_the_night(tmp_path: Path) -> None:
    """A table's declared terms hold from their ``effective_from`` on: the tables' file in
    a night's folder, dated when first declared (2024), is no other day's event."""
    from audit.families import family_named
    from audit.ingest.avro_files import write_events
    from tests.audit.show.test_show import declaration

    inputs = write_day(tmp_path / "in")
    write_events(
        inputs / DAY.isoformat() / "tables.avro",
        family_named("table"),
        [declaration("casino-a/t1", "gg-2022-cash-holdem", "nlhe")],
    )
    url = f"sqlite:///{tmp_path / 'store.db'}"
    argv = ["--store", url, "nightly", "--input", str(inputs), "--out", str(tmp_path / "out")]
    assert main([*argv, "--date", DAY.isoformat(), "--workers", "1"]) in (0, 1)
    assert _outside(url) == {}
