"""Declared round terms against the rulebook: the punto banco commission (GG-2022 live II
2.2: 5% of the banker's win at most); the chemin de fer cagnotte, which PT-217/2007 I.47
leaves to the house."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from replayer.casino import adjudicate_round
from simulate.casino import RoundWriter

START = datetime(2024, 5, 7, 21, 0, tzinfo=UTC)
#: Player 5 against a banker natural 9: the banker wins, nobody draws.
BANKER_NATURAL = [("player", "2c"), ("banker", "4d"), ("player", "3h"), ("banker", "5s")]
COMMISSION = "GG-2022 live II 2.2"


def banker_win(declared: int | None, commission: int, stake: int = 1000, **extra: Any) -> list:
    """A banker bet of ``stake`` winning, ``commission`` withheld from its 2 x stake."""
    writer = RoundWriter("bac-9/1", START)
    writer.emit(
        "RoundOpened",
        table_id="bac-9",
        game="punto_banco",
        currency="EUR",
        min_bet=100,
        commission_bps=declared,
        **extra,
    )
    writer.emit("BetPlaced", bet_id="b0", player_id="p0", bet_type="banker", amount=stake)
    writer.emit("BetPlaced", bet_id="b1", player_id="p1", bet_type="player", amount=stake)
    for to, card in BANKER_NATURAL:
        writer.emit("CardDealt", to=to, card=card)
    if commission:
        writer.emit("CommissionTaken", bet_id="b0", amount=commission)
    writer.emit("PayoutMade", bet_id="b0", player_id="p0", amount=2 * stake - commission)
    return writer.events


@pytest.mark.parametrize(("declared", "commission"), [(None, 50), (500, 50), (400, 40), (0, 0)])
def test_a_commission_within_the_rule_is_the_rate_judged(
    declared: int | None, commission: int
) -> None:
    verdict = adjudicate_round(banker_win(declared, commission))
    assert verdict.findings == ()
    assert verdict.expected_commissions["b0"] == commission


def test_a_lower_declared_rate_binds_the_house() -> None:
    # The table declared 4%: withholding the rule's 5% overcharges the player.
    verdict = adjudicate_round(banker_win(400, 50))
    assert sorted((f.kind, f.expected, f.recorded) for f in verdict.findings) == [
        ("mispaid_bet", 40, 50),
        ("mispaid_bet", 1960, 1950),
    ]


def test_a_commission_above_the_rule_is_one_terms_finding_and_judged_at_five_percent() -> None:
    verdict = adjudicate_round(banker_win(600, 60))
    terms = [f for f in verdict.findings if f.kind == "terms_outside_rulebook"]
    [finding] = terms
    assert finding.citation == COMMISSION
    assert (finding.expected, finding.recorded) == (
        {"commission_bps": 500},
        {"commission_bps": 600},
    )
    assert finding.difference == 100
    assert finding.detail == {"sequence": 0, "term": "commission_bps"}
    assert "600 bps" in finding.reason and "500 bps" in finding.reason
    # The over-charged commission is owed to the player: commission and payout mispaid.
    mispaid = sorted(
        (f.detail["component"], f.expected, f.recorded, f.difference, f.citation)
        for f in verdict.findings
        if f.kind == "mispaid_bet"
    )
    assert mispaid == [
        ("commission", 50, 60, 10, COMMISSION),
        ("payout", 1950, 1940, -10, COMMISSION),
    ]
    assert verdict.expected_payouts == {"b0": 1950, "b1": 0}
    assert len(verdict.findings) == 3


def test_above_the_rule_but_charged_within_it_leaves_only_the_terms_finding() -> None:
    verdict = adjudicate_round(banker_win(1000, 50))
    assert [f.kind for f in verdict.findings] == ["terms_outside_rulebook"]


def test_the_declared_terms_are_judged_in_a_void_round_too() -> None:
    events = banker_win(600, 60)[:7]  # opened, two bets, the four cards
    writer = RoundWriter("bac-9/1", START, events)
    writer.emit("RoundMalfunction", reason="shoe reader failure")
    for bet_id, player in (("b0", "p0"), ("b1", "p1")):
        writer.emit("RefundPaid", bet_id=bet_id, player_id=player, amount=1000)
    verdict = adjudicate_round(writer.events)
    assert verdict.void
    assert [(f.kind, f.citation) for f in verdict.findings] == [
        ("terms_outside_rulebook", COMMISSION)
    ]


def test_the_cagnotte_rate_is_the_houses_to_declare() -> None:
    """PT-217/2007 I.47 fixes no rate: a 20% cagnotte is no terms finding, and the coup is
    judged at the declared rate."""
    writer = RoundWriter("chemmy-9/1", START)
    writer.emit(
        "RoundOpened",
        table_id="chemmy-9",
        game="chemin_de_fer",
        currency="EUR",
        min_bet=100,
        cagnotte_bps=2000,
    )
    writer.emit("BetPlaced", bet_id="bank", player_id="banker", bet_type="bank", amount=20_000)
    writer.emit("BetPlaced", bet_id="s0", player_id="p0", bet_type="ponto", amount=5_000)
    for to, card in BANKER_NATURAL:
        writer.emit("CardDealt", to=to, card=card)
    writer.emit("CagnotteTaken", amount=1_000)
    writer.emit("PayoutMade", bet_id="bank", player_id="banker", amount=24_000)
    verdict = adjudicate_round(writer.events)
    assert verdict.findings == ()
    assert verdict.expected_cagnotte == 1_000
