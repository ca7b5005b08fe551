# ruff: noqa: E501  (the rooms' header lines are longer than 100 characters)
"""Room text in the forms the rooms really write (hands written for this project, with
our own names and amounts, in the line shapes of real PokerStars and GGPoker files):
archive exports, the two-space header, a local zone before ``[… ET]``, cp1252, table
chatter, tournaments in chips, games and rooms not read, and the summary as a check."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from audit.ingest.errors import RecordRejected
from audit.ingest.limits import Limits
from audit.ingest.room_text.reader import iter_text_units
from audit.notation.money import format_money
from audit.store import SubjectRecords

CASH = """\
PokerStars Hand #240000000001:  Hold'em No Limit ($0.05/$0.10 USD) - 2024/02/03 21:00:00 CET [2024/02/03 15:00:00 ET]
Table 'Mira IV' 6-max Seat #1 is the button
Seat 1: olga_p ($10 in chips)
Seat 2: Tam B ($7.25 in chips)
Seat 3: rui.s ($12 in chips)
Tam B: posts small blind $0.05
rui.s: posts big blind $0.10
zed77 joins the table at seat #5
*** HOLE CARDS ***
Dealt to olga_p [Ac Kd]
olga_p: raises $0.20 to $0.30
Tam B: folds
zed77: sits out
rui.s: calls $0.20
*** FLOP *** [Kh 7c 2s]
rui.s: checks
olga_p: bets $0.40
rui.s said, "hm"
rui.s: calls $0.40
*** TURN *** [Kh 7c 2s] [9d]
rui.s: checks
olga_p: bets $1
rui.s: folds
Uncalled bet ($1) returned to olga_p
olga_p collected $1.42 from pot
olga_p: doesn't show hand
*** SUMMARY ***
Total pot $1.45 | Rake $0.03
Board [Kh 7c 2s 9d]
Seat 1: olga_p (button) collected ($1.42)
Seat 2: Tam B (small blind) folded before Flop
Seat 3: rui.s (big blind) folded on the Turn
"""
TOURNAMENT = """\
PokerStars Hand #240000000002: Tournament #3100000001, $2.20+$0.20 USD Hold'em No Limit - Level II (15/30) - 2024/02/03 15:10:00 ET
Table '3100000001 4' 9-max Seat #2 is the button
Seat 1: olga_p (1,470 in chips)
Seat 2: Tam B (1,530 in chips)
Seat 3: rui.s (1,500 in chips) is sitting out
olga_p: posts the ante 5
Tam B: posts the ante 5
rui.s: posts the ante 5
rui.s: posts small blind 15
olga_p: posts big blind 30
*** HOLE CARDS ***
Dealt to olga_p [Qs Qh]
Tam B: raises 60 to 90
rui.s: folds
olga_p: calls 60
*** FLOP *** [2d 5c 9s]
olga_p: bets 1,375 and is all-in
Tam B: calls 1,375
*** TURN *** [2d 5c 9s] [Jd]
*** RIVER *** [2d 5c 9s Jd] [3h]
*** SHOW DOWN ***
olga_p: shows [Qs Qh] (a pair of Queens)
Tam B: shows [Tc Td] (a pair of Tens)
olga_p collected 2,960 from pot
Tam B wins $1 for eliminating rui.s and their own bounty increases by $0.50 to $1.50
*** SUMMARY ***
Total pot 2,960 | Rake 0
Board [2d 5c 9s Jd 3h]
Seat 1: olga_p (big blind) showed [Qs Qh] and won (2,960) with a pair of Queens
Seat 2: Tam B (button) showed [Tc Td] and lost with a pair of Tens
Seat 3: rui.s (small blind) folded before Flop
"""


def units(tmp_path: Path, data: bytes) -> list[SubjectRecords | RecordRejected]:
    path = tmp_path / "hands.txt"
    path.write_bytes(data)
    return list(iter_text_units(path, (), Limits(), header_zone="UTC"))  # GG writes no zone


def archive(*hands: str) -> str:
    """An archive export: numbered separators and every line indented."""
    return "".join(
        f"*********** # {n} **************\n" + "".join(f" {line}\n" for line in h.splitlines())
        for n, h in enumerate(hands, start=1)
    )


def test_an_archive_export_with_a_local_zone_is_read(tmp_path: Path) -> None:
    [hand] = units(tmp_path, archive(CASH).encode())
    assert isinstance(hand, SubjectRecords), hand
    start = hand.records[0]
    assert start["occurred_at"] == datetime(2024, 2, 3, 20, 0, tzinfo=UTC)  # 15:00 EST
    assert "tournament_id" not in start  # a cash hand stores as before
    awards = [
        (e["seat"], e["amount"], e["pot_index"]) for e in hand.records if e["type"] == "PotAwarded"
    ]
    assert awards == [(1, 100, None), (1, 142, 0)]


def test_a_tournament_hand_is_in_chips_and_bounties_stay_out(tmp_path: Path) -> None:
    [hand] = units(tmp_path, TOURNAMENT.encode())
    assert isinstance(hand, SubjectRecords), hand
    start = hand.records[0]
    assert (start["tournament_id"], start["currency"]) == ("pokerstars/3100000001", "CHIPS")
    assert (start["small_blind"], start["big_blind"], start["ante"]) == (15, 30, 5)
    assert [s["seat"] for s in start["seats"]] == [1, 2, 3]  # sitting out, still dealt in
    assert hand.records[-1]["finishing_stacks"] == [2960, 60, 1480]
    assert "bounties" in start["source"]
    assert format_money(2960, start["currency"]) == "2,960 chips"


def test_cp1252_euros_and_a_bom_between_joined_files(tmp_path: Path) -> None:
    euro = (
        CASH.replace("$", "€").replace(" USD)", " EUR)").replace("#240000000001", "#240000000003")
    )
    data = "\ufeff".encode() + CASH.encode() + b"\n" + "\ufeff".encode() + euro.encode("cp1252")
    read = units(tmp_path, data)
    assert [type(u).__name__ for u in read] == ["SubjectRecords", "SubjectRecords"], read
    assert read[1].records[0]["currency"] == "EUR"
    assert "cp1252" in read[1].records[0]["source"]


def test_games_and_rooms_not_read_are_named(tmp_path: Path) -> None:
    stud = CASH.replace("Hold'em No Limit", "7 Card Stud Limit")
    other = (
        "Winamax Poker - CashGame - HandId: #1-2-3 - Holdem no limit (0.05€/0.10€)\nTable: 'x'\n"
    )
    read = units(tmp_path, (stud + "\n" + other + "\n" + CASH).encode())
    assert [getattr(u, "reason", "stored")[:30] for u in read] == [
        "game not supported: 7 Card Stu",
        "room not supported: Winamax",
        "stored",
    ]


def test_a_summary_disagreeing_with_the_actions_is_quarantined(tmp_path: Path) -> None:
    [bad] = units(tmp_path, CASH.replace("Total pot $1.45", "Total pot $1.55").encode())
    assert isinstance(bad, RecordRejected)
    assert bad.field == "summary: Total pot (line 28)"
    assert "USD 1.55" in bad.reason and "USD 1.45" in bad.reason
    [raise_] = units(
        tmp_path, CASH.replace("raises $0.20 to $0.30", "raises $0.25 to $0.30").encode()
    )
    assert isinstance(raise_, RecordRejected) and "the raise is USD 0.20" in raise_.reason


def test_a_self_consistent_short_payment_is_stored(tmp_path: Path) -> None:
    """Paid $1.32 of a $1.45 pot raked $0.03: the room's text agrees with itself, so
    it is the room's payment, a finding for the replayer, not a misread."""
    short = CASH.replace("collected $1.42", "collected $1.32").replace("($1.42)", "($1.32)")
    [hand] = units(tmp_path, short.encode())
    assert isinstance(hand, SubjectRecords), hand


@settings(max_examples=25, deadline=None)
@given(junk=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=60))
def test_junk_between_hands_is_its_own_rejection(tmp_path_factory, junk: str) -> None:
    tmp = tmp_path_factory.mktemp("junk")
    text = CASH + "\n" + junk.replace("\n", " ") + "\n\n" + TOURNAMENT
    read = units(tmp, text.encode())
    stored = [u for u in read if isinstance(u, SubjectRecords)]
    assert len(stored) == 2  # the hands around the junk go in
    assert all(isinstance(u, RecordRejected) for u in read if u not in stored)


# -- issue #26, items 7 and 8: contradictions inside the summary, damage beside good hands


def test_a_summary_won_amount_disagreeing_with_the_collected_lines_is_quarantined(
    tmp_path: Path,
) -> None:
    [bad] = units(tmp_path, TOURNAMENT.replace("won (2,960)", "won (2,860)").encode())
    assert isinstance(bad, RecordRejected)
    assert bad.field == "summary: seat 1 collected (line 29)"
    assert "2,860 chips" in bad.reason and "2,960 chips" in bad.reason


def test_a_summary_board_disagreeing_with_the_streets_is_quarantined(tmp_path: Path) -> None:
    [bad] = units(tmp_path, CASH.replace("Board [Kh 7c 2s 9d]", "Board [Kh 7c 2s 9c]").encode())
    assert isinstance(bad, RecordRejected)
    assert bad.field == "summary: Board (line 29)"
    assert "[Kh 7c 2s 9c]" in bad.reason and "dealt [Kh 7c 2s 9d]" in bad.reason


def test_a_summary_board_of_each_run_is_checked(tmp_path: Path) -> None:
    """All in on the flop, run twice: each run's board is the flop and its own cards."""
    twice = (
        CASH.replace("olga_p: bets $1\nrui.s: folds\nUncalled bet ($1) returned to olga_p\n", "")
        .replace("*** TURN *** [Kh 7c 2s] [9d]\nrui.s: checks\n", "")
        .replace(
            "olga_p collected $1.42 from pot",
            "*** FIRST TURN *** [Kh 7c 2s] [9d]\n*** FIRST RIVER *** [Kh 7c 2s 9d] [3h]\n"
            "*** SECOND TURN *** [Kh 7c 2s] [Qc]\n*** SECOND RIVER *** [Kh 7c 2s Qc] [4s]\n"
            "olga_p collected $1.42 from pot",
        )
        .replace(
            "Board [Kh 7c 2s 9d]",
            "Hand was run two times\nFIRST Board [Kh 7c 2s 9d 3h]\nSECOND Board [Kh 7c 2s Qc 4s]",
        )
        .replace("folded on the Turn", "lost")
    )
    [hand] = units(tmp_path, twice.encode())
    assert isinstance(hand, SubjectRecords), hand
    [bad] = units(
        tmp_path,
        twice.replace("SECOND Board [Kh 7c 2s Qc 4s]", "SECOND Board [Kh 7c 2s Qc 5s]").encode(),
    )
    assert isinstance(bad, RecordRejected) and bad.field.startswith("summary: Board"), bad


def test_a_bad_byte_loses_only_its_own_hand(tmp_path: Path) -> None:
    """One byte neither UTF-8 nor cp1252 (0x81) inside a hand, and one junk byte between
    hands: each is quarantined on its own with its line, the hands around go in."""
    second = CASH.replace("#240000000001", "#240000000009").encode()
    damaged = second.replace(b"olga_p: bets $0.40", b"olga_p: bets $0.40\x81")
    data = (
        CASH.encode()
        + b"\n\x81\n\n"
        + TOURNAMENT.encode()
        + b"\n\n"
        + damaged
        + b"\n\n"
        + second.replace(b"09", b"08")
    )
    lines = data.split(b"\n")
    junk, bad = lines.index(b"\x81") + 1, lines.index(b"olga_p: bets $0.40\x81") + 1
    read = units(tmp_path, data)
    kinds = ["stored" if isinstance(u, SubjectRecords) else u.field for u in read]
    assert kinds == ["stored", f"line {junk}", "stored", f"line {bad}", "stored"], read
    assert "neither UTF-8 nor cp1252" in read[3].reason
