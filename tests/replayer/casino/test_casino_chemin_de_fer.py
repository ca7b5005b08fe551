"""Chemin de fer (PT-217/2007 I): the table with its choices, the bank, the cagnotte."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from replayer.casino import adjudicate_round
from replayer.casino.chemin_de_fer import banker_draws, ponto_draws
from replayer.rulebooks.casino import CASINO_RULEBOOKS, CheminDeFerRules
from simulate.casino import RoundWriter

START = datetime(2024, 5, 2, 22, 0, tzinfo=UTC)
RULES = CASINO_RULEBOOKS["pt-217-2007-chemin-de-fer"]
assert isinstance(RULES, CheminDeFerRules)


def coup(
    cards: Sequence[tuple[str, str]],
    stakes: Sequence[int],
    payouts: dict[str, int],
    bank: int = 20_000,
    decisions: Sequence[tuple[str, str]] = (),
    cagnotte: int = 0,
) -> list[dict]:
    writer = RoundWriter("chemmy-1/3", START)
    writer.emit(
        "RoundOpened",
        table_id="chemmy-1",
        game="chemin_de_fer",
        currency="EUR",
        min_bet=100,
        cagnotte_bps=500,
    )
    writer.emit("BetPlaced", bet_id="bank", player_id="banker", bet_type="bank", amount=bank)
    for index, amount in enumerate(stakes):
        writer.emit(
            "BetPlaced", bet_id=f"s{index}", player_id=f"p{index}", bet_type="ponto", amount=amount
        )
    for actor, decision in decisions:
        writer.emit("PlayerDecision", actor=actor, decision=decision)
    for to, card in cards:
        writer.emit("CardDealt", to=to, card=card)
    if cagnotte:
        writer.emit("CagnotteTaken", amount=cagnotte)
    for bet_id, amount in payouts.items():
        player = "banker" if bet_id == "bank" else f"p{bet_id[1:]}"
        writer.emit("PayoutMade", bet_id=bet_id, player_id=player, amount=amount)
    return writer.events


def test_the_classic_table_and_its_two_optional_cases() -> None:
    assert [t for t in range(8) if ponto_draws(RULES, t, False)] == [0, 1, 2, 3, 4]
    assert ponto_draws(RULES, 5, True) and not ponto_draws(RULES, 5, False)
    optional = {
        (total, third)
        for total in range(8)
        for third in range(10)
        if banker_draws(RULES, total, third, True) != banker_draws(RULES, total, third, False)
    }
    assert optional == {(3, 9), (5, 4)}  # PT-217/2007 I.102: exactly two optional cases
    assert [third for third in range(10) if banker_draws(RULES, 4, third, False)] == [
        2,
        3,
        4,
        5,
        6,
        7,
    ]
    assert [t for t in range(8) if banker_draws(RULES, t, None, False)] == [0, 1, 2, 3, 4, 5]


# Ponto 5 (2+3) chooses to stand; banker 4 (Q+4) must then draw: a 3 -> 7 beats 5.
PONTO_STANDS_ON_5 = [
    ("player", "2c"),
    ("banker", "Qd"),
    ("player", "3h"),
    ("banker", "4s"),
    ("banker", "3c"),
]


def test_bank_wins_and_the_cagnotte_is_five_percent_of_its_win() -> None:
    events = coup(
        PONTO_STANDS_ON_5,
        [1000, 500],
        {"bank": 21_425},
        decisions=[("player", "stand")],
        cagnotte=75,
    )
    verdict = adjudicate_round(events)
    assert verdict.findings == ()
    assert verdict.expected_cagnotte == 75
    assert verdict.expected_payouts == {"bank": 21_425, "s0": 0, "s1": 0}


def test_a_wrong_cagnotte_is_reported() -> None:
    events = coup(PONTO_STANDS_ON_5, [1000, 500], {"bank": 21_400}, cagnotte=100)
    assert sorted(
        (f.kind, f.detail.get("component")) for f in adjudicate_round(events).findings
    ) == [
        ("mispaid_bet", "cagnotte"),
        ("mispaid_bet", "payout"),
    ]


def test_ponto_drawing_on_6_is_reconstructed_by_the_table() -> None:
    # Ponto 6 (3+3) must stand; he drew a 3. By the table that card is the banker's (4 + 3 = 7).
    cards = [
        ("player", "3c"),
        ("banker", "2d"),
        ("player", "3h"),
        ("banker", "2s"),
        ("player", "3s"),
    ]
    events = coup(cards, [1000, 1000], {"bank": 21_900}, cagnotte=100)
    verdict = adjudicate_round(events)
    assert [(f.kind, f.citation.split(" (")[0]) for f in verdict.findings] == [
        ("wrong_draw", "PT-217/2007 I.64-67, I.71, I.100")
    ]
    assert verdict.outcome["banker"] == ["2d", "2s", "3s"]
    assert verdict.outcome["winner"] == "banker"


def test_in_a_banco_a_false_draw_stands() -> None:
    cards = [
        ("player", "3c"),
        ("banker", "2d"),
        ("player", "3h"),
        ("banker", "2s"),
        ("player", "3s"),
    ]
    # Bancô: one ponto covers the whole bank (I.45); his false draw is at his own risk (I.70).
    # Ponto 9 (6 + 3) against banker 4: with the ponto's third card a 3, the banker draws.
    events = coup([*cards, ("banker", "Kc")], [20_000], {"s0": 40_000, "bank": 0})
    verdict = adjudicate_round(events)
    assert verdict.findings == ()
    assert verdict.outcome["banco"] is True


# Ponto 5 (2+3) chose to draw a 9 (-> 4); banker 3 (A+2) against a third card 9 is the
# banker's option (I.102).
OPTIONAL = [
    ("player", "2c"),
    ("banker", "Ad"),
    ("player", "3h"),
    ("banker", "2s"),
    ("player", "9c"),
]


@pytest.mark.parametrize("recorded", [True, False])
def test_banker_optional_case_follows_his_choice(recorded: bool) -> None:
    stood = coup(OPTIONAL, [1000], {"s0": 2000, "bank": 19_000}, decisions=[("banker", "stand")])
    assert adjudicate_round(stood).findings == ()
    decisions = [("banker", "draw")] if recorded else []
    drew = coup(
        [*OPTIONAL, ("banker", "4c")], [1000], {"bank": 20_950}, decisions=decisions, cagnotte=50
    )
    assert adjudicate_round(drew).findings == ()


def test_a_card_against_the_bankers_choice_is_burned() -> None:
    events = coup(
        [*OPTIONAL, ("banker", "4c")],
        [1000],
        {"s0": 2000, "bank": 19_000},
        decisions=[("banker", "stand")],
    )
    verdict = adjudicate_round(events)
    assert [f.kind for f in verdict.findings] == ["wrong_draw"]
    assert verdict.outcome["winner"] == "player"


def test_stakes_beyond_the_bank_are_illegal_and_their_excess_returns() -> None:
    events = coup(PONTO_STANDS_ON_5, [800, 500], {"s1": 300, "bank": 1950}, bank=1000, cagnotte=50)
    verdict = adjudicate_round(events)
    assert [(f.kind, f.citation) for f in verdict.findings] == [
        ("illegal_action", "PT-217/2007 I.45, I.58")
    ]
    assert verdict.expected_payouts == {"s0": 0, "s1": 300, "bank": 1950}


def test_equal_points_void_the_coup_and_return_every_stake() -> None:
    cards = [("player", "7c"), ("banker", "Kd"), ("player", "Qh"), ("banker", "7s")]
    events = coup(cards, [1000], {"s0": 1000, "bank": 20_000})
    verdict = adjudicate_round(events)
    assert verdict.findings == ()
    assert verdict.outcome["winner"] == "tie"
