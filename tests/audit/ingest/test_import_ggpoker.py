"""GGPoker text hand histories in: events, quarantine, idempotency, tricky hands.

The hands are written for this project: ``SAMPLE`` by hand in GGPoker's layout (header,
hashed names, blank ``Dealt to`` lines, ``Total pot … | Rake … | Jackpot …``), the others
by ``tests.room_text_writer`` from simulator and hand-built events.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.ingest.errors import RecordRejected
from audit.ingest.limits import Limits
from audit.ingest.pipeline import ingest
from audit.ingest.quarantine import entries
from audit.ingest.room_text.reader import iter_text_units
from audit.store import AuditStore, SubjectRecords
from cli.main import main
from replayer.rulebooks.registry import NONE_APPLIES
from tests.poker_sim import HandBuilder, simulate
from tests.room_text_writer import write, write_file

SAMPLE = """\
Poker Hand #HD100000001: Hold'em No Limit ($0.05/$0.10) - 2024/03/10 18:30:12
Table 'NLHGold7' 6-max Seat #1 is the button
Seat 1: Hero ($10 in chips)
Seat 2: 4f1a9c2e ($12.50 in chips)
Seat 3: b77e01d3 ($8.20 in chips)
4f1a9c2e: posts small blind $0.05
b77e01d3: posts big blind $0.10
*** HOLE CARDS ***
Dealt to Hero [Ah Kh]
Dealt to 4f1a9c2e
Dealt to b77e01d3
Hero: raises $0.20 to $0.30
4f1a9c2e: folds
b77e01d3: calls $0.20
*** FLOP *** [2c 7d Jh]
b77e01d3: checks
Hero: bets $0.40
b77e01d3: raises $0.80 to $1.20
Hero: calls $0.80
*** TURN *** [2c 7d Jh] [Kd]
b77e01d3: bets $6.70 and is all-in
Hero: calls $6.70
b77e01d3: shows [Jc Js] (three of a kind, Jacks)
Hero: shows [Ah Kh] (a pair of Kings)
*** RIVER *** [2c 7d Jh Kd] [3s]
*** SHOWDOWN ***
b77e01d3 collected $15.93 from pot
*** SUMMARY ***
Total pot $16.45 | Rake $0.50 | Jackpot $0.02 | Bingo $0 | Fortune $0 | Tax $0
Board [2c 7d Jh Kd 3s]
Seat 1: Hero (button) showed [Ah Kh] and lost with a pair of Kings
Seat 2: 4f1a9c2e (small blind) folded before Flop
Seat 3: b77e01d3 (big blind) showed [Jc Js] and won ($15.93) with three of a kind, Jacks
"""
DAMAGED = """\
Poker Hand #HD100000002: Hold'em No Limit ($0.05/$0.10) - 2024/03/10 18:31:00
Table 'NLHGold7' 6-max Seat #2 is the button
Seat 1: Hero ($9.80 in chips)
Seat 2: 4f1a9c2e ($12.45 in chips)
4f1a9c2e: posts small blind $0.05
Hero: posts big blind $0.10
*** HOLE CARDS ***
Dealt to Hero [2h 2d]
Dealt to 4f1a9c2e
4f1a9c2e: teleports $5
*** SUMMARY ***
Total pot $0.15 | Rake $0
"""
AT = datetime(2024, 3, 10, 18, 0, tzinfo=UTC)


def read(
    tmp_path: Path, text: str, rulebooks: tuple[str, ...] = (), zone: str | None = "UTC"
) -> list[Any]:
    """The units of ``text``; ``zone``: the operator's declared zone of GGPoker's clock
    (its headers give none; these samples' times are UTC)."""
    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    return list(iter_text_units(path, rulebooks, Limits(), header_zone=zone))


def only(units: list[Any]) -> list[dict]:
    assert len(units) == 1 and isinstance(units[0], SubjectRecords), units
    return units[0].records


def body(event: dict) -> dict:
    """An event without its envelope (ids, sequence, time) and provenance."""
    skip = {
        "event_id",
        "hand_id",
        "sequence",
        "occurred_at",
        "source",
        "table_id",
        "rulebook",
        "shuffle_commitment",
        "start_time_known",
    }
    return {k: v for k, v in event.items() if k not in skip}


def comparable(events: list[dict]) -> tuple[list, list, list, list]:
    """(play, shows, settlement, end): burns and the deck reveal are not in the text; the
    text puts uncalled bets with the settlement and shows after the board."""
    kept = [body(e) for e in events if e.get("target") != "burn" and e["type"] != "DeckRevealed"]
    settle = ("PotAwarded", "RakeTaken", "FeeTaken", "CashoutPaid")
    return (
        [e for e in kept if e["type"] not in (*settle, "CardsShown", "HandEnded")],
        [e for e in kept if e["type"] == "CardsShown"],
        sorted((e for e in kept if e["type"] in settle), key=repr),
        [e for e in kept if e["type"] == "HandEnded"],
    )


def round_trip(tmp_path: Path, events: list[dict], room: str, hidden: tuple[int, ...] = ()) -> list:
    return only(read(tmp_path, write_file([write(events, room, "77", hidden)])))


# -- the sample -------------------------------------------------------------------------


def test_sample_hand_events(tmp_path: Path) -> None:
    events = only(read(tmp_path, SAMPLE))
    start = events[0]
    assert start["hand_id"] == "ggpoker/HD100000001"
    assert start["table_id"] == "ggpoker/NLHGold7"
    assert start["rulebook"] == "gg-2022-cash-holdem"  # no --rulebook, date covered
    assert (start["currency"], start["small_blind"], start["big_blind"]) == ("USD", 5, 10)
    assert start["occurred_at"] == datetime(2024, 3, 10, 18, 30, 12, tzinfo=UTC)
    assert "time zone not in the header: UTC, declared by the operator" in start["source"]
    assert start["seats"][1] == {"seat": 2, "player_id": "4f1a9c2e", "stack": 1250}
    holes = [e["cards"] for e in events if e.get("target") == "hole"]
    assert holes == [["Ah", "Kh"], ["??", "??"], ["??", "??"]]
    raises = [e["amount"] for e in events if e.get("action") == "raise"]
    assert raises == [30, 120]  # "raises $0.80 to $1.20" puts in 1.20 on a new street
    settle = [(e["type"], e.get("kind"), e["amount"]) for e in events if "amount" in e][-3:]
    assert settle == [
        ("PotAwarded", None, 1593),
        ("FeeTaken", "jackpot", 2),
        ("RakeTaken", None, 50),
    ]
    assert events[-1]["finishing_stacks"] == [180, 1245, 1593]


def test_the_rulebook_follows_the_date_and_the_option(tmp_path: Path) -> None:
    old = SAMPLE.replace("2024/03/10", "2021/03/10")
    assert only(read(tmp_path, old))[0]["rulebook"] == NONE_APPLIES  # before GG-2022
    chosen = only(read(tmp_path, SAMPLE, ("pt-217-2007-holdem",)))
    assert chosen[0]["rulebook"] == "pt-217-2007-holdem"


def test_a_damaged_hand_is_quarantined_beside_good_ones(tmp_path: Path) -> None:
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    path = tmp_path / "day.txt"
    path.write_text(write_file([SAMPLE, DAMAGED, SAMPLE.replace("HD100000001", "HD100000003")]))
    summary = ingest(store, [path], header_zone="UTC")
    assert (summary.subjects_stored, summary.quarantined) == (2, 1)
    [entry] = list(entries(store))
    assert entry.position == "hand HD100000002 at line 35"
    assert entry.field == "line 44"
    assert "not understood: '4f1a9c2e: teleports $5'" in entry.reason
    again = ingest(store, [path], header_zone="UTC")  # idempotent: nothing new
    assert (again.subjects_stored, again.subjects_already_stored, again.events_stored) == (0, 2, 0)
    assert len(list(entries(store))) == 1


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (("Hold'em No Limit ($0.05", "7 Card Stud Limit ($0.05"), "game not supported: 7 Card"),
        (("($0.05/$0.10)", "(¥5/¥10)"), "unknown currency symbol"),
        (("calls $0.20", "calls $0.205"), "not a whole number of minor units"),
        (("Dealt to Hero [Ah Kh]", "Dealt to Hero [Ah Jc]"), "card Jc is dealt twice"),
        (("bets $6.70 and is all-in", "bets $9.70"), "more than the chips it has behind"),
        (("*** SUMMARY ***\n", ""), "not understood"),
        (("| Tax $0", "| Tips $0"), "unknown deduction"),
    ],
)
def test_bad_hands_are_refused_with_line_and_reason(
    tmp_path: Path, change: tuple[str, str], reason: str
) -> None:
    [rejected] = read(tmp_path, SAMPLE.replace(*change))
    assert reason in str(rejected), str(rejected)
    assert rejected.field.startswith("line ")


def test_hostile_names_are_kept_as_given(tmp_path: Path) -> None:
    names = {"4f1a9c2e": "a: b [c] (d)", "b77e01d3": "Seat 3: x ($1 in chips)"}
    text = SAMPLE
    for old, new in names.items():
        text = text.replace(old, new)
    events = only(read(tmp_path, text))
    assert [s["player_id"] for s in events[0]["seats"]] == ["Hero", *names.values()]
    assert [e["seat"] for e in events if e["type"] == "ActionTaken"][:3] == [1, 2, 3]


# -- simulator hands, written and read back -----------------------------------------------


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    seed=st.integers(0, 10**9),
    room=st.sampled_from(["ggpoker", "pokerstars"]),
    variant=st.sampled_from(["NT", "PO"]),
)
def test_simulated_hands_read_back_the_same(
    tmp_path: Path, seed: int, room: str, variant: str
) -> None:
    hand = simulate(random.Random(seed), variant, hand_number=seed % 1000)
    got, sent = round_trip(tmp_path, hand.events, room), hand.events
    if room == "ggpoker":  # GG writes "from pot" for every pot: which one is not in the text
        got, sent = without_pot_of_awards(got), without_pot_of_awards(sent)
    assert comparable(got) == comparable(sent)


def without_pot_of_awards(events: list[dict]) -> list[dict]:
    return [{**e, "pot_index": None} if e["type"] == "PotAwarded" else e for e in events]


def test_undisclosed_hole_cards_are_unknown(tmp_path: Path) -> None:
    hand = simulate(random.Random(7), "NT", players=3, hand_number=7)
    seats = [s["seat"] for s in hand.events[0]["seats"]]
    events = round_trip(tmp_path, hand.events, "ggpoker", hidden=tuple(seats[1:]))
    holes = {e["seat"]: e["cards"] for e in events if e.get("target") == "hole"}
    assert all(holes[s] == ["??", "??"] for s in seats[1:]) and "??" not in holes[seats[0]]


# -- tricky hands ---------------------------------------------------------------------------


def three_all_ins() -> HandBuilder:
    """Side pots: three players all-in for different amounts, a fourth covers them."""
    return (
        HandBuilder(stacks={1: 500, 2: 1000, 3: 1500, 4: 3000}, button=4, at=AT)
        .post(1, "small_blind", 5)
        .post(2, "big_blind", 10)
        .hole(1, "Ah Ad")
        .hole(2, "Kh Kd")
        .hole(3, "Qh Qd")
        .hole(4, "2c 3h")
        .act(3, "raise", 1500)
        .act(4, "call", 1500)
        .act(1, "call", 495)
        .act(2, "call", 990)
        .burn("3c")
        .board("4s 8h 9c")
        .burn("5c")
        .board("Jd")
        .burn("6c")
        .board("Ts")
        .show(3, "Qh Qd")
        .show(4, "2c 3h")
        .show(1, "Ah Ad")
        .show(2, "Kh Kd")
        .award(1, 2000, 0)
        .award(2, 1500, 1)
        .award(3, 1000, 2)
        .end([2000, 1500, 1000, 1500])
    )


def split_with_odd_chip() -> HandBuilder:
    """Two straights split a pot of 37 with a dead small blind in it: 18 each, one left."""
    return (
        HandBuilder(stacks={1: 100, 2: 100, 3: 100}, button=3, at=AT)
        .post(1, "small_blind", 1)
        .post(2, "big_blind", 2)
        .post(3, "missed_big_blind", 2)
        .post(3, "dead_small_blind", 1)
        .hole(1, "Ah 2d")
        .hole(2, "Ac 3d")
        .hole(3, "9h 9d")
        .act(3, "raise", 10)
        .act(1, "call", 11)
        .act(2, "call", 10)
        .board("Kd Qs Jh")
        .board("Tc")
        .board("4c")
        .act(2, "check")
        .act(3, "check")
        .act(1, "check")
        .show(2, "Ac 3d")
        .show(3, "9h 9d")
        .show(1, "Ah 2d")
        .award(1, 18, 0)
        .award(2, 18, 0)
        .end([106, 106, 87])
    )


def run_twice_with_fees() -> HandBuilder:
    """All-in on the flop, run twice (one run each); rake over a cap; a jackpot fee."""
    builder = (
        HandBuilder(stacks={1: 2000, 2: 2000}, button=2, at=AT)
        .post(2, "small_blind", 5)
        .post(1, "big_blind", 10)
        .hole(1, "Jh Jd")
        .hole(2, "Ac Kd")
        .act(2, "raise", 195)
        .act(1, "call", 190)
        .board("5s Js 8h")
        .act(1, "bet", 1800)
        .act(2, "call", 1800)
        .show(2, "Ac Kd")
        .show(1, "Jh Jd")
    )
    builder._add("BoardRun", run=1)
    builder.board("5d").board("7s")
    builder._add("BoardRun", run=2)
    builder.board("Qd").board("Th")
    builder._add("BoardRun", run=1)
    builder.award(1, 1940, 0)
    builder._add("BoardRun", run=2)
    builder.award(2, 1940, 0)
    builder._add("FeeTaken", kind="jackpot", amount=20, pot_index=None, seat=None)
    return builder.rake(100).end([1940, 1940])


@pytest.mark.parametrize("room", ["ggpoker", "pokerstars"])
@pytest.mark.parametrize("make", [three_all_ins, split_with_odd_chip, run_twice_with_fees])
def test_tricky_hands_read_back_the_same(tmp_path: Path, room: str, make: Any) -> None:
    events = make().events
    if room == "pokerstars" and any(e["type"] == "FeeTaken" for e in events):
        events = [e for e in events if e["type"] != "FeeTaken"]  # PokerStars prints no fees
    got = round_trip(tmp_path, events, room)
    assert comparable(got) == comparable(events)
    runs = [e["run"] for e in got if e["type"] == "BoardRun"]
    assert runs == ([1, 2, 1, 2] if make is run_twice_with_fees else [])


def test_a_hand_run_twice_with_a_jackpot_is_judged(tmp_path: Path) -> None:
    """Read back from GGPoker text: each run's pot share by its own board, the jackpot
    kept apart from the rake, the rake alone over the cap (no data_quality)."""
    from replayer.poker.replay import adjudicate_hand
    from replayer.rulebooks.poker import FeeTerms, RakeTerms

    events = round_trip(tmp_path, run_twice_with_fees().events, "ggpoker")
    verdict = adjudicate_hand(
        events,
        rake_terms=RakeTerms(min_bps=0, max_bps=500, cap=30),
        fee_terms=FeeTerms(kinds=frozenset({"jackpot"})),
    )
    kinds = {str(f.kind) for f in verdict.findings}
    assert "data_quality" not in kinds and "fee_not_allowed" not in kinds
    [breach] = [f for f in verdict.findings if f.kind == "rake_cap_breach"]
    assert breach.recorded == 100  # the jackpot of 20 is not rake
    assert verdict.expected_payouts == {1: 1975, 2: 1975}  # (4000 - 30 - 20) / 2 runs
    assert (verdict.expected_fees, verdict.pots[0].winners) == (20, (1, 2))


# -- a room's rake schedule ---------------------------------------------------------------

SCHEDULE = """{
  "room": "ggpoker", "operator": "GGPoker", "source": "NLH rake page (test copy)",
  "effective_from": "2022-09-28T00:00:00+00:00",
  "stakes": [{"game": "NT", "currency": "USD", "small_blind": "0.05", "big_blind": "0.10",
              "rake_bps": 500, "cap": "0.30", "cap_per": "hand", "no_flop_no_drop": true}]
}"""


def test_a_rake_schedule_declares_the_table_terms(tmp_path: Path) -> None:
    from audit.ingest.room_text.schedule import RakeSchedule
    from audit.judging import judge_stored

    (tmp_path / "rake.json").write_text(SCHEDULE)
    (tmp_path / "hand.txt").write_text(SAMPLE)
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    for stored in (1, 0):  # idempotent: the same declaration again is already stored
        schedule = RakeSchedule(tmp_path / "rake.json")
        summary = ingest(store, [tmp_path / "hand.txt"], rake_schedule=schedule, header_zone="UTC")
        assert (summary.subjects_stored, summary.quarantined) == (2 * stored, 0)
    [terms] = store.records_of("table", "ggpoker/NLHGold7")
    assert (terms["rake_max_bps"], terms["rake_cap"], terms["currency"]) == (500, 30, "USD")
    judged = judge_stored(store, "poker", "ggpoker/HD100000001")
    assert judged is not None
    kinds = {finding.kind for finding in judged[1].findings}
    assert "rake_cap_breach" in kinds  # 0.50 taken, cap 0.30: the jackpot is not rake
    assert "data_quality" not in kinds  # the jackpot fee is judged, apart from the rake
    [fee] = [f for f in judged[1].findings if "jackpot" in f.reason]
    assert (fee.kind, fee.recorded) == ("terms_missing", 2)  # no fee terms declared


@pytest.mark.parametrize(
    ("fees", "fee_kinds"),
    [
        ('{"kinds": ["jackpot"], "max_bps": 100, "cap": "0.05"}', set()),
        ('{"kinds": ["bingo"]}', {"fee_not_allowed"}),
        ('{"kinds": ["jackpot"], "cap": "0.01"}', {"fee_not_allowed"}),
    ],
)
def test_a_rake_schedule_declares_the_fees_apart_from_the_rake(
    tmp_path: Path, fees: str, fee_kinds: set[str]
) -> None:
    from audit.ingest.room_text.schedule import RakeSchedule
    from audit.judging import judge_stored

    with_fees = SCHEDULE.replace(
        '"no_flop_no_drop": true}', f'"no_flop_no_drop": true, "fees": {fees}}}'
    )
    (tmp_path / "rake.json").write_text(with_fees)
    (tmp_path / "hand.txt").write_text(SAMPLE)
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    schedule = RakeSchedule(tmp_path / "rake.json")
    summary = ingest(store, [tmp_path / "hand.txt"], rake_schedule=schedule, header_zone="UTC")
    assert (summary.subjects_stored, summary.quarantined) == (2, 0)
    [terms] = store.records_of("table", "ggpoker/NLHGold7")
    assert terms["fee_kinds"] in (["jackpot"], ["bingo"])
    judged = judge_stored(store, "poker", "ggpoker/HD100000001")
    assert judged is not None
    kinds = {finding.kind for finding in judged[1].findings}
    assert "rake_cap_breach" in kinds  # the rake alone against its cap, fees or not
    assert "terms_missing" not in kinds  # the fee terms are declared
    assert kinds - {"rake_cap_breach", "mispaid_pot"} == fee_kinds


def test_a_schedule_with_bad_fees_cannot_run(tmp_path: Path) -> None:
    from audit.ingest.room_text.schedule import BadSchedule, RakeSchedule

    for fees, field in (
        ('{"kinds": ["insurance"]}', "stakes[0].fees.kinds"),
        ('{"kinds": "jackpot"}', "stakes[0].fees.kinds"),
        ('{"kinds": [], "max_bps": 10001}', "stakes[0].fees.max_bps"),
        ('{"kinds": [], "cap": 1}', "stakes[0].fees.cap"),
        ("[]", "stakes[0].fees"),
    ):
        path = tmp_path / "rake.json"
        path.write_text(
            SCHEDULE.replace(
                '"no_flop_no_drop": true}', f'"no_flop_no_drop": true, "fees": {fees}}}'
            )
        )
        with pytest.raises(BadSchedule, match=re.escape(field)):
            RakeSchedule(path)


def test_a_bad_rake_schedule_cannot_run(tmp_path: Path) -> None:
    from audit.ingest.room_text.schedule import BadSchedule, RakeSchedule

    (tmp_path / "rake.json").write_text(SCHEDULE.replace('"0.30"', "0.30"))
    with pytest.raises(BadSchedule, match=r"stakes\[0\]\.cap: expected text"):
        RakeSchedule(tmp_path / "rake.json")


def test_a_header_without_a_zone_is_quarantined_unless_one_is_declared(tmp_path: Path) -> None:
    (rejected,) = read(tmp_path, SAMPLE, zone=None)
    assert isinstance(rejected, RecordRejected)
    assert rejected.field == "time zone (line 1)"
    assert "gives no time zone" in rejected.reason and "--header-zone" in rejected.reason
    malta = only(read(tmp_path, SAMPLE, zone="Europe/Malta"))[0]  # CET in March: UTC+1
    assert malta["occurred_at"] == datetime(2024, 3, 10, 17, 30, 12, tzinfo=UTC)
    assert "Europe/Malta, declared by the operator" in malta["source"]


def test_ingest_refuses_an_unknown_header_zone(tmp_path: Path, capsys) -> None:
    (tmp_path / "hands.txt").write_text(SAMPLE, encoding="utf-8")
    store = f"sqlite:///{tmp_path / 's.db'}"
    args = ["--store", store, "ingest", "--header-zone", "Mars/Olympus", str(tmp_path)]
    assert main(args) == 2
    assert "--header-zone: unknown time zone 'Mars/Olympus'" in capsys.readouterr().err
    assert main(["--store", store, "ingest", str(tmp_path)]) == 1  # quarantined, not stored
    assert "gives no time zone" in capsys.readouterr().out
