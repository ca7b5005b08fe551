"""Pots, showdown, odd chips, rake and void hands, with their articles; and the laws of
chips (hypothesis, on random legal hands played by PokerKit)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replayer.findings import FindingKind
from replayer.poker import adjudicate_hand
from replayer.poker.pots import build_pots, split, split_pots
from replayer.rulebooks.poker import OddChip, RakeTerms
from tests.poker_sim import HandBuilder, simulate

MO = {"variant": "PO", "rulebook": "mo-97-2010-omaha"}
MO_NL = {"variant": "NO", "rulebook": "mo-97-2010-omaha"}
GG = {"variant": "NT", "rulebook": "gg-2022-cash-holdem"}
PT = {"variant": "PO", "rulebook": "pt-217-2007-omaha"}
BOARD = "As Ks Qd Jc 2h"


def kinds(verdict) -> list[str]:
    return [str(f.kind) for f in verdict.findings]


# ------------------------------------------------------------------ pots and splits


def test_side_pot_per_all_in_and_folded_chips_stay_pt_n38_mo_art_13_3():
    # positions: 0 put 10 (all-in), 1 put 30 then folded, 2 put 50, 3 put 50
    pots, returned = build_pots([10, 30, 50, 50], [0, 0, 0, 0], [False, True, False, False])
    # main pot 10 x 4 for the all-in and the two callers; the folded 20 more joins the
    # 40 + 40 the callers put in above the all-in: one side pot of 100 for seats 2 and 3.
    assert pots == [(40, (0, 2, 3)), (100, (2, 3))]
    assert returned == [0, 0, 0, 0]


def test_uncalled_bet_returned_and_dead_money_in_main_pot():
    pots, returned = build_pots([3, 2, 20], [1, 0, 0], [True, True, False])
    assert pots == [(1 + 2 + 2 + 2, (2,))]
    assert returned == [0, 0, 18]


def test_split_mo_art_10_5_remainder_to_first_winner_from_seat_one():
    seat_of = (4, 7, 2)  # position -> seat; seat 2 is the button
    shares, kept = split(5, [0, 2], 1, OddChip.FIRST_WINNER_FROM_SEAT_ONE, seat_of)
    assert (shares, kept) == ({0: 2, 2: 3}, 0)


def test_split_pt_n67_table_minimum_units_largest_share_to_the_mao():
    seat_of = (4, 7, 2)
    shares, kept = split(10, [0, 2], 2, OddChip.ONE_UNIT_EACH_FROM_BUTTON, seat_of)
    assert (shares, kept) == ({0: 4, 2: 6}, 0)  # button (position 2) first


def test_split_gg_fractions_dropped():
    shares, kept = split(5, [0, 1], 1, OddChip.DROPPED, (1, 2, 3))
    assert (shares, kept) == ({0: 2, 1: 2}, 1)


def _tie(book: dict, button: int = 1, **kw) -> HandBuilder:
    """Seats 1-3, button on seat 1: seat 2 SB, seat 3 BB; seats 1 and 3 tie with broadway."""
    hand = HandBuilder(**book, button=button, **kw)
    hand.post(2, "small_blind", 1).post(3, "big_blind", 2)
    hand.hole(2, "2c 3c 4d 5d").hole(3, "Tc Jh 5c 6d").hole(1, "Th Jd 3h 4h")
    hand.act(1, "call", 2).act(2, "fold").act(3, "check")
    hand.board("As Ks Qd").act(3, "check").act(1, "check")
    hand.board("Jc").act(3, "check").act(1, "check")
    hand.board("2h").act(3, "check").act(1, "check")
    return hand.show(3, "Tc Jh 5c 6d").show(1, "Th Jd 3h 4h")


def test_mo_odd_chip_goes_to_seat_one_side_art_10_5():
    right = _tie(MO).award(1, 3).award(3, 2).end()
    verdict = adjudicate_hand(right.events)
    assert verdict.findings == ()
    assert verdict.expected_payouts == {1: 3, 2: 0, 3: 2}
    wrong = _tie(MO).award(1, 2).award(3, 3).end()
    [finding] = adjudicate_hand(wrong.events).findings
    assert finding.kind is FindingKind.MISPAID_POT
    assert finding.citation == "MO-97/2010 art.10(4); MO-97/2010 art.10(5)"
    assert (finding.expected, finding.recorded, finding.difference) == (
        {"1": 3, "3": 2},
        {"1": 2, "3": 3},
        {"1": -1, "3": 1},
    )


def test_gg_cash_odd_chip_goes_to_the_first_winner_left_of_the_button():
    """GG-2022 is silent on a cash pot's odd chip; the rulebook's named choice (what the
    room's histories pay) gives it to the first winner left of the button: seat 3 here
    (button seat 1, seat 2 folded), never kept by the house."""
    gg = {"variant": "PO", "rulebook": "gg-2022-cash-omaha"}
    verdict = adjudicate_hand(_tie(gg).award(1, 2).award(3, 3).end().events)
    assert verdict.findings == () and verdict.house_retained == 0
    kept = adjudicate_hand(_tie(gg).award(1, 2).award(3, 2).end().events)
    [finding] = kept.findings
    assert finding.kind is FindingKind.MISPAID_POT and finding.difference == {"3": -1}
    assert "open choice" in finding.citation


def _gg_tie_in_two_pots() -> HandBuilder:
    """Seats 1-5, button 5: seat 3 all-in for 2; seats 4 and 5 tie (broadway) for the main
    pot of 9 and the side pot of 9 (seat 2 loses, seat 1 folded its small blind)."""
    hand = HandBuilder(**GG, stacks={1: 50, 2: 50, 3: 2, 4: 50, 5: 50})
    hand.post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.hole(1, "9h 9d").hole(2, "5c 6c").hole(3, "7d 8d").hole(4, "Th 3c").hole(5, "Tc 4d")
    hand.act(3, "call", 2).act(4, "raise", 5).act(5, "call", 5).act(1, "fold").act(2, "call", 3)
    for street in ("As Ks Qd", "Jc", "2h"):
        hand.board(street).act(2, "check").act(4, "check").act(5, "check")
    return hand.show(2, "5c 6c").show(3, "7d 8d").show(4, "Th 3c").show(5, "Tc 4d")


def test_gg_odd_chip_of_each_pot_to_the_first_winner_left_of_the_button():
    # Two pots of 9 tied by seats 4 and 5 (button 5): each pot's odd chip to seat 4.
    verdict = adjudicate_hand(_gg_tie_in_two_pots().award(4, 10).award(5, 8).end().events)
    assert [(p.amount, p.winners) for p in verdict.pots] == [(9, (4, 5)), (9, (4, 5))]
    assert verdict.findings == () and verdict.house_retained == 0
    assert verdict.expected_payouts == {1: 0, 2: 0, 3: 0, 4: 10, 5: 8}
    halves = adjudicate_hand(_gg_tie_in_two_pots().award(4, 9).award(5, 9).end().events)
    assert kinds(halves) == ["mispaid_pot"]


def test_split_pots_gg_rounds_each_winners_total():
    seat_of = (1, 2, 3)
    # seat 1 wins half of two odd pots: a whole chip; seats 2 and 3 each lose half a chip
    settled = split_pots([(5, [0, 1]), (5, [0, 2])], 1, OddChip.DROPPED, seat_of)
    assert settled == [({0: 3, 1: 2}, 0), ({0: 2, 2: 2}, 1)]
    # three pots of 4 among three winners: 4 each, one recovered chip from each pot
    settled = split_pots([(4, [0, 1, 2])] * 3, 1, OddChip.DROPPED, seat_of)
    assert [sum(shares.values()) + kept for shares, kept in settled] == [4, 4, 4]
    assert [kept for _, kept in settled] == [0, 0, 0]
    assert {p: sum(s.get(p, 0) for s, _ in settled) for p in range(3)} == {0: 4, 1: 4, 2: 4}
    # other rules settle each pot on its own; a pot that cannot be judged gets nothing
    mo = split_pots([(5, [0, 1]), (7, None)], 1, OddChip.FIRST_WINNER_FROM_SEAT_ONE, seat_of)
    assert mo == [({0: 3, 1: 2}, 0), ({}, 0)]


def test_uncontested_pot_won_without_showing_pt_n51():
    hand = HandBuilder(**GG).post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.hole(1, "?? ??").hole(2, "?? ??").hole(3, "?? ??")
    hand.act(3, "raise", 20).act(1, "fold").act(2, "fold").award(3, 23).end()
    verdict = adjudicate_hand(hand.events)
    assert verdict.findings == ()
    assert verdict.expected_payouts == {1: 0, 2: 0, 3: 23}
    assert [(p.amount, p.winners) for p in verdict.pots] == [(5, (3,))]


def test_side_pots_paid_to_the_eligible_winners_pt_n49_50():
    hand = HandBuilder(**GG, stacks={1: 10, 2: 100, 3: 100})
    hand.post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.hole(1, "Ah Ad").hole(2, "Kh Kd").hole(3, "Qh Qd")
    hand.act(3, "raise", 20).act(1, "call", 9).act(2, "call", 18)
    hand.board("2c 7s 9d").act(2, "check").act(3, "check")
    hand.board("3c").act(2, "check").act(3, "check").board("4d").act(2, "check").act(3, "check")
    hand.show(1, "Ah Ad").show(2, "Kh Kd").show(3, "Qh Qd")
    verdict = adjudicate_hand(hand.award(1, 30, 0).award(2, 20, 1).end().events)
    assert verdict.findings == ()
    assert [(p.amount, p.eligible, p.winners) for p in verdict.pots] == [
        (30, (1, 2, 3), (1,)),
        (20, (2, 3), (2,)),
    ]
    swapped = HandBuilder(**GG, stacks={1: 10, 2: 100, 3: 100})
    swapped.events = hand.events[:-3]
    bad = adjudicate_hand(swapped.award(1, 50, 0).end().events)
    [finding] = bad.findings
    assert finding.kind is FindingKind.MISPAID_POT
    assert finding.difference == {"1": 20, "2": -20}
    assert finding.detail["pots"][1]["expected"] == {"2": 20}


def test_pt_split_in_table_minimum_units_to_the_mao_first_n67():
    """Pot 14 between the button (seat 1) and seat 3, table minimum 2: shares of 6, the
    leftover unit of 2 to the mão: 8 and 6 (an equal split would be 7 and 7)."""
    stacks = {1: 100, 2: 100, 3: 100, 4: 100}
    hand = HandBuilder(**PT, stacks=stacks, button=1)
    hand.post(2, "small_blind", 1).post(3, "big_blind", 2)
    hand.hole(2, "2c 3c 4d 5d").hole(3, "Tc Jh 5c 6d").hole(4, "7c 8c 9s 2s")
    hand.hole(1, "Th Jd 3h 4h")
    hand.act(4, "call", 2).act(1, "raise", 4).act(2, "call", 3).act(3, "call", 2)
    hand.act(4, "fold")
    for street in ("As Ks Qd", "Jc", "2h"):
        hand.board(street)
        for seat in (1, 2, 3):  # the mão (button, seat 1) speaks first (n.º 85)
            hand.act(seat, "check")
    hand.show(1, "Th Jd 3h 4h").show(2, "2c 3c 4d 5d").show(3, "Tc Jh 5c 6d")
    verdict = adjudicate_hand(hand.award(1, 8).award(3, 6).end().events)
    assert verdict.expected_payouts == {1: 8, 2: 0, 3: 6, 4: 0}
    assert kinds(verdict) == []


# ------------------------------------------------------------------------------ rake


def _raked(book: dict, recorded: int, pot_each: int = 50) -> HandBuilder:
    hand = HandBuilder(**book, stacks={1: 1000, 2: 1000, 3: 1000})
    hand.post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.hole(1, "Ah Ad Kc Kd").hole(2, "Qh Jd Th 5s").hole(3, "?? ?? ?? ??")
    hand.act(3, "fold").act(1, "raise", pot_each - 1).act(2, "call", pot_each - 2)
    hand.board("2c 7s 9d").act(1, "check").act(2, "check")
    hand.board("3c").act(1, "check").act(2, "check").board("4d").act(1, "check").act(2, "check")
    hand.show(1, "Ah Ad Kc Kd").show(2, "Qh Jd Th 5s")
    return hand.rake(recorded).award(1, 2 * pot_each - recorded).end()


def test_mo_rake_within_3_to_5_percent_art_16():
    for recorded in (3, 4, 5):  # pot 100
        assert adjudicate_hand(_raked(MO_NL, recorded).events).findings == ()


def test_mo_rake_out_of_band_art_16():
    verdict = adjudicate_hand(_raked(MO_NL, 7).events)
    # one fault, one finding: the payout is right for the rake taken
    assert kinds(verdict) == ["rake_rate_out_of_band"]
    rake = verdict.findings[0]
    assert rake.citation == "MO-97/2010 art.16" and rake.expected == {"at_least": 3, "at_most": 5}
    assert verdict.expected_rake == 5 and verdict.expected_payouts[1] == 95


def test_mo_rake_cap_five_big_blinds_art_16():
    verdict = adjudicate_hand(_raked(MO_NL, 12, pot_each=500).events)
    assert "rake_cap_breach" in kinds(verdict)
    assert verdict.expected_rake == 10


def test_rake_terms_declared_per_table_for_pt_n7():
    """PT-217/2007 n.º 7 leaves the modality to the table: undeclared, any rake up to the
    pot is accepted; declared (5%), 4 of 100 is out of band."""
    pt = {"variant": "NT", "rulebook": "pt-217-2007-holdem"}
    terms = RakeTerms(min_bps=500, max_bps=500)
    assert "rake" not in " ".join(kinds(adjudicate_hand(_raked(pt, 4).events)))
    verdict = adjudicate_hand(_raked(pt, 4).events, rake_terms=terms)
    [rake] = [f for f in verdict.findings if f.kind is FindingKind.RAKE_RATE_OUT_OF_BAND]
    assert rake.citation == "PT-217/2007 n.º 7, 65"


def test_no_rake_on_a_returned_uncalled_bet():
    hand = HandBuilder(**MO).post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.act(3, "raise", 7).act(1, "fold").act(2, "fold").award(3, 10).end()
    verdict = adjudicate_hand(hand.events)
    assert verdict.expected_rake == 0 and verdict.findings == ()  # 3% of 5 rounds down to 0


# ------------------------------------------------------------------------- void hands


def _started() -> HandBuilder:
    hand = HandBuilder(**MO).post(1, "small_blind", 1).post(2, "big_blind", 2)
    return hand.act(3, "raise", 7).act(1, "call", 6)


def test_void_hand_returns_every_bet_mo_art_9_2():
    verdict = adjudicate_hand(_started().void().end([100, 100, 100]).events)
    assert verdict.findings == ()
    assert verdict.expected_payouts == {1: 7, 2: 2, 3: 7}


def test_void_hand_not_refunded_mo_art_9_2():
    verdict = adjudicate_hand(_started().void().award(3, 16).end().events)
    [finding] = verdict.findings
    assert finding.kind is FindingKind.VOID_HAND_NOT_REFUNDED
    assert finding.citation == "MO-97/2010 art.9(2)"
    assert finding.difference == {"1": -7, "2": -2, "3": 9}


def test_reverted_hand_resets_stacks_gg_refund_policy():
    gg = {"variant": "PO", "rulebook": "gg-2022-cash-omaha"}
    hand = HandBuilder(**gg).post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.act(3, "raise", 7).revert()
    assert adjudicate_hand(hand.end([100, 100, 100]).events).findings == ()
    kept = HandBuilder(**gg)
    kept.events = hand.events[:-1]
    [finding] = adjudicate_hand(kept.end([99, 98, 93]).events).findings
    assert finding.kind is FindingKind.VOID_HAND_NOT_REFUNDED
    assert finding.citation == "GG-2022 Política de reembolso"


def test_undisclosed_cards_at_showdown_are_data_quality_not_a_guess():
    hand = HandBuilder(**GG).post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.hole(1, "?? ??").hole(2, "?? ??").hole(3, "?? ??")
    hand.act(3, "call", 2).act(1, "fold").act(2, "check")
    for street in ("2c 7s 9d", "3c", "4d"):
        hand.board(street).act(2, "check").act(3, "check")
    verdict = adjudicate_hand(hand.award(2, 5).end().events)
    assert kinds(verdict) == ["data_quality"]
    assert not verdict.determined and verdict.conserved


# ---------------------------------------------------------------------------- laws

BOOKS = [
    ("NT", "gg-2022-cash-holdem"),
    ("PO", "mo-97-2010-omaha"),
    ("PO", "gg-2022-cash-omaha"),
    ("NT", "pt-217-2007-holdem"),
]
LAWS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _hand(seed: int, which: int):
    variant, book = BOOKS[which]
    rng = random.Random(seed)
    kw = {"rake_percentage": 0.05, "rake_cap": 10} if book.startswith("mo") else {}
    return simulate(rng, variant, rulebook=book, hand_number=seed, **kw)


@LAWS
@given(st.integers(0, 10**9), st.integers(0, len(BOOKS) - 1))
def test_law_chips_are_conserved(seed, which):
    verdict = adjudicate_hand(_hand(seed, which).events)
    assert verdict.determined
    paid = sum(verdict.expected_payouts.values())
    assert paid + verdict.expected_rake + verdict.house_retained == sum(
        verdict.contributions.values()
    )
    assert verdict.conserved  # PokerKit's own books balance too


@LAWS
@given(st.integers(0, 10**9), st.integers(0, len(BOOKS) - 1))
def test_law_no_chip_to_a_player_not_eligible(seed, which):
    verdict = adjudicate_hand(_hand(seed, which).events)
    for pot in verdict.pots:
        assert set(pot.winners) <= set(pot.eligible)
        assert {seat for seat, chips in pot.shares if chips} <= set(pot.eligible)
        assert sum(c for _, c in pot.shares) + pot.rake + pot.retained == pot.amount


@LAWS
@given(st.integers(0, 10**9), st.integers(0, len(BOOKS) - 1))
def test_law_replay_is_deterministic(seed, which):
    events = _hand(seed, which).events
    first = adjudicate_hand(events)
    again = adjudicate_hand([dict(e) for e in reversed(events)])
    assert [f.canonical_json() for f in first.findings] == [
        f.canonical_json() for f in again.findings
    ]
    assert first == again


@LAWS
@given(st.integers(0, 10**9), st.integers(0, len(BOOKS) - 1), st.data())
def test_law_moving_chips_between_payouts_is_always_mispaid(seed, which, data):
    events = _hand(seed, which).events
    verdict = adjudicate_hand(events)
    seats = sorted(verdict.expected_payouts)
    giver, taker = data.draw(st.lists(st.sampled_from(seats), min_size=2, max_size=2, unique=True))
    moved = data.draw(st.integers(1, 10**6))
    start = {s["seat"]: s["stack"] for s in events[0]["seats"]}
    correct = {
        seat: start[seat] - verdict.contributions[seat] + verdict.expected_payouts[seat]
        for seat in seats
    }
    correct[giver] -= moved
    correct[taker] += moved
    kept = [e for e in events if e["type"] not in ("PotAwarded", "HandEnded")]
    kept.append(
        {
            **events[-1],
            "type": "HandEnded",
            "sequence": len(kept),
            "finishing_stacks": [correct[s["seat"]] for s in events[0]["seats"]],
        }
    )
    for index, event in enumerate(kept):
        kept[index] = {**event, "sequence": index}
    mispaid = [f for f in adjudicate_hand(kept).findings if f.kind is FindingKind.MISPAID_POT]
    assert len(mispaid) == 1
    assert mispaid[0].difference == {str(giver): -moved, str(taker): moved}
