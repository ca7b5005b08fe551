"""Every verdict is a pure function of stored facts, whatever path asks for it.

Over the whole demo day (every poker hand, banked round, slot machine, tournament and
table of ``casino-audit demo``), on SQLite and PostgreSQL: the nightly's verdict, the
report's findings, ``replay``'s verdict and ``show``'s (``judge_stored``) are the same
for every subject; ``replay`` after the night stores no new verdict for any of them (only
the chemin de fer banker runs, which the night judges as a detector), and twice nothing;
a changed declaration of table terms re-judges that table's hands as new, later verdicts
and keeps the old ones.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import timedelta
from pathlib import Path

import pytest

from audit.explain import show_lines
from audit.judging import (
    BANKER_RUN,
    KIND,
    SHOE,
    TABLE_SESSION,
    current_adjudications,
    current_findings,
    judge_stored,
    replay,
)
from audit.store import AuditStore, SubjectRecords
from pipelines.nightly import run_nightly
from simulate.day import generate_day
from simulate.demo import (
    DEMO_CLOCK_HANDS,
    DEMO_DAY,
    DEMO_HANDS,
    DEMO_SEED,
    DEMO_SESSION_HANDS,
    DEMO_TOURNAMENT_TABLES,
    demo_day,
)
from simulate.tournament_tables import HANDS_PER_TABLE, TABLES

JUDGED_KINDS = ("poker", "banked", "slots", "tournament", "table")


@pytest.fixture(scope="module")
def day_input(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("demo-input")
    demo_day(root)
    return root


def _verdicts(store: AuditStore) -> dict[tuple[str, str], list[str]]:
    return {
        (unit["kind"], unit["subject"]): sorted(f["finding_id"] for f in unit["findings"])
        for unit in current_adjudications(store)
        if unit["kind"] in JUDGED_KINDS
    }


def _report(out: Path) -> dict[tuple[str, str], list[str]]:
    """(kind, subject) -> the ids of the report's findings from its verdict (the rows
    whose source is the replay; data-quality and detector rows come from other units).
    By kind too: a slot machine or a tournament is also its own table (its declared
    operator), one id under two kinds."""
    by_subject: dict[tuple[str, str], list[str]] = defaultdict(list)
    lines = (out / DEMO_DAY.isoformat() / "findings.jsonl").read_text().splitlines()
    for line in lines:
        finding = json.loads(line)
        if finding["source"] == "replay":
            key = (finding["subject_kind"], finding["subject"])
            by_subject[key].append(finding["finding_id"])
    return {key: sorted(ids) for key, ids in by_subject.items()}


def test_every_path_gives_the_same_verdict(store_url: str, day_input: Path, tmp_path: Path) -> None:
    out = tmp_path / "reports"
    run_nightly(store_url, day_input, DEMO_DAY, out, workers=2)
    store = AuditStore(store_url)
    try:
        night = _verdicts(store)
        kinds = {kind for kind, _ in night}
        assert kinds == set(JUDGED_KINDS)
        tournament_tables = DEMO_TOURNAMENT_TABLES * TABLES * HANDS_PER_TABLE
        hands = DEMO_HANDS + DEMO_CLOCK_HANDS + DEMO_SESSION_HANDS + tournament_tables
        assert sum(kind == "poker" for kind, _ in night) == hands

        report = _report(out)
        for key, ids in night.items():
            assert report.get(key, []) == ids, key
        # one operator rule: every finding of the day about a subject at a table names its
        # declared operator, slot machines and tournaments theirs (declared as their own
        # tables); a collusion suspicion is about players over the window, at no one table
        lines = (out / DEMO_DAY.isoformat() / "findings.jsonl").read_text().splitlines()
        every = [json.loads(line) for line in lines]
        rows = [r for r in every if r["kind"] != "collusion_suspected"]
        assert len(rows) == len(every) - 2  # the demo's two planted pairs
        assert {r["subject_kind"] for r in rows} >= {"slots", "tournament"}
        assert [r["subject"] for r in rows if not r["operator"]] == []
        assert {r["operator"] for r in rows if r["subject_kind"] == "slots"} == {"Casino Estoril"}
        assert {r["operator"] for r in rows if r["subject_kind"] == "tournament"} == {"GGPoker"}

        for (kind, subject), ids in night.items():
            judged = judge_stored(store, kind, subject, with_steps=False)
            assert judged is not None
            assert sorted(f.finding_id for f in judged[1].findings) == ids, subject

        _show_one_of_each_kind(store, night)

        first = replay(store)
        assert set(first.subjects) == {*JUDGED_KINDS, BANKER_RUN, SHOE, TABLE_SESSION}
        assert first.subjects[BANKER_RUN] > 0
        assert first.subjects[TABLE_SESSION] > 0  # the tables' consecutive hands
        assert first.subjects[SHOE] > 0  # every shoe the tables dealt ends within the day
        assert first.adjudications_stored == 0  # the night stored every verdict replay gives
        assert _verdicts(store) == night
        assert replay(store).adjudications_stored == 0
    finally:
        store.close()


@pytest.fixture(scope="module")
def small_day(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Poker only, eight tables: enough for re-judging one table's hands."""
    root = tmp_path_factory.mktemp("small-input")
    generate_day(DEMO_SEED, DEMO_DAY, hands=400, out=root / DEMO_DAY.isoformat())
    return root


def _declaration(store: AuditStore, table_id: str) -> dict:
    [declared] = store.records_of("table", table_id)
    return declared


def test_a_changed_declaration_is_a_new_later_verdict(
    store_url: str, small_day: Path, tmp_path: Path
) -> None:
    run_nightly(store_url, small_day, DEMO_DAY, tmp_path / "reports", workers=1)
    store = AuditStore(store_url)
    try:
        table = "gg-nt-001"
        before = {
            key: ids for key, ids in _verdicts(store).items() if key[1].startswith(f"{table}/")
        }
        units_before = sum(1 for _ in store.iter_subject_ids(KIND))
        declared = _declaration(store, table)
        changed = {
            **declared,
            "event_id": f"{table}#terms-1",
            "sequence": 1,
            "occurred_at": declared["occurred_at"] + timedelta(days=1),
            "effective_from": declared["effective_from"] + timedelta(days=1),
            "rake_cap": 1,  # a cap of one minor unit: every raked hand now breaches it
        }
        store.append([SubjectRecords("table", table, [changed])])
        summary = replay(store, kinds=("poker",))
        rejudged = {
            key: ids for key, ids in _verdicts(store).items() if key[1].startswith(f"{table}/")
        }
        assert summary.adjudications_stored >= len(before) == len(rejudged)
        assert sum(1 for _ in store.iter_subject_ids(KIND)) == (
            units_before + summary.adjudications_stored
        )
        assert summary.findings.get("rake_cap_breach", 0) > 10
        assert rejudged != before
        kept = judge_stored(store, "poker", next(iter(before))[1], with_steps=False)
        assert kept is not None and kept[0].terms is not None
        assert kept[0].terms["sequence"] == 1
    finally:
        store.close()


def _show_one_of_each_kind(store: AuditStore, night: dict[tuple[str, str], list[str]]) -> None:
    """``show`` explains one subject of each kind of the demo store; for a poker payout
    finding it names the player, the amounts in currency and what is owed."""
    for kind in JUDGED_KINDS:
        subject = next(s for k, s in night if k == kind)
        lines = show_lines(store, subject)
        assert lines and subject in lines[0], kind
    # the demo's two planted pairs (chip dumping, whipsaw) are found, and each opens
    suspected = {f["subject"] for f in current_findings(store, "collusion_suspected")}
    assert suspected == {"pair:gg-p0200|gg-p0290", "pair:mo-p0055|mo-p0080"}
    for subject in suspected:
        lines = show_lines(store, subject)
        assert lines and subject in lines[0]
    # the worked example of docs/evidence.md: a rake over the cap is one finding, and show
    # says what the winner is owed
    [over_cap] = [
        f
        for f in current_findings(store, "rake_cap_breach")
        if f["subject"] == "gg-nt-007/20250301-000080"
    ]
    text = "\n".join(show_lines(store, over_cap["subject"]) or [])
    assert "seat 2 (gg-p0203) is paid USD 2.53" in text
    assert "the rules pay USD 2.88, recorded USD 2.53: USD 0.35 owed to the player" in text
