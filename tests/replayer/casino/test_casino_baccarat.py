"""Punto banco (GG-2022 live II): the exact tableau figures, and judged coups."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from fractions import Fraction

import pytest

from replayer.casino import adjudicate_round
from replayer.casino.cards import baccarat_total
from replayer.casino.punto_banco import banker_draws, next_side, player_draws
from simulate.casino import RoundWriter

START = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)

#: Rank values of an 8-deck shoe: 128 cards count 0 (ten and court cards), 32 each 1-9.
SHOE_COUNTS = (128, *(32,) * 9)


def enumerate_coups() -> Counter[str]:
    """Every ordered 6-card sequence of an 8-deck shoe, by outcome, through ``next_side``.

    Cards are enumerated by value with their multiplicities; once the coup is complete the
    unused positions of the six are filled by any remaining cards (falling factorial).
    """
    outcomes: Counter[str] = Counter()
    counts = list(SHOE_COUNTS)

    def deal(player: tuple[int, ...], banker: tuple[int, ...], left: int, weight: int) -> None:
        side = next_side(player, banker)
        if side is None:
            for position in range(6 - len(player) - len(banker)):
                weight *= left - position
            p, b = baccarat_total(player), baccarat_total(banker)
            outcomes["tie" if p == b else "player" if p > b else "banker"] += weight
            return
        for value in range(10):
            available = counts[value]
            if available:
                counts[value] -= 1
                if side == "player":
                    deal((*player, value), banker, left - 1, weight * available)
                else:
                    deal(player, (*banker, value), left - 1, weight * available)
                counts[value] += 1

    deal((), (), sum(SHOE_COUNTS), 1)
    return outcomes


def test_tableau_reproduces_the_published_counts_and_house_edges() -> None:
    outcomes = enumerate_coups()
    assert outcomes["banker"] == 2_292_252_566_437_888
    assert outcomes["player"] == 2_230_518_282_592_256
    assert outcomes["tie"] == 475_627_426_473_216
    total = sum(outcomes.values())
    assert total == 416 * 415 * 414 * 413 * 412 * 411 == 4_998_398_275_503_360
    banker, player, tie = (Fraction(outcomes[k], total) for k in ("banker", "player", "tie"))
    edge = {
        "banker": player - banker * Fraction(95, 100),
        "player": banker - player,
        "tie": (banker + player) - 8 * tie,
    }
    assert {k: round(v * 100, 4) for k, v in edge.items()} == {
        "banker": Fraction(10579, 10_000),
        "player": Fraction(12351, 10_000),
        "tie": Fraction(143596, 10_000),
    }


@pytest.mark.parametrize(
    ("banker_total", "draws_on"),
    [
        (0, set(range(10))),
        (1, set(range(10))),
        (2, set(range(10))),
        (3, set(range(10)) - {8}),
        (4, {2, 3, 4, 5, 6, 7}),
        (5, {4, 5, 6, 7}),
        (6, {6, 7}),
        (7, set()),
    ],
)
def test_banker_third_card_table(banker_total: int, draws_on: set[int]) -> None:
    assert {third for third in range(10) if banker_draws(banker_total, third)} == draws_on


def test_player_and_banker_without_player_third() -> None:
    assert [t for t in range(8) if player_draws(t)] == [0, 1, 2, 3, 4, 5]
    assert [t for t in range(8) if banker_draws(t, None)] == [0, 1, 2, 3, 4, 5]


def coup(
    cards: Sequence[tuple[str, str]],
    bets: Sequence[tuple[str, int]],
    payouts: dict[str, int],
    commissions: dict[str, int] | None = None,
    malfunction: bool = False,
    refunds: dict[str, int] | None = None,
) -> list[dict]:
    writer = RoundWriter("bac-1/7", START)
    writer.emit("RoundOpened", table_id="bac-1", game="punto_banco", currency="EUR", min_bet=100)
    for index, (bet_type, amount) in enumerate(bets):
        writer.emit(
            "BetPlaced", bet_id=f"b{index}", player_id=f"p{index}", bet_type=bet_type, amount=amount
        )
    for to, card in cards:
        writer.emit("CardDealt", to=to, card=card)
    if malfunction:
        writer.emit("RoundMalfunction", reason="scanner")
    for bet_id, amount in (commissions or {}).items():
        writer.emit("CommissionTaken", bet_id=bet_id, amount=amount)
    for bet_id, amount in payouts.items():
        writer.emit("PayoutMade", bet_id=bet_id, player_id=f"p{bet_id[1:]}", amount=amount)
    for bet_id, amount in (refunds or {}).items():
        writer.emit("RefundPaid", bet_id=bet_id, player_id=f"p{bet_id[1:]}", amount=amount)
    return writer.events


# Player 4 (2+2) draws a 9 -> 3; banker 5 (K+5) stands against a player's third 9: banker 5 wins.
BANKER_WINS = [
    ("player", "2c"),
    ("banker", "Kd"),
    ("player", "2h"),
    ("banker", "5s"),
    ("player", "9d"),
]


def test_banker_win_pays_less_commission_rounded_down() -> None:
    verdict = adjudicate_round(
        coup(
            BANKER_WINS, [("banker", 1005), ("player", 500), ("tie", 100)], {"b0": 1960}, {"b0": 50}
        )
    )
    assert verdict.rulebook_id == "gg-2022-live-baccarat"
    assert verdict.findings == ()
    assert verdict.outcome["winner"] == "banker"
    assert verdict.expected_payouts == {"b0": 1960, "b1": 0, "b2": 0}
    assert verdict.expected_commissions["b0"] == 50  # 5% of 1005 = 50.25, rounded down


def test_wrong_commission_and_payout_are_mispaid() -> None:
    verdict = adjudicate_round(coup(BANKER_WINS, [("banker", 1000)], {"b0": 1940}, {"b0": 60}))
    assert sorted((f.kind, f.expected, f.recorded) for f in verdict.findings) == [
        ("mispaid_bet", 50, 60),
        ("mispaid_bet", 1950, 1940),
    ]
    assert {f.citation for f in verdict.findings} == {"GG-2022 live II 2.2"}


def test_tie_returns_player_and_banker_bets_and_pays_eight_to_one() -> None:
    cards = [("player", "Kc"), ("banker", "Qd"), ("player", "7h"), ("banker", "7s")]
    verdict = adjudicate_round(
        coup(
            cards,
            [("player", 100), ("banker", 200), ("tie", 100)],
            {"b0": 100, "b1": 200, "b2": 900},
        )
    )
    assert verdict.findings == ()
    assert verdict.outcome["winner"] == "tie"


def test_extra_banker_card_is_a_wrong_draw_and_the_coup_is_rebuilt() -> None:
    # Player 7 stands; banker 6 must stand. The dealer gave the banker a 3 (6 -> 9).
    cards = [
        ("player", "4c"),
        ("banker", "3d"),
        ("player", "3h"),
        ("banker", "3s"),
        ("banker", "3c"),
    ]
    verdict = adjudicate_round(coup(cards, [("player", 100)], {"b0": 0}))
    kinds = [f.kind for f in verdict.findings]
    assert kinds == ["wrong_draw", "mispaid_bet"]
    assert verdict.findings[0].citation == "GG-2022 live II 3.5.1"
    assert verdict.outcome == {
        "player": ["4c", "3h"],
        "banker": ["3d", "3s"],
        "player_total": 7,
        "banker_total": 6,
        "winner": "player",
    }
    assert verdict.findings[1].expected == 200


def test_missing_third_card_leaves_the_coup_unsettled() -> None:
    # Player 3 must draw; the dealer stopped after four cards.
    cards = [("player", "Ac"), ("banker", "4d"), ("player", "2h"), ("banker", "Ts")]
    verdict = adjudicate_round(coup(cards, [("player", 100)], {}))
    assert [f.kind for f in verdict.findings] == ["wrong_draw"]
    assert verdict.expected_payouts == {}


def test_malfunction_voids_and_every_bet_is_refunded() -> None:
    events = coup(
        BANKER_WINS, [("banker", 100), ("tie", 100)], {}, malfunction=True, refunds={"b0": 100}
    )
    verdict = adjudicate_round(events)
    assert verdict.void
    [finding] = verdict.findings
    assert (finding.kind, finding.citation, finding.expected, finding.recorded) == (
        "void_hand_not_refunded",
        "GG-2022 live II 2.1.8",
        100,
        0,
    )


def test_round_before_the_rulebook_is_a_no_rulebook_finding() -> None:
    events = coup(BANKER_WINS, [("banker", 100)], {"b0": 195}, {"b0": 5})
    for event in events:
        event["occurred_at"] = datetime(2020, 1, 1, tzinfo=UTC)
    [finding] = adjudicate_round(events).findings
    assert finding.kind == "no_rulebook"


def test_steps_show_the_table_after_each_event() -> None:
    verdict = adjudicate_round(coup(BANKER_WINS, [("banker", 100)], {"b0": 195}, {"b0": 5}))
    last = verdict.steps[-1].state
    assert last["cards"] == {"player": ["2c", "2h", "9d"], "banker": ["Kd", "5s"]}
    assert last["totals"] == {"player": 3, "banker": 5}
    assert (last["staked"], last["paid"], last["commission"]) == (100, 195, 5)
    assert [step.sequence for step in verdict.steps] == list(range(len(verdict.steps)))
