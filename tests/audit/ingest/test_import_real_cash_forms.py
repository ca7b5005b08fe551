# ruff: noqa: E501  (the rooms' header lines are longer than 100 characters)
"""Cash hands in forms the rooms (and a common tracker) really write, read and stored
with the room's own summary as the oracle (issue 21): GGPoker run three times (a later
run's board its own cards only), the flop printed in another order, a player showing
again at each run's showdown (PokerStars), short deck antes, button blind and
re-straddles, an over-straddle all-in, Holdem Manager's ``raises Y to Y``, a PokerStars
capped table, ``Hand cancelled``, Split Hold'em, GGPoker's Cash Drop, and a short deck
client's ``FIRST`` / ``Board [..]`` summary. Every hand here is written for this project,
with our own names and amounts, in the line shapes of the real files; each stored one
has its pot, rake and collected amounts equal to its summary, and a broken variant is
quarantined naming its line and field."""

from __future__ import annotations

import json
from pathlib import Path

import fastavro

from audit.families import SCHEMA_DIR, family_named
from audit.ingest.avro_files import to_avro
from audit.ingest.errors import RecordRejected
from audit.ingest.limits import Limits
from audit.ingest.phh.export import hand_phh
from audit.ingest.pipeline import ingest
from audit.ingest.room_text.building import TRACKER_RAISE
from audit.ingest.room_text.parser import CANCELLED
from audit.ingest.room_text.reader import iter_text_units
from audit.show.poker import HandVoice
from audit.store import AuditStore, SubjectRecords
from replayer.findings import FindingKind
from replayer.poker.replay import adjudicate_hand

GG_THRICE = """\
Poker Hand #OM900000001: PLO ($1/$2) - 2024/03/05 10:00:00
Table 'PLOSilver2' 6-max Seat #3 is the button
Seat 1: a1b2c3d4 ($150 in chips)
Seat 2: Hero ($120 in chips)
Seat 3: 5e6f7a8b ($200 in chips)
a1b2c3d4: posts small blind $1
Hero: posts big blind $2
*** HOLE CARDS ***
Dealt to a1b2c3d4
Dealt to Hero [Ah Kh Qd Jd]
Dealt to 5e6f7a8b
5e6f7a8b: folds
a1b2c3d4: raises $4 to $6
Hero: calls $4
*** FLOP *** [9c 4s 9d]
a1b2c3d4: bets $10
Hero: raises $104 to $114 and is all-in
a1b2c3d4: calls $104
Hero: shows [Ah Kh Qd Jd] (Pair of Nines)
a1b2c3d4: shows [Tc Ts 8h 7h] (Two Pair, Tens and Nines)
*** FIRST TURN *** [9c 4s 9d] [Kc]
*** FIRST RIVER *** [9c 4s 9d Kc] [2h]
*** SECOND TURN *** [9c 4s 9d] [6c]
*** SECOND RIVER *** [9c 4s 9d 6c] [3s]
*** THIRD TURN *** [9c 4s 9d] [Ad]
*** THIRD RIVER *** [9c 4s 9d Ad] [5h]
*** FIRST SHOWDOWN ***
Hero collected $78 from pot
*** SECOND SHOWDOWN ***
a1b2c3d4 collected $78 from pot
*** THIRD SHOWDOWN ***
Hero collected $78 from pot
*** SUMMARY ***
Total pot $240 | Rake $6 | Jackpot $0 | Bingo $0
Hand was run three times
FIRST Board [9c 4s 9d Kc 2h]
SECOND Board [6c 3s]
THIRD Board [Ad 5h]
Seat 1: a1b2c3d4 (small blind) showed [Tc Ts 8h 7h] and lost with Two Pair, and won ($78) with Two Pair, and lost with Two Pair
Seat 2: Hero (big blind) showed [Ah Kh Qd Jd] and won ($78) with Two Pair, and lost with Pair of Nines, and won ($78) with Two Pair
Seat 3: 5e6f7a8b (button) folded before Flop (didn't bet)
"""
GG_FLOP_ORDER = """\
Poker Hand #HD900000002: Hold'em No Limit ($0.05/$0.1) - 2024/03/05 10:05:00
Table 'NLHGold9' 6-max Seat #1 is the button
Seat 1: Hero ($10 in chips)
Seat 2: 77aa88bb ($10 in chips)
Seat 3: c0ffee12 ($10 in chips)
77aa88bb: posts small blind $0.05
c0ffee12: posts big blind $0.1
*** HOLE CARDS ***
Dealt to Hero [Qs Qd]
Dealt to 77aa88bb
Dealt to c0ffee12
Hero: raises $0.2 to $0.3
77aa88bb: folds
c0ffee12: calls $0.2
*** FLOP *** [Ad 7d 9d]
c0ffee12: checks
Hero: checks
*** TURN *** [7d 9d Ad] [2s]
c0ffee12: bets $0.5
Hero: calls $0.5
*** RIVER *** [7d 9d Ad 2s] [4h]
c0ffee12: checks
Hero: checks
c0ffee12: shows [Ac Kc] (Pair of Aces)
Hero: shows [Qs Qd] (Pair of Queens)
*** SHOWDOWN ***
c0ffee12 collected $1.59 from pot
*** SUMMARY ***
Total pot $1.65 | Rake $0.06 | Jackpot $0 | Bingo $0 | Fortune $0 | Tax $0
Board [7d 9d Ad 2s 4h]
Seat 1: Hero (button) showed [Qs Qd] and lost with Pair of Queens
Seat 2: 77aa88bb (small blind) folded before Flop
Seat 3: c0ffee12 (big blind) showed [Ac Kc] and won ($1.59) with Pair of Aces
"""
PS_TWICE = """\
PokerStars Hand #250000000001:  Omaha Pot Limit ($1/$2 USD) - 2024/03/05 12:00:00 CET [2024/03/05 6:00:00 ET]
Table 'Vega II' 6-max Seat #2 is the button
Seat 1: rui.s ($200 in chips)
Seat 2: olga_p ($60 in chips)
Seat 3: Tam B ($300 in chips)
Tam B: posts small blind $1
rui.s: posts big blind $2
*** HOLE CARDS ***
Dealt to olga_p [As Ks Qh Jh]
olga_p: raises $5 to $7
Tam B: folds
rui.s: raises $14 to $21
olga_p: raises $39 to $60 and is all-in
rui.s: calls $39
*** FIRST FLOP *** [2c 7d 8s]
*** FIRST TURN *** [2c 7d 8s] [Tc]
*** FIRST RIVER *** [2c 7d 8s Tc] [3h]
Tam B leaves the table
*** SECOND FLOP *** [4d 5c Kh]
*** SECOND TURN *** [4d 5c Kh] [Qs]
*** SECOND RIVER *** [4d 5c Kh Qs] [2d]
*** FIRST SHOW DOWN ***
rui.s: shows [9h 9d 6c 6d] (a straight, Six to Ten)
olga_p: shows [As Ks Qh Jh] (high card Ace)
rui.s collected $59.50 from pot
*** SECOND SHOW DOWN ***
rui.s: shows [9h 9d 6c 6d] (a pair of Nines)
olga_p: shows [As Ks Qh Jh] (two pair, Kings and Queens)
olga_p collected $59.50 from pot
*** SUMMARY ***
Total pot $121 | Rake $2
Hand was run twice
FIRST Board [2c 7d 8s Tc 3h]
SECOND Board [4d 5c Kh Qs 2d]
Seat 1: rui.s (big blind) showed [9h 9d 6c 6d] and won ($59.50) with a straight, Six to Ten, and lost with a pair of Nines
Seat 2: olga_p (button) showed [As Ks Qh Jh] and lost with high card Ace, and won ($59.50) with two pair, Kings and Queens
Seat 3: Tam B (small blind) folded before Flop
"""
GG_SHORT_DECK = """\
Poker Hand #SD900000003: ShortDeck No Limit ($1) - 2024/03/05 13:00:00
Table 'SDGold5' 5-max Seat #2 is the button
Seat 1: 1a2b3c4d ($120 in chips)
Seat 2: 5e6f7a8b ($100 in chips)
Seat 4: Hero ($90 in chips)
5e6f7a8b: posts the ante $1
1a2b3c4d: posts the ante $1
Hero: posts the ante $1
5e6f7a8b: posts button blind $1
5e6f7a8b: straddle $2
5e6f7a8b: straddle $4
*** HOLE CARDS ***
Dealt to 1a2b3c4d
Dealt to 5e6f7a8b
Dealt to Hero [9s 9c]
Hero: folds
1a2b3c4d: calls $4
5e6f7a8b: raises $4 to $8
1a2b3c4d: calls $4
*** FLOP *** [Ah 6d Ks]
1a2b3c4d: bets $7
5e6f7a8b: calls $7
*** TURN *** [Ah 6d Ks] [Qc]
1a2b3c4d: checks
5e6f7a8b: checks
*** RIVER *** [Ah 6d Ks Qc] [8h]
1a2b3c4d: checks
5e6f7a8b: checks
1a2b3c4d: shows [Qh Ts] (Pair of Queens)
5e6f7a8b: shows [8d Td] (Pair of Eights)
*** SHOWDOWN ***
1a2b3c4d collected $32.5 from pot
*** SUMMARY ***
Total pot $33 | Rake $0.4 | Jackpot $0.1 | Bingo $0
Board [Ah 6d Ks Qc 8h]
Seat 1: 1a2b3c4d showed [Qh Ts] and won ($32.5) with Pair of Queens
Seat 2: 5e6f7a8b (button) showed [8d Td] and lost with Pair of Eights
Seat 4: Hero folded before Flop
"""
GG_OVER_STRADDLE = """\
Poker Hand #OM900000004: PLO-5 ($0.25/$0.5) - 2024/03/05 14:00:00
Table 'PLO-5Blue3' 6-max Seat #3 is the button
Seat 1: f0f0f0f0 ($20 in chips)
Seat 3: 1b1b1b1b ($12.5 in chips)
Seat 4: Hero ($40 in chips)
Hero: posts small blind $0.25
f0f0f0f0: posts big blind $0.5
1b1b1b1b: straddle $1
1b1b1b1b: straddle $12.5 and is all-in
*** HOLE CARDS ***
Dealt to f0f0f0f0
Dealt to 1b1b1b1b
Dealt to Hero [Ah Kd 7c 7s 2d]
Hero: folds
f0f0f0f0: folds
Uncalled bet ($12) returned to 1b1b1b1b
*** SHOWDOWN ***
1b1b1b1b collected $1.25 from pot
*** SUMMARY ***
Total pot $1.25 | Rake $0 | Jackpot $0 | Bingo $0
Seat 1: f0f0f0f0 (big blind) folded before Flop
Seat 3: 1b1b1b1b (button) collected ($1.25)
Seat 4: Hero (small blind) folded before Flop
"""
HM_EXPORT = """\
PokerStars Game #1900000001: Hold'em No Limit ($1/$2) - 2009/10/12 - 21:10:05 (ET)
Table 'Aloha' 10-max Seat #1 is the button
Seat 1: olga_p ($200 in chips)
Seat 2: Tam B ($180 in chips)
Seat 3: rui.s ($210 in chips)
Tam B: posts small blind $1
rui.s: posts big blind $2
*** HOLE CARDS ***
Dealt to olga_p [Ah Ad]
olga_p: raises $7 to $7
Tam B: folds
rui.s: calls $5
*** FLOP *** [5s 9c Jd]
rui.s: checks
olga_p: bets $10
rui.s: folds
Uncalled bet ($10) returned to olga_p
olga_p collected $14.30 from pot
*** SUMMARY ***
Total pot $15 | Rake $0.70
Board [5s 9c Jd]
Seat 1: olga_p (button) collected ($14.30)
Seat 2: Tam B (small blind) folded before Flop
Seat 3: rui.s (big blind) folded on the Flop
"""
PS_CAPPED = """\
PokerStars Game #52000000001:  Hold'em No Limit ($0.25/$0.50 - $10 Cap -  USD) - 2010/11/01 12:20:00 CET [2010/11/01 7:20:00 ET]
Table 'Lisboa' 9-max Seat #2 is the button
Seat 1: olga_p ($12 in chips)
Seat 2: Tam B ($30 in chips)
Seat 3: rui.s ($10 in chips)
rui.s: posts small blind $0.25
olga_p: posts big blind $0.50
*** HOLE CARDS ***
Dealt to olga_p [Kh Kc]
Tam B: folds
rui.s: raises $1 to $1.50
olga_p: raises $8.50 to $10 and has reached the $10 cap
rui.s: calls $8.50 and is all-in
*** FLOP *** [2d 7h Jc]
*** TURN *** [2d 7h Jc] [4s]
*** RIVER *** [2d 7h Jc 4s] [9d]
*** SHOW DOWN ***
olga_p: shows [Kh Kc] (a pair of Kings)
rui.s: shows [Qs Qd] (a pair of Queens)
olga_p collected $19 from pot
*** SUMMARY ***
Total pot $20 | Rake $1
Board [2d 7h Jc 4s 9d]
Seat 1: olga_p (big blind) showed [Kh Kc] and won ($19) with a pair of Kings
Seat 2: Tam B (button) folded before Flop (didn't bet)
Seat 3: rui.s (small blind) showed [Qs Qd] and lost with a pair of Queens
"""
PS_CANCELLED = """\
PokerStars Hand #140000000001:  Omaha Pot Limit ($2/$4 USD) - 2015/10/22 21:50:01 CET [2015/10/22 15:50:01 ET]
Table 'Owa IV' 6-max Seat #2 is the button
Seat 2: olga_p ($400 in chips)
Seat 5: rui.s ($400 in chips)
olga_p: posts small blind $2
rui.s: is sitting out
Hand cancelled
*** SUMMARY ***
Seat 2: olga_p (button) collected ($0)
"""
GG_CASH_DROP = """\
Poker Hand #RC900000005: Omaha Pot Limit ($0.05/$0.1) - 2024/03/05 15:00:00
Table 'RushAndCash4242' 6-max Seat #1 is the button
Seat 1: 0a0b0c0d ($10 in chips)
Seat 2: 1e1f2a2b ($10 in chips)
Seat 3: Hero ($10 in chips)
Cash Drop to Pot : total $1
1e1f2a2b: posts small blind $0.05
Hero: posts big blind $0.1
*** HOLE CARDS ***
Dealt to 0a0b0c0d
Dealt to 1e1f2a2b
Dealt to Hero [Ac Kc Qd Jd]
0a0b0c0d: raises $1.25 to $1.35
1e1f2a2b: folds
Hero: calls $1.25
*** FLOP *** [2h 7s 9c]
Hero: checks
0a0b0c0d: bets $2
Hero: folds
Uncalled bet ($2) returned to 0a0b0c0d
*** SHOWDOWN ***
0a0b0c0d collected $3.6 from pot
*** SUMMARY ***
Total pot $3.75 | Rake $0.14 | Jackpot $0.01 | Bingo $0
Board [2h 7s 9c]
Seat 1: 0a0b0c0d (button) collected ($3.6)
Seat 2: 1e1f2a2b (small blind) folded before Flop
Seat 3: Hero (big blind) folded on the Flop
"""
GG_CLIENT_RUNS = """\
Poker Hand #1180000000000000001: ShortDeck No Limit ($10) - 2024/03/05 16:00:00
Table 'VS2 10' 5-max Seat #5 is the button
Seat 1: 424242 ($1,000 in chips)
Seat 4: 515151 ($800 in chips)
Seat 5: 606060 ($300 in chips)
424242: posts the ante $10
515151: posts the ante $10
606060: posts the ante $10
606060: posts button blind $10
*** HOLE CARDS ***
Dealt to 515151 [8c 7d]
424242: calls $10
515151: folds
606060: raises $280 to $290 and is all-in
424242: calls $280
606060: shows [Td Ts]
424242: shows [Qs Ks]
*** FIRST FLOP ***  [Tc 8h Ah]
*** FIRST TURN *** [Tc 8h Ah] [6h]
*** FIRST RIVER *** [Tc 8h Ah 6h] [Jd]
*** SECOND FLOP ***  [9h 9c Kc]
*** SECOND TURN *** [9h 9c Kc] [6s]
*** SECOND RIVER *** [9h 9c Kc 6s] [As]
*** FIRST SHOW DOWN ***
424242 collected $295 from pot
*** SECOND SHOW DOWN ***
424242 collected $295 from pot
*** SUMMARY ***
Total pot $610 | Rake $20
Hand was run two times
FIRST
Board [Tc 8h Ah 6h Jd]
SECOND
Board [9h 9c Kc 6s As]
Seat 1: 424242 showed [Qs Ks] and won ($295) with a straight, and won ($295) with two pair
Seat 4: 515151 folded before Flop
Seat 5: 606060 (button) showed [Td Ts] and lost with three of a kind, and lost with two pair
"""


PS_BLANK_TURN = """\
PokerStars Hand #238000000001:  6 Card Omaha Pot Limit ($0.10/$0.25 USD) - 2022/08/29 23:40:00 EET [2022/08/29 16:40:00 ET]
Table 'Nadia III' 6-max Seat #3 is the button
Seat 1: Tam B ($30 in chips)
Seat 2: olga_p ($25 in chips)
Seat 3: rui.s ($40 in chips)
Tam B: posts small blind $0.10
olga_p: posts big blind $0.25
*** HOLE CARDS ***
Dealt to olga_p [Ts Kh 2c 3c 5d 7h]
rui.s: raises $0.50 to $0.75
Tam B: folds
olga_p: calls $0.50
*** FLOP *** [4c Qd 8d]
olga_p: checks
rui.s: bets $1
olga_p: calls $1
*** TURN *** [4c Qd 8d] []
olga_p: checks
rui.s: bets $3
olga_p: folds
Uncalled bet ($3) returned to rui.s
rui.s collected $3.42 from pot
*** SUMMARY ***
Total pot $3.60 | Rake $0.18
Board [4c Qd 8d Qh]
Seat 1: Tam B (small blind) folded before Flop
Seat 2: olga_p (big blind) folded on the Turn
Seat 3: rui.s (button) collected ($3.42)
"""


def units(tmp_path: Path, text: str) -> list[SubjectRecords | RecordRejected]:
    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    return list(iter_text_units(path, (), Limits(), header_zone="UTC"))  # GG writes no zone


def stored(tmp_path: Path, text: str) -> list[dict]:
    [unit] = units(tmp_path, text)
    assert isinstance(unit, SubjectRecords), unit
    return unit.records


def rejected(tmp_path: Path, text: str) -> RecordRejected:
    [unit] = units(tmp_path, text)
    assert isinstance(unit, RecordRejected), unit
    return unit


def changed(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new)


def line_of(text: str, fragment: str) -> int:
    """The number of the first line of ``text`` holding ``fragment``."""
    return next(n for n, line in enumerate(text.splitlines(), start=1) if fragment in line)


def figures(records: list[dict]) -> tuple[int, int, dict[int, int]]:
    """(pot, rake, collected per seat) as stored: every chip put in (the house's too)
    less the uncalled bets returned (``PotAwarded`` without a pot), the rake, and each
    seat's pot awards; what the room's summary says is the oracle they are held to."""
    put = sum(
        e["amount"]
        for e in records
        if e["type"] in ("BlindPosted", "ActionTaken", "HouseMoneyAdded")
    )
    awards = [e for e in records if e["type"] == "PotAwarded"]
    returned = sum(e["amount"] for e in awards if e["pot_index"] is None)
    collected: dict[int, int] = {}
    for e in awards:
        if e["pot_index"] is not None:
            collected[e["seat"]] = collected.get(e["seat"], 0) + e["amount"]
    rake = sum(e["amount"] for e in records if e["type"] == "RakeTaken")
    return put - returned, rake, collected


def test_gg_run_three_times_later_boards_are_their_own_cards(tmp_path: Path) -> None:
    records = stored(tmp_path, GG_THRICE)
    assert figures(records) == (24000, 600, {2: 15600, 1: 7800})  # the summary's
    runs = [e["run"] for e in records if e["type"] == "BoardRun"]
    assert runs == [1, 2, 3, 1, 2, 3]  # the boards, then the awards, per run
    bad = rejected(tmp_path, changed(GG_THRICE, "SECOND Board [6c 3s]", "SECOND Board [6c 3c]"))
    assert bad.field == f"summary: Board (line {line_of(GG_THRICE, 'SECOND Board')})"
    assert "[6c 3c]" in bad.reason and "dealt [9c 4s 9d 6c 3s]" in bad.reason


def test_gg_summary_may_print_the_flop_in_another_order(tmp_path: Path) -> None:
    records = stored(tmp_path, GG_FLOP_ORDER)
    assert figures(records) == (165, 6, {3: 159})
    flop = next(e for e in records if e["type"] == "CardsDealt" and e["target"] == "board")
    assert flop["cards"] == ["Ad", "7d", "9d"]  # as the flop line deals them
    for board in ("Board [7d 9d Ad 2s 4c]", "Board [7d 9d 2s Ad 4h]"):  # a card, a place
        bad = rejected(tmp_path, changed(GG_FLOP_ORDER, "Board [7d 9d Ad 2s 4h]", board))
        assert bad.field == f"summary: Board (line {line_of(GG_FLOP_ORDER, 'Board [')})", bad


def test_pokerstars_run_twice_shows_each_hand_once(tmp_path: Path) -> None:
    records = stored(tmp_path, PS_TWICE)
    assert figures(records) == (12100, 200, {1: 5950, 2: 5950})
    shows = [(e["seat"], e["cards"]) for e in records if e["type"] == "CardsShown"]
    assert shows == [(1, ["9h", "9d", "6c", "6d"]), (2, ["As", "Ks", "Qh", "Jh"])]
    other = changed(
        PS_TWICE, "rui.s: shows [9h 9d 6c 6d] (a pair of Nines)", "rui.s: shows [9h 9d 6c 6s]"
    )
    bad = rejected(tmp_path, other)
    assert bad.field == f"line {line_of(other, 'shows [9h 9d 6c 6s]')}"
    assert "shows [9h 9d 6c 6s] after showing [9h 9d 6c 6d]" in bad.reason


def test_split_holdem_is_a_game_of_its_own(tmp_path: Path) -> None:
    split = changed(PS_TWICE, "Omaha Pot Limit", "Split Hold'em No Limit")
    assert rejected(tmp_path, split).reason == "game not supported: Split Hold'em No Limit"


def test_gg_short_deck_button_blind_and_straddles_to_a_total(tmp_path: Path) -> None:
    """``straddle $X`` is the seat's street total (its button blind of 1, straddles to 2
    and to 4): a raise 'to 8' after a call of 4 is what the summary's $33 adds up to."""
    records = stored(tmp_path, GG_SHORT_DECK)
    assert figures(records) == (3300, 40, {1: 3250})
    posted = [(e["kind"], e["amount"]) for e in records if e["type"] == "BlindPosted"]
    assert posted[3:] == [("big_blind", 100), ("straddle", 100), ("straddle", 200)]
    assert records[0]["variant"] == "NS" and records[0]["ante"] == 100
    bad = rejected(tmp_path, changed(GG_SHORT_DECK, "Total pot $33", "Total pot $34"))
    assert bad.field == f"summary: Total pot (line {line_of(GG_SHORT_DECK, 'Total pot')})"
    assert "USD 34.00" in bad.reason and "USD 33.00" in bad.reason


def test_gg_over_straddle_all_in_is_its_street_total(tmp_path: Path) -> None:
    records = stored(tmp_path, GG_OVER_STRADDLE)
    assert figures(records) == (125, 0, {3: 125})
    straddles = [e["amount"] for e in records if e.get("kind") == "straddle"]
    assert straddles == [100, 1150]  # to $1, then to the whole $12.50
    bad = rejected(tmp_path, changed(GG_OVER_STRADDLE, "straddle $12.5 and", "straddle $13 and"))
    assert (
        bad.field == f"line {line_of(GG_OVER_STRADDLE, 'straddle $12.5')}"
        and "more than the chips it has behind" in bad.reason
    )


def test_a_trackers_raises_y_to_y_is_read_as_the_total(tmp_path: Path) -> None:
    records = stored(tmp_path, HM_EXPORT)
    assert figures(records) == (1500, 70, {1: 1430})
    assert TRACKER_RAISE in records[0]["source"]
    raise_ = next(e for e in records if e.get("action") == "raise")
    assert raise_["amount"] == 700
    bad = rejected(tmp_path, changed(HM_EXPORT, "raises $7 to $7", "raises $6 to $7"))
    assert (
        bad.field == f"line {line_of(HM_EXPORT, 'olga_p: raises')}"
        and "so the raise is USD 5.00" in bad.reason
    )


def test_a_pokerstars_capped_table_is_stored_with_its_cap_noted(tmp_path: Path) -> None:
    records = stored(tmp_path, PS_CAPPED)
    assert figures(records) == (2000, 100, {1: 1900})
    start = records[0]
    assert (start["small_blind"], start["big_blind"], start["currency"]) == (25, 50, "USD")
    assert "capped table: a player puts in at most USD 10.00 in a hand" in start["source"]
    bad = rejected(tmp_path, changed(PS_CAPPED, "($19)", "($20)"))
    assert bad.field == f"summary: seat 1 collected (line {line_of(PS_CAPPED, '($19)')})"


def test_a_hand_the_room_cancelled_is_quarantined_by_that_reason(tmp_path: Path) -> None:
    bad = rejected(tmp_path, PS_CANCELLED)
    assert bad.field == f"line {line_of(PS_CANCELLED, 'Hand cancelled')}" and bad.reason.startswith(
        CANCELLED
    )


def test_gg_cash_drop_is_house_money_in_the_pot(tmp_path: Path) -> None:
    """$1 of the house's money before the deal: in the summary's $3.75, in the pot the
    pot-limit raise to $1.35 is sized by (0.15 + 1 + 0.10 called = a $1.25 raise), and
    in what the payouts, rake and fee settle; shown in words and exported to PHH."""
    records = stored(tmp_path, GG_CASH_DROP)
    assert figures(records) == (375, 14, {1: 360})
    drop = records[1]
    assert (drop["type"], drop["amount"], drop["promotion"]) == (
        "HouseMoneyAdded",
        100,
        "Cash Drop",
    )
    assert records[-1]["finishing_stacks"] == [1225, 995, 865]  # 10 - 1.35 + 3.60
    verdict = adjudicate_hand(records)
    assert verdict.rulebook_id == "gg-2022-cash-omaha"
    assert verdict.conserved
    assert not [f for f in verdict.findings if f.kind is not FindingKind.TERMS_MISSING]
    assert verdict.expected_payouts[1] == 200 + 360  # the $2 returned, then the pot
    too_big = changed(
        changed(GG_CASH_DROP, "raises $1.25 to $1.35", "raises $1.35 to $1.45"),
        "calls $1.25",
        "calls $1.35",
    )
    too_big = changed(
        changed(changed(too_big, "$3.75", "$3.95"), "$3.6 from", "$3.8 from"), "($3.6)", "($3.8)"
    )
    illegal = adjudicate_hand(stored(tmp_path, too_big))
    assert [f.kind for f in illegal.findings if f.kind is FindingKind.ILLEGAL_ACTION] == [
        FindingKind.ILLEGAL_ACTION
    ]  # the pot with the house's money, not more
    # PT-217/2007 n.º 86 caps a raise at "the total of the bets made so far": the
    # house's money is no bet, so a raise to $0.60 (by $0.50 over bets of $0.15) is
    # over it there, and within GG's pot (which holds the $1)
    half = changed(
        changed(GG_CASH_DROP, "raises $1.25 to $1.35", "raises $0.5 to $0.6"),
        "calls $1.25",
        "calls $0.5",
    )
    half = changed(
        changed(changed(half, "$3.75", "$2.25"), "$3.6 from", "$2.1 from"), "($3.6)", "($2.1)"
    )
    raised = stored(tmp_path, half)
    assert FindingKind.ILLEGAL_ACTION not in [f.kind for f in adjudicate_hand(raised).findings]
    under_pt = adjudicate_hand(raised, rulebook_override="pt-217-2007-omaha")
    over = [(f.citation, f.reason) for f in under_pt.findings if f.detail.get("sequence") == 7]
    assert over == [("PT-217/2007 n.º 86", "seat 1: raise of 50 above the maximum of 15")]
    text = HandVoice(records, {}).describe(drop)
    assert (
        text == "the house adds USD 1.00 of its own money to the pot (Cash Drop; no player's chips)"
    )
    assert '_house_money = [{promotion = "Cash Drop", amount = 1}]' in hand_phh(records)
    bad = rejected(tmp_path, changed(GG_CASH_DROP, "Total pot $3.75", "Total pot $2.75"))
    assert bad.field == f"summary: Total pot (line {line_of(GG_CASH_DROP, 'Total pot')})"
    assert "plus house money" in bad.reason and "USD 3.75" in bad.reason


def test_a_v4_store_file_reads_under_v5(tmp_path: Path, store_url: str) -> None:
    """poker_hand v5 appends HouseMoneyAdded to the union: a file written with v4 reads."""
    v4 = json.loads((SCHEMA_DIR / "history" / "poker_hand.v4.avsc").read_text())
    poker = family_named("poker")
    assert v4["version"] == 4 and poker.version == 5
    records = stored(tmp_path, GG_FLOP_ORDER)
    path = tmp_path / "old.avro"
    with path.open("wb") as out:
        fastavro.writer(
            out,
            fastavro.parse_schema(v4),
            [to_avro(e, namespace=poker.namespace) for e in records],
        )
    summary = ingest(AuditStore(store_url), [path])
    assert (summary.subjects_stored, summary.quarantined) == (1, 0)


def test_a_run_named_alone_on_its_line_keeps_the_summary_whole(tmp_path: Path) -> None:
    """A GG short deck client writes ``FIRST`` and its ``Board [..]`` on two lines: the
    summary is the hand's, read and checked, never a block of text of no hand."""
    records = stored(tmp_path, GG_CLIENT_RUNS)
    assert figures(records) == (61000, 2000, {1: 59000})
    bad = rejected(
        tmp_path, changed(GG_CLIENT_RUNS, "Board [9h 9c Kc 6s As]", "Board [9h 9c Kc 6s Ad]")
    )
    assert bad.field == f"summary: Board (line {line_of(GG_CLIENT_RUNS, 'Board [9h')})"


def test_a_blank_turn_card_is_the_summarys_board(tmp_path: Path) -> None:
    """``*** TURN *** [4c Qd 8d] []`` (a PokerStars client's line with the card left
    out): the turn is the card the summary's board names in its place, noted."""
    records = stored(tmp_path, PS_BLANK_TURN)
    assert figures(records) == (360, 18, {3: 342})
    board = [e["cards"] for e in records if e["type"] == "CardsDealt" and e["target"] == "board"]
    assert board == [["4c", "Qd", "8d"], ["Qh"]]
    assert "the turn line deals no card: its card Qh is the summary's board" in records[0]["source"]
    again = rejected(tmp_path, changed(PS_BLANK_TURN, "Board [4c Qd 8d Qh]", "Board [4c Qd 8d Kh]"))
    assert "card Kh is dealt twice" in again.reason  # olga_p holds it
    cut = rejected(tmp_path, changed(PS_BLANK_TURN, "Board [4c Qd 8d Qh]\n", ""))
    assert "the turn line deals no card and no summary board names it" in cut.reason
