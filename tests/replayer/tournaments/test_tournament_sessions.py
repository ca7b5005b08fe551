"""A tournament's table judged across its hands (issue 38 item 2): a player's chips
continue from one hand to the next and into another table he is moved to (MO-97/2010
art.4(2): no chips leave the table), and none come in without a rebuy or add-on.

Simulated tournaments (``simulate.tournament_tables``: the replayer's own play, each hand
legal on its own) are the planting ground: every planted fall or rise, between two hands
or in a move, is found with its kind on its hands, and the untouched tables raise
nothing. Real public tournament hands (the 2023 WSOP Event #43 day 5, PHH, vendored) carry
every stack from one hand to the next: read as one table, no finding; a fall planted in
them is found.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from audit.ingest.phh import PhhRecord, hand_events, iter_phh_records
from audit.ingest.room_text.lines import TOPPED_UP
from audit.judging.table_sessions import judge_table_sessions
from audit.wording.sentences import sentence
from replayer.findings import Finding, FindingKind
from replayer.poker.replay import adjudicate_hand
from replayer.sessions import adjudicate_session, table_sessions
from replayer.sessions.chaining import Link
from replayer.sessions.hands import REBUY_NOTE
from simulate.session_faults import (
    TOURNAMENT_CHIPS_REMOVED,
    plant_chip_removal,
    shift_from,
)
from simulate.tournament_tables import FAULTS, play_tournament_tables

AT = datetime(2024, 3, 10, 14, tzinfo=UTC)
Hands = list[list[dict[str, Any]]]


def judged(hands: Hands) -> list[Finding]:
    """Every finding of every session among a tournament's ``hands``, through the path
    ``replay`` and the nightly take (``audit.judging.judge_table_sessions``)."""
    return [f for _, verdict in judge_table_sessions(hands) for f in verdict.findings]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_clean_tournament_raises_nothing_across_its_hands(seed: int) -> None:
    hands, planted = play_tournament_tables(seed, f"mtt-{seed}", AT)
    assert planted == []
    assert [f for h in hands for f in adjudicate_hand(h).findings] == []
    assert judged(hands) == []
    # the blinds rose and players moved between tables: neither breaks a session or is
    # read as chips leaving
    tables = {h[0]["table_id"] for h in hands}
    assert len({h[0]["big_blind"] for h in hands}) > 1
    assert all(
        len(table_sessions([h for h in hands if h[0]["table_id"] == t])) == 1 for t in tables
    )
    seen: dict[str, set[str]] = {}
    for hand in hands:
        for seat in hand[0]["seats"]:
            seen.setdefault(seat["player_id"], set()).add(hand[0]["table_id"])
    assert any(len(at) > 1 for at in seen.values())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_planted_chips_leaving_or_appearing_are_each_found(seed: int) -> None:
    hands, planted = play_tournament_tables(seed, f"mtt-{seed}", AT, fault_rate=0.3)
    assert {f.kind for f in planted} == set(FAULTS)
    assert [f for h in hands for f in adjudicate_hand(h).findings] == []  # legal alone
    found = {(f.detail["hands"][1], str(f.kind)) for f in judged(hands)}
    expected = {(f.subject, kind) for f in planted for kind in f.findings}
    assert found == expected
    for finding in judged(hands):
        fault = next(f for f in planted if f.subject == finding.detail["hands"][1])
        assert abs(finding.difference) == fault.detail["amount"]
        assert finding.detail["player"] == fault.detail["player"]


def _pair(seed: int = 4) -> tuple[Hands, dict[str, Any]]:
    """A clean table's hands and the carried seat of the first consecutive pair."""
    hands, _ = play_tournament_tables(seed, "mtt-pair", AT, tables=1)
    return hands, hands[1][0]["seats"][0]


def test_a_fall_cites_the_article_and_is_shown_in_tournament_chips() -> None:
    hands, seat = _pair()
    lowered = plant_chip_removal(hands[1], seat["player_id"], 70_000)  # 700 chips
    assert lowered is not None
    (finding,) = adjudicate_session([e for h in (hands[0], lowered) for e in h]).findings
    assert finding.kind is FindingKind.TOURNAMENT_CHIPS_VANISHED
    assert finding.citation == "casino-audit tournament chips; GG-2022 Poker Regras"
    assert finding.difference == -70_000
    for currency in (hands[1][0]["currency"], "CHIPS"):  # a feed's chips, a room's text's
        text = sentence({**finding.as_dict(), "currency": currency})
        assert " chips left the table" in text and "USD" not in text and "EUR" not in text
    assert "700 chips left the table" in sentence({**finding.as_dict(), "currency": "XXX"})


def test_a_rise_is_chips_from_nowhere_unless_the_hand_records_a_rebuy() -> None:
    hands, seat = _pair()
    raised = plant_chip_removal(hands[1], seat["player_id"], -500)
    assert raised is not None
    (finding,) = adjudicate_session([e for h in (hands[0], raised) for e in h]).findings
    assert finding.kind is FindingKind.TOURNAMENT_CHIPS_APPEARED and finding.difference == 500
    noted = [dict(e) for e in raised]
    noted[0]["source"] = f"sim; {REBUY_NOTE}"
    assert adjudicate_session([e for h in (hands[0], noted) for e in h]).findings == ()
    assert TOPPED_UP.fullmatch("Hero re-buys and receives 3000 chips for $10.00")
    assert TOPPED_UP.fullmatch("Hero takes the add-on and receives 5000 chips for $10.00")


def test_a_player_out_of_chips_comes_back_only_as_a_new_entry() -> None:
    """A stack of 0 is an elimination: a later stack is a re-entry, the tournament's."""
    hands, seat = _pair()
    first = [dict(e) for e in hands[0]]
    index = [s["seat"] for s in first[0]["seats"]].index(seat["seat"])
    ended = next(i for i, e in enumerate(first) if e["type"] == "HandEnded")
    stacks = list(first[ended]["finishing_stacks"])
    stacks[index] = 0
    first[ended] = {**first[ended], "finishing_stacks": stacks}
    assert adjudicate_session([e for h in (first, hands[1]) for e in h]).findings == ()


def test_cash_and_each_tournament_at_one_table_name_are_cut_apart() -> None:
    hands, _ = play_tournament_tables(5, "mtt-a", AT, tables=1, hands=6)
    other, _ = play_tournament_tables(6, "mtt-b", AT + timedelta(seconds=20), tables=1, hands=6)
    renamed = [[{**h[0], "table_id": hands[0][0]["table_id"]}, *h[1:]] for h in other]
    sessions = table_sessions(hands + renamed)
    assert [len(s.hands) for s in sessions] == [6, 6]
    assert all(link in (Link.FIRST, Link.CONSECUTIVE) for s in sessions for link in s.links)


def test_a_player_moved_to_another_table_arrives_with_his_chips() -> None:
    """The move is seen (he left one table with chips and joined another); judged with
    the hands he moved from, untouched it is no finding, changed it is one."""
    seeds = range(1, 9)
    moves = 0
    for seed in seeds:
        hands, _ = play_tournament_tables(seed, f"mtt-{seed}", AT)
        for _, verdict in judge_table_sessions(hands):
            moves += Link.MOVED_FROM in verdict.links
            assert verdict.findings == ()
    assert moves > 0
    found = planted = 0
    for seed in seeds:
        hands, faults = play_tournament_tables(seed, f"mtt-{seed}", AT, fault_rate=0.5)
        moved = {(f.subject, k) for f in faults if f.detail.get("moved") for k in f.findings}
        findings = judged(hands)
        seen = {(f.detail["hands"][1], str(f.kind)) for f in findings if "tables" in f.detail}
        assert seen == moved
        assert {(f.detail["hands"][1], str(f.kind)) for f in findings} == {
            (f.subject, k) for f in faults for k in f.findings
        }
        found, planted = found + len(seen), planted + len(moved)
    assert found == planted > 0


# -- real public tournament hands ---------------------------------------------------------

WSOP = "wsop/2023/43/5"
"""The 2023 WSOP Event #43, day 5 (PHH, vendored: hands 27-30 follow one another)."""


def _as_tournament_table(hands: Hands) -> Hands:
    """Real hands of one tournament table, each as its importer stored it (PHH numbers a
    hand's seats from the small blind, names no table and no time of day), given what
    the broadcast shows: one table, one seat a player (by name), a minute apart."""
    seats: dict[str, int] = {}
    out: Hands = []
    for number, events in enumerate(hands):
        start = events[0]
        for seat in start["seats"]:
            seats.setdefault(seat["player_id"], len(seats) + 1)
        renumber = {s["seat"]: seats[s["player_id"]] for s in start["seats"]}
        table = [
            {**e, "seat": renumber[e["seat"]]} if isinstance(e.get("seat"), int) else dict(e)
            for e in events
        ]
        table[0] = {
            **table[0],
            "seats": [{**s, "seat": renumber[s["seat"]]} for s in start["seats"]],
            "table_id": "WSOP 2023 #43 day 5",
            "tournament_id": "wsop-2023-43",
            "button": None,
            "occurred_at": AT + timedelta(minutes=number),
        }
        out.append(table)
    return out


def test_real_wsop_hands_carry_every_stack_and_a_planted_fall_is_found(phh_sample: Path) -> None:
    real: Hands = []
    for number in (27, 28, 29, 30):
        (record,) = iter_phh_records(phh_sample / WSOP / f"{number}.phh")
        assert isinstance(record, PhhRecord)
        real.append(hand_events(record))
    # as stored, each hand is a table of its own with no time of day: no session
    assert judged(real) == []
    hands = _as_tournament_table(real)
    verdicts = [v for _, v in judge_table_sessions(hands)]
    assert [v.links for v in verdicts] == [("first hand at the table", *["consecutive"] * 3)]
    assert verdicts[0].findings == ()
    player = hands[2][0]["seats"][0]["player_id"]
    amount = shift_from(hands, 2, player, TOURNAMENT_CHIPS_REMOVED)  # from hand 29 on
    assert amount
    (finding,) = judged(hands)
    assert finding.kind is FindingKind.TOURNAMENT_CHIPS_VANISHED
    assert finding.difference == -amount and finding.detail["player"] == player
    assert finding.detail["hands"] == ["5/28", "5/29"]


# -- through the one judging path -----------------------------------------------------------


def test_replay_judges_a_tournaments_tables_and_a_moves_bundle_is_judged_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ingested and replayed (a tournament's hands judged together, so a move is seen):
    the stored findings are the planted faults, a second replay stores nothing, and a
    session whose arrival moved from another table bundles that table's hands too, from
    which ``verify_bundle`` judges it again offline."""
    from audit.evidence.check import verify_bundle
    from audit.ingest.pipeline import ingest
    from audit.judging import current_findings, replay
    from audit.store import AuditStore
    from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
    from simulate.tournament_tables import tournament_tables_day
    from tests.bundles import bundle_from_store

    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    # seed 2: one of the faults is planted in a move
    files, planted = tournament_tables_day(2, fault_rate=0.5)(2, AT.date(), tmp_path)
    assert any(f.detail.get("moved") for f in planted)
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        ingest(store, [tmp_path / name for name in files])
        assert replay(store).subjects["table_session"] == 4
        rows = [
            row
            for kind in ("tournament_chips_vanished", "tournament_chips_appeared")
            for row in current_findings(store, kind)
        ]
        assert {(r["detail"]["hands"][1], r["kind"]) for r in rows} == {
            (f.subject, k) for f in planted for k in f.findings
        }
        assert all(r["currency"] == "XXX" and " chips " in sentence(r) for r in rows)
        assert replay(store).adjudications_stored == 0
        moved = next(r for r in rows if "tables" in r["detail"])
        bundle = bundle_from_store(store, moved["subject"])
    finally:
        store.close()
    tables = {g["subject"].split("/t")[1][0] for g in bundle["inputs"]}
    assert len(tables) == 2  # the session's own table and the one its arrival left
    report = verify_bundle(bundle, load_public_key(public))
    assert report.ok, report.problems


def test_the_nightly_judges_a_tournaments_tables_together_as_replay_does(
    tmp_path: Path,
) -> None:
    """The nightly reads a tournament's hands together (its poker ledger names the
    tournament), so a move is judged there too: the planted faults found, and ``replay``
    afterwards stores no other verdict."""
    from audit.judging import current_findings, replay
    from audit.store import AuditStore
    from pipelines.nightly.steps import run_nightly
    from simulate.tournament_tables import tournament_tables_day

    day = AT.date()
    folder = tmp_path / "in" / day.isoformat()
    folder.mkdir(parents=True)
    _, planted = tournament_tables_day(2, fault_rate=0.5)(2, day, folder)  # as in replay's
    assert any(f.detail.get("moved") for f in planted)
    url = f"sqlite:///{tmp_path / 'store.db'}"
    run_nightly(url, tmp_path / "in", day, tmp_path / "out")
    store = AuditStore(url)
    try:
        found = {
            (row["detail"]["hands"][1], row["kind"])
            for kind in ("tournament_chips_vanished", "tournament_chips_appeared")
            for row in current_findings(store, kind)
        }
        assert found == {(f.subject, k) for f in planted for k in f.findings}
        assert replay(store).adjudications_stored == 0
    finally:
        store.close()


# -- a room's text: the rebuy line ------------------------------------------------------------

_HEADER = (
    "PokerStars Hand #2500000000{n}: Tournament #3200000002, $5+$0.50 USD Hold'em No Limit"
    " - Level I (10/20) - 2015/03/01 12:0{n}:00 ET\n"
    "Table '3200000002 3' 9-max Seat #{button} is the button\n"
)
ROOM_HANDS = (
    _HEADER.format(n=1, button=3)
    + """\
Seat 1: ana.r (1500 in chips)
Seat 2: kit_b (1500 in chips)
Seat 3: lou (1500 in chips)
ana.r: posts small blind 10
kit_b: posts big blind 20
*** HOLE CARDS ***
lou: folds
ana.r: folds
Uncalled bet (10) returned to kit_b
kit_b collected 20 from pot
kit_b: doesn't show hand
*** SUMMARY ***
Total pot 20 | Rake 0
Seat 1: ana.r (small blind) folded before Flop
Seat 2: kit_b (big blind) collected (20)
Seat 3: lou (button) folded before Flop



"""
    + _HEADER.format(n=2, button=1)
    + """\
kit_b re-buys and receives 1500 chips for $5.00
Seat 1: ana.r (1490 in chips)
Seat 2: kit_b (3010 in chips)
Seat 3: lou (1500 in chips)
kit_b: posts small blind 10
lou: posts big blind 20
*** HOLE CARDS ***
ana.r: folds
kit_b: folds
Uncalled bet (10) returned to lou
lou collected 20 from pot
lou: doesn't show hand
*** SUMMARY ***
Total pot 20 | Rake 0
Seat 1: ana.r (button) folded before Flop
Seat 2: kit_b (small blind) folded before Flop
Seat 3: lou (big blind) collected (20)
"""
)


def _room_hands(tmp_path: Path, text: str) -> Hands:
    from audit.ingest.limits import Limits
    from audit.ingest.room_text.reader import iter_text_units
    from audit.store import SubjectRecords

    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    read = [u for u in iter_text_units(path, (), Limits()) if isinstance(u, SubjectRecords)]
    return [u.records for u in read]


def test_a_rooms_rebuy_line_records_the_rise_and_without_it_chips_appear(tmp_path: Path) -> None:
    hands = _room_hands(tmp_path, ROOM_HANDS)
    assert len(hands) == 2 and all(h[0]["tournament_id"] for h in hands)
    # judged alone, room text names no rulebook: nothing else to say of either hand
    assert {f.kind for h in hands for f in adjudicate_hand(h).findings} == {"no_rulebook"}
    assert judged(hands) == []  # the rebuy is in the record
    unrecorded = _room_hands(
        tmp_path, ROOM_HANDS.replace("kit_b re-buys and receives 1500 chips for $5.00\n", "")
    )
    (finding,) = judged(unrecorded)
    assert finding.kind is FindingKind.TOURNAMENT_CHIPS_APPEARED
    assert finding.detail["player"] == "kit_b" and finding.difference == 1500
    assert "1,500 chips came from nowhere" in sentence({**finding.as_dict(), "currency": "CHIPS"})


# -- the add-on of a break, which rooms' text does not log ----------------------------------
# (a real PokerStars rebuy tournament's file: every player who took the add-on in the break
# between levels V and VI starts the next hand 500 chips up, nothing in the text says so)


def _summary(hand: str, stakes: tuple[int, int, int], stacks: dict[str, tuple[int, int]]) -> Any:
    from replayer.sessions.hands import HandSummary, Seat

    seats = tuple(
        Seat(n, player, stack, end, 0) for n, (player, (stack, end)) in enumerate(stacks.items(), 1)
    )
    return HandSummary(hand, "t 1", AT, "XXX", stakes, 1, None, seats, False, tournament_id="t")


BEFORE = {"ann": (3720, 3600), "bo": (600, 1920), "cy": (13575, 13455), "di": (1720, 1120)}
LEVEL_V, LEVEL_VI = (300, 600, 120), (400, 800, 160)


def _rises(after_stakes: tuple[int, int, int], rises: dict[str, int]) -> list[Finding]:
    from replayer.sessions.continuity import tournament_findings

    after = {p: (end + rises.get(p, 0), 0) for p, (_, end) in BEFORE.items()}
    return list(
        tournament_findings(
            "s", _summary("h1", LEVEL_V, BEFORE), _summary("h2", after_stakes, after)
        )
    )


def test_the_add_on_of_a_break_is_read_where_several_rise_alike_across_a_level() -> None:
    assert _rises(LEVEL_VI, dict.fromkeys(BEFORE, 500)) == []
    assert _rises(LEVEL_VI, {"ann": 500, "bo": 500}) == []  # two took it


def test_a_rise_the_break_does_not_explain_is_still_judged() -> None:
    (alone,) = _rises(LEVEL_VI, {"ann": 500})  # one player alone
    assert alone.kind is FindingKind.TOURNAMENT_CHIPS_APPEARED
    assert len(_rises(LEVEL_V, dict.fromkeys(BEFORE, 500))) == 4  # no level change
    assert len(_rises(LEVEL_VI, {"ann": 500, "bo": 700})) == 2  # different amounts
    fall = _rises(LEVEL_VI, {"ann": 500, "bo": 500, "cy": -300})
    assert [f.kind for f in fall] == [FindingKind.TOURNAMENT_CHIPS_VANISHED]
