"""Required refunds after a failure, worked examples from the rules (replayer.refunds)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from replayer.refunds import (
    PENDING_BET_HOLD,
    hand_at_failure,
    hand_closed_at,
    live_round_at_failure,
    rng_round_at_failure,
    round_closed_at,
    totals,
)
from tests.poker_sim import HandBuilder

AT = datetime(2025, 3, 1, 14, tzinfo=UTC)


def _cut_hand(rulebook: str = "gg-2022-cash-holdem", variant: str = "NT") -> HandBuilder:
    """Seat 1 raised to 30 pre-flop, seat 2 is in for the big blind, then the failure."""
    hand = HandBuilder(
        rulebook=rulebook,
        variant=variant,
        stacks={1: 1_000, 2: 800, 3: 500},
        blinds=(5, 10),
        at=AT,
        button=3,
    )
    hand.post(1, "small_blind", 5).post(2, "big_blind", 10)
    cards = "Ah Ad Kh Kd Qh Qd" if variant == "NT" else "Ah Ad 2c 3c Kh Kd 4c 5c Qh Qd 6c 7c"
    per = 2 if variant == "NT" else 4
    split = cards.split()
    for seat in (1, 2, 3):
        hand.hole(seat, " ".join(split[(seat - 1) * per : seat * per]))
    return hand.act(3, "fold").act(1, "raise", 25)


def test_gg_cash_hand_reverted_stacks_back_to_the_start_of_the_hand():
    hand = _cut_hand().revert().award(1, 30).award(2, 10).end([1_000, 800, 500])
    judged = hand_at_failure(hand.events)
    assert judged.stacks_at_start == {"p1": 1_000, "p2": 800, "p3": 500}
    assert judged.contributions == {"p1": 30, "p2": 10, "p3": 0}
    assert judged.step is not None and judged.step.text == "seat 1 raise 25"
    assert judged.step.pot == 40 and judged.step.to_act == 2
    assert totals(judged.refunds) == {"p1": 30, "p2": 10}
    assert {r.citation for r in judged.refunds} == {"GG-2022 Política de reembolso"}
    assert judged.recorded_returns == {"p1": 30, "p2": 10, "p3": 0}
    assert judged.outcome == "HandReverted"
    assert hand_closed_at(hand.events) == hand.events[-4]["occurred_at"]


@pytest.mark.parametrize(
    ("rulebook", "variant", "citation"),
    [
        ("mo-97-2010-omaha", "PO", "MO-97/2010 art.9(2)"),
        ("pt-217-2007-holdem", "NT", "PT-217/2007 n.º 69"),
    ],
)
def test_land_based_void_hand_returns_every_bet(rulebook, variant, citation):
    hand = _cut_hand(rulebook, variant)
    judged = hand_at_failure(hand.events)
    assert totals(judged.refunds) == {"p1": 30, "p2": 10}
    assert judged.citation == citation
    assert judged.outcome is None and judged.recorded_returns == {}
    assert hand_closed_at(hand.events) is None


def _round(game: str, table: str = "rou-1") -> list[dict]:
    events = []

    def emit(kind: str, **body) -> None:
        n = len(events)
        events.append(
            {
                "event_id": f"r/{n}",
                "round_id": "r",
                "sequence": n,
                "occurred_at": AT - timedelta(seconds=5) + timedelta(seconds=n),
                "type": kind,
                **body,
            }
        )

    emit(
        "RoundOpened",
        rulebook=None,
        table_id=table,
        game=game,
        currency="EUR",
        shoe_id=None,
        min_bet=100,
        max_bet=None,
        commission_bps=None,
        cagnotte_bps=None,
        source=None,
    )
    emit(
        "BetPlaced",
        bet_id="b1",
        player_id="ana",
        bet_type="red",
        numbers=[],
        hand=None,
        amount=500,
        after_no_more_bets=False,
    )
    emit(
        "BetPlaced",
        bet_id="b2",
        player_id="ana",
        bet_type="black",
        numbers=[],
        hand=None,
        amount=300,
        after_no_more_bets=False,
    )
    emit(
        "BetPlaced",
        bet_id="b3",
        player_id="rui",
        bet_type="red",
        numbers=[],
        hand=None,
        amount=1_000,
        after_no_more_bets=False,
    )
    return events


def _add(events: list[dict], kind: str, at: datetime, **body) -> list[dict]:
    n = len(events)
    return [
        *events,
        {
            "event_id": f"r/{n}",
            "round_id": "r",
            "sequence": n,
            "occurred_at": at,
            "type": kind,
            **body,
        },
    ]


def test_live_malfunction_voids_the_round_and_returns_every_bet():
    events = _add(_round("roulette"), "RoundMalfunction", AT, reason="wheel sensor")
    events = _add(events, "RefundPaid", AT, bet_id="b1", player_id="ana", amount=500)
    judged = live_round_at_failure(events)
    assert judged.status == "void"
    assert judged.citation == "GG-2022 live IV 2.1.6"
    assert totals(judged.refunds) == {"ana": 800, "rui": 1_000}
    assert judged.recorded == {"ana": 500, "rui": 0}
    assert round_closed_at(events) == AT
    assert round_closed_at(_round("roulette")) is None  # no spin: undecided, still open


def test_rng_bet_is_kept_24_hours_then_cancelled_and_refunded():
    events = _round("rng", "rng-1")
    pending = rng_round_at_failure(events, AT, AT + timedelta(hours=23))
    assert pending.status == "pending" and pending.refunds == () and pending.recorded is None
    assert pending.due_at == AT + PENDING_BET_HOLD == AT + timedelta(hours=24)
    cancelled = rng_round_at_failure(events, AT, AT + timedelta(hours=24))
    assert cancelled.status == "cancelled" and cancelled.citation == "GG-2022 casino 2"
    assert totals(cancelled.refunds) == {"ana": 800, "rui": 1_000}
    assert cancelled.recorded == {"ana": 0, "rui": 0}
    shorter = rng_round_at_failure(events, AT, AT + timedelta(hours=2), hold=timedelta(hours=1))
    assert shorter.status == "cancelled"


def test_rng_game_resumed_within_the_hold_owes_no_refund():
    events = _round("rng", "rng-1")
    for bet, player, paid in (("b1", "ana", 1_000), ("b2", "ana", 0), ("b3", "rui", 0)):
        events = _add(
            events, "PayoutMade", AT + timedelta(hours=3), bet_id=bet, player_id=player, amount=paid
        )
    resumed = rng_round_at_failure(events, AT, AT + timedelta(days=3))
    assert resumed.status == "resumed" and resumed.refunds == ()
    assert resumed.recorded == {}
    late = rng_round_at_failure(events, AT - timedelta(hours=22), AT + timedelta(days=3))
    assert late.status == "cancelled"  # completed 25 h after the disconnection: too late
    assert late.recorded == {"ana": 1_000, "rui": 0}
