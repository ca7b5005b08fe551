"""Tournament cancellation refunds (GG-2022 Política de reembolso), worked examples."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

from replayer.refunds import totals
from replayer.tournaments import (
    CancellationPolicy,
    Case,
    FeeRefund,
    Remainder,
    cancellation_refunds,
    shares,
    state_before,
)

T0 = datetime(2025, 3, 1, 12, tzinfo=UTC)


class Tournament:
    """Hand-built tournament events, one minute apart."""

    def __init__(self, *, buy_in=1_000, fee=100, bounty=0, guarantee=0, payouts=(), chips=5_000):
        self.events: list[dict[str, Any]] = []
        self.add(
            "TournamentAnnounced",
            rulebook=None,
            name="t",
            currency="USD",
            buy_in=buy_in,
            fee=fee,
            bounty=bounty,
            guarantee=guarantee,
            starting_chips=chips,
            payouts=list(payouts),
            scheduled_start=T0,
        )
        self.price = (buy_in, fee, bounty)

    def add(self, record_type: str, /, **body: Any) -> Tournament:
        n = len(self.events)
        self.events.append(
            {
                "event_id": f"t#{n}",
                "tournament_id": "t",
                "sequence": n,
                "occurred_at": T0 + timedelta(minutes=n),
                "type": record_type,
                **body,
            }
        )
        return self

    def register(self, player: str, entry: str, stakes=()) -> Tournament:
        buy_in, fee, bounty = self.price
        return self.add(
            "PlayerRegistered",
            player_id=player,
            entry_id=entry,
            buy_in=buy_in,
            fee=fee,
            bounty=bounty,
            paid_with="cash",
            stakes=[{"backer_id": b, "share_bps": s} for b, s in stakes],
        )

    def out(self, player: str, place: int) -> Tournament:
        return self.add(
            "PlayerEliminated",
            player_id=player,
            place=place,
            hand_id=None,
            chips_at_hand_start=None,
            seat_from_button=None,
        )

    def chips(self, **counts: int) -> Tournament:
        return self.add(
            "ChipCountRecorded",
            hand_id=None,
            counts=[
                {"player_id": p, "chips": c, "seat_from_button": None} for p, c in counts.items()
            ],
        )

    @property
    def failure(self) -> datetime:
        return T0 + timedelta(minutes=len(self.events))


def _components(cancellation) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for line in cancellation.refunds:
        parts = out.setdefault(line.player_id, {})
        parts[line.component] = parts.get(line.component, 0) + line.amount
    return out


def test_not_started_every_buy_in_and_fee_back_stakers_in_proportion():
    t = Tournament(buy_in=92, fee=8)  # GG-2022: 1.00 = 0.92 + 0.08
    t.register("ana", "e1").register("rui", "e2", stakes=[("bk", 5_000)])
    done = cancellation_refunds(state_before(t.events, t.failure))
    assert done.case is Case.NOT_STARTED
    assert done.citation == "GG-2022 Política de reembolso, torneios (1) não começado"
    assert _components(done) == {
        "ana": {"buy_in": 92, "fee": 8},
        "bk": {"buy_in": 46, "fee": 4},
        "rui": {"buy_in": 46, "fee": 4},
    }
    assert {r.citation for r in done.refunds if r.player_id == "bk"} == {
        "GG-2022 Política de reembolso, torneios (1) não começado; "
        "GG-2022 Política de reembolso (staking)"
    }


def _late_registration() -> Tournament:
    """Six entries (E re-entered), D and E busted, cancelled during late registration."""
    t = Tournament(guarantee=10_000, payouts=(3_000, 2_000, 1_000))
    for player in "ABCDE":
        t.register(player, f"e-{player}", stakes=[("bk", 2_500)] if player == "B" else ())
    t.add("TournamentStarted", late_registration_until=T0 + timedelta(hours=3))
    t.out("D", 5).out("E", 4).register("E", "e-E2")
    return t.chips(A=12_000, B=9_000, C=6_000, E=3_000)


def test_started_not_in_the_money_guarantee_not_met_pays_only_what_was_collected():
    t = _late_registration()
    state = state_before(t.events, t.failure)
    assert state.remaining == ("A", "B", "C", "E") and state.collected == 6_000
    done = cancellation_refunds(state)
    assert done.case is Case.NOT_IN_THE_MONEY
    assert done.prize_pool == 6_000 and done.guarantee_met is False
    # 50% equally: 3000 / 4 = 750; 50% by chips: 3000 x chips / 30000; fee back
    assert _components(done) == {
        "A": {"fee": 100, "prize_pool_equal": 750, "prize_pool_chips": 1_200},
        "bk": {"fee": 25, "prize_pool_equal": 187, "prize_pool_chips": 225},
        "B": {"fee": 75, "prize_pool_equal": 563, "prize_pool_chips": 675},
        "C": {"fee": 100, "prize_pool_equal": 750, "prize_pool_chips": 600},
        "E": {"fee": 100, "prize_pool_equal": 750, "prize_pool_chips": 300},
    }
    assert sum(r.amount for r in done.refunds) == 6_000 + 4 * 100
    every = cancellation_refunds(state, CancellationPolicy(fee_refund=FeeRefund.EVERY_ENTRY))
    assert totals(every.refunds)["E"] == totals(done.refunds)["E"] + 100


def test_state_is_taken_immediately_before_the_failure():
    t = _late_registration()
    failure = t.failure
    t.out("C", 4).add("TournamentCancelled", reason="server failure", incident_id="i")
    assert state_before(t.events, failure).remaining == ("A", "B", "C", "E")
    assert state_before(t.events).remaining == ("A", "B", "E")


def test_current_bounty_back_before_the_money_own_bounty_only_in_the_money():
    t = Tournament(bounty=200, payouts=(5_000, 3_000, 2_000, 1_000), chips=25_000)
    for player in "ABCD":
        t.register(player, f"e-{player}")
    t.add("TournamentStarted", late_registration_until=None)
    t.out("D", 4).add("BountyAwarded", player_id="A", eliminated_player_id="D", amount=200)
    t.add("PrizePaid", player_id="D", place=4, amount=1_000, kind="cash")
    t.chips(A=50_000, B=30_000, C=20_000)
    done = cancellation_refunds(state_before(t.events, t.failure))
    assert done.case is Case.IN_THE_MONEY
    assert done.citation == "GG-2022 Política de reembolso, torneios (3) lugares pagos"
    # next prize (3rd: 2000) to each; the rest of 5000+3000+2000 = 10000 - 6000 by chips
    assert _components(done) == {
        "A": {"fee": 100, "bounty": 200, "next_payout": 2_000, "prize_pool_chips": 2_000},
        "B": {"fee": 100, "bounty": 200, "next_payout": 2_000, "prize_pool_chips": 1_200},
        "C": {"fee": 100, "bounty": 200, "next_payout": 2_000, "prize_pool_chips": 800},
    }
    bubble = Tournament(bounty=200, payouts=(5_000, 3_000, 2_000, 1_000), chips=25_000)
    for player in "ABCDEF":
        bubble.register(player, f"e-{player}")
    bubble.add("TournamentStarted", late_registration_until=None).out("F", 6)
    bubble.add("BountyAwarded", player_id="A", eliminated_player_id="F", amount=200)
    bubble.chips(A=50_000, B=30_000, C=20_000, D=25_000, E=25_000)
    before = cancellation_refunds(state_before(bubble.events, bubble.failure))
    assert before.case is Case.NOT_IN_THE_MONEY
    assert _components(before)["A"]["bounty"] == 400  # his own 200 + the 200 collected


def test_fractions_of_a_cent_are_dropped_or_allocated_by_the_named_choice():
    assert shares(Fraction(4_096, 10), [1], Remainder.DROP) == [409]  # $4.096 -> $4.09
    assert shares(10, [1, 1, 1], Remainder.DROP) == [3, 3, 3]
    assert shares(10, [1, 1, 1], Remainder.LARGEST_FRACTION) == [4, 3, 3]
    assert shares(Fraction(3_001, 2), [3, 1], Remainder.LARGEST_FRACTION) == [1_125, 375]
    t = Tournament(buy_in=1_001, payouts=(700,))  # pool 3003: halves of 1501.5
    for player in "ABC":
        t.register(player, f"e-{player}")
    t.add("TournamentStarted", late_registration_until=None).chips(A=5_000, B=5_000, C=5_000)
    dropped = cancellation_refunds(state_before(t.events, t.failure))
    paid = cancellation_refunds(
        state_before(t.events, t.failure), CancellationPolicy(remainder=Remainder.LARGEST_FRACTION)
    )
    prize = ("prize_pool_equal", "prize_pool_chips")
    assert sum(r.amount for r in dropped.refunds if r.component in prize) == 3_000
    # each half is paid out to the unit it holds (1501), the half unit of each is dropped
    assert sum(r.amount for r in paid.refunds if r.component in prize) == 3_002
