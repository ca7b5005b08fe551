"""Issue 38, "Done when" 1: the demo plants every class across records and scores it.

A small day of the demo's kind (``simulate.demo.demo_extras``: the demo's generators and
fault rates, fewer subjects) is judged by the nightly itself. Every class across records
(``simulate.across.ACROSS_CLASSES``: a table's session, a shoe, chemin de fer across
coups, a tournament across its hands, the clock) is planted at least once, every planted
fault is found with the finding kind it must raise, and no finding of those kinds falls
on a subject where none was planted. The oracle is the manifest of what was planted,
written by the simulator before any judging.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from audit.judging import current_findings
from audit.store import AuditStore
from pipelines.nightly import run_nightly
from simulate import generate_day
from simulate.across import ACROSS_CLASSES, ClassScore, across_lines, across_scores
from simulate.demo import DEMO_DAY, DEMO_SEED, demo_extras
from simulate.manifest import DayManifest, PlantedFault
from simulate.score import finding_pairs, score


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[DayManifest, set[tuple[str, str]]]:
    root = tmp_path_factory.mktemp("demo-across")
    extras = demo_extras(rounds=600, machines=2, tournaments=12, clock_hands=20, session_hands=40)
    manifest = generate_day(
        DEMO_SEED, DEMO_DAY, hands=160, out=root / "in" / DEMO_DAY.isoformat(), extra=extras
    )
    url = f"sqlite:///{root / 'store.db'}"
    run_nightly(url, root / "in", DEMO_DAY, root / "out", workers=1)
    store = AuditStore(url)
    try:
        found = set(finding_pairs(current_findings(store)))
    finally:
        store.close()
    return manifest, found


@pytest.fixture(scope="module")
def report_rows(
    judged: tuple[DayManifest, set[tuple[str, str]]], tmp_path_factory: pytest.TempPathFactory
) -> list[dict[str, Any]]:
    folder = next(tmp_path_factory.getbasetemp().glob("demo-across*"))
    lines = (folder / "out" / DEMO_DAY.isoformat() / "findings.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_every_class_across_records_is_planted_found_and_raises_no_false_alarm(
    judged: tuple[DayManifest, set[tuple[str, str]]],
) -> None:
    manifest, found = judged
    scores = across_scores(manifest, found)
    assert [(s.area, s.kind) for s in scores] == [(a, k) for a, k, _ in ACROSS_CLASSES]
    for s in scores:
        assert s.planted >= 1, s
        assert (s.found, s.false_alarms) == (s.planted, ()), s
    lines = across_lines(manifest, found)
    assert len([line for line in lines if line.endswith(" 0 false")]) == len(ACROSS_CLASSES)


def test_the_rest_of_the_small_demo_day_scores_whole(
    judged: tuple[DayManifest, set[tuple[str, str]]],
) -> None:
    manifest, found = judged
    result = score(manifest, found)
    assert (result.precision, result.recall) == (1.0, 1.0), result.lines()


def test_every_finding_across_records_names_the_tables_declared_operator(
    report_rows: list[dict[str, Any]],
) -> None:
    """A banker run's finding (PT-217/2007 I.32, I.34) names the operator its table
    declared, as a shoe's and a round's do (it named none: its verdict read no terms); a
    tournament table's session its tournament's (the tournament is its own table)."""
    kinds = {row["subject_kind"] for row in report_rows}
    assert {"banker_run", "shoe", "table_session"} <= kinds
    assert [(r["subject_kind"], r["subject"]) for r in report_rows if not r["operator"]] == []


def test_a_class_missed_or_alarmed_shows_in_its_score() -> None:
    """The score's own arithmetic: a planted fault not found, a finding where none was."""
    manifest = DayManifest(7, "2025-03-01", 0, [], [], [], [])
    manifest.faults += [
        PlantedFault("button_stuck", "t/2", ("button_not_rotated",), {}),
        PlantedFault("button_stuck", "t/9", ("button_not_rotated",), {}),
    ]
    found = {("t/2", "button_not_rotated"), ("t/5", "button_not_rotated")}
    stuck = next(s for s in across_scores(manifest, found) if s.kind == "button_stuck")
    assert stuck == ClassScore(
        "table session",
        "button_stuck",
        ("button_not_rotated",),
        planted=2,
        found=1,
        false_alarms=(("t/5", "button_not_rotated"),),
    )
