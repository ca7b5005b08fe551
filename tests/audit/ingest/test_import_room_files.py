# ruff: noqa: E501  (the rooms' header lines are longer than 100 characters)
"""Room text files as operators' tools hand them over (hands written for this project, in
the line shapes of real files): a folder's file whose hands do not start on its first
line, a file saved as UTF-16, PokerStars text in another language, a rebuy
tournament's re-buy lines above the seats, and a tournament summary in a hands folder.
Nothing is skipped silently: every hand header read is stored or quarantined by name."""

from __future__ import annotations

import os
from pathlib import Path

from audit.ingest.errors import RecordRejected
from audit.ingest.limits import Limits
from audit.ingest.pipeline import ingest
from audit.ingest.quarantine import entries
from audit.ingest.room_text.reader import iter_text_units
from audit.store import AuditStore, SubjectRecords
from tests.audit.ingest.test_import_real_forms import CASH

REBUY = """\
PokerStars Hand #250000000007: Tournament #3200000002, $5+$0.50 USD Hold'em No Limit - Level I (10/20) - 2015/03/01 12:00:00 ET
Table '3200000002 3' 9-max Seat #1 is the button
kit_b re-buys and receives 1500 chips for $5.00
Seat 1: ana.r (1500 in chips)
Seat 2: kit_b (3000 in chips)
Seat 3: lou (1500 in chips)
kit_b: posts small blind 10
lou: posts big blind 20
*** HOLE CARDS ***
ana.r: raises 40 to 60
kit_b: folds
lou: folds
Uncalled bet (40) returned to ana.r
ana.r collected 50 from pot
ana.r: doesn't show hand
*** SUMMARY ***
Total pot 50 | Rake 0
Seat 1: ana.r (button) collected (50)
Seat 2: kit_b (small blind) folded before Flop
Seat 3: lou (big blind) folded before Flop
"""
PORTUGUESE = """\
Mão PokerStars #250000000008: Torneio #3200000003, 900+100 Hold'em No Limit - Nível I (10/20) - 2015/03/01 12:00:00 ET
Mesa '3200000003 1' 6-max Lugar #1 é o botão
Lugar 1: ana.r (500 em fichas)
Lugar 2: lou (500 em fichas)
"""
SUMMARY = """\
PokerStars Tournament #3200000004, No Limit Hold'em
Buy-In: $2.00/$0.20 USD
9 players
Total Prize Pool: $18.00 USD
Tournament started 2015/03/01 12:00:00 ET
  1: ana.r (Portugal), $9.00 (50%)
"""


def units(tmp_path: Path, data: bytes) -> list[SubjectRecords | RecordRejected]:
    path = tmp_path / "hands.txt"
    path.write_bytes(data)
    return list(iter_text_units(path, (), Limits(), header_zone="UTC"))


def test_a_folder_file_whose_hands_follow_a_note_is_read_not_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "session.txt").write_text("Exported by a tracker, 2 tables\n\n" + CASH)
    (folder / "notes.txt").write_text("bankroll: fine\nPokerStars Hand #1 went badly\n")
    store = AuditStore("sqlite:///" + str(tmp_path / "a.db"))
    summary = ingest(store, [folder], header_zone="UTC")
    assert summary.files == 1  # the notes are skipped, the export is read
    assert summary.subjects_stored == 1
    assert [r.reason for r in summary.rejected] == [
        "text belonging to no hand: not a GGPoker or PokerStars hand"
    ]
    assert summary.units_read == summary.subjects_stored + summary.units_quarantined


def test_a_file_saved_as_utf16_is_read_as_such(tmp_path: Path) -> None:
    for encoding, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")):
        folder = tmp_path / encoding
        folder.mkdir()
        (folder / "hands.txt").write_bytes(bom + CASH.encode(encoding))
        store = AuditStore("sqlite:///" + str(tmp_path / f"{encoding}.db"))
        summary = ingest(store, [folder], header_zone="UTC")
        assert (summary.files, summary.subjects_stored) == (1, 1), summary.rejected
        [(_, events)] = list(store.iter_subjects("poker"))
        start = events[0]
        assert start["seats"][1]["player_id"] == "Tam B"
        assert start["seats"][1]["stack"] == 725  # $7.25
        assert "UTF-16" in start["source"]


def test_utf16_that_does_not_decode_names_the_byte(tmp_path: Path) -> None:
    [rejected] = units(tmp_path, b"\xff\xfe" + CASH.encode("utf-16-le") + b"\x00\xd8A")
    assert isinstance(rejected, RecordRejected)
    assert (rejected.position, rejected.field) == ("file", "(text)")
    assert "UTF-16" in rejected.reason and "at byte" in rejected.reason


def test_pokerstars_in_another_language_is_refused_by_name(tmp_path: Path) -> None:
    read = units(tmp_path, (PORTUGUESE + "\n" + CASH).encode())
    assert isinstance(read[0], RecordRejected)
    assert read[0].reason == "room not supported: PokerStars in a language other than English"
    assert isinstance(read[1], SubjectRecords)  # the English hand after it goes in
    folder = tmp_path / "pt"
    folder.mkdir()
    (folder / "maos.txt").write_text(PORTUGUESE)
    store = AuditStore("sqlite:///" + str(tmp_path / "pt.db"))
    summary = ingest(store, [folder], header_zone="UTC")
    assert (summary.files, summary.units_quarantined) == (1, 1)  # quarantined, not skipped


def test_rebuys_above_the_seats_are_read_past(tmp_path: Path) -> None:
    [hand] = units(tmp_path, REBUY.encode())
    assert isinstance(hand, SubjectRecords), hand
    start = hand.records[0]
    assert [(s["seat"], s["player_id"], s["stack"]) for s in start["seats"]] == [
        (1, "ana.r", 1500),
        (2, "kit_b", 3000),  # the re-buy is in the stack the seat line gives
        (3, "lou", 1500),
    ]
    assert (start["small_blind"], start["big_blind"], start["currency"]) == (10, 20, "CHIPS")
    assert hand.records[-1]["finishing_stacks"] == [1530, 2990, 1480]


def test_a_tournament_summary_is_named_not_misread(tmp_path: Path) -> None:
    [rejected] = units(tmp_path, SUMMARY.encode())
    assert isinstance(rejected, RecordRejected)
    assert rejected.field == "line 1"
    assert rejected.reason.startswith(
        "a PokerStars tournament summary (its results), not a hand: nothing to judge: "
        '"PokerStars Tournament #3200000004'
    )


FIRST_FLOP_BET_ON = """\
Poker Hand #RC4000000001: Hold'em No Limit ($0.02/$0.05) - 2025/08/09 08:15:01
Table 'RushAndCash4000001' 6-max Seat #1 is the button
Seat 1: 1a2b3c4d ($5 in chips)
Seat 2: Hero ($4 in chips)
Seat 3: 5e6f7a8b ($3 in chips)
Hero: posts small blind $0.02
5e6f7a8b: posts big blind $0.05
*** HOLE CARDS ***
Dealt to 1a2b3c4d
Dealt to Hero [3s 9c]
Dealt to 5e6f7a8b
1a2b3c4d: raises $0.1 to $0.15
Hero: folds
5e6f7a8b: calls $0.1
*** FIRST FLOP *** [Th Jc Tc]
5e6f7a8b: bets $0.3
1a2b3c4d: raises $4.55 to $4.85 and is all-in
5e6f7a8b: calls $2.55 and is all-in
Uncalled bet ($2) returned to 1a2b3c4d
1a2b3c4d: shows [Qs Qh] (two pair, Queens and Tens)
5e6f7a8b: shows [Jd Qd] (two pair, Jacks and Tens)
*** FIRST TURN *** [Th Jc Tc] [8s]
*** FIRST RIVER *** [Th Jc Tc 8s] [6d]
*** SECOND TURN *** [Th Jc Tc] [Kd]
*** SECOND RIVER *** [Th Jc Tc Kd] [2h]
*** FIRST SHOWDOWN ***
1a2b3c4d collected $2.87 from pot
*** SECOND SHOWDOWN ***
1a2b3c4d collected $2.86 from pot
*** SUMMARY ***
Total pot $6.02 | Rake $0.24 | Jackpot $0.05 | Bingo $0 | Fortune $0 | Tax $0
Hand was run two times
FIRST Board [Th Jc Tc 8s 6d]
SECOND Board [Kd 2h]
Seat 1: 1a2b3c4d (button) showed [Qs Qh] and won ($2.87) with two pair, Queens and Tens, and won ($2.86)
Seat 2: Hero (small blind) folded before Flop
Seat 3: 5e6f7a8b (big blind) showed [Jd Qd] and lost with two pair, Jacks and Tens, and lost
"""


def test_a_gg_first_flop_bet_on_is_the_board_both_runs_share(tmp_path: Path) -> None:
    [hand] = units(tmp_path, FIRST_FLOP_BET_ON.encode())
    assert isinstance(hand, SubjectRecords), hand
    street = [
        (e["type"], e.get("cards") or e.get("run") or e.get("amount"))
        for e in hand.records
        if e["type"] in ("BoardRun", "ActionTaken")
        or (e["type"] == "CardsDealt" and e["target"] == "board")
    ]
    after_preflop = street[street.index(("CardsDealt", ["Th", "Jc", "Tc"])) :]
    assert after_preflop == [
        ("CardsDealt", ["Th", "Jc", "Tc"]),  # dealt once, before any run
        ("ActionTaken", 30),
        ("ActionTaken", 485),  # raises $4.55 to $4.85: $4.85 put in
        ("ActionTaken", 255),
        ("BoardRun", 1),
        ("CardsDealt", ["8s"]),
        ("CardsDealt", ["6d"]),
        ("BoardRun", 2),
        ("CardsDealt", ["Kd"]),
        ("CardsDealt", ["2h"]),
        ("BoardRun", 1),
        ("BoardRun", 2),
    ]
    awards = [(e["seat"], e["amount"]) for e in hand.records if e["type"] == "PotAwarded"]
    assert awards == [(1, 200), (1, 287), (1, 286)]  # the uncalled $2 back, then each run
    fees = {e["type"]: e["amount"] for e in hand.records if e["type"] in ("RakeTaken", "FeeTaken")}
    assert fees == {"RakeTaken": 24, "FeeTaken": 5}
    assert "the board every run shares" in hand.records[0]["source"]
    assert hand.records[-1]["finishing_stacks"] == [773, 398, 0]


def test_a_hostile_file_name_is_printed_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    name = "\x1b[31mred\n\u202efdp\u200b.txt"
    (folder / name).write_text(CASH.replace("[Kh 7c 2s]", "[Kh 7c 2s 2s]", 1))
    store = AuditStore("sqlite:///" + str(tmp_path / "h.db"))
    summary = ingest(store, [folder], header_zone="UTC")
    [rejected] = summary.rejected
    assert str(rejected.source) == str(folder / name)  # kept as it is, printed escaped
    printed = str(rejected)
    assert "\\e[31mred\\n\\u202efdp\\u200b.txt, hand 240000000001 at line 1" in printed
    assert not any(c in printed for c in "\x1b\n\u202e\u200b")
    [entry] = list(entries(store))
    assert entry.line().startswith("in/\\e[31mred\\n\\u202efdp\\u200b.txt, hand 240000000001")


def test_a_folder_with_a_loop_a_fifo_and_a_link_is_read_once(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "hands.txt").write_text(CASH)
    (folder / "loop").symlink_to(".")  # in/loop/loop/... for ever if followed
    os.mkfifo(folder / "pipe.txt")  # opening it would wait for a writer for ever
    store = AuditStore("sqlite:///" + str(tmp_path / "l.db"))
    summary = ingest(store, [folder], header_zone="UTC")
    assert (summary.files, summary.subjects_stored, summary.quarantined) == (1, 1, 0)
