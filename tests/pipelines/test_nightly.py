"""The nightly reconciliation over a small hand-made day (pipelines.nightly).

Two poker input files of a day: clean hands, a mispaid pot, a hand that never ends, a hand
whose chips do not add up, a duplicated event id and an invalid card; the nightly must
find each, store the findings, write the report, and store nothing new when rerun.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from audit.families import family_named
from audit.ingest.avro_files import write_events
from audit.judging import current_findings
from audit.store import AuditStore
from pipelines.expectations.frames import poker_frames
from pipelines.nightly.partitions import partition_of
from tests.three_handed import CARDS, three_handed

DAY = date(2025, 3, 1)


def poker_hand(
    table: str,
    number: int,
    *,
    award: int = 150,
    ended: bool = True,
    cards: tuple[str, ...] = CARDS,
    duplicate_id: bool = False,
) -> list[dict[str, Any]]:
    """A three-handed hold'em hand (``tests.three_handed``): the big blind wins."""
    at = datetime(DAY.year, DAY.month, DAY.day, 12, tzinfo=UTC) + timedelta(minutes=number)
    return three_handed(
        f"{table}/{number}",
        at,
        table=table,
        award=award,
        pot_index=None,
        cards=cards,
        ended=ended,
        duplicate_id=duplicate_id,
    )


def write_day(root: Path, day: date = DAY) -> Path:
    """Two input files under ``root/<day>/poker/``; returns ``root``."""
    folder = root / day.isoformat() / "poker"
    folder.mkdir(parents=True, exist_ok=True)
    poker = family_named("poker")
    first = [e for n in range(1, 4) for e in poker_hand("casino-a/t1", n)]
    first += poker_hand("casino-a/t1", 4, award=120)  # mispaid, and chips not conserved
    first += poker_hand("casino-a/t1", 5, ended=False)  # never ends
    second = [e for n in range(1, 3) for e in poker_hand("casino-b/t2", n)]
    second += poker_hand("casino-b/t2", 3, duplicate_id=True)
    second += poker_hand("casino-b/t2", 4, cards=("As", "Kd", "7c", "2h", "Qs", "Zz"))
    write_events(folder / "0001.avro", poker, first)
    write_events(folder / "0002.avro", poker, second)
    return root


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The nightly run twice over the same day and store (GX imported once per module)."""
    from pipelines.nightly import run_nightly

    base = tmp_path_factory.mktemp("night")
    url = f"sqlite:///{base / 'store.db'}"
    inputs = write_day(base / "in")
    first = run_nightly(url, inputs, DAY, base / "out")
    store = AuditStore(url)
    events_after_first = store.count_events()
    findings_first = sorted(f["finding_id"] for f in current_findings(store))
    store.close()
    second = run_nightly(url, inputs, DAY, base / "out")
    store = AuditStore(url)
    result = {
        "url": url,
        "base": base,
        "first": first,
        "second": second,
        "events_after_first": events_after_first,
        "events_after_second": store.count_events(),
        "findings_first": findings_first,
        "findings": list(current_findings(store)),
        "chain_ok": store.verify().ok,
    }
    store.close()
    return result


def _quality(night: dict[str, Any]) -> dict[str, set[str]]:
    by_check: dict[str, set[str]] = {}
    for finding in night["findings"]:
        if finding["kind"] == "data_quality":
            check = finding["citation"].rpartition(": ")[2]
            by_check.setdefault(check, set()).add(finding["subject"])
    return by_check


def test_the_replayer_finds_the_mispaid_pot(night: dict[str, Any]) -> None:
    mispaid = {f["subject"] for f in night["findings"] if f["kind"] == "mispaid_pot"}
    assert mispaid == {"casino-a/t1/4"}
    assert night["first"].findings["mispaid_pot"] == 1


def test_each_planted_data_fault_is_a_data_quality_finding_about_its_hand(
    night: dict[str, Any],
) -> None:
    quality = _quality(night)
    assert quality["hand.completeness"] == {"casino-a/t1/5"}
    assert quality["hand.chips_conserved"] == {"casino-a/t1/4"}
    assert quality["event_id.unique"] == {"casino-b/t2/3"}
    # a card that is no card is refused at ingest (quarantined): its hand is judged
    # incomplete, a data-quality finding naming the missing sequence, never by the rules
    assert quality["casino-audit event sequence"] == {"casino-b/t2/4"}
    assert night["first"].quarantined == 1
    clean = {"casino-a/t1/1", "casino-a/t1/2", "casino-b/t2/1"}
    assert not clean & set().union(*quality.values())


def test_a_rerun_stores_nothing_and_finds_the_same(night: dict[str, Any]) -> None:
    assert night["events_after_second"] == night["events_after_first"]
    assert sorted(f["finding_id"] for f in night["findings"]) == night["findings_first"]
    assert night["second"].units_stored == 0
    assert night["first"].findings == night["second"].findings
    assert night["chain_ok"]


def test_the_report_lists_findings_with_citations_and_commands(night: dict[str, Any]) -> None:
    report = night["first"].report
    page = report.html.read_text()
    assert " show casino-a/t1/4</code>" in page  # the full command, with --store
    assert "<code>casino-audit --store " in page
    assert "casino-audit data quality: hand.completeness" in page
    assert report.plots == []  # no table declares a cap, no suspects, no slot machines
    assert "Data Docs" in page
    rows = [json.loads(line) for line in report.jsonl.read_text().splitlines()]
    assert {r["kind"] for r in rows} == {"mispaid_pot", "data_quality"}
    assert {r["table"] for r in rows if r["subject"] == "casino-a/t1/4"} == {"casino-a/t1"}
    assert report.csv.read_text().count("\n") == len(rows) + 1
    docs = sorted((night["base"] / "out" / DAY.isoformat() / "data-docs").glob("*/index.html"))
    hands = {f"casino-a/t1/{n}" for n in range(1, 6)} | {f"casino-b/t2/{n}" for n in range(1, 5)}
    assert len(docs) == len({partition_of(h) for h in hands})  # one site per part judged


def test_the_rerun_rewrites_the_same_report(night: dict[str, Any]) -> None:
    assert night["first"].report.jsonl.read_bytes() == night["second"].report.jsonl.read_bytes()


def test_a_day_without_a_folder_has_no_input_files(tmp_path: Path) -> None:
    from pipelines.nightly import discover_input_files

    write_day(tmp_path)
    assert discover_input_files(tmp_path, date(2025, 3, 2)) == []
    assert [p.name for p in discover_input_files(tmp_path, DAY)] == ["0001.avro", "0002.avro"]


def test_the_command_exits_1_on_data_problems_and_2_when_it_cannot_run(
    night: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli.main import main

    inputs, out = night["base"] / "in", night["base"] / "out"

    def nightly(store: str = night["url"], day: str = DAY.isoformat()) -> int:
        arguments = ["--store", store, "nightly", "--date", day]
        return main([*arguments, "--input", str(inputs), "--out", str(out)])

    assert nightly() == 1
    printed = capsys.readouterr().out
    assert "mispaid_pot" in printed
    assert str(out / DAY.isoformat() / "report.html") in printed
    assert nightly(day="2025-03-02") == 2
    assert "no Avro input files for 2025-03-02" in capsys.readouterr().err
    assert nightly(day="yesterday") == 2
    assert nightly(store="mysql://x") == 2


def test_a_void_hand_refunded_short_is_the_replayers_finding_not_chips_missing() -> None:
    """A voided hand closed by a HandEnded stays void for the data-quality frame: whether
    its chips were returned is ``void_hand_not_refunded`` (the replayer's), never also
    ``hand.chips_conserved``; a settled hand paid short still is."""

    def hand(hand_id: str, middle: list[dict[str, Any]]) -> list[dict[str, Any]]:
        start = {"type": "HandStarted", "hand_id": hand_id, "big_blind": 100}
        start["seats"] = [{"seat": 1, "stack": 1000}, {"seat": 2, "stack": 1000}]
        events = [
            start,
            {"type": "BlindPosted", "hand_id": hand_id, "seat": 1, "amount": 50},
            {"type": "BlindPosted", "hand_id": hand_id, "seat": 2, "amount": 100},
            *middle,
            {"type": "PotAwarded", "hand_id": hand_id, "seat": 2, "amount": 100},
            {"type": "HandEnded", "hand_id": hand_id},
        ]
        return [{**e, "sequence": n, "event_id": f"{hand_id}-{n}"} for n, e in enumerate(events)]

    void = hand("void", [{"type": "HandVoided", "hand_id": "void", "reason": "misdeal"}])
    short = hand("short", [])
    hands = poker_frames([*void, *short])["hands"].set_index("subject")
    assert hands.loc["void", "end_type"] == "HandVoided"
    assert hands.loc["void", "unaccounted"] != hands.loc["void", "unaccounted"]  # NaN: unjudged
    assert hands.loc["short", "end_type"] == "HandEnded"
    assert hands.loc["short", "unaccounted"] == 50


def test_the_report_reads_the_verdicts_a_ledger_notes_or_all_of_an_older_ledger(
    night: dict[str, Any], tmp_path: Path
) -> None:
    """A partition's ledger notes which subjects' verdicts have findings, and the report
    reads those alone; a ledger stored before it did (no ``with_findings``) has every
    verdict read: the same rows either way."""
    import shutil

    from pipelines.night_units import LEDGER, iter_days_units, unit
    from pipelines.report import load_day

    shutil.copy(night["base"] / "store.db", tmp_path / "store.db")
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        ledgers = list(iter_days_units(store, [DAY], [LEDGER]))
        noted = {s for _, record in ledgers for s in record["with_findings"]}
        assert {"casino-a/t1/4", "casino-b/t2/4"} <= noted  # mispaid; a card quarantined
        assert not {"casino-a/t1/1", "casino-a/t1/5"} & noted  # clean; a data-quality finding
        assert any(f["subject"] == "casino-a/t1/5" for f in night["findings"])
        rows = load_day(store, DAY).rows
        older = [
            unit(LEDGER, scope, [], family=record["family"], ledger=record["ledger"])
            for (_, scope), record in ledgers
        ]
        store.append(older)  # later, so current: as a night before the notes stored them
        assert load_day(store, DAY).rows == rows
    finally:
        store.close()
