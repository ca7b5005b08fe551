# ruff: noqa: E501  (the rooms' header lines are longer than 100 characters)
"""Tournament hands judged under tournament play (issue 21 item 3), each on a hand
written in a room's real form (our own names and amounts, in the line shapes of real
GGPoker and PokerStars tournament files) and read by the real importer.

The oracle is the room's own text: its summary's total and each seat's collected."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.ingest.limits import Limits
from audit.ingest.room_text.reader import iter_text_units
from audit.ingest.rulebook_choice import rulebook_for
from audit.store import SubjectRecords
from replayer.findings import FindingKind
from replayer.poker.replay import adjudicate_hand
from replayer.rulebooks.registry import NONE_APPLIES
from tests.replayer.test_real_form_rules import changed, kinds

#: GG tournament, 2023: the header names level 3 (80/160) while the table still posts
#: level 2's blinds (60/120), as GGPoker writes the first hands of a level; a raise of
#: 180 to 300 is a full raise over the posted big blind of 120.
GG_LEVEL = """\
Poker Hand #TM900000101: Tournament #9100001, Sunday Sample $50 Hold'em No Limit - Level3 (80/160) - 2023/05/14 19:25:21
Table '12' 8-max Seat #5 is the button
Seat 1: Hero (9,000 in chips)
Seat 3: ab12cd34 (13,500 in chips)
Seat 5: ef56ab78 (4,200 in chips)
Seat 7: cd90ef12 (9,600 in chips)
Seat 8: 12ab34cd (18,300 in chips)
ab12cd34: posts the ante 18
ef56ab78: posts the ante 18
cd90ef12: posts the ante 18
12ab34cd: posts the ante 18
Hero: posts the ante 18
cd90ef12: posts small blind 60
12ab34cd: posts big blind 120
*** HOLE CARDS ***
Dealt to Hero [9h 5c]
Dealt to ab12cd34
Dealt to ef56ab78
Dealt to cd90ef12
Dealt to 12ab34cd
Hero: folds
ab12cd34: raises 180 to 300
ef56ab78: folds
cd90ef12: folds
12ab34cd: calls 180
*** FLOP *** [Kd 7s As]
12ab34cd: checks
ab12cd34: checks
*** TURN *** [7s Kd As] [6d]
12ab34cd: bets 500
ab12cd34: calls 500
*** RIVER *** [7s Kd As 6d] [6s]
12ab34cd: bets 1,000
ab12cd34: calls 1,000
12ab34cd: shows [9c Ah] (Pair of Aces and Pair of Sixes)
ab12cd34: shows [Ks Jc] (Pair of Kings and Pair of Sixes)
*** SHOWDOWN ***
12ab34cd collected 3,750 from pot
*** SUMMARY ***
Total pot 3,750
Board [Kd 7s As 6d 6s]
Seat 1: Hero folded before Flop
Seat 3: ab12cd34 showed [Ks Jc] and lost with Pair of Kings and Pair of Sixes
Seat 5: ef56ab78 (button) folded before Flop
Seat 7: cd90ef12 (small blind) folded before Flop
Seat 8: 12ab34cd (big blind) showed [Ah 9c] and won (3,750) with Pair of Aces and Pair of Sixes
"""

#: PokerStars tournament, 2007: an all-in raise called short before the flop, the text
#: writing no ``Uncalled bet`` line (the summary counts only what was called).
PS_2007 = """\
PokerStars Game #900000000201: Tournament #91000002, $5.00+$0.50 Hold'em No Limit - Level II (15/30) - 2007/10/15 - 05:35:27 (ET)
Table '91000002 7' 9-max Seat #6 is the button
Seat 1: Anselmo (3000 in chips)
Seat 2: Brites (2500 in chips)
Seat 5: Hero (1100 in chips)
Seat 6: Couto (2100 in chips)
Seat 7: Dantas (2900 in chips)
Seat 8: Esteves (1400 in chips)
Dantas: posts small blind 15
Esteves: posts big blind 30
*** HOLE CARDS ***
Dealt to Hero [3c Qs]
Anselmo: folds
Brites: raises 2470 to 2500 and is all-in
Hero: folds
Couto: calls 2100 and is all-in
Dantas: folds
Esteves: folds
*** FLOP *** [Ah Ac 7h]
*** TURN *** [Ah Ac 7h] [Qc]
*** RIVER *** [Ah Ac 7h Qc] [5c]
*** SHOW DOWN ***
Brites: shows [Th Td] (two pair, Aces and Tens)
Couto: shows [7s Qh] (two pair, Aces and Queens)
Couto collected 4245 from pot
*** SUMMARY ***
Total pot 4245 | Rake 0
Board [Ah Ac 7h Qc 5c]
Seat 1: Anselmo folded before Flop (didn't bet)
Seat 2: Brites showed [Th Td] and lost with two pair, Aces and Tens
Seat 5: Hero folded before Flop (didn't bet)
Seat 6: Couto (button) showed [7s Qh] and won (4245) with two pair, Aces and Queens
Seat 7: Dantas (small blind) folded before Flop
Seat 8: Esteves (big blind) folded before Flop
"""

#: PokerStars heads-up tournament, 2012: the small blind's raise written as the chips it
#: adds (``raises 30 to 40`` over a big blind of 20).
PS_ADDED = """\
PokerStars Game #900000000301: Tournament #91000003, $20+$1 USD Hold'em No Limit - Match Round I, Level I (10/20) - 2012/09/27 05:51:02 ET
Table '1' 2-max Seat #2 is the button
Seat 1: Hero (1500 in chips)
Seat 2: Fagundes (1500 in chips)
Fagundes: posts small blind 10
Hero: posts big blind 20
*** HOLE CARDS ***
Dealt to Hero [6h Qd]
Dealt to Fagundes [Ac 2h]
Fagundes: raises 30 to 40
Hero: folds
Uncalled bet (20) returned to Fagundes
Fagundes: shows [Ac 2h] (High Card)
Fagundes collected 40 from pot
*** SUMMARY ***
Total pot 40 | Rake 0
Seat 1: Hero (big blind) showed [6h Qd] and folded before Flop
Seat 2: Fagundes (button) (small blind) showed [Ac 2h] and collected (40)
"""

#: PokerStars knockout tournament, 2012: two winners split the pot that eliminates a
#: player, and his bounty with it.
PS_SPLIT_KO = """\
PokerStars Hand #900000000401: Tournament #91000004, $200+$50+$15 USD Omaha Pot Limit - Level I (10/20) - 2012/09/10 12:00:00 ET
Table '91000004 1' 9-max Seat #1 is the button
Seat 1: Gomes (1500 in chips, $50 bounty)
Seat 2: Horta (100 in chips, $50 bounty)
Seat 3: Inacio (1500 in chips, $50 bounty)
Horta: posts small blind 10
Inacio: posts big blind 20
*** HOLE CARDS ***
Gomes: raises 40 to 60
Horta: calls 50
Inacio: calls 40
*** FLOP *** [2c 5d 9h]
Horta: bets 40 and is all-in
Inacio: calls 40
Gomes: calls 40
*** TURN *** [2c 5d 9h] [Kc]
Inacio: checks
Gomes: checks
*** RIVER *** [2c 5d 9h Kc] [3s]
Inacio: checks
Gomes: checks
*** SHOW DOWN ***
Inacio: shows [As 4h Jd Jc] (a straight, Ace to Five)
Gomes: shows [Ah 4d Qc Qs] (a straight, Ace to Five)
Horta: shows [Kd Ks 8h 8c] (three of a kind, Kings)
Gomes collected 150 from pot
Inacio collected 150 from pot
Inacio, Gomes split the $50 bounty for eliminating Horta
*** SUMMARY ***
Total pot 300 | Rake 0
Board [2c 5d 9h Kc 3s]
Seat 1: Gomes (button) showed [Ah 4d Qc Qs] and won (150) with a straight, Ace to Five
Seat 2: Horta (small blind) showed [Kd Ks 8h 8c] and lost with three of a kind, Kings
Seat 3: Inacio (big blind) showed [As 4h Jd Jc] and won (150) with a straight, Ace to Five
"""


def units(tmp_path: Path, text: str, rulebooks: tuple[str, ...] = ()) -> list:
    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    return list(iter_text_units(path, list(rulebooks), Limits(), header_zone="UTC"))


def hand(tmp_path: Path, text: str, rulebooks: tuple[str, ...] = ()) -> list[dict]:
    [unit] = units(tmp_path, text, rulebooks)
    assert isinstance(unit, SubjectRecords), unit
    return unit.records


def started(events: list[dict]) -> dict:
    return next(e for e in events if e["type"] == "HandStarted")


def test_a_gg_tournament_hand_is_judged_by_the_tournament_book(tmp_path: Path) -> None:
    events = hand(tmp_path, GG_LEVEL)
    start = started(events)
    assert start["rulebook"] == "gg-2022-tournament-holdem"
    assert (start["currency"], start["tournament_id"]) == ("CHIPS", "ggpoker/9100001")
    verdict = adjudicate_hand(events)
    assert verdict.rulebook_id == "gg-2022-tournament-holdem"
    assert verdict.findings == ()
    assert verdict.recorded_payouts[8] == 3750  # the summary's "won (3,750)"


def test_the_blinds_judged_are_those_the_table_posted(tmp_path: Path) -> None:
    """Header level 3 (80/160), posted 60/120: the hand is judged at 60/120, so the
    raise of 180 to 300 is a full raise; the source says which level the header named."""
    start = started(hand(tmp_path, GG_LEVEL))
    assert (start["small_blind"], start["big_blind"], start["ante"]) == (60, 120, 18)
    assert "tournament level 3" in start["source"]
    assert "blinds as posted, 60 chips/120 chips, under the header's level 3" in start["source"]


def test_a_blind_posted_all_in_for_less_keeps_the_headers_level(tmp_path: Path) -> None:
    short = changed(
        GG_LEVEL,
        ("Seat 7: cd90ef12 (9,600 in chips)", "Seat 7: cd90ef12 (50 in chips)"),
        ("cd90ef12: posts small blind 60", "cd90ef12: posts small blind 32"),
        ("collected 3,750", "collected 3,722"),
        ("Total pot 3,750", "Total pot 3,722"),
        ("won (3,750)", "won (3,722)"),
    )
    start = started(hand(tmp_path, short))
    assert (start["small_blind"], start["big_blind"]) == (80, 120)


def test_rake_in_a_tournament_pot_is_out_of_the_rules(tmp_path: Path) -> None:
    """GG-2022 Política de taxas e de ancinho: "Nos torneios, a GGPoker não cobra rake"."""
    raked = changed(
        GG_LEVEL,
        ("collected 3,750", "collected 3,700"),
        ("Total pot 3,750", "Total pot 3,750 | Rake 50"),
        ("won (3,750)", "won (3,700)"),
    )
    [finding] = adjudicate_hand(hand(tmp_path, raked)).findings
    assert finding.kind is FindingKind.RAKE_RATE_OUT_OF_BAND
    assert finding.citation.startswith("GG-2022 Política de taxas e de ancinho (tournaments")


def test_a_cash_book_named_for_a_tournament_hand_does_not_judge_it(tmp_path: Path) -> None:
    events = hand(tmp_path, GG_LEVEL)
    [finding] = adjudicate_hand(events, rulebook_override="gg-2022-cash-holdem").findings
    assert finding.kind is FindingKind.NO_RULEBOOK
    assert "judges cash play, and this is a hand of tournament ggpoker/9100001" in finding.reason


def test_ingest_rulebooks_are_chosen_by_the_hands_play() -> None:
    books = ["gg-2022-cash-holdem", "gg-2022-tournament-holdem"]
    assert rulebook_for(books, "NT", tournament=True) == "gg-2022-tournament-holdem"
    assert rulebook_for(books, "NT", tournament=False) == "gg-2022-cash-holdem"


def test_a_tournament_hand_with_a_cash_book_named_at_ingest(tmp_path: Path) -> None:
    """``--rulebook gg-2022-cash-holdem`` alone: the tournament hand gets it (the first
    named) and the replayer says it judges cash play, never judging chips as cash."""
    events = hand(tmp_path, GG_LEVEL, ("gg-2022-cash-holdem",))
    [finding] = adjudicate_hand(events).findings
    assert finding.kind is FindingKind.NO_RULEBOOK


def test_pokerstars_tournament_chips_are_conserved_without_a_rulebook(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_2007)
    assert started(events)["rulebook"] == NONE_APPLIES
    assert kinds(adjudicate_hand(events)) == ["no_rulebook"]


def test_chips_lost_in_a_tournament_hand_are_found_without_a_rulebook(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_2007)
    ended = next(e for e in events if e["type"] == "HandEnded")
    stacks = list(ended["finishing_stacks"])
    stacks[3] -= 100  # Couto is left 100 chips short
    tampered = [
        {**e, "finishing_stacks": stacks} if e["type"] == "HandEnded" else e for e in events
    ]
    verdict = adjudicate_hand(tampered)
    assert kinds(verdict) == ["mispaid_pot", "no_rulebook"]
    [chips] = [f for f in verdict.findings if f.kind is FindingKind.MISPAID_POT]
    assert chips.citation == "casino-audit tournament chips"
    assert chips.reason == (
        "tournament chips not conserved: 13,000 chips at the table when the hand began, "
        "12,900 chips when it ended"
    )


def test_rake_taken_from_a_pokerstars_tournament_pot_is_found(tmp_path: Path) -> None:
    raked = changed(
        PS_2007,
        ("Couto collected 4245", "Couto collected 4200"),
        ("Rake 0", "Rake 45"),
        ("won (4245)", "won (4200)"),
    )
    [chips] = [
        f
        for f in adjudicate_hand(hand(tmp_path, raked)).findings
        if f.kind is FindingKind.MISPAID_POT
    ]
    assert "12,955 chips when it ended; 45 chips rake" in chips.reason


def test_an_unwritten_uncalled_all_in_is_returned_over_the_hands_totals(tmp_path: Path) -> None:
    """Brites' 2,500 called for 2,100: 400 back, the summary's 4,245 = 2 x 2,100 + 45."""
    events = hand(tmp_path, PS_2007)
    returns = [e for e in events if e["type"] == "PotAwarded" and e["pot_index"] is None]
    assert [(e["seat"], e["amount"]) for e in returns] == [(2, 400)]
    assert "uncalled bet returned, the text writing no line for it" in started(events)["source"]


def test_a_raise_written_as_the_chips_added_is_read(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_ADDED)
    [raised] = [e for e in events if e["type"] == "ActionTaken" and e["action"] == "raise"]
    assert raised["amount"] == 30  # 10 in, to 40
    assert "a raise written as the chips added" in started(events)["source"]
    wrong = changed(PS_ADDED, ("raises 30 to 40", "raises 25 to 40"))
    [rejected] = units(tmp_path, wrong)
    assert not isinstance(rejected, SubjectRecords)
    assert "raises 25 chips to 40 chips" in rejected.reason


def test_a_split_bounty_is_kept_in_the_source_not_the_pot(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_SPLIT_KO)
    source = started(events)["source"]
    assert "bounty line: Inacio, Gomes split the $50 bounty for eliminating Horta" in source
    paid = sum(e["amount"] for e in events if e["type"] == "PotAwarded")
    assert paid == 300  # the summary's Total pot: the bounty is not chips


@pytest.mark.parametrize("flop", ["[7s As Kd]", "[As Kd 7s]"])
def test_the_summary_board_may_order_the_flop_otherwise(tmp_path: Path, flop: str) -> None:
    reordered = changed(GG_LEVEL, ("Board [Kd 7s As 6d 6s]", f"Board {flop[:-1]} 6d 6s]"))
    assert isinstance(units(tmp_path, reordered)[0], SubjectRecords)
    turned = changed(GG_LEVEL, ("Board [Kd 7s As 6d 6s]", "Board [Kd 7s As 6s 6d]"))
    assert not isinstance(units(tmp_path, turned)[0], SubjectRecords)


def test_show_links_a_tournament_hand_and_its_stored_tournament(tmp_path: Path) -> None:
    """``show`` of the hand names its tournament, level and whether that tournament is
    stored; ``show`` of the tournament lists its hands in the store."""
    from audit.explain import show_lines
    from audit.store import AuditStore
    from tests.replayer.tournaments.test_tournament_cancellation import Tournament

    store = AuditStore(f"sqlite:///{tmp_path / 't.db'}")
    store.append([SubjectRecords("poker", "ggpoker/TM900000101", hand(tmp_path, GG_LEVEL))])
    alone = show_lines(store, "ggpoker/TM900000101") or []
    assert "  tournament  ggpoker/9100001 (not in the store)" in alone
    assert "  level       3" in alone
    tournament = Tournament(buy_in=5_000, fee=500).register("Hero", "e1")
    events = [
        {**e, "tournament_id": "ggpoker/9100001", "event_id": f"ggpoker/9100001#{e['sequence']}"}
        for e in tournament.events
    ]
    store.append([SubjectRecords("tournament", "ggpoker/9100001", events)])
    linked = show_lines(store, "ggpoker/TM900000101") or []
    assert "  tournament  ggpoker/9100001 (stored: show it)" in linked
    shown = show_lines(store, "ggpoker/9100001") or []
    assert any(line.split() == ["hands", "ggpoker/TM900000101"] for line in shown)


def test_the_console_links_a_tournament_hand_and_its_tournament(tmp_path: Path) -> None:
    """The hand links its stored tournament; the tournament lists its judged hands, found
    through the read model (the verdict's context names the tournament), no scan."""
    from audit.judging import replay
    from audit.store import AuditStore
    from console.readmodel.model import ReadModel
    from console.routes.subject_links import subject_links
    from tests.replayer.tournaments.test_tournament_cancellation import Tournament

    store = AuditStore(f"sqlite:///{tmp_path / 't.db'}")
    store.append([SubjectRecords("poker", "ggpoker/TM900000101", hand(tmp_path, GG_LEVEL))])
    assert subject_links(ReadModel(store), store, "ggpoker/TM900000101").tournament == ""
    events = [
        {**e, "tournament_id": "ggpoker/9100001", "event_id": f"ggpoker/9100001#{e['sequence']}"}
        for e in Tournament(buy_in=5_000, fee=500).register("Hero", "e1").events
    ]
    store.append([SubjectRecords("tournament", "ggpoker/9100001", events)])
    replay(store)
    model = ReadModel(store)
    assert subject_links(model, store, "ggpoker/TM900000101").tournament == "ggpoker/9100001"
    assert subject_links(model, store, "ggpoker/9100001").hands == ("ggpoker/TM900000101",)
