"""Shoes through the one judging path: ``replay`` and the nightly judge a shoe whole, the
same rounds give the same stored verdict, and a shoe spanning midnight is judged once."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

from audit.judging import current_findings, replay, shoe_subject
from audit.store import AuditStore, SubjectRecords
from pipelines.detectors.shoes import night_shoes, shoe_units
from pipelines.night_units import LEDGER, unit
from tests.replayer.casino.test_casino_shoes import dealt_shoe

NIGHT = date(2024, 5, 2)  # dealt_shoe's rounds start 2024-05-02 20:00 UTC, a minute apart


def stored(url: str, rounds: list[list[dict]]) -> AuditStore:
    store = AuditStore(url)
    store.append([SubjectRecords("banked", r[0]["round_id"], r) for r in rounds])
    return store


def partition_ledger(day: date, rounds: list[list[dict]]) -> SubjectRecords:
    """A partition's ledger of the night's banked rounds, as the nightly stores it."""
    ids = [r[0]["round_id"] for r in rounds]
    entries = {i: {"verdict": f"banked:{i}|x", "table": "t-1"} for i in ids}
    return unit(LEDGER, f"{day}/banked/p00", [], family="banked", ledger=entries, shoe_rounds=ids)


def test_replay_judges_each_shoe_whole(store_url: str) -> None:
    rounds = dealt_shoe("punto_banco", extra_rounds=1)
    store = stored(store_url, rounds)
    try:
        summary = replay(store, kinds=["banked"])
        assert summary.subjects["shoe"] == 1
        shoe = [f for f in current_findings(store) if f["kind"] == "past_last_coup"]
        assert [(f["subject"], f["citation"]) for f in shoe] == [
            (rounds[-1][0]["round_id"], "GG-2022 live II 3.2.2, 3.5.4")
        ]
    finally:
        store.close()


def test_a_shoe_spanning_midnight_is_judged_once_at_the_next_night(store_url: str) -> None:
    rounds = dealt_shoe("chemin_de_fer", extra_rounds=1)
    # the first 40 rounds before midnight, the rest after it
    split = 40
    for k, events in enumerate(rounds):
        shift = timedelta(hours=4) if k >= split else timedelta(0)
        for event in events:
            event["occurred_at"] += shift
    assert rounds[split][0]["occurred_at"].date() == NIGHT + timedelta(days=1)
    store = stored(store_url, rounds)
    try:
        store.append([partition_ledger(NIGHT, rounds[:split])])
        first = shoe_units(store, NIGHT, *night_shoes(store, NIGHT))
        (ledger,) = first  # no verdict: the shoe is still open at the end of the night
        assert ledger.records[0]["ledger"] == {}
        assert list(ledger.records[0]["open"]) == ["shoe:t-1:s-1"]
        store.append(first)
        after = NIGHT + timedelta(days=1)
        store.append([partition_ledger(after, rounds[split:])])
        verdict, ledger = shoe_units(store, after, *night_shoes(store, after))
        assert verdict.records[0]["events_judged"] == sum(len(r) for r in rounds)
        findings = verdict.records[0]["findings"]
        assert [(f["kind"], f["citation"]) for f in findings] == [
            ("past_last_coup", "PT-217/2007 I.14")
        ]
        store.append([verdict, ledger])
        replayed = replay(store, kinds=["banked"])
        assert replayed.subjects["shoe"] == 1
        # the rounds and their banker run are new; the shoe's verdict is the night's unit
        assert replayed.adjudications_stored == len(rounds) + 1
    finally:
        store.close()


def test_a_shoe_closed_in_the_night_is_not_judged_again_the_next(store_url: str) -> None:
    rounds = dealt_shoe("blackjack")
    store = stored(store_url, rounds)
    try:
        store.append([partition_ledger(NIGHT, rounds)])
        verdict, ledger = shoe_units(store, NIGHT, *night_shoes(store, NIGHT))
        assert verdict.records[0]["subject"] == shoe_subject(("t-1", "s-1"))
        assert verdict.records[0]["findings"] == []
        assert ledger.records[0]["open"] == {}
        store.append([verdict, ledger])
        after = NIGHT + timedelta(days=1)
        assert shoe_units(store, after, *night_shoes(store, after)) == []
    finally:
        store.close()


def test_a_shoe_without_a_cut_card_closes_when_the_table_deals_from_another(
    store_url: str,
) -> None:
    old = [[e for e in r if e["type"] != "CutCardDrawn"] for r in dealt_shoe("punto_banco")]
    new = dealt_shoe("punto_banco", seed=2)[:1]
    for events in new:
        for event in events:
            event.update(shoe_id="s-2", round_id="t-1/next")
            event["occurred_at"] += timedelta(hours=2)
    store = stored(store_url, [*old, *new])
    try:
        store.append([partition_ledger(NIGHT, [*old, *new])])
        units = shoe_units(store, NIGHT, *night_shoes(store, NIGHT))
        assert [u.records[0]["subject"] for u in units[:-1]] == ["shoe:t-1:s-1"]
        assert list(units[-1].records[0]["open"]) == ["shoe:t-1:s-2"]
    finally:
        store.close()


def test_show_tells_a_shoe_round_by_round_with_the_break_marked(store_url: str) -> None:
    from audit.explain import show_lines

    rounds = dealt_shoe("punto_banco", extra_rounds=1)
    store = stored(store_url, rounds)
    try:
        replay(store, kinds=["banked"])
        lines = show_lines(store, "shoe:t-1:s-1")
    finally:
        store.close()
    assert lines is not None
    text = "\n".join(lines)
    last, past = rounds[-2][0]["round_id"], rounds[-1][0]["round_id"]
    assert "SHOE shoe:t-1:s-1" in text and "8 decks, cut card 7 cards from the end" in text
    assert f"{last}  " in text and "the cut card came out" in text
    assert f">>> first divergence at round {past}: past_last_coup (finding 1)" in text
    assert "GG-2022 live II 3.5.4" in text and "(current)" in text


def test_a_shoe_s_evidence_bundle_is_judged_again_without_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import copy

    from audit.evidence.check import verify_bundle
    from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
    from tests.bundles import bundle_from_store

    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    rounds = dealt_shoe("chemin_de_fer", extra_rounds=1)
    store = stored(f"sqlite:///{tmp_path / 'store.db'}", rounds)
    try:
        replay(store, kinds=["banked"])
        bundle = bundle_from_store(store, "shoe:t-1:s-1")
    finally:
        store.close()
    key = load_public_key(public)
    assert bundle["subject"] == {"kind": "shoe", "id": "shoe:t-1:s-1"}
    assert len(bundle["inputs"]) == len(rounds) and bundle["events"] == []
    report = verify_bundle(bundle, key)
    assert report.ok, report.problems
    assert "recomputed" in report.proven[1] and "past_last_coup" in report.proven[1]
    changed = copy.deepcopy(bundle)
    del changed["inputs"][-1]  # the round past the last coup left out
    assert not verify_bundle(changed, key).ok
