# ruff: noqa: E501  (the rooms' header lines are longer than 100 characters)
"""Cash-game rules the rooms' real payouts show (issue 21, second part), each on a hand
written in a room's real form and read by the real importer (hands written for this
project, our own names and amounts, in the line shapes of real PokerStars and GGPoker
files).

The oracle is the room's own text: the summary's pots, rake and collected amounts. The
hand as written has no payout, rake or action finding; the same hand with one figure
changed, consistently through its text, is found."""

from __future__ import annotations

from pathlib import Path

from replayer.findings import FindingKind
from replayer.poker.betting import Betting
from replayer.poker.rake import share_rake
from replayer.poker.replay import adjudicate_hand
from replayer.rulebooks.gg_2022 import CASH_HOLDEM
from replayer.rulebooks.poker import RakeSplit, RakeTerms, Structure
from tests.replayer.test_real_form_rules import changed, hand, kinds

#: GG cash, 2023, all-in before the flop and run twice: $30.30 less 5% ($1.51) is
#: $28.79, $14.40 for the first run (won by Hero, seat 2) and $14.39 for the second
#: (won by kiwi01, seat 1, the first player left of the button): GG gives the odd cent
#: to the first run, as its own histories pay.
GG_RUN_TWICE = """\
Poker Hand #OM900000011: PLO ($1/$2) - 2023/07/02 10:00:00
Table 'PLOSilver7' 6-max Seat #3 is the button
Seat 1: kiwi01 ($60.4 in chips)
Seat 2: Hero ($15.15 in chips)
Seat 3: moss77 ($120 in chips)
kiwi01: posts small blind $1
Hero: posts big blind $2
*** HOLE CARDS ***
Dealt to kiwi01
Dealt to Hero [Ad Kd Qc Jc]
Dealt to moss77
moss77: folds
kiwi01: raises $4 to $6
Hero: raises $9.15 to $15.15 and is all-in
kiwi01: calls $9.15
Hero: shows [Ad Kd Qc Jc]
kiwi01: shows [7h 7s 6h 6s]
*** FIRST FLOP *** [As Kh 2c]
*** FIRST TURN *** [As Kh 2c] [3d]
*** FIRST RIVER *** [As Kh 2c 3d] [9s]
*** SECOND FLOP *** [7c 6d 2h]
*** SECOND TURN *** [7c 6d 2h] [Tc]
*** SECOND RIVER *** [7c 6d 2h Tc] [4s]
*** FIRST SHOWDOWN ***
Hero collected $14.4 from pot
*** SECOND SHOWDOWN ***
kiwi01 collected $14.39 from pot
*** SUMMARY ***
Total pot $30.3 | Rake $1.51 | Jackpot $0 | Bingo $0
Hand was run two times
FIRST Board [As Kh 2c 3d 9s]
SECOND Board [7c 6d 2h Tc 4s]
Seat 1: kiwi01 (small blind) showed [7h 7s 6h 6s] and lost with Pair of Sevens, and won ($14.39) with Three Sevens
Seat 2: Hero (big blind) showed [Ad Kd Qc Jc] and won ($14.4) with Two Pair, and lost with Ace High
Seat 3: moss77 (button) folded before Flop (didn't bet)
"""

GG_FIVE = RakeTerms(min_bps=500, max_bps=500, cap=600)


def test_gg_run_twice_odd_cent_to_the_first_run(tmp_path: Path) -> None:
    verdict = adjudicate_hand(hand(tmp_path, GG_RUN_TWICE), rake_terms=GG_FIVE)
    assert verdict.rulebook_id == "gg-2022-cash-omaha"
    assert verdict.findings == ()
    assert (verdict.expected_payouts[2], verdict.expected_payouts[1]) == (1440, 1439)
    # the odd cent to the first winner left of the button instead: one mispaid pot,
    # citing the named open choice for boards run more than once
    swapped = changed(
        GG_RUN_TWICE,
        ("Hero collected $14.4 ", "Hero collected $14.39 "),
        ("kiwi01 collected $14.39", "kiwi01 collected $14.4"),
        ("won ($14.39)", "won ($14.4X)"),
        ("won ($14.4)", "won ($14.39)"),
        ("won ($14.4X)", "won ($14.4)"),
    )
    [finding] = adjudicate_hand(hand(tmp_path, swapped), rake_terms=GG_FIVE).findings
    assert finding.kind is FindingKind.MISPAID_POT
    assert finding.difference == {"1": 1, "2": -1}
    assert "boards run more than once" in finding.citation
    assert "the odd cent to the first run" in finding.citation


#: PokerStars cash, $0.25/$0.50, in the form of its 2008-2010 tables (dated 2023, when a
#: rulebook is in force): every stack, bet and payout is a multiple of $0.05, the table's
#: smallest chip. Four players tie on the board's straight: $2 less
#: $0.10 rake is 38 chips of $0.05, 9 each and the 2 left one each to the first winners
#: left of the button (seats 6 and 8): $0.50, $0.50, $0.45, $0.45.
PS_FOUR_WAY = """\
PokerStars Hand #250000000401:  Hold'em No Limit ($0.25/$0.50 USD) - 2023/05/07 21:10:00 CET [2023/05/07 15:10:00 ET]
Table 'Vesta' 9-max Seat #4 is the button
Seat 1: orla ($22.35 in chips)
Seat 3: pim_r ($50 in chips)
Seat 4: quinn ($31.10 in chips)
Seat 6: rhea_m ($48.95 in chips)
Seat 8: sol88 ($50 in chips)
rhea_m: posts small blind $0.25
sol88: posts big blind $0.50
*** HOLE CARDS ***
Dealt to rhea_m [4c 5c]
orla: calls $0.50
pim_r: folds
quinn: calls $0.50
rhea_m: calls $0.25
sol88: checks
*** FLOP *** [Ah Kh Qs]
rhea_m: checks
sol88: checks
orla: checks
quinn: checks
*** TURN *** [Ah Kh Qs] [Js]
rhea_m: checks
sol88: checks
orla: checks
quinn: checks
*** RIVER *** [Ah Kh Qs Js] [Td]
rhea_m: checks
sol88: checks
orla: checks
quinn: checks
*** SHOW DOWN ***
rhea_m: shows [4c 5c] (a straight, Ten to Ace)
sol88: shows [9h 9c] (a straight, Ten to Ace)
orla: shows [3d 3s] (a straight, Ten to Ace)
quinn: shows [6h 7d] (a straight, Ten to Ace)
rhea_m collected $0.50 from pot
sol88 collected $0.50 from pot
orla collected $0.45 from pot
quinn collected $0.45 from pot
*** SUMMARY ***
Total pot $2 | Rake $0.10
Board [Ah Kh Qs Js Td]
Seat 1: orla showed [3d 3s] and won ($0.45) with a straight, Ten to Ace
Seat 3: pim_r folded before Flop (didn't bet)
Seat 4: quinn (button) showed [6h 7d] and won ($0.45) with a straight, Ten to Ace
Seat 6: rhea_m (small blind) showed [4c 5c] and won ($0.50) with a straight, Ten to Ace
Seat 8: sol88 (big blind) showed [9h 9c] and won ($0.50) with a straight, Ten to Ace
"""

PS_FIVE = RakeTerms(min_bps=500, max_bps=500, cap=300, only_if_board=True)
NICKEL_CHIP = {"smallest_chip": 5}


def test_a_tie_is_paid_in_the_tables_smallest_chip(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_FOUR_WAY, ("gg-2022-cash-holdem",))
    verdict = adjudicate_hand(events, rake_terms=PS_FIVE, table_terms=NICKEL_CHIP)
    assert verdict.findings == ()
    assert {seat: verdict.expected_payouts[seat] for seat in (1, 4, 6, 8)} == {
        1: 45,
        4: 45,
        6: 50,
        8: 50,
    }
    # the hand history names no chip: in cents the tie is 47.5 each, which the room
    # did not pay (the declared chip is what makes it right)
    [in_cents] = adjudicate_hand(events, rake_terms=PS_FIVE).findings
    assert in_cents.kind is FindingKind.MISPAID_POT
    # with the chip declared, both odd chips to one player is a mispaid pot
    one_gets_both = changed(
        PS_FOUR_WAY,
        ("rhea_m collected $0.50", "rhea_m collected $0.55"),
        ("sol88 collected $0.50", "sol88 collected $0.45"),
        (
            "won ($0.50) with a straight, Ten to Ace\nSeat 8",
            "won ($0.55) with a straight, Ten to Ace\nSeat 8",
        ),
        (
            "sol88 (big blind) showed [9h 9c] and won ($0.50)",
            "sol88 (big blind) showed [9h 9c] and won ($0.45)",
        ),
    )
    events = hand(tmp_path, one_gets_both, ("gg-2022-cash-holdem",))
    [finding] = adjudicate_hand(events, rake_terms=PS_FIVE, table_terms=NICKEL_CHIP).findings
    assert finding.kind is FindingKind.MISPAID_POT
    assert finding.difference == {"6": 5, "8": -5}
    assert "Política de mãos atadas" in finding.citation


#: PokerStars cash, 2023, $0.01/$0.02: three all-ins; the main pot of $3 (three times
#: $1) and the side pot of $7 (twice $3.50) pay $2.85 and $6.85: the capped $0.30 rake is
#: 5% of the main pot first ($0.15) and the rest from the side pot, not in proportion
#: ($0.09 and $0.21).
PS_CAPPED_SIDE_POT = """\
PokerStars Hand #250000000301:  Hold'em No Limit ($0.01/$0.02 USD) - 2023/05/08 22:00:00 WET [2023/05/08 17:00:00 ET]
Table 'Corvus' 9-max Seat #9 is the button
Seat 1: tova ($6 in chips)
Seat 2: ulf.b ($1 in chips)
Seat 4: Hero ($3 in chips)
Seat 9: vida_k ($4.50 in chips)
tova: posts small blind $0.01
ulf.b: posts big blind $0.02
*** HOLE CARDS ***
Dealt to Hero [8c 4d]
Hero: folds
vida_k: raises $0.04 to $0.06
tova: raises $5.94 to $6 and is all-in
ulf.b: calls $0.98 and is all-in
vida_k: calls $4.44 and is all-in
Uncalled bet ($1.50) returned to tova
*** FLOP *** [2c 7d 9h]
*** TURN *** [2c 7d 9h] [Js]
*** RIVER *** [2c 7d 9h Js] [3s]
*** SHOW DOWN ***
tova: shows [Qh Qd] (a pair of Queens)
vida_k: shows [Ac 5d] (high card Ace)
tova collected $6.85 from side pot
ulf.b: shows [Kh Kd] (a pair of Kings)
ulf.b collected $2.85 from main pot
*** SUMMARY ***
Total pot $10 Main pot $2.85. Side pot $6.85. | Rake $0.30
Board [2c 7d 9h Js 3s]
Seat 1: tova (small blind) showed [Qh Qd] and won ($6.85) with a pair of Queens
Seat 2: ulf.b (big blind) showed [Kh Kd] and won ($2.85) with a pair of Kings
Seat 4: Hero folded before Flop (didn't bet)
Seat 9: vida_k (button) showed [Ac 5d] and lost with high card Ace
"""

CAPPED = RakeTerms(min_bps=500, max_bps=500, cap=30)


def test_capped_rake_taken_from_the_main_pot_first(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_CAPPED_SIDE_POT, ("gg-2022-cash-holdem",))
    verdict = adjudicate_hand(events, rake_terms=CAPPED)
    assert verdict.findings == ()
    assert [(p.amount, p.rake) for p in verdict.pots] == [(300, 15), (700, 15)]
    # in proportion the same $0.30 would be $0.09 and $0.21
    assert share_rake(30, [300, 700], 1, None, RakeSplit.PROPORTIONAL, 500) == [9, 21]
    # the room's split paid the other way round: a mispaid pot
    skewed = changed(
        PS_CAPPED_SIDE_POT,
        ("Main pot $2.85. Side pot $6.85.", "Main pot $2.91. Side pot $6.79."),
        ("tova collected $6.85", "tova collected $6.79"),
        ("ulf.b collected $2.85", "ulf.b collected $2.91"),
        ("won ($6.85)", "won ($6.79)"),
        ("won ($2.85)", "won ($2.91)"),
    )
    events = hand(tmp_path, skewed, ("gg-2022-cash-holdem",))
    [finding] = adjudicate_hand(events, rake_terms=CAPPED).findings
    assert finding.kind is FindingKind.MISPAID_POT
    assert finding.difference == {"1": -6, "2": 6}


def test_several_pots_without_rake_terms_is_terms_missing_only(tmp_path: Path) -> None:
    """No terms: the rake cannot be checked, nor its share of each pot; the room's own
    split stands (the summary's net pots), and the hand has no payout finding."""
    events = hand(tmp_path, PS_CAPPED_SIDE_POT, ("gg-2022-cash-holdem",))
    verdict = adjudicate_hand(events)
    assert kinds(verdict) == ["terms_missing"]
    assert [(p.amount, p.rake) for p in verdict.pots] == [(300, 15), (700, 15)]


#: PokerStars cash, 2023, pot-limit omaha: bo_t shows two of his four cards, and the
#: summary writes his hand "mucked": only a hand wholly tabled is judged, so ana.q wins.
PS_PARTIAL_SHOW = """\
PokerStars Hand #250000000201:  Omaha Pot Limit ($0.50/$1.00 USD) - 2023/04/20 21:00:00 CET [2023/04/20 15:00:00 ET]
Table 'Lyra III' 6-max Seat #2 is the button
Seat 1: ana.q ($100 in chips)
Seat 2: bo_t ($80 in chips)
Seat 4: cyd ($60 in chips)
cyd: posts small blind $0.50
ana.q: posts big blind $1
*** HOLE CARDS ***
bo_t: raises $2.50 to $3.50
cyd: folds
ana.q: calls $2.50
*** FLOP *** [Kc 8d 3h]
ana.q: checks
bo_t: bets $5
ana.q: calls $5
*** TURN *** [Kc 8d 3h] [Qs]
ana.q: checks
bo_t: checks
*** RIVER *** [Kc 8d 3h Qs] [2d]
ana.q: checks
bo_t: checks
*** SHOW DOWN ***
ana.q: shows [Ks Kd 9c 4h] (three of a kind, Kings)
bo_t: shows [Ah As]
ana.q collected $16.63 from pot
*** SUMMARY ***
Total pot $17.50 | Rake $0.87
Board [Kc 8d 3h Qs 2d]
Seat 1: ana.q (big blind) showed [Ks Kd 9c 4h] and won ($16.63) with three of a kind, Kings
Seat 2: bo_t (button) mucked [Ah As]
Seat 4: cyd (small blind) folded before Flop
"""


def test_a_hand_shown_in_part_concedes(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_PARTIAL_SHOW, ("gg-2022-cash-omaha",))
    verdict = adjudicate_hand(events, rake_terms=PS_FIVE)
    assert verdict.determined and verdict.findings == ()
    assert verdict.expected_payouts[1] == 1663
    # the pot paid to the player who did not table his hand: a mispaid pot
    paid_to_him = changed(
        PS_PARTIAL_SHOW,
        ("ana.q collected $16.63", "bo_t collected $16.63"),
        (
            "showed [Ks Kd 9c 4h] and won ($16.63) with three of a kind, Kings",
            "showed [Ks Kd 9c 4h] and lost with three of a kind, Kings",
        ),
        ("bo_t (button) mucked [Ah As]", "bo_t (button) showed [Ah As] and won ($16.63)"),
    )
    events = hand(tmp_path, paid_to_him, ("gg-2022-cash-omaha",))
    [finding] = adjudicate_hand(events, rake_terms=PS_FIVE).findings
    assert finding.kind is FindingKind.MISPAID_POT
    assert finding.difference == {"1": -1663, "2": 1663}


#: PokerStars cash, 2023: the big blind is all-in for $0.07 of $0.10; xan, with $0.09
#: behind, calls all-in; una_b folds; the small blind calls $0.04, to the $0.09 nobody
#: left can raise. Main pot $0.21, side pot $0.04, 5% rake ($0.01) from the main pot.
PS_SHORT_BLIND = """\
PokerStars Hand #250000000101:  Hold'em No Limit ($0.05/$0.10 USD) - 2023/03/01 20:00:00 CET [2023/03/01 14:00:00 ET]
Table 'Nox II' 6-max Seat #1 is the button
Seat 1: una_b ($10 in chips)
Seat 2: vik ($6 in chips)
Seat 3: wen.z ($0.07 in chips)
Seat 4: xan ($0.09 in chips)
vik: posts small blind $0.05
wen.z: posts big blind $0.07 and is all-in
*** HOLE CARDS ***
Dealt to una_b [7s 2d]
xan: calls $0.09 and is all-in
una_b: folds
vik: calls $0.04
*** FLOP *** [Qd 8s 4c]
*** TURN *** [Qd 8s 4c] [Jh]
*** RIVER *** [Qd 8s 4c Jh] [2s]
*** SHOW DOWN ***
vik: shows [Td 9d] (a straight, Eight to Queen)
xan: shows [Ac Qc] (a pair of Queens)
vik collected $0.04 from side pot
wen.z: shows [Kh 5h] (high card King)
vik collected $0.20 from main pot
*** SUMMARY ***
Total pot $0.25 Main pot $0.20. Side pot $0.04. | Rake $0.01
Board [Qd 8s 4c Jh 2s]
Seat 1: una_b (button) folded before Flop (didn't bet)
Seat 2: vik (small blind) showed [Td 9d] and won ($0.24) with a straight, Eight to Queen
Seat 3: wen.z (big blind) showed [Kh 5h] and lost with high card King
Seat 4: xan showed [Ac Qc] and lost with a pair of Queens
"""


def test_a_short_big_blind_does_not_lower_the_call(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_SHORT_BLIND, ("gg-2022-cash-holdem",))
    assert adjudicate_hand(events, rake_terms=PS_FIVE).findings == ()


def test_a_call_below_the_full_big_blind_is_still_illegal() -> None:
    """The big blind all-in for 7 of 10: a player with chips behind who calls only 7 has
    not called (the full big blind is owed); the check can fail."""
    betting = Betting(CASH_HOLDEM, Structure.NO_LIMIT, [600, 7, 1000, 1000], 5, 10, 0, 10)
    issues: list = []
    betting.post(0, "small_blind", 5, issues)
    betting.post(1, "big_blind", 7, issues)
    betting.act(2, "call", 7, issues)
    assert [(issue.reason, issue.expected) for issue in issues] == [("calls 7, owed 10", 10)]


#: PokerStars cash, 2023: the small blind's seat is empty (its player left), so nobody
#: posts it and the first player left of the button posts the big blind (a dead small
#: blind); the order of play is set by that big blind.
PS_DEAD_SMALL_BLIND = """\
PokerStars Hand #240000000001:  Hold'em No Limit ($0.10/$0.25 USD) - 2023/06/14 18:58:06 CET [2023/06/14 12:58:06 ET]
Table 'Dorado' 6-max Seat #6 is the button
Seat 2: yas ($25 in chips)
Seat 4: zed.k ($31.90 in chips)
Seat 6: abe ($22.95 in chips)
yas: posts big blind $0.25
*** HOLE CARDS ***
zed.k: folds
abe: raises $0.50 to $0.75
yas: folds
Uncalled bet ($0.50) returned to abe
abe collected $0.50 from pot
abe: doesn't show hand
*** SUMMARY ***
Total pot $0.50 | Rake $0
Seat 2: yas (big blind) folded before Flop
Seat 4: zed.k folded before Flop (didn't bet)
Seat 6: abe (button) collected ($0.50)
"""


def test_a_dead_small_blind_lets_the_first_player_post_the_big_blind(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_DEAD_SMALL_BLIND, ("gg-2022-cash-holdem",))
    assert adjudicate_hand(events, rake_terms=PS_FIVE).findings == ()
    # the next player acting first is still out of turn: the order is the real blind's
    early = changed(
        PS_DEAD_SMALL_BLIND,
        (
            "zed.k: folds\nabe: raises $0.50 to $0.75\n",
            "abe: raises $0.50 to $0.75\nzed.k: folds\n",
        ),
    )
    verdict = adjudicate_hand(hand(tmp_path, early, ("gg-2022-cash-holdem",)), rake_terms=PS_FIVE)
    assert kinds(verdict) == ["illegal_action", "illegal_action"]
    assert all("out of turn" in f.reason for f in verdict.findings)


#: PokerStars cash, 2023: wen.z is all-in for his $0.07 big blind and sitting out; when
#: the action reaches him the room folds his hand ("wen.z: folds"): he concedes his claim to
#: the pot his $0.07 stays in, and takes no turn.
PS_ALL_IN_FOLDS = """\
PokerStars Hand #80000000001:  Hold'em No Limit ($0.05/$0.10 USD) - 2023/02/16 22:26:13 CET [2023/02/16 16:26:13 ET]
Table 'Nox III' 6-max Seat #1 is the button
Seat 1: una_b ($10 in chips)
Seat 2: vik ($6 in chips)
Seat 3: wen.z ($0.07 in chips)
Seat 4: xan ($8 in chips)
vik: posts small blind $0.05
wen.z: posts big blind $0.07 and is all-in
*** HOLE CARDS ***
xan: calls $0.10
una_b: folds
vik: calls $0.05
wen.z: folds
*** FLOP *** [Qd 8s 4c]
vik: checks
xan: bets $0.20
vik: folds
Uncalled bet ($0.20) returned to xan
xan collected $0.26 from pot
xan: doesn't show hand
*** SUMMARY ***
Total pot $0.27 | Rake $0.01
Board [Qd 8s 4c]
Seat 1: una_b (button) folded before Flop (didn't bet)
Seat 2: vik (small blind) folded on the Flop
Seat 3: wen.z (big blind) folded before Flop
Seat 4: xan collected ($0.26)
"""


def test_an_all_in_player_who_folds_concedes(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_ALL_IN_FOLDS, ("gg-2022-cash-holdem",))
    verdict = adjudicate_hand(events, rake_terms=PS_FIVE)
    assert verdict.findings == ()
    assert verdict.expected_payouts[4] == 46  # the $0.26 collected and $0.20 returned
