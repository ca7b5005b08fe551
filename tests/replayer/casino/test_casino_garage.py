"""Chemin de fer garage (PT-217/2007 I.34, I.46): what a banker may take out of the bank."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from replayer.casino.garage import check_banker_runs
from simulate.casino import RoundWriter

START = datetime(2024, 5, 2, 22, 0, tzinfo=UTC)
BANKER_WINS = [("player", "2c"), ("banker", "9h"), ("player", "3d"), ("banker", "Kd")]
PONTO_WINS = [("player", "9c"), ("banker", "2h"), ("player", "Kc"), ("banker", "3s")]


def coup(
    n: int,
    bank: int,
    *,
    banker: str = "ana",
    stake: int = 10_000,
    banker_wins: bool = True,
    shoe: str | None = None,
) -> list[dict]:
    """One coup: a bank, one ponto stake, naturals decide, correct settlement."""
    writer = RoundWriter(f"chemmy-1/{n}", START + timedelta(minutes=n))
    writer.emit(
        "RoundOpened",
        rulebook="pt-217-2007-chemin-de-fer",
        table_id="chemmy-1",
        game="chemin_de_fer",
        currency="EUR",
        min_bet=100,
        cagnotte_bps=500,
        shoe_id=shoe,
    )
    writer.emit("BetPlaced", bet_id="bank", player_id=banker, bet_type="bank", amount=bank)
    writer.emit("BetPlaced", bet_id="s0", player_id="rui", bet_type="ponto", amount=stake)
    for to, card in BANKER_WINS if banker_wins else PONTO_WINS:
        writer.emit("CardDealt", to=to, card=card)
    if banker_wins:
        cagnotte = stake * 500 // 10_000
        writer.emit("CagnotteTaken", amount=cagnotte)
        writer.emit("PayoutMade", bet_id="bank", player_id=banker, amount=bank + stake - cagnotte)
    else:
        writer.emit("PayoutMade", bet_id="bank", player_id=banker, amount=bank - stake)
        writer.emit("PayoutMade", bet_id="s0", player_id="rui", amount=2 * stake)
    return writer.events


def kinds(rounds: list[list[dict]]) -> list[tuple[str, str, int]]:
    return [(f.kind, f.subject, f.recorded) for f in check_banker_runs(rounds).findings]


def test_a_bank_kept_in_play_whole_is_never_flagged() -> None:
    # 100,000 + 10,000 won - 500 cagnotte = 109,500, and so on.
    rounds = [
        coup(1, 100_000),
        coup(2, 109_500),
        coup(3, 119_000, banker_wins=False),
        coup(4, 109_000),
    ]
    assert kinds(rounds) == []


def test_half_the_bank_may_go_to_garage_after_the_third_won_coup_i34() -> None:
    wins = [coup(1, 100_000), coup(2, 109_500), coup(3, 119_000)]
    assert kinds([*wins, coup(4, 64_250)]) == []  # 128,500 halved, the larger half kept
    assert kinds([*wins[:2], coup(3, 59_500)]) == [("illegal_action", "chemmy-1/3", 59_500)]


def test_after_the_fifth_won_coup_but_not_the_fourth_i34() -> None:
    wins = [coup(1, 100_000), coup(2, 109_500), coup(3, 119_000), coup(4, 128_500)]
    assert kinds([*wins, coup(5, 68_750)]) == [("illegal_action", "chemmy-1/5", 68_750)]
    assert kinds([*wins, coup(5, 138_000), coup(6, 73_750)]) == []


def test_reduce_to_twice_the_stakes_won_when_the_stakes_did_not_match_the_bank_i46() -> None:
    assert kinds([coup(1, 100_000), coup(2, 20_000)]) == []
    assert kinds([coup(1, 100_000), coup(2, 50_000)]) == [("illegal_action", "chemmy-1/2", 50_000)]


def test_no_garage_after_a_lost_coup_and_a_new_banker_starts_afresh() -> None:
    lost = [coup(1, 100_000), coup(2, 109_500), coup(3, 119_000, banker_wins=False)]
    assert kinds([*lost, coup(4, 20_000)]) == [("illegal_action", "chemmy-1/4", 20_000)]
    assert kinds([*lost, coup(4, 20_000, banker="bo")]) == []


def test_a_banker_who_keeps_the_hand_at_a_new_sabot_may_halve_the_bank_i33() -> None:
    # Misreading X2 of the audit: 109,500 halved to 54,750 at the next sabot is lawful.
    first = coup(1, 100_000, shoe="shoe-A")
    assert kinds([first, coup(2, 54_750, shoe="shoe-B")]) == []
    assert kinds([first, coup(2, 109_500, shoe="shoe-B")]) == []
    # Within one sabot the same cut is still an illegal garage (I.34), and at a new sabot
    # anything but the whole bank or its half is (I.33).
    assert kinds([first, coup(2, 54_750, shoe="shoe-A")]) == [
        ("illegal_action", "chemmy-1/2", 54_750)
    ]
    assert kinds([first, coup(2, 40_000, shoe="shoe-B")]) == [
        ("illegal_action", "chemmy-1/2", 40_000)
    ]


def test_the_hand_at_the_end_of_the_sabot_passes_from_a_banker_who_lost_it_i32() -> None:
    lost = coup(1, 100_000, shoe="shoe-A", banker_wins=False)
    found = check_banker_runs([lost, coup(2, 90_000, shoe="shoe-B")]).findings
    assert [(f.kind, f.citation, f.detail["banker"]) for f in found] == [
        ("illegal_action", "PT-217/2007 I.32", "ana")
    ]
    assert kinds([lost, coup(2, 90_000, banker="bo", shoe="shoe-B")]) == []
    won = coup(1, 100_000, shoe="shoe-A")
    assert kinds([won, coup(2, 109_500, shoe="shoe-B")]) == []


def test_replay_judges_each_table_s_banker_runs(tmp_path) -> None:
    from audit.judging import current_findings, replay
    from audit.store import AuditStore, SubjectRecords

    store = AuditStore(f"sqlite:///{tmp_path / 's.db'}")
    rounds = [coup(1, 100_000), coup(2, 50_000)]
    store.append([SubjectRecords("banked", r[0]["round_id"], r) for r in rounds])
    summary = replay(store, kinds=["banked"])
    assert summary.subjects == {"banked": 2, "banker_run": 1}
    assert [(f["kind"], f["subject"], f["citation"]) for f in current_findings(store)] == [
        ("illegal_action", "chemmy-1/2", "PT-217/2007 I.34, I.46")
    ]


def test_the_night_judges_each_tables_coups_together(store_url: str) -> None:
    """The nightly reads a day's chemin de fer coups from the store, table by table (the
    ledgers name each round's table), finds the illegal reduction, and stores the verdict
    ``replay`` stores for the same coups (one ``banker_run`` subject, one unit)."""
    from datetime import date

    from audit.judging import replay
    from audit.store import AuditStore, SubjectRecords
    from pipelines.detectors.banker_runs import banker_run_units

    rounds = [coup(1, 100_000), coup(2, 50_000), coup(3, 59_500)]
    rounds[0] = [{**event, "round_id": "c/1"} for event in rounds[0]]
    store = AuditStore(store_url)
    try:
        store.append([SubjectRecords("banked", r[0]["round_id"], r) for r in rounds])
        # as two partitions' ledgers list them, out of order: the order judged is time's
        tables = {"chemmy-1": ["chemmy-1/3", "chemmy-1/2", "c/1"]}
        verdict, ledger = banker_run_units(store, date(2025, 3, 1), tables)
        assert verdict.subject_id.startswith("banker_run:table:chemmy-1|")
        assert ledger.records[0]["ledger"]["table:chemmy-1"]["verdict"] == verdict.subject_id
        findings = verdict.records[0]["findings"]
        assert [(f["kind"], f["subject"], f["recorded"]) for f in findings] == [
            ("illegal_action", "chemmy-1/2", 50_000)
        ]
        store.append([verdict])
        replayed = replay(store, kinds=["banked"])
        assert replayed.subjects["banker_run"] == 1
        assert replayed.adjudications_stored == 3  # the coups; the run's verdict is stored
    finally:
        store.close()


def test_the_night_reads_the_coups_its_ledgers_note_or_every_round_of_an_older_ledger(
    tmp_path: Path,
) -> None:
    """A partition's ledger of banked rounds notes which are coups: the night's banker
    runs are looked for among those alone. A ledger stored before it noted them names
    every round it judged, all of which are looked at (``is_coup`` tells)."""
    from datetime import date

    from audit.store import AuditStore
    from pipelines.detectors.banker_runs import night_tables
    from pipelines.night_units import LEDGER, unit

    def entry(table: str) -> dict[str, str]:
        return {"verdict": "banked:...", "table": table}

    noted = unit(
        LEDGER,
        "2025-03-01/banked/p00",
        [],
        family="banked",
        ledger={"chemmy-1/1": entry("chemmy-1"), "pb-1/1": entry("pb-1")},
        coups=["chemmy-1/1"],
    )
    older = unit(
        LEDGER,
        "2025-03-01/banked/p01",
        [],
        family="banked",
        ledger={"chemmy-1/2": entry("chemmy-1"), "pb-1/2": entry("pb-1")},
    )
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        store.append([noted, older])
        tables = night_tables(store, date(2025, 3, 1))
    finally:
        store.close()
    assert {t: sorted(r) for t, r in tables.items()} == {
        "chemmy-1": ["chemmy-1/1", "chemmy-1/2"],
        "pb-1": ["pb-1/2"],
    }
