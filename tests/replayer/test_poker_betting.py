"""Betting state machine: forced bets, turn order and action legality, each rule with its
article. Hands are built by hand; seats 1-2-3 with the button on 3 unless stated, so seat 1
posts the small blind, seat 2 the big blind and seat 3 acts first pre-flop."""

from __future__ import annotations

from replayer.findings import FindingKind
from replayer.poker import adjudicate_hand
from tests.poker_sim import HandBuilder

MO = {"variant": "PO", "rulebook": "mo-97-2010-omaha"}
MO_NL = {"variant": "NO", "rulebook": "mo-97-2010-omaha"}
PT = {"variant": "NT", "rulebook": "pt-217-2007-holdem"}
GG = {"variant": "NT", "rulebook": "gg-2022-cash-holdem"}
FOUR = {1: 100, 2: 100, 3: 100, 4: 100}


def illegal(hand: HandBuilder) -> list[tuple[int, str, str]]:
    """(sequence, citation, reason) of every illegal_action finding."""
    verdict = adjudicate_hand(hand.events)
    return [
        (f.detail["sequence"], f.citation, f.reason)
        for f in verdict.findings
        if f.kind is FindingKind.ILLEGAL_ACTION
    ]


def blinds(hand: HandBuilder, sb: int = 1, bb: int = 2) -> HandBuilder:
    return hand.post(1, "small_blind", sb).post(2, "big_blind", bb)


def test_legal_hand_has_no_illegal_action():
    hand = blinds(HandBuilder(**GG)).act(3, "raise", 6).act(1, "call", 5).act(2, "call", 4)
    hand.board("As Kd 7c").act(1, "check").act(2, "bet", 10).act(3, "fold").act(1, "call", 10)
    assert illegal(hand) == []


def test_call_amount_must_match_mo_art_11_2_2():
    hand = blinds(HandBuilder(**MO)).act(3, "call", 3)
    assert illegal(hand) == [(3, "MO-97/2010 art.11(2)(2)", "seat 3: calls 3, owed 2")]


def test_check_facing_a_bet_is_illegal_mo_art_11_2():
    hand = blinds(HandBuilder(**MO)).act(3, "check")
    assert illegal(hand) == [(3, "MO-97/2010 art.11(2)(2)", "seat 3: checks facing 2 to call")]


def test_out_of_turn_preflop_mo_art_6_3():
    hand = blinds(HandBuilder(**MO)).act(1, "call", 1)
    [(sequence, citation, reason)] = illegal(hand)
    assert (sequence, citation) == (3, "MO-97/2010 art.6(3)-(4)")
    assert "out of turn" in reason


def test_big_blind_has_the_option_mo_art_6_4():
    hand = blinds(HandBuilder(**MO)).act(3, "call", 2).act(1, "call", 1).act(2, "raise", 4)
    assert illegal(hand) == []


def test_flop_opens_left_of_button_mo_art_7_2():
    hand = blinds(HandBuilder(**MO)).act(3, "call", 2).act(1, "call", 1).act(2, "check")
    ok = HandBuilder(**MO)
    ok.events = list(hand.events)
    assert illegal(hand.board("As Kd 7c").act(1, "check")) == []
    bad = illegal(ok.board("As Kd 7c").act(3, "check"))
    assert [c for _, c, _ in bad] == ["MO-97/2010 art.7(2), 8(2)"]


def test_pt_later_rounds_open_with_the_mao_literal_n85():
    """PT-217/2007 n.º 85 read literally: the button (the "mão") speaks first after the flop."""
    hand = HandBuilder(**PT, stacks=FOUR).post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.act(3, "call", 2).act(4, "call", 2).act(1, "call", 1).act(2, "check")
    hand.board("As Kd 7c")
    button_first = HandBuilder(**PT, stacks=FOUR)
    button_first.events = list(hand.events)
    assert illegal(button_first.act(4, "check").act(1, "check")) == []
    [(_, citation, reason)] = illegal(hand.act(1, "check"))
    assert citation == "PT-217/2007 n.º 42, 44, 46, 85" and "out of turn" in reason


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after():
    hand = HandBuilder(**GG, stacks={1: 100, 2: 100}, button=2)
    hand.post(2, "small_blind", 1).post(1, "big_blind", 2).act(2, "call", 1).act(1, "check")
    hand.board("As Kd 7c").act(1, "check").act(2, "check")
    assert illegal(hand) == []


def test_blind_amount_and_position_mo_art_5():
    hand = HandBuilder(**MO).post(1, "small_blind", 2).post(3, "big_blind", 2)
    cites = illegal(hand)
    assert [c for _, c, _ in cites] == ["MO-97/2010 art.5", "MO-97/2010 art.5"]
    assert "small blind of 2" in cites[0][2] and "out of position" in cites[1][2]


def test_short_stack_blind_all_in_is_legal_and_sets_the_call():
    """An all-in big blind for less is legal; the bet to call is the rulebook's named
    choice where the sources are silent (``ShortBlind``): MO-97/2010 what was put in (as
    PokerKit plays it), GG-2022 cash the whole big blind (as the rooms' histories play
    it). The minimum raise stays one big blind."""
    stacks = {1: 100, 2: 1, 3: 100}
    posted = HandBuilder(**MO_NL, stacks=stacks).post(1, "small_blind", 1)
    assert illegal(posted.post(2, "big_blind", 1).act(3, "call", 1).act(1, "raise", 2)) == []
    full = HandBuilder(**GG, stacks=stacks).post(1, "small_blind", 1).post(2, "big_blind", 1)
    assert illegal(full.act(3, "call", 2).act(1, "raise", 3)) == []
    short = HandBuilder(**GG, stacks=stacks).post(1, "small_blind", 1).post(2, "big_blind", 1)
    assert [reason for _, _, reason in illegal(short.act(3, "call", 1))] == [
        "seat 3: calls 1, owed 2"
    ]


def test_minimum_opening_bet_mo_art_11_3():
    hand = blinds(HandBuilder(**MO_NL)).act(3, "call", 2).act(1, "call", 1).act(2, "check")
    hand.board("As Kd 7c").act(1, "bet", 1)
    assert [c for _, c, _ in illegal(hand)] == ["MO-97/2010 art.11(3)"]


def test_minimum_raise_is_the_previous_raise_mo_art_12_1():
    hand = blinds(HandBuilder(**MO_NL)).act(3, "raise", 10).act(1, "raise", 13)
    [(sequence, citation, reason)] = illegal(hand)
    assert (sequence, citation) == (4, "MO-97/2010 art.12(1)")
    assert "raise of 4 below the minimum raise" in reason
    full = blinds(HandBuilder(**MO_NL)).act(3, "raise", 10).act(1, "raise", 17)
    assert illegal(full) == []


def test_all_in_for_less_than_a_raise_is_legal_but_does_not_reopen_mo_art_12_1():
    stacks = {1: 100, 2: 100, 3: 100, 4: 13}
    hand = HandBuilder(**MO_NL, stacks=stacks).post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.act(3, "raise", 10).act(4, "raise", 13).act(1, "fold").act(2, "fold")
    reraise = HandBuilder(**MO_NL, stacks=stacks)
    reraise.events = list(hand.events)
    assert illegal(hand.act(3, "call", 3)) == []
    [(_, citation, reason)] = illegal(reraise.act(3, "raise", 30))
    assert citation == "MO-97/2010 art.12(1)" and "all-in for less" in reason


def test_pt_minimum_raise_is_the_table_minimum_n86():
    hand = HandBuilder(**PT, stacks=FOUR).post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.act(3, "raise", 5).act(4, "raise", 7)  # raise by 2 after a raise of 3: legal in PT
    assert illegal(hand) == []
    mo = HandBuilder(**MO_NL, stacks=FOUR).post(1, "small_blind", 1).post(2, "big_blind", 2)
    assert [c for _, c, _ in illegal(mo.act(3, "raise", 5).act(4, "raise", 7))] == [
        "MO-97/2010 art.12(1)"
    ]


def test_pot_limit_maximum_mo_art_11_2():
    # Pot 3 (blinds); seat 3 calls 2 then raises by the pot after calling: 2 + 5 = 7 to.
    ok = blinds(HandBuilder(**MO)).act(3, "raise", 7)
    assert illegal(ok) == []
    over = blinds(HandBuilder(**MO)).act(3, "raise", 8)
    [(_, citation, reason)] = illegal(over)
    assert citation == "MO-97/2010 art.11(2)" and "above the maximum of 5" in reason


def test_pt_maximum_raise_is_the_total_bet_so_far_n86():
    # Pot 3: raise by at most 3, i.e. to 5 (the call is not added).
    hand = HandBuilder(**PT, stacks=FOUR).post(1, "small_blind", 1).post(2, "big_blind", 2)
    assert illegal(hand.act(3, "raise", 5)) == []
    over = HandBuilder(**PT, stacks=FOUR).post(1, "small_blind", 1).post(2, "big_blind", 2)
    assert [c for _, c, _ in illegal(over.act(3, "raise", 6))] == ["PT-217/2007 n.º 86"]


def test_no_limit_has_no_maximum_mo_art_11_3():
    assert illegal(blinds(HandBuilder(**MO_NL)).act(3, "raise", 100)) == []


def _four_raises(book: dict, stacks: dict[int, int]) -> HandBuilder:
    hand = HandBuilder(**book, stacks=stacks).post(1, "small_blind", 1).post(2, "big_blind", 2)
    return hand.act(3, "raise", 4).act(1, "raise", 9).act(2, "raise", 18).act(3, "raise", 40)


def test_three_raises_per_round_in_pot_limit_mo_art_12_2():
    big = {1: 1000, 2: 1000, 3: 1000}
    [(sequence, citation, reason)] = illegal(_four_raises(MO, big))
    assert (sequence, citation) == (6, "MO-97/2010 art.12(2)-(4)")
    assert reason == "seat 3: raise number 4 in the round"


def test_no_raise_cap_in_no_limit_mo_art_12_3():
    assert illegal(_four_raises(MO_NL, {1: 1000, 2: 1000, 3: 1000})) == []


def test_no_raise_cap_heads_up_mo_art_12_4():
    hand = HandBuilder(**MO, stacks={1: 1000, 2: 1000}, button=2)
    hand.post(2, "small_blind", 1).post(1, "big_blind", 2)
    hand.act(2, "raise", 5).act(1, "raise", 10).act(2, "raise", 20).act(1, "raise", 40)
    assert illegal(hand) == []


def test_heads_up_the_raise_amount_is_unlimited_mo_art_12_4():
    """MO-97/2010 art.12(4): 「如只有兩位博彩者進行牌局(head up),則加注的金額不設限制」: heads-up
    the *amount* of a raise is unlimited, so art.11(2)'s pot limit does not bind (the audit's
    spot check P1: a raise to 50 over blinds 1/2 was flagged "above the maximum of 4")."""
    hand = HandBuilder(**MO, stacks={1: 1000, 2: 1000}, button=2)
    hand.post(2, "small_blind", 1).post(1, "big_blind", 2).act(2, "raise", 49)
    assert illegal(hand) == []
    # With three players in the hand the pot limit binds again (art.11(2)).
    three = blinds(HandBuilder(**MO, stacks={1: 1000, 2: 1000, 3: 1000})).act(3, "raise", 50)
    assert [c for _, c, _ in illegal(three)] == ["MO-97/2010 art.11(2)"]


def test_pt_heads_up_lifts_the_number_of_raises_not_their_size_n86_n88():
    """PT-217/2007 n.º 88 makes the *number* of raises unlimited heads-up; n.º 86's maximum
    (the total of the bets so far) still binds."""
    hand = HandBuilder(**PT, stacks={1: 1000, 2: 1000}, button=2)
    hand.post(2, "small_blind", 1).post(1, "big_blind", 2).act(2, "raise", 49)
    assert [c for _, c, _ in illegal(hand)] == ["PT-217/2007 n.º 86"]


def test_pt_three_raises_per_round_n87():
    hand = HandBuilder(**PT, stacks={1: 1000, 2: 1000, 3: 1000, 4: 1000})
    hand.post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.act(3, "raise", 4).act(4, "raise", 6).act(1, "raise", 9).act(2, "raise", 10)
    assert [c for _, c, _ in illegal(hand)] == ["PT-217/2007 n.º 87-88"]


def test_dead_blind_is_not_part_of_the_bet_gg_missed_blinds():
    """GG-2022: live big blind + dead small blind; the dead chips do not count toward the bet."""
    hand = HandBuilder(**GG, stacks=FOUR).post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.post(3, "missed_big_blind", 2).post(3, "dead_small_blind", 1)
    hand.act(3, "check").act(4, "call", 2).act(1, "call", 1).act(2, "check")
    assert illegal(hand) == []
    verdict = adjudicate_hand(hand.end().events)
    assert verdict.contributions == {1: 2, 2: 2, 3: 3, 4: 2}


def test_antes_are_dead_and_checked_against_the_table():
    hand = HandBuilder(**GG, ante=1).post(1, "ante", 1).post(2, "ante", 1).post(3, "ante", 2)
    hand = blinds(hand).act(3, "call", 2)
    [(_, citation, reason)] = illegal(hand)
    assert citation == "GG-2022 Apostas perdidas Blind" and "ante of 2" in reason


def test_straddle_moves_the_first_action_and_the_option():
    hand = HandBuilder(**GG, stacks=FOUR).post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.post(3, "straddle", 4).act(4, "call", 4).act(1, "call", 3).act(2, "call", 2)
    hand.act(3, "check")
    assert illegal(hand) == []


def test_acting_after_folding_is_illegal():
    hand = blinds(HandBuilder(**GG)).act(3, "fold").act(1, "call", 1).act(2, "check")
    hand.board("As Kd 7c").act(3, "check")
    [(_, _, reason)] = illegal(hand)
    assert "after folding" in reason


def test_synthetic_opens_left_of_mao_then_with_the_highest_bettor_pt_n107_108():
    syn = {"variant": "NSY", "rulebook": "pt-217-2007-synthetic"}
    hand = HandBuilder(**syn, stacks=FOUR, blinds=(0, 0), ante=1)
    for seat in (1, 2, 3, 4):
        hand.post(seat, "ante", 1)
    hand.board("As").act(1, "check").act(2, "bet", 2).act(3, "call", 2).act(4, "fold")
    hand.act(1, "call", 2)
    hand.board("Ks").act(2, "check").act(3, "check").act(1, "check")
    assert illegal(hand) == []
