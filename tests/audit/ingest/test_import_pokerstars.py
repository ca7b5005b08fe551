"""PokerStars text hand histories in: header and time zone, side pots, only the
requester's cards, no default rulebook. The hands are written for this project in
PokerStars' layout (``SAMPLE``) or by ``tests.room_text_writer``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from audit.ingest.pipeline import ingest
from audit.store import AuditStore
from replayer.rulebooks.registry import NONE_APPLIES
from tests.audit.ingest.test_import_ggpoker import only, read

HEADER = (
    "PokerStars Hand #250000000001: Hold'em No Limit ($0.25/$0.50 USD) - "
    "2024/07/04 21:15:00 ET [2024/07/05 1:15:00 UTC]\n"
)
SAMPLE = (
    HEADER
    + """\
Table 'Aludra II' 6-max Seat #3 is the button
Seat 1: anna.k ($50 in chips)
Seat 2: Bo: the 2nd ($20 in chips)
Seat 3: carl ($31.40 in chips)
Seat 5: dee ($60 in chips) is sitting out
anna.k: posts small blind $0.25
Bo: the 2nd: posts big blind $0.50
*** HOLE CARDS ***
Dealt to carl [Td Th]
carl: raises $1 to $1.50
anna.k: raises $4 to $5.50
Bo: the 2nd: raises $14.50 to $20 and is all-in
carl: calls $18.50
anna.k: calls $14.50
*** FLOP *** [2s 3c 9h]
anna.k: bets $30 and is all-in
carl: calls $11.40 and is all-in
Uncalled bet ($18.60) returned to anna.k
*** TURN *** [2s 3c 9h] [Kc]
*** RIVER *** [2s 3c 9h Kc] [4d]
*** SHOW DOWN ***
anna.k: shows [As Ad] (a pair of Aces)
Bo: the 2nd: shows [Qs Qd] (a pair of Queens)
carl: shows [Td Th] (a pair of Tens)
anna.k collected $22.40 from side pot
anna.k collected $57.50 from main pot
dee said, "nh"
*** SUMMARY ***
Total pot $82.80 Main pot $57.50. Side pot $22.40. | Rake $2.90
Board [2s 3c 9h Kc 4d]
Seat 1: anna.k (small blind) showed [As Ad] and won ($79.90) with a pair of Aces
Seat 2: Bo: the 2nd (big blind) showed [Qs Qd] and lost with a pair of Queens
Seat 3: carl (button) showed [Td Th] and lost with a pair of Tens
"""
)


def test_sample_hand_events(tmp_path: Path) -> None:
    text = SAMPLE.replace("*** SHOW DOWN ***", "*** SHOWDOWN ***")
    events = only(read(tmp_path, text))
    start = events[0]
    assert start["hand_id"] == "pokerstars/250000000001"
    assert start["rulebook"] == NONE_APPLIES  # PokerStars: name one with --rulebook
    assert start["occurred_at"] == datetime(2024, 7, 5, 1, 15, tzinfo=UTC)  # 21:15 EDT
    assert [s["seat"] for s in start["seats"]] == [1, 2, 3]  # seat 5 sits out
    holes = {e["seat"]: e["cards"] for e in events if e.get("target") == "hole"}
    assert holes == {3: ["Td", "Th"], 1: ["??", "??"], 2: ["??", "??"]}
    awards = [(e["seat"], e["amount"], e["pot_index"]) for e in events if e["type"] == "PotAwarded"]
    assert awards == [(1, 1860, None), (1, 2240, 1), (1, 5750, 0)]
    assert [e["amount"] for e in events if e["type"] == "RakeTaken"] == [290]
    assert events[-1]["finishing_stacks"] == [1860 + 7990, 0, 0]


def test_rulebook_by_option(tmp_path: Path) -> None:
    text = SAMPLE.replace("*** SHOW DOWN ***", "*** SHOWDOWN ***")
    events = only(read(tmp_path, text, ("gg-2022-cash-holdem",)))
    assert events[0]["rulebook"] == "gg-2022-cash-holdem"


def test_both_rooms_in_one_folder_and_an_unknown_marker(tmp_path: Path) -> None:
    from tests.audit.ingest.test_import_ggpoker import SAMPLE as GG

    (tmp_path / "in").mkdir()
    stars = SAMPLE.replace("*** SHOW DOWN ***", "*** SHOWTIME ***")  # not a room's line
    (tmp_path / "in" / "stars.txt").write_text(stars)
    (tmp_path / "in" / "gg.txt").write_text(GG)
    (tmp_path / "in" / "notes.txt").write_text("skipped: not a hand history")
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    summary = ingest(store, [tmp_path / "in"], header_zone="UTC")  # GG's zone, declared
    assert (summary.files, summary.subjects_stored, summary.quarantined) == (2, 1, 1)
    assert "*** SHOWTIME ***" in summary.rejected[0].reason
