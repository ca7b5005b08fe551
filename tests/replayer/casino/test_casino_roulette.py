"""Single-zero roulette (GG-2022 live IV): the layout's exact returns, spins, late bets."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

import pytest

from replayer.casino import adjudicate_round
from replayer.casino.roulette_layout import legal_bets
from simulate.casino import RoundWriter

START = datetime(2024, 5, 1, 21, 0, tzinfo=UTC)
STAKE = 100

#: How many distinct bets of each type the single-zero layout offers (trios as streets).
INSTANCES = {
    "straight": 37,
    "split": 60,
    "street": 14,
    "corner": 23,
    "four_number": 1,
    "six_line": 11,
    "column": 3,
    "dozen": 3,
    "red": 1,
    "black": 1,
    "odd": 1,
    "even": 1,
    "low": 1,
    "high": 1,
}


def spin(
    bets: list[tuple[str, list[int], int]],
    pocket: int,
    payouts: dict[str, int],
    revolutions: int = 5,
    late: frozenset[int] = frozenset(),
    refunds: dict[str, int] | None = None,
) -> list[dict]:
    writer = RoundWriter("rou-1/9", START)
    writer.emit("RoundOpened", table_id="rou-1", game="roulette", currency="EUR", min_bet=100)
    for index, (bet_type, numbers, amount) in enumerate(bets):
        writer.emit(
            "BetPlaced",
            bet_id=f"b{index}",
            player_id="p1",
            bet_type=bet_type,
            numbers=numbers,
            amount=amount,
            after_no_more_bets=index in late,
        )
    writer.emit("SpinResult", pocket=pocket, ball_revolutions=revolutions)
    for bet_id, amount in payouts.items():
        writer.emit("PayoutMade", bet_id=bet_id, player_id="p1", amount=amount)
    for bet_id, amount in (refunds or {}).items():
        writer.emit("RefundPaid", bet_id=bet_id, player_id="p1", amount=amount)
    return writer.events


def test_layout_offers_every_bet_instance() -> None:
    layout = legal_bets(True)
    assert {bet_type: len(sets) for bet_type, sets in layout.items()} == INSTANCES
    assert all(numbers <= set(range(37)) for sets in layout.values() for numbers in sets)


@pytest.mark.parametrize("bet_type", sorted(INSTANCES))
def test_every_bet_returns_36_37_of_the_stake(bet_type: str) -> None:
    """Expected return over the 37 equally likely pockets, exactly, through the replayer."""
    for numbers in legal_bets(True)[bet_type]:
        returned = 0
        for pocket in range(37):
            verdict = adjudicate_round(spin([(bet_type, sorted(numbers), STAKE)], pocket, {}))
            returned += verdict.expected_payouts["b0"]
        assert Fraction(returned, 37) == Fraction(36, 37) * STAKE, (bet_type, sorted(numbers))


def test_correct_payouts_raise_nothing_and_a_wrong_one_is_mispaid() -> None:
    bets = [("split", [17, 20], 100), ("corner", [0, 1, 2, 3], 100), ("red", [], 200)]
    assert adjudicate_round(spin(bets, 17, {"b0": 1800})).findings == ()
    [finding] = adjudicate_round(spin(bets, 17, {"b0": 1700})).findings
    assert (finding.kind, finding.citation, finding.difference) == (
        "mispaid_bet",
        "GG-2022 live IV 2.2",
        -100,
    )


@pytest.mark.parametrize(
    ("bet_type", "numbers"),
    [
        ("split", [1, 5]),
        ("street", [1, 2, 4]),
        ("corner", [3, 4, 6, 7]),
        ("straight", [37]),
        ("dozen", []),
    ],
)
def test_numbers_that_are_not_a_layout_bet_are_reported(bet_type: str, numbers: list[int]) -> None:
    [finding] = adjudicate_round(spin([(bet_type, numbers, 100)], 1, {})).findings
    assert finding.kind == "data_quality"
    assert "not a legal" in finding.reason


def test_a_spin_of_two_revolutions_voids_the_round() -> None:
    bets = [("straight", [7], 100), ("black", [], 100)]
    refunded = adjudicate_round(spin(bets, 7, {}, revolutions=2, refunds={"b0": 100, "b1": 100}))
    assert refunded.void and refunded.findings == ()
    settled = adjudicate_round(spin(bets, 7, {"b0": 3600}, revolutions=2))
    assert sorted(f.kind for f in settled.findings) == ["refund_mismatch", "void_hand_not_refunded"]
    assert {f.citation for f in settled.findings} == {"GG-2022 live IV 3.1.1"}


def test_bet_after_no_more_bets_is_illegal_and_must_be_returned() -> None:
    bets = [("straight", [7], 100), ("straight", [7], 100)]
    verdict = adjudicate_round(spin(bets, 7, {"b0": 3600, "b1": 3600}, late=frozenset({1})))
    assert sorted((f.kind, f.citation) for f in verdict.findings) == [
        ("illegal_action", "GG-2022 live IV 2.1.1, 2.1.5"),
        ("mispaid_bet", "GG-2022 live IV 2.1.1, 2.1.5"),
    ]
    assert verdict.expected_payouts == {"b0": 3600, "b1": 100}
