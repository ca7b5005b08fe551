"""Rules the code applied with no test naming them (the audit's "implemented, no test"
rows): one test per article, each asserting the finding that cites it and that the legal
case raises nothing."""

from __future__ import annotations

from replayer.casino import adjudicate_round
from replayer.poker import adjudicate_hand
from tests.poker_sim import HandBuilder
from tests.replayer.casino.test_casino_baccarat import BANKER_WINS
from tests.replayer.casino.test_casino_baccarat import coup as baccarat
from tests.replayer.casino.test_casino_blackjack import round_of
from tests.replayer.casino.test_casino_chemin_de_fer import coup
from tests.replayer.casino.test_casino_roulette import spin


def _cited(findings: tuple, kind: str = "illegal_action") -> list[str]:
    return [f.citation for f in findings if f.kind == kind]


def test_the_bank_is_at_least_the_table_minimum_pt_i35_37() -> None:
    """I.35: the bank is at least the table minimum (I.37: no maximum)."""
    cards = [("ponto", "9h"), ("banker", "2c"), ("ponto", "Kd"), ("banker", "3d")]
    assert _cited(adjudicate_round(coup(cards, [100], {"s0": 200}, bank=20_000)).findings) == []
    low = adjudicate_round(coup(cards, [50], {"s0": 100}, bank=50)).findings
    assert "PT-217/2007 I.35-37" in _cited(low)


def test_a_punto_stake_is_a_multiple_of_the_minimum_pt_i36() -> None:
    cards = [("ponto", "9h"), ("banker", "2c"), ("ponto", "Kd"), ("banker", "3d")]
    findings = adjudicate_round(coup(cards, [150], {"s0": 300})).findings
    assert _cited(findings) == ["PT-217/2007 I.36"]


def test_the_synthetic_ante_is_the_tables_pt_n102() -> None:
    """N.º 102: every player makes the initial bet (ante) the house fixed; an ante of
    another amount is illegal."""
    syn = {"variant": "NSY", "rulebook": "pt-217-2007-synthetic"}
    stacks = {1: 100, 2: 100, 3: 100, 4: 100}
    hand = HandBuilder(**syn, stacks=stacks, blinds=(0, 0), ante=2)
    for seat, amount in ((1, 2), (2, 2), (3, 1), (4, 2)):
        hand.post(seat, "ante", amount)
    assert _cited(adjudicate_hand(hand.events).findings) == ["PT-217/2007 n.º 102"]


def test_the_initial_deal_is_hand_dealer_hand_dealer_gg_live_iii_3_4() -> None:
    good = [(1, "7s"), ("dealer", "9c"), (1, "Td"), ("dealer", "9d")]
    assert adjudicate_round(round_of(good, {})).findings == ()
    bad = [("dealer", "9c"), (1, "7s"), (1, "Td"), ("dealer", "9d")]
    assert _cited(adjudicate_round(round_of(bad, {})).findings, "invalid_deal") == [
        "GG-2022 live III 3.4"
    ]


def test_a_decision_needs_a_hand_in_play_gg_live_iii_3_5() -> None:
    """III 3.5: each hand in play, in turn, takes its options; a decision recorded for a
    hand the round never dealt is illegal."""
    dealt = [(1, "Ts"), ("dealer", "9c"), (1, "8d"), ("dealer", "9d"), (1, "2c")]
    hit = [("PlayerDecision", {"hand": 1, "decision": "hit"})]
    assert adjudicate_round(round_of(dealt, {"m1": 200}, hit)).findings == ()
    ghost = [*hit, ("PlayerDecision", {"hand": 2, "decision": "stand"})]
    findings = adjudicate_round(round_of(dealt, {"m1": 200}, ghost)).findings
    assert _cited(findings) == ["GG-2022 live III 3.5"]


def test_no_decision_once_the_dealers_ace_shows_blackjack_gg_live_iii_3_7() -> None:
    dealt = [(1, "Ts"), ("dealer", "Ac"), (1, "6d"), ("dealer", "Kc")]
    assert adjudicate_round(round_of(dealt, {})).findings == ()
    hit = [("PlayerDecision", {"hand": 1, "decision": "hit"})]
    findings = adjudicate_round(round_of([*dealt, (1, "2c")], {}, hit)).findings
    assert "GG-2022 live III 3.7" in _cited(findings)


def _poker(book: dict, seats: int, hole: str | None = None) -> HandBuilder:
    stacks = {seat: 100 for seat in range(1, seats + 1)}
    hand = HandBuilder(**book, stacks=stacks).post(1, "small_blind", 1).post(2, "big_blind", 2)
    return hand.hole(3, hole) if hole else hand


MO = {"variant": "PO", "rulebook": "mo-97-2010-omaha"}
PT_OMAHA = {"variant": "PO", "rulebook": "pt-217-2007-omaha"}
PT_HOLDEM = {"variant": "NT", "rulebook": "pt-217-2007-holdem"}


def test_at_least_two_players_mo_art_2_3() -> None:
    alone = HandBuilder(**MO, stacks={1: 100}).events
    assert _cited(adjudicate_hand(alone).findings, "invalid_deal") == ["MO-97/2010 art.2(3)"]
    assert _cited(adjudicate_hand(_poker(MO, 2).events).findings, "invalid_deal") == []


def test_ten_seats_in_holdem_and_omaha_pt_n6() -> None:
    eleven = adjudicate_hand(_poker(PT_HOLDEM, 11).events).findings
    assert _cited(eleven, "invalid_deal") == ["PT-217/2007 n.º 6"]
    assert _cited(adjudicate_hand(_poker(PT_HOLDEM, 10).events).findings, "invalid_deal") == []


def test_four_hole_cards_in_omaha_pt_n77() -> None:
    two = adjudicate_hand(_poker(PT_OMAHA, 4, "Ah Kd").events).findings
    assert _cited(two, "invalid_deal") == ["PT-217/2007 n.º 77"]
    four = adjudicate_hand(_poker(PT_OMAHA, 4, "Ah Kd 2c 3c").events).findings
    assert _cited(four, "invalid_deal") == []


def test_three_cards_for_the_flop_pt_n41_43_45() -> None:
    def flop(cards: str) -> list[str]:
        hand = _poker(PT_HOLDEM, 4).act(3, "call", 2).act(4, "call", 2).act(1, "call", 1)
        hand.act(2, "check").board(cards)
        return _cited(adjudicate_hand(hand.events).findings, "invalid_deal")

    assert flop("2c 7d 9h") == []
    assert flop("2c 7d 9h Ks") == ["PT-217/2007 n.º 41, 43, 45"]


def test_blind_positions_and_the_first_to_act_pt_n81_84() -> None:
    """N.º 81: the small bet first left of the mão, the big bet next; n.º 84: the player
    left of the big bet speaks first."""
    hand = HandBuilder(**PT_HOLDEM, stacks={1: 100, 2: 100, 3: 100, 4: 100})
    swapped = hand.post(2, "small_blind", 1).post(1, "big_blind", 2)
    assert "PT-217/2007 n.º 81-83" in _cited(adjudicate_hand(swapped.events).findings)
    early = _poker(PT_HOLDEM, 4).act(4, "call", 2)
    assert _cited(adjudicate_hand(early.events).findings) == ["PT-217/2007 n.º 84"]


def test_bets_within_the_table_limits_gg_live_ii_2_1_7_iii_2_1_4_iv_2_1_4() -> None:
    small = spin([("straight", [17], 50)], 3, {})
    assert _cited(adjudicate_round(small).findings) == ["GG-2022 live IV 2.1.4-2.1.5"]
    assert adjudicate_round(spin([("straight", [17], 100)], 3, {})).findings == ()
    low = baccarat(BANKER_WINS, [("player", 50)], {})
    assert _cited(adjudicate_round(low).findings) == ["GG-2022 live II 2.1.7"]
    assert adjudicate_round(baccarat(BANKER_WINS, [("player", 100)], {})).findings == ()
    dealt = [(1, "7s"), ("dealer", "9c"), (1, "Td"), ("dealer", "9d")]
    assert _cited(adjudicate_round(round_of(dealt, {}, stake=50)).findings) == [
        "GG-2022 live III 2.1.4"
    ]


def _to_showdown() -> HandBuilder:
    """Four players call the big blind and check every later round; under PT-217/2007
    n.º 85 the mão (seat 4, the button) opens each later round, the river's too."""
    hand = _poker(PT_HOLDEM, 4).act(3, "call", 2).act(4, "call", 2).act(1, "call", 1)
    hand.act(2, "check")
    for cards in ("2c 7d 9h", "Jd", "Ks"):
        hand.board(cards)
        for seat in (4, 1, 2, 3):
            hand.act(seat, "check")
    return hand


def test_the_last_rounds_opener_shows_first_then_clockwise_pt_n62() -> None:
    holes = {1: "Ah Ad", 2: "3c 4c", 3: "5s 6s", 4: "8h 8d"}

    def order(*seats: int) -> list[tuple[str, str]]:
        hand = _to_showdown()
        for seat in seats:
            hand.show(seat, holes[seat])
        verdict = adjudicate_hand(hand.award(1, 8).end().events)
        return [(f.citation, f.reason) for f in verdict.findings if f.kind == "illegal_action"]

    assert order(4, 1, 2, 3) == []
    reason = (
        "shows after seat {}: the showdown begins with seat 4, who opened the last "
        "betting round, then goes clockwise"
    )
    assert order(1, 2, 3, 4) == [("PT-217/2007 n.º 62", "seat 4: " + reason.format(3))]
    assert order(4, 2, 1, 3) == [("PT-217/2007 n.º 62", "seat 1: " + reason.format(2))]


def test_a_board_card_turned_early_loses_a_betting_round_pt_n110() -> None:
    """Sintético deals the board one card a round (n.º 107-108); two cards turned at once
    lose the round the second skipped (n.º 110): the betting goes on in the next round and
    the board still ends at five cards. Hold'em and omaha have no such rule: too many
    cards at once is an invalid deal (n.º 41, 43, 45)."""
    syn = {"variant": "NSY", "rulebook": "pt-217-2007-synthetic"}

    def hand(*boards: str) -> list[str]:
        played = HandBuilder(**syn, stacks={1: 100, 2: 100, 3: 100, 4: 100}, ante=1)
        for seat in (1, 2, 3, 4):
            played.post(seat, "ante", 1)
        for cards in boards:
            played.board(cards)
            for seat in (1, 2, 3, 4):
                played.act(seat, "check")
        return _cited(adjudicate_hand(played.events).findings, "invalid_deal")

    assert hand("As", "Ks", "Qs", "Js", "Ts") == []
    assert hand("As Ks", "Qs", "Js", "Ts") == []  # the first round is lost
    assert hand("As", "Ks Qs Js", "Ts") == []  # two rounds lost
    assert hand("As Ks", "Qs", "Js", "Ts", "9s") == ["PT-217/2007 n.º 107-108"]
