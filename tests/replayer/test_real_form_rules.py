# ruff: noqa: E501  (the rooms' header lines are longer than 100 characters)
"""The rules real payouts show (issue 21), each on a hand written in a room's real form
and read by the real importer (hands written for this project, our own names and
amounts, in the line shapes of real PokerStars and GGPoker files).

The oracle is the room's own text: the summary's pots, rake and collected amounts. A
hand whose text pays as the rules say has no payout or rake finding; the same hand with
one figure changed, consistently through its text, has exactly one."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.ingest.limits import Limits
from audit.ingest.room_text.reader import iter_text_units
from audit.show.poker import HandVoice, settlement
from audit.show.text import settlement_lines
from audit.store import SubjectRecords
from replayer.findings import FindingKind
from replayer.poker.replay import adjudicate_hand
from replayer.rulebooks.poker import RakeTerms

#: GG cash, 2023: seats 1 and 4 split the main pot with the same straight, seat 1 wins
#: the side pot; the odd cent of the main pot goes to seat 4, the first winner left of
#: the button (seat 1), as GGPoker's own cash histories pay it.
GG_SPLIT = """\
Poker Hand #OM900000001: Omaha Pot Limit ($0.5/$1) - 2023/04/14 07:56:19
Table 'PLOBronze3' 6-max Seat #1 is the button
Seat 1: bea7a1 ($169.25 in chips)
Seat 2: Hero ($106.64 in chips)
Seat 3: c0ffee ($103.79 in chips)
Seat 4: d1d2d3 ($4.87 in chips)
Seat 5: f00d42 ($100 in chips)
Hero: posts small blind $0.5
c0ffee: posts big blind $1
f00d42: posts big blind $1
*** HOLE CARDS ***
Dealt to bea7a1
Dealt to Hero [Js 5d 5c 2d]
Dealt to c0ffee
Dealt to d1d2d3
Dealt to f00d42
d1d2d3: calls $1
f00d42: checks
bea7a1: raises $2 to $3
Hero: folds
c0ffee: folds
d1d2d3: calls $2
f00d42: calls $2
*** FLOP *** [Jd Qc Ac]
d1d2d3: bets $1.87 and is all-in
f00d42: calls $1.87
bea7a1: calls $1.87
*** TURN *** [Jd Qc Ac] [Ts]
f00d42: checks
bea7a1: bets $11
f00d42: calls $11
*** RIVER *** [Jd Qc Ac Ts] [9h]
f00d42: checks
bea7a1: bets $38.11
f00d42: folds
Uncalled bet ($38.11) returned to bea7a1
bea7a1: shows [Ah Kh 5h 5s] (Aces-High Straight)
d1d2d3: shows [9s 7h Kc Jc] (Aces-High Straight)
*** SHOWDOWN ***
bea7a1 collected $8.05 from pot
d1d2d3 collected $8.06 from pot
bea7a1 collected $22 from pot
*** SUMMARY ***
Total pot $38.11
Board [Jd Qc Ac Ts 9h]
Seat 1: bea7a1 (button) showed [Ah Kh 5s 5h] and won ($30.05) with Aces-High Straight
Seat 2: Hero (small blind) folded before Flop
Seat 3: c0ffee (big blind) folded before Flop
Seat 4: d1d2d3 showed [Kc Jc 9s 7h] and won ($8.06) with Aces-High Straight
Seat 5: f00d42 folded on the River
"""

#: PokerStars cash, 2023: three all-ins of different sizes; 5% of the whole $3.70 is
#: $0.18, rounded once and shared over the pots in proportion (the summary's net pots).
PS_SIDE_POTS = """\
PokerStars Hand #250000000001:  Omaha Pot Limit ($0.01/$0.02 USD) - 2023/06/07 20:14:17 WET [2023/06/07 15:14:17 ET]
Table 'Ahti II' 9-max Seat #6 is the button
Seat 2: lumi_k ($0.52 in chips)
Seat 3: Hero ($0.59 in chips)
Seat 5: tapio ($0.90 in chips)
Seat 6: aino.v ($1.86 in chips)
Seat 7: Kalle P ($2.79 in chips)
Seat 8: ilmari ($5 in chips)
Seat 9: vellamo ($1.05 in chips)
Kalle P: posts small blind $0.01
ilmari: posts big blind $0.02
tapio: posts big blind $0.02
*** HOLE CARDS ***
Dealt to Hero [6d 3c 5s As]
vellamo: calls $0.02
lumi_k: calls $0.02
Hero: calls $0.02
tapio: raises $0.06 to $0.08
aino.v: calls $0.08
Kalle P: folds
ilmari: folds
vellamo: calls $0.06
lumi_k: calls $0.06
Hero: raises $0.06 to $0.14
tapio: raises $0.55 to $0.69
aino.v: calls $0.61
vellamo: raises $0.36 to $1.05 and is all-in
lumi_k: folds
Hero: calls $0.45 and is all-in
tapio: calls $0.21 and is all-in
aino.v: calls $0.36
*** FLOP *** [6c Kc Qc]
*** TURN *** [6c Kc Qc] [Jc]
*** RIVER *** [6c Kc Qc Jc] [4c]
*** SHOW DOWN ***
vellamo: shows [Js Ah 5d 9h] (a pair of Jacks)
aino.v: shows [9c 9d 7d 7h] (a pair of Nines)
vellamo collected $0.29 from side pot-2
tapio: shows [Ks Ad 7s Tc] (a straight, Ten to Ace)
tapio collected $0.88 from side pot-1
Hero: shows [6d 3c 5s As] (a pair of Sixes)
tapio collected $2.35 from main pot
*** SUMMARY ***
Total pot $3.70 Main pot $2.35. Side pot-1 $0.88. Side pot-2 $0.29. | Rake $0.18
Board [6c Kc Qc Jc 4c]
Seat 2: lumi_k folded before Flop
Seat 3: Hero showed [6d 3c 5s As] and lost with a pair of Sixes
Seat 5: tapio showed [Ks Ad 7s Tc] and won ($3.23) with a straight, Ten to Ace
Seat 6: aino.v (button) showed [9c 9d 7d 7h] and lost with a pair of Nines
Seat 7: Kalle P (small blind) folded before Flop
Seat 8: ilmari (big blind) folded before Flop
Seat 9: vellamo showed [Js Ah 5d 9h] and won ($0.29) with a pair of Jacks
"""

#: GG cash, 2023: a returning player posts a missed (dead) small blind and an entry big
#: blind out of position, another straddles; the order of play stays set by the real
#: blinds (GG-2022 Política de taxa de lançamento de mesa: the entry fee "segue as
#: mesmas regras das apostas blind"; Apostas perdidas). 5% rake, cap $3.
GG_BLINDS = """\
Poker Hand #HD900000002: Hold'em No Limit ($0.05/$0.10) - 2023/05/01 12:00:00
Table 'NLHSilver2' 6-max Seat #1 is the button
Seat 1: aa01 ($10 in chips)
Seat 2: bb02 ($10 in chips)
Seat 3: cc03 ($10 in chips)
Seat 4: dd04 ($10 in chips)
Seat 5: ee05 ($10 in chips)
bb02: posts small blind $0.05
cc03: posts big blind $0.10
dd04: straddle $0.20
ee05: posts missed blind $0.05
ee05: posts big blind $0.10
*** HOLE CARDS ***
Dealt to aa01
Dealt to bb02
Dealt to cc03
Dealt to dd04
Dealt to ee05
ee05: calls $0.10
aa01: raises $0.40 to $0.60
bb02: folds
cc03: folds
dd04: folds
ee05: calls $0.40
*** FLOP *** [2c 7d Jh]
ee05: checks
aa01: bets $1
ee05: folds
Uncalled bet ($1) returned to aa01
*** SHOWDOWN ***
aa01 collected $1.52 from pot
*** SUMMARY ***
Total pot $1.60 | Rake $0.08 | Jackpot $0 | Bingo $0
Board [2c 7d Jh]
Seat 1: aa01 (button) collected ($1.52)
Seat 2: bb02 (small blind) folded before Flop
Seat 3: cc03 (big blind) folded before Flop
Seat 4: dd04 folded before Flop
Seat 5: ee05 folded on the Flop
"""

FIVE_PERCENT = RakeTerms(min_bps=500, max_bps=500, cap=300)


def hand(tmp_path: Path, text: str, rulebooks: tuple[str, ...] = ()) -> list[dict]:
    """The events the real importer reads from ``text`` (one hand); a GG header, which
    names no zone, read in the zone the operator declares (UTC here)."""
    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    [unit] = list(iter_text_units(path, list(rulebooks), Limits(), header_zone="UTC"))
    assert isinstance(unit, SubjectRecords), unit
    return unit.records


def changed(text: str, *swaps: tuple[str, str]) -> str:
    for old, new in swaps:
        assert old in text, old
        text = text.replace(old, new)
    return text


def kinds(verdict) -> list[str]:
    return sorted(str(f.kind) for f in verdict.findings)


def test_gg_cash_odd_cent_to_the_first_winner_left_of_the_button(tmp_path: Path) -> None:
    verdict = adjudicate_hand(hand(tmp_path, GG_SPLIT))
    assert verdict.rulebook_id == "gg-2022-cash-omaha"
    assert verdict.findings == () and verdict.house_retained == 0
    # seat 1: $30.05 won and the $38.11 returned uncalled; seat 4: the odd cent's $8.06
    assert (verdict.expected_payouts[1], verdict.expected_payouts[4]) == (6816, 806)
    # the other winner given the odd cent: one mispaid pot, citing the named choice
    swapped = changed(
        GG_SPLIT,
        (
            "collected $8.05 from pot\nd1d2d3 collected $8.06",
            "collected $8.06 from pot\nd1d2d3 collected $8.05",
        ),
        ("won ($30.05)", "won ($30.06)"),
        ("won ($8.06)", "won ($8.05)"),
    )
    [finding] = adjudicate_hand(hand(tmp_path, swapped)).findings
    assert finding.kind is FindingKind.MISPAID_POT
    assert finding.difference == {"1": 1, "4": -1}
    assert "Política de mãos atadas" in finding.citation and "open choice" in finding.citation


def test_gg_side_pot_awards_are_not_all_put_in_the_main_pot(tmp_path: Path) -> None:
    """GG writes ``collected … from pot`` for every pot and no side pot in the summary:
    the action made one, so the awards are kept as each seat's total, not as pot 0."""
    awards = [e for e in hand(tmp_path, GG_SPLIT) if e["type"] == "PotAwarded"]
    # the uncalled bet returned, then the three collected lines
    assert [(e["amount"], e["pot_index"]) for e in awards] == [
        (3811, None),
        (805, None),
        (806, None),
        (2200, None),
    ]


def test_rake_on_the_whole_pot_rounded_once_and_shared_in_proportion(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_SIDE_POTS, ("gg-2022-cash-omaha",))
    verdict = adjudicate_hand(events, rake_terms=RakeTerms(min_bps=500, max_bps=500))
    assert verdict.findings == ()
    assert [(p.amount, p.rake) for p in verdict.pots] == [(247, 12), (93, 5), (30, 1)]
    # the summary's net pots: $2.35, $0.88, $0.29
    assert [p.amount - p.rake for p in verdict.pots] == [235, 88, 29]


def test_entry_dead_and_straddle_blinds_are_not_illegal(tmp_path: Path) -> None:
    events = hand(tmp_path, GG_BLINDS)
    posts = [(e["seat"], e["kind"]) for e in events if e["type"] == "BlindPosted"]
    assert posts == [
        (2, "small_blind"),
        (3, "big_blind"),
        (4, "straddle"),
        (5, "dead_small_blind"),
        (5, "missed_big_blind"),
    ]
    verdict = adjudicate_hand(events, rake_terms=FIVE_PERCENT)
    assert verdict.findings == ()


def test_acting_out_of_the_real_blinds_order_is_still_illegal(tmp_path: Path) -> None:
    """The order stays set by the real blinds: the big blind folding before the small
    blind is out of turn (the check can fail)."""
    early = changed(GG_BLINDS, ("bb02: folds\ncc03: folds\n", "cc03: folds\nbb02: folds\n"))
    verdict = adjudicate_hand(hand(tmp_path, early), rake_terms=FIVE_PERCENT)
    assert kinds(verdict) == ["illegal_action", "illegal_action"]
    assert all("out of turn" in f.reason for f in verdict.findings)


def test_rake_over_the_cap_is_one_finding_not_a_mispaid_pot_too(tmp_path: Path) -> None:
    over = changed(
        GG_BLINDS,
        ("aa01 collected $1.52 from pot", "aa01 collected $1.40 from pot"),
        ("Rake $0.08", "Rake $0.20"),
        ("collected ($1.52)", "collected ($1.40)"),
    )
    verdict = adjudicate_hand(hand(tmp_path, over), rake_terms=RakeTerms(500, 500, cap=10))
    [finding] = verdict.findings
    assert finding.kind is FindingKind.RAKE_CAP_BREACH
    # the whole excess in one finding: 5% of $1.60 allows $0.08, below the $0.10 cap
    assert (finding.expected, finding.recorded) == ({"at_most": 8, "cap": 10}, 20)


def test_a_pokerstars_hand_is_not_judged_by_a_land_casinos_rules(tmp_path: Path) -> None:
    """No ``--rulebook``: a PokerStars hand of 2015 is not judged under PT-217/2007 (the
    only hold'em rulebook in force that day, a Portuguese casino's); the no_rulebook
    finding names every rulebook in force at the hand's date."""
    old = changed(
        PS_SIDE_POTS,
        (
            "2023/06/07 20:14:17 WET [2023/06/07 15:14:17 ET]",
            "2015/06/07 20:14:17 WET [2015/06/07 15:14:17 ET]",
        ),
    )
    [finding] = adjudicate_hand(hand(tmp_path, old)).findings
    assert finding.kind is FindingKind.NO_RULEBOOK
    assert finding.detail["would_judge"] == ["mo-97-2010-omaha", "pt-217-2007-omaha"]
    assert "--rulebook mo-97-2010-omaha or --rulebook pt-217-2007-omaha" in finding.reason
    [recent] = adjudicate_hand(hand(tmp_path, PS_SIDE_POTS)).findings
    assert recent.detail["would_judge"] == [
        "gg-2022-cash-omaha",
        "mo-97-2010-omaha",
        "pt-217-2007-omaha",
    ]


@pytest.mark.parametrize("when", ["2022/09/27 23:00:00", "2020/04/14 07:56:19"])
def test_a_gg_hand_before_its_house_rules_gets_no_land_casino_rules(
    tmp_path: Path, when: str
) -> None:
    early = changed(GG_SPLIT, ("2023/04/14 07:56:19", when))
    [finding] = adjudicate_hand(hand(tmp_path, early)).findings
    assert finding.kind is FindingKind.NO_RULEBOOK
    assert "gg-2022-cash-omaha" not in finding.detail["would_judge"]


def test_show_never_says_overpaid_by_a_pot_it_cannot_judge(tmp_path: Path) -> None:
    hidden = changed(
        PS_SIDE_POTS,
        ("vellamo: shows [Js Ah 5d 9h] (a pair of Jacks)\n", ""),
        (
            "vellamo showed [Js Ah 5d 9h] and won ($0.29) with a pair of Jacks",
            "vellamo won ($0.29)",
        ),
    )
    events = hand(tmp_path, hidden, ("gg-2022-cash-omaha",))
    verdict = adjudicate_hand(events, rake_terms=RakeTerms(min_bps=500, max_bps=500))
    assert not verdict.determined
    text = "\n".join(settlement_lines(settlement(HandVoice(events, {}), verdict)))
    assert "overpaid" not in text and "cannot be told" in text


# -- planted faults in the rooms' real forms ---------------------------------------------

#: PokerStars cash, 2023, heads-up to the river: seat 1 wins the $1.45 pot less a 5% rake.
PS_RIVER = """\
PokerStars Hand #250000000003:  Hold'em No Limit ($0.05/$0.10 USD) - 2023/02/03 21:00:00 CET [2023/02/03 15:00:00 ET]
Table 'Mira IV' 6-max Seat #1 is the button
Seat 1: olga_p ($10 in chips)
Seat 2: Tam B ($7.25 in chips)
Seat 3: rui.s ($12 in chips)
Tam B: posts small blind $0.05
rui.s: posts big blind $0.10
*** HOLE CARDS ***
Dealt to olga_p [Ac Kd]
olga_p: raises $0.20 to $0.30
Tam B: folds
rui.s: calls $0.20
*** FLOP *** [Kh 7c 2s]
rui.s: checks
olga_p: bets $0.40
rui.s: calls $0.40
*** TURN *** [Kh 7c 2s] [9d]
rui.s: checks
olga_p: checks
*** RIVER *** [Kh 7c 2s 9d] [3c]
rui.s: checks
olga_p: checks
*** SHOW DOWN ***
rui.s: shows [Kc Qc] (a pair of Kings)
olga_p: shows [Ac Kd] (a pair of Kings - Ace kicker)
olga_p collected $1.38 from pot
*** SUMMARY ***
Total pot $1.45 | Rake $0.07
Board [Kh 7c 2s 9d 3c]
Seat 1: olga_p (button) showed [Ac Kd] and won ($1.38) with a pair of Kings
Seat 2: Tam B (small blind) folded before Flop
Seat 3: rui.s (big blind) showed [Kc Qc] and lost with a pair of Kings
"""

#: GG cash, 2023: everyone folds to a raise before the flop; no rake may be taken.
GG_NO_FLOP = changed(
    GG_BLINDS,
    (
        "ee05: calls $0.40\n*** FLOP *** [2c 7d Jh]\nee05: checks\naa01: bets $1\nee05: folds\nUncalled bet ($1) returned to aa01\n",
        "ee05: folds\nUncalled bet ($0.40) returned to aa01\n",
    ),
    ("aa01 collected $1.52 from pot", "aa01 collected $0.80 from pot"),
    ("Total pot $1.60 | Rake $0.08", "Total pot $0.80 | Rake $0"),
    ("Board [2c 7d Jh]\n", ""),
    ("collected ($1.52)", "collected ($0.80)"),
    ("ee05 folded on the Flop", "ee05 folded before Flop"),
)
#: PokerStars cash, 2023: the big blind folds to a raise before the flop; no rake.
PS_NO_FLOP = """\
PokerStars Hand #250000000004:  Hold'em No Limit ($0.05/$0.10 USD) - 2023/02/03 21:01:00 CET [2023/02/03 15:01:00 ET]
Table 'Mira IV' 6-max Seat #1 is the button
Seat 1: olga_p ($10 in chips)
Seat 2: Tam B ($7.25 in chips)
Seat 3: rui.s ($12 in chips)
Tam B: posts small blind $0.05
rui.s: posts big blind $0.10
*** HOLE CARDS ***
Dealt to olga_p [Ac Kd]
olga_p: raises $0.20 to $0.30
Tam B: folds
rui.s: folds
Uncalled bet ($0.20) returned to olga_p
olga_p collected $0.25 from pot
olga_p: doesn't show hand
*** SUMMARY ***
Total pot $0.25 | Rake $0
Seat 1: olga_p (button) collected ($0.25)
Seat 2: Tam B (small blind) folded before Flop
Seat 3: rui.s (big blind) folded before Flop
"""

NO_DROP = RakeTerms(min_bps=500, max_bps=500, cap=300, only_if_board=True)
GG_RAKE = "GG-2022 Política de taxas e de ancinho"
GG_RANKING = "GG-2022 (silent: standard online rules)"

#: (room text, rulebooks named, planted change, terms, finding kind, citation)
PLANTED = {
    "gg underpaid": (
        GG_BLINDS,
        (),
        (("collected $1.52", "collected $1.42"), ("collected ($1.52)", "collected ($1.42)")),
        FIVE_PERCENT,
        "mispaid_pot",
        GG_RANKING,
    ),
    "ps underpaid": (
        PS_RIVER,
        ("gg-2022-cash-holdem",),
        (("collected $1.38", "collected $1.28"), ("won ($1.38)", "won ($1.28)")),
        FIVE_PERCENT,
        "mispaid_pot",
        GG_RANKING,
    ),
    "gg overpaid": (
        GG_BLINDS,
        (),
        (("collected $1.52", "collected $1.55"), ("collected ($1.52)", "collected ($1.55)")),
        FIVE_PERCENT,
        "mispaid_pot",
        GG_RANKING,
    ),
    "ps overpaid": (
        PS_RIVER,
        ("gg-2022-cash-holdem",),
        (("collected $1.38", "collected $1.40"), ("won ($1.38)", "won ($1.40)")),
        FIVE_PERCENT,
        "mispaid_pot",
        GG_RANKING,
    ),
    "gg wrong winner": (
        GG_SPLIT,
        (),
        (
            ("d1d2d3: shows [9s 7h Kc Jc]", "d1d2d3: shows [9s 7h Kc 2c]"),
            ("showed [Kc Jc 9s 7h] and won", "showed [Kc 2c 9s 7h] and won"),
        ),
        None,
        "mispaid_pot",
        GG_RANKING,
    ),  # no tie under the rules: no tied-hands policy
    "ps wrong winner": (
        PS_RIVER,
        ("gg-2022-cash-holdem",),
        (
            ("olga_p collected $1.38 from pot", "rui.s collected $1.38 from pot"),
            ("showed [Ac Kd] and won ($1.38) with", "showed [Ac Kd] and lost with"),
            ("showed [Kc Qc] and lost with", "showed [Kc Qc] and won ($1.38) with"),
        ),
        FIVE_PERCENT,
        "mispaid_pot",
        GG_RANKING,
    ),
    "gg rake over cap": (
        GG_BLINDS,
        (),
        (
            ("collected $1.52", "collected $1.40"),
            ("collected ($1.52)", "collected ($1.40)"),
            ("Rake $0.08", "Rake $0.20"),
        ),
        RakeTerms(500, 500, cap=10),
        "rake_cap_breach",
        GG_RAKE,
    ),
    "ps rake over cap": (
        PS_RIVER,
        ("gg-2022-cash-holdem",),
        (
            ("collected $1.38", "collected $1.35"),
            ("won ($1.38)", "won ($1.35)"),
            ("Rake $0.07", "Rake $0.10"),
        ),
        RakeTerms(500, 1000, cap=7),
        "rake_cap_breach",
        GG_RAKE,
    ),
    "gg rake without a flop": (
        GG_NO_FLOP,
        (),
        (
            ("collected $0.80", "collected $0.76"),
            ("collected ($0.80)", "collected ($0.76)"),
            ("Rake $0", "Rake $0.04"),
        ),
        NO_DROP,
        "rake_cap_breach",
        GG_RAKE,
    ),
    "ps rake without a flop": (
        PS_NO_FLOP,
        ("gg-2022-cash-holdem",),
        (
            ("collected $0.25", "collected $0.24"),
            ("collected ($0.25)", "collected ($0.24)"),
            ("Rake $0", "Rake $0.01"),
        ),
        NO_DROP,
        "rake_cap_breach",
        GG_RAKE,
    ),
}


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_a_planted_fault_in_the_real_form_is_flagged_with_its_article(
    tmp_path: Path, name: str
) -> None:
    text, rulebooks, swaps, terms, kind, citation = PLANTED[name]
    clean = adjudicate_hand(hand(tmp_path, text, rulebooks), rake_terms=terms)
    assert clean.findings == (), clean.findings  # the hand as the room paid it: clean
    verdict = adjudicate_hand(hand(tmp_path, changed(text, *swaps), rulebooks), rake_terms=terms)
    [finding] = verdict.findings
    assert (str(finding.kind), finding.citation) == (kind, citation)


#: PokerStars cash, 2025: the big blind's all-in is called; the caller, chips behind,
#: cashes out the hand (``… cashed out the hand for $X | Cash Out Fee $Y``).
PS_CASHOUT = """\
PokerStars Hand #250000000005: Hold'em No Limit ($0.05/$0.10 USD) - 2025/08/02 11:24:53 CET [2025/08/02 5:24:53 ET]
Table 'Vega' 6-max Seat #3 is the button
Seat 1: ana ($5 in chips)
Seat 3: ben ($10 in chips)
Seat 4: cai ($8 in chips)
cai: posts small blind $0.05
ana: posts big blind $0.10
*** HOLE CARDS ***
ben: raises $0.20 to $0.30
cai: folds
ana: raises $4.70 to $5 and is all-in
ben: calls $4.70
*** FLOP *** [Qh Ad Ts]
*** TURN *** [Qh Ad Ts] [As]
*** RIVER *** [Qh Ad Ts As] [Qd]
*** SHOW DOWN ***
ana: shows [Qs Js] (a full house, Queens full of Aces)
ben: shows [Th Tc] (a full house, Tens full of Aces)
ana collected $9.55 from pot
ben cashed out the hand for $4.20 | Cash Out Fee $0.09
*** SUMMARY ***
Total pot $10.05 | Rake $0.50
Board [Qh Ad Ts As Qd]
Seat 1: ana (big blind) showed [Qs Js] and won ($9.55) with a full house, Queens full of Aces
Seat 3: ben (button) showed [Th Tc] and lost with a full house, Tens full of Aces (cashed out)
Seat 4: cai (small blind) folded before Flop
"""


def test_the_caller_covering_an_all_in_may_cash_out(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_CASHOUT, ("gg-2022-cash-holdem",))
    verdict = adjudicate_hand(events, rake_terms=FIVE_PERCENT)
    assert verdict.findings == ()
    assert verdict.cashouts == {3: 429}


def test_a_second_small_blind_is_a_dead_missed_blind(tmp_path: Path) -> None:
    """PokerStars writes a returning player's missed small blind as a second ``posts
    small blind``: it is dead (he then calls the whole big blind), not an illegal small
    blind out of position."""
    text = changed(
        PS_RIVER,
        (
            "Seat 3: rui.s ($12 in chips)\n",
            "Seat 3: rui.s ($12 in chips)\nSeat 4: zed77 ($4 in chips)\n",
        ),
        (
            "rui.s: posts big blind $0.10\n",
            "rui.s: posts big blind $0.10\nzed77: posts small blind $0.05\n",
        ),
        ("olga_p: raises $0.20 to $0.30\n", "zed77: folds\nolga_p: raises $0.20 to $0.30\n"),
        ("olga_p collected $1.38", "olga_p collected $1.43"),
        ("Total pot $1.45 | Rake $0.07", "Total pot $1.50 | Rake $0.07"),
        ("won ($1.38)", "won ($1.43)"),
        (
            "lost with a pair of Kings\n",
            "lost with a pair of Kings\nSeat 4: zed77 folded before Flop\n",
        ),
    )
    events = hand(tmp_path, text, ("gg-2022-cash-holdem",))
    posts = [(e["seat"], e["kind"]) for e in events if e["type"] == "BlindPosted"]
    assert posts == [(2, "small_blind"), (3, "big_blind"), (4, "dead_small_blind")]
    assert adjudicate_hand(events, rake_terms=FIVE_PERCENT).findings == ()
