"""Blackjack (GG-2022 live III): laws over random shoes, and the rules' corner cases."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from replayer.casino import adjudicate_round
from simulate.casino import BlackjackPlay, RoundWriter, blackjack_round

START = datetime(2024, 5, 3, 19, 0, tzinfo=UTC)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), error=st.sampled_from([-2, -1, 0, 0, 1, 2]))
def test_dealer_draws_are_accepted_exactly_when_they_follow_s17(seed: int, error: int) -> None:
    events, required = blackjack_round(random.Random(seed), "bj", START, BlackjackPlay(error))
    drawn = sum(1 for e in events if e["type"] == "CardDealt" and e["to"] == "dealer") - 2
    verdict = adjudicate_round(events)
    wrong_draws = [f for f in verdict.findings if f.kind == "wrong_draw"]
    assert bool(wrong_draws) == (drawn != required)
    if drawn == required:
        assert verdict.findings == ()


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_settlement_conserves_money_and_each_payout_is_checked(seed: int) -> None:
    """Every stake is either kept by the house or returned with its winnings: the verdict's
    expected returns, recorded as payouts, leave nothing to find; moving one unit of money
    from any payout to the house (or back) is exactly one mispaid bet."""
    events, _ = blackjack_round(random.Random(seed), "bj", START)
    verdict = adjudicate_round(events)
    stakes = {e["bet_id"]: e["amount"] for e in events if e["type"] == "BetPlaced"}
    assert set(verdict.expected_payouts) == set(stakes)
    for bet_id, due in verdict.expected_payouts.items():
        assert due in _possible_returns(stakes[bet_id])
    paid = {e["bet_id"]: e["amount"] for e in events if e["type"] == "PayoutMade"}
    assert {k: v for k, v in verdict.expected_payouts.items() if v} == paid
    house = sum(stakes.values()) - sum(paid.values())
    assert house + sum(paid.values()) - sum(stakes.values()) == 0
    payouts = [e for e in events if e["type"] == "PayoutMade"]
    if payouts:
        payouts[0]["amount"] -= 1
        [finding] = adjudicate_round(events).findings
        assert (finding.kind, finding.difference) == ("mispaid_bet", -1)


def _possible_returns(stake: int) -> set[int]:
    """Lose, push, win 1:1, blackjack 3:2 (rounded up), insurance 2:1."""
    return {0, stake, 2 * stake, stake + (3 * stake + 1) // 2, 3 * stake}


def round_of(
    dealt: Sequence[tuple[str, str | int]],
    payouts: dict[str, int],
    extra: Sequence[tuple[str, dict]] = (),
    stake: int = 100,
) -> list[dict]:
    """One box: ``dealt`` as (target, card) with target 'dealer' or a hand number; ``extra``
    are (type, fields) events placed after the initial deal, in order."""
    writer = RoundWriter("bj-1/5", START)
    writer.emit("RoundOpened", table_id="bj-1", game="blackjack", currency="EUR", min_bet=100)
    writer.emit("BetPlaced", bet_id="m1", player_id="p1", bet_type="main", hand=1, amount=stake)
    for index, (target, card) in enumerate(dealt):
        if index == 4:
            for body_type, fields in extra:
                writer.emit(body_type, **fields)
        if target == "dealer":
            writer.emit("CardDealt", to="dealer", card=card)
        else:
            writer.emit("CardDealt", to="hand", hand=target, card=card)
    for bet_id, amount in payouts.items():
        writer.emit("PayoutMade", bet_id=bet_id, player_id="p1", amount=amount)
    return writer.events


def test_split_aces_one_card_each_and_ace_ten_is_21_not_blackjack() -> None:
    extra = [
        ("PlayerDecision", {"hand": 1, "decision": "split", "new_hand": 2}),
        (
            "BetPlaced",
            {"bet_id": "s1", "player_id": "p1", "bet_type": "split_hand", "hand": 2, "amount": 100},
        ),
    ]
    dealt = [(1, "As"), ("dealer", "9c"), (1, "Ad"), ("dealer", "Tc"), (1, "Kh"), (2, "5d")]
    # Hand 1: A+K = 21 (not blackjack) beats 19 at 1:1; hand 2: A+5 = 16 loses.
    verdict = adjudicate_round(round_of(dealt, {"m1": 200}, extra))
    assert verdict.findings == ()
    assert verdict.expected_payouts == {"m1": 200, "s1": 0}
    hit = [*extra, ("PlayerDecision", {"hand": 2, "decision": "hit"})]
    late = adjudicate_round(round_of([*dealt[:5], (2, "5d"), (2, "2c")], {"m1": 200}, hit))
    assert [(f.kind, f.citation) for f in late.findings] == [
        ("illegal_action", "GG-2022 live III 2.7")
    ]


def test_dealer_blackjack_beats_player_21_and_bust_loses_even_if_dealer_busts() -> None:
    hit = [("PlayerDecision", {"hand": 1, "decision": "hit"})]
    twenty_one = [(1, "7s"), ("dealer", "Kc"), (1, "4d"), ("dealer", "Ac"), (1, "Th")]
    assert adjudicate_round(round_of(twenty_one, {}, hit)).findings == ()
    bust = [(1, "Ts"), ("dealer", "6c"), (1, "5d"), ("dealer", "Tc"), (1, "9h"), ("dealer", "8d")]
    verdict = adjudicate_round(round_of(bust, {}, hit))
    # The only player hand is decided (bust): the dealer must not draw at all.
    assert [(f.kind, f.expected, f.recorded) for f in verdict.findings] == [("wrong_draw", 0, 1)]
    assert verdict.expected_payouts == {"m1": 0}


def test_blackjack_pays_three_to_two_rounded_up() -> None:
    natural = [(1, "As"), ("dealer", "9c"), (1, "Kd"), ("dealer", "7c")]
    assert adjudicate_round(round_of(natural, {"m1": 253}, stake=101)).findings == ()
    [finding] = adjudicate_round(round_of(natural, {"m1": 252}, stake=101)).findings
    assert (finding.kind, finding.expected, finding.citation) == (
        "mispaid_bet",
        253,
        "GG-2022 live III 2.1.1, 2.2, 2.3",
    )


def test_illegal_double_and_insurance() -> None:
    extra = [
        (
            "BetPlaced",
            {"bet_id": "i1", "player_id": "p1", "bet_type": "insurance", "hand": 1, "amount": 50},
        ),
        ("PlayerDecision", {"hand": 1, "decision": "double"}),
        (
            "BetPlaced",
            {"bet_id": "d1", "player_id": "p1", "bet_type": "double", "hand": 1, "amount": 150},
        ),
    ]
    dealt = [(1, "5s"), ("dealer", "9c"), (1, "6d"), ("dealer", "8c"), (1, "9h")]
    # 20 beats 17; the insurance without a dealer ace is returned.
    verdict = adjudicate_round(round_of(dealt, {"m1": 200, "d1": 300, "i1": 50}, extra))
    assert sorted((f.kind, f.citation) for f in verdict.findings) == [
        ("illegal_action", "GG-2022 live III 2.5.1-2.5.2"),
        ("illegal_action", "GG-2022 live III 2.6"),
    ]


def test_dealer_stands_on_soft_17_and_draws_on_16() -> None:
    soft_17 = [(1, "Ts"), ("dealer", "Ac"), (1, "8d"), ("dealer", "6c")]
    stand = [("PlayerDecision", {"hand": 1, "decision": "stand"})]
    assert adjudicate_round(round_of(soft_17, {"m1": 200}, stand)).findings == ()
    drew = adjudicate_round(round_of([*soft_17, ("dealer", "2h")], {"m1": 200}, stand))
    assert [(f.kind, f.expected, f.recorded) for f in drew.findings] == [("wrong_draw", 0, 1)]
    sixteen = [(1, "Ts"), ("dealer", "Tc"), (1, "8d"), ("dealer", "6c")]
    stood = adjudicate_round(round_of(sixteen, {"m1": 200}, stand))
    assert [(f.kind, f.detail["short"]) for f in stood.findings] == [("wrong_draw", True)]
    assert stood.expected_payouts == {}
