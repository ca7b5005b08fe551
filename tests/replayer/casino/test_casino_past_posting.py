"""Past-posted bets: a bet recorded after betting closed is late whatever flag it carries.

GG-2022 live II 2.1.6 (punto banco) and III 2.1.1-2.1.3 (blackjack): no bet after the
first card; IV 2.1.1, 2.1.5 (roulette): none once the ball is spun, recorded as its
SpinResult; PT-217/2007 I.38, I.40 (chemin de fer): none once the cards are drawn, save a
bancô suivi (I.51). A past-posted bet is withdrawn: its stake is due back.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from replayer.casino import adjudicate_round
from simulate.casino import SIMULATORS, RoundWriter

START = datetime(2024, 5, 6, 20, 0, tzinfo=UTC)
#: Punto banco: player 9 (natural) against banker 7: the player wins, nobody draws.
PLAYER_NATURAL = [("player", "4c"), ("banker", "3d"), ("player", "5h"), ("banker", "4s")]
PUNTO_BANCO = "GG-2022 live II 2.1.6"
BLACKJACK = "GG-2022 live III 2.1.1-2.1.3"
ROULETTE = "GG-2022 live IV 2.1.1, 2.1.5"
CHEMIN_DE_FER = "PT-217/2007 I.38, I.40"


def round_of(game: str, events: Sequence[tuple[str, dict[str, Any]]], **opened: Any) -> list[dict]:
    """A round of ``game``: RoundOpened, then ``events`` as (type, fields), in order."""
    writer = RoundWriter(f"{game}-1/1", START)
    writer.emit("RoundOpened", table_id=f"{game}-1", game=game, currency="EUR", **opened)
    for body_type, fields in events:
        writer.emit(body_type, **fields)
    return writer.events


def bet(bet_id: str, bet_type: str, amount: int, **fields: Any) -> tuple[str, dict[str, Any]]:
    player = fields.pop("player_id", f"p-{bet_id}")
    return (
        "BetPlaced",
        {"bet_id": bet_id, "player_id": player, "bet_type": bet_type, "amount": amount, **fields},
    )


def money(kind: str, bet_id: str, amount: int, player: str | None = None) -> tuple[str, dict]:
    return (kind, {"bet_id": bet_id, "player_id": player or f"p-{bet_id}", "amount": amount})


def cards(dealt: Sequence[tuple[str, str]]) -> list[tuple[str, dict[str, Any]]]:
    return [("CardDealt", {"to": to, "card": card}) for to, card in dealt]


def kinds(verdict: Any) -> list[tuple[str, str]]:
    return sorted((str(f.kind), f.citation) for f in verdict.findings)


# -- punto banco -------------------------------------------------------------------------


def punto_banco(late_bet: Sequence[tuple[str, dict]], settle: Sequence[tuple[str, dict]]) -> list:
    """b0 on the player placed in time; ``late_bet`` after the first card."""
    events = [
        bet("b0", "player", 1000),
        *cards(PLAYER_NATURAL[:1]),
        *late_bet,
        *cards(PLAYER_NATURAL[1:]),
        money("PayoutMade", "b0", 2000),
        *settle,
    ]
    return round_of("punto_banco", events, min_bet=100)


def test_hidden_past_posted_bet_refunded_is_one_finding_citing_the_close() -> None:
    verdict = adjudicate_round(
        punto_banco([bet("b1", "player", 500)], [money("RefundPaid", "b1", 500)])
    )
    [finding] = verdict.findings
    assert (finding.kind, finding.citation) == ("past_posted_bet", PUNTO_BANCO)
    assert finding.expected == {"placed_before_sequence": 2}
    assert finding.recorded == {"sequence": 3, "after_no_more_bets": False}
    assert (finding.detail["returned"], finding.detail["due"]) == (500, 500)
    assert finding.detail["closed_by"] == {"type": "CardDealt", "sequence": 2}
    assert verdict.expected_payouts == {"b0": 2000, "b1": 500}


def test_past_posted_winner_paid_as_a_winner_is_mispaid_by_the_winnings() -> None:
    verdict = adjudicate_round(
        punto_banco([bet("b1", "player", 500)], [money("PayoutMade", "b1", 1000)])
    )
    assert kinds(verdict) == [("mispaid_bet", PUNTO_BANCO), ("past_posted_bet", PUNTO_BANCO)]
    mispaid = next(f for f in verdict.findings if f.kind == "mispaid_bet")
    assert (mispaid.expected, mispaid.recorded, mispaid.difference) == (500, 1000, 500)
    posted = next(f for f in verdict.findings if f.kind == "past_posted_bet")
    assert "1000 returned on it, its stake 500 due back" in posted.reason


def test_past_posted_loser_kept_by_the_house_is_owed_its_stake() -> None:
    verdict = adjudicate_round(punto_banco([bet("b1", "banker", 500)], []))
    assert kinds(verdict) == [("mispaid_bet", PUNTO_BANCO), ("past_posted_bet", PUNTO_BANCO)]
    mispaid = next(f for f in verdict.findings if f.kind == "mispaid_bet")
    assert (mispaid.expected, mispaid.recorded) == (500, 0)


def test_flagged_late_bet_after_the_first_card_stays_an_illegal_action_only() -> None:
    late = bet("b1", "player", 500, after_no_more_bets=True)
    verdict = adjudicate_round(punto_banco([late], [money("RefundPaid", "b1", 500)]))
    assert kinds(verdict) == [("illegal_action", PUNTO_BANCO)]


def test_bets_before_the_first_card_are_not_past_posted() -> None:
    events = [
        bet("b0", "player", 1000),
        bet("b1", "banker", 500),
        *cards(PLAYER_NATURAL),
        money("PayoutMade", "b0", 2000),
    ]
    assert adjudicate_round(round_of("punto_banco", events, min_bet=100)).findings == ()


# -- roulette ----------------------------------------------------------------------------


def test_roulette_bet_after_the_spin_result_is_past_posted() -> None:
    events = [
        bet("b0", "straight", 100, numbers=[7]),
        ("SpinResult", {"pocket": 7, "ball_revolutions": 5}),
        bet("b1", "straight", 100, numbers=[7]),
        money("PayoutMade", "b0", 3600),
        money("PayoutMade", "b1", 3600),
    ]
    verdict = adjudicate_round(round_of("roulette", events, min_bet=100))
    assert kinds(verdict) == [("mispaid_bet", ROULETTE), ("past_posted_bet", ROULETTE)]
    assert verdict.expected_payouts == {"b0": 3600, "b1": 100}
    refunded = [*events[:-1], money("RefundPaid", "b1", 100)]
    assert kinds(adjudicate_round(round_of("roulette", refunded, min_bet=100))) == [
        ("past_posted_bet", ROULETTE)
    ]


# -- blackjack ---------------------------------------------------------------------------


def hand(number: int, card: str) -> tuple[str, dict[str, Any]]:
    return ("CardDealt", {"to": "hand", "hand": number, "card": card})


def dealer(card: str) -> tuple[str, dict[str, Any]]:
    return ("CardDealt", {"to": "dealer", "card": card})


def test_blackjack_main_bet_after_the_first_card_is_past_posted() -> None:
    # Box 2's bet arrives after box 1's first card; both boxes are dealt. Box 1: 10+9 = 19
    # stands; box 2: 10+8 = 18; dealer 10+7 = 17 stands. Box 1 wins, box 2's bet returns.
    events = [
        bet("m1", "main", 100, hand=1),
        hand(1, "Tc"),
        bet("m2", "main", 100, hand=2),
        hand(2, "Td"),
        dealer("Th"),
        hand(1, "9c"),
        hand(2, "8d"),
        dealer("7h"),
        ("PlayerDecision", {"hand": 1, "decision": "stand"}),
        ("PlayerDecision", {"hand": 2, "decision": "stand"}),
        money("PayoutMade", "m1", 200),
        money("PayoutMade", "m2", 200),
    ]
    verdict = adjudicate_round(round_of("blackjack", events, min_bet=100))
    assert kinds(verdict) == [("mispaid_bet", BLACKJACK), ("past_posted_bet", BLACKJACK)]
    assert verdict.expected_payouts == {"m1": 200, "m2": 100}


def test_double_split_and_insurance_after_the_deal_are_not_past_posting() -> None:
    # III 2.1.2: splitting, doubling and insurance are wagers the rules take after the deal.
    # Box 1 splits 8-8 into hands 1 and 3 (18 each), box 2 doubles on 11 (21); the dealer's
    # A-7 is a soft 18 and stands: the split hands push, box 2 wins, insurance loses.
    events = [
        bet("m1", "main", 100, hand=1, player_id="p1"),
        bet("m2", "main", 100, hand=2, player_id="p2"),
        hand(1, "8c"),
        hand(2, "5s"),
        dealer("Ah"),
        hand(1, "8d"),
        hand(2, "6h"),
        dealer("7s"),
        bet("i1", "insurance", 50, hand=1, player_id="p1"),
        ("PlayerDecision", {"hand": 1, "decision": "split", "new_hand": 3}),
        bet("s1", "split_hand", 100, hand=3, player_id="p1"),
        hand(1, "Ts"),
        hand(3, "Kd"),
        ("PlayerDecision", {"hand": 1, "decision": "stand"}),
        ("PlayerDecision", {"hand": 3, "decision": "stand"}),
        ("PlayerDecision", {"hand": 2, "decision": "double"}),
        bet("d2", "double", 100, hand=2, player_id="p2"),
        hand(2, "Tc"),
        money("PayoutMade", "m1", 100, "p1"),
        money("PayoutMade", "s1", 100, "p1"),
        money("PayoutMade", "m2", 200, "p2"),
        money("PayoutMade", "d2", 200, "p2"),
    ]
    verdict = adjudicate_round(round_of("blackjack", events, min_bet=100))
    assert verdict.findings == (), [f.reason for f in verdict.findings]
    assert verdict.expected_payouts == {"m1": 100, "m2": 200, "i1": 0, "s1": 100, "d2": 200}


def test_wagers_on_a_past_posted_box_are_returned_with_it() -> None:
    # The only box's bet comes after its first card; the player then doubles: both the bet
    # and the double are withdrawn (III 2.1.1-2.1.3), both stakes due back.
    events = [
        hand(1, "6c"),
        bet("m1", "main", 100, hand=1, player_id="p1"),
        dealer("9d"),
        hand(1, "5d"),
        dealer("7h"),
        ("PlayerDecision", {"hand": 1, "decision": "double"}),
        bet("d1", "double", 100, hand=1, player_id="p1"),
        hand(1, "Ts"),
        dealer("2c"),
        money("RefundPaid", "m1", 100, "p1"),
        money("RefundPaid", "d1", 100, "p1"),
    ]
    verdict = adjudicate_round(round_of("blackjack", events, min_bet=100))
    assert kinds(verdict) == [("past_posted_bet", BLACKJACK)]
    assert verdict.expected_payouts == {"m1": 100, "d1": 100}
    paid = [*events[:-2], *(money("PayoutMade", b, 200, "p1") for b in ("m1", "d1"))]
    verdict = adjudicate_round(round_of("blackjack", paid, min_bet=100))
    assert kinds(verdict) == [
        ("mispaid_bet", BLACKJACK),
        ("mispaid_bet", BLACKJACK),
        ("past_posted_bet", BLACKJACK),
    ]


# -- chemin de fer -----------------------------------------------------------------------


def chemmy(events: Sequence[tuple[str, dict[str, Any]]]) -> list[dict]:
    return round_of("chemin_de_fer", events, min_bet=100, cagnotte_bps=500)


def test_chemin_de_fer_stake_after_the_first_card_is_withdrawn() -> None:
    # Ponto 9 (natural) against banker 7: the ponto wins. s1 came after the first card.
    events = [
        bet("bank", "bank", 20_000, player_id="banker"),
        bet("s0", "ponto", 5_000),
        *cards(PLAYER_NATURAL[:1]),
        bet("s1", "ponto", 5_000),
        *cards(PLAYER_NATURAL[1:]),
        money("PayoutMade", "s0", 10_000),
        money("PayoutMade", "bank", 15_000, "banker"),
        money("RefundPaid", "s1", 5_000),
    ]
    verdict = adjudicate_round(chemmy(events))
    assert kinds(verdict) == [("past_posted_bet", CHEMIN_DE_FER)]
    assert verdict.expected_payouts == {"bank": 15_000, "s0": 10_000, "s1": 5_000}


def test_a_banco_suivi_may_follow_the_first_cards() -> None:
    # I.51: the lone bancô (the whole bank) declared after the extraction, before the
    # ponto's cards are out, is not past-posting; after the fourth card it is.
    def coup(at: int) -> list[dict]:
        dealt = cards(PLAYER_NATURAL)
        banco = bet("s0", "ponto", 20_000)
        return chemmy(
            [
                bet("bank", "bank", 20_000, player_id="banker"),
                *dealt[:at],
                banco,
                *dealt[at:],
                money("PayoutMade", "s0", 40_000),
            ]
        )

    assert adjudicate_round(coup(2)).findings == ()
    assert kinds(adjudicate_round(coup(4))) == [
        ("mispaid_bet", "PT-217/2007 I.2, I.45"),  # the bank faced no stake: 20,000 back
        ("mispaid_bet", CHEMIN_DE_FER),  # the bancô is withdrawn: its stake back, no win
        ("past_posted_bet", CHEMIN_DE_FER),
    ]


# -- generated rounds --------------------------------------------------------------------


def past_post(events: list[dict], bet_id: str, close: str) -> list[dict]:
    """Move bet ``bet_id`` to just after the first ``close`` event and refund its stake in
    place of whatever was paid on it."""
    placed = next(e for e in events if e["type"] == "BetPlaced" and e["bet_id"] == bet_id)
    rest = [
        e
        for e in events
        if e is not placed
        and not (e["type"] in ("PayoutMade", "CommissionTaken") and e["bet_id"] == bet_id)
    ]
    at = next(i for i, e in enumerate(rest) if e["type"] == close) + 1
    refund = {
        **{k: placed[k] for k in ("round_id", "occurred_at", "bet_id", "player_id", "amount")},
        "type": "RefundPaid",
    }
    moved = [*rest[:at], placed, *rest[at:], refund]
    return [
        {
            **e,
            "sequence": i,
            "event_id": f"{e['round_id']}/{i}",
            "occurred_at": START + timedelta(seconds=i),
        }
        for i, e in enumerate(moved)
    ]


@pytest.mark.parametrize(
    ("game", "close", "citation"),
    [
        ("punto_banco", "CardDealt", PUNTO_BANCO),
        ("roulette", "SpinResult", ROULETTE),
        ("blackjack", "CardDealt", BLACKJACK),
    ],
)
def test_any_generated_bet_moved_past_the_close_is_found(
    game: str, close: str, citation: str
) -> None:
    rng = random.Random(f"past-posting-{game}")
    for index in range(60):
        events = SIMULATORS[game](rng, f"{game}-{index}", START)
        assert adjudicate_round(events).findings == ()
        bets = [e for e in events if e["type"] == "BetPlaced"]
        if game == "blackjack":  # a box with wagers added to it would withdraw them too
            added = {e["hand"] % 10 for e in bets if e["bet_type"] != "main"}  # split: 10 + box
            bets = [e for e in bets if e["bet_type"] == "main" and e["hand"] not in added]
        for placed in bets:
            verdict = adjudicate_round(past_post(events, placed["bet_id"], close))
            assert kinds(verdict) == [("past_posted_bet", citation)], (index, placed["bet_id"])
            assert verdict.expected_payouts[placed["bet_id"]] == placed["amount"]
