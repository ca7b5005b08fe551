"""Laws (hypothesis): after the refunds the rules require, every player's balance is the
balance before the interrupted play (cash), or the policy's figure (tournaments), to the
minor unit; and any other refund shows up as exactly the amount owed either way."""

from __future__ import annotations

import random
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from audit.incidents.compare import judge_hand
from audit.incidents.record import RecordedIncident
from replayer.refunds import totals
from replayer.tournaments import CancellationPolicy, Remainder, cancellation_refunds, state_before
from tests.poker_sim import EPOCH, simulate
from tests.replayer.tournaments.test_tournament_cancellation import Tournament

INCIDENT = RecordedIncident(
    "inc", "server_failure", EPOCH, EPOCH + timedelta(hours=1), ("sim",), (), (), (), "", "", ()
)
_END = ("RakeTaken", "PotAwarded", "HandEnded", "DeckRevealed")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1), errors=st.lists(st.integers(-50, 50)))
def test_reverting_a_cut_hand_restores_every_stack(seed, cut, errors):
    hand = simulate(random.Random(seed), "NT", rulebook="gg-2022-cash-holdem")
    play = [e for e in hand.events if e["type"] not in _END]
    kept = play[: 1 + int(cut * (len(play) - 1))]
    start = kept[0]
    put: dict[int, int] = {}
    for event in kept:
        if event["type"] in ("BlindPosted", "ActionTaken"):
            put[event["seat"]] = put.get(event["seat"], 0) + event["amount"]
    seats = [s["seat"] for s in start["seats"]]
    refund = {
        seat: max(0, put.get(seat, 0) + (errors[i] if i < len(errors) else 0))
        for i, seat in enumerate(seats)
    }
    at = kept[-1]["occurred_at"]
    tail = [("HandReverted", {"reason": "server failure", "incident_id": "inc"})]
    tail += [
        ("PotAwarded", {"seat": s, "amount": c, "pot_index": None}) for s, c in refund.items() if c
    ]
    finishing = [s["stack"] - put.get(s["seat"], 0) + refund[s["seat"]] for s in start["seats"]]
    tail.append(("HandEnded", {"finishing_stacks": finishing}))
    events = kept + [
        {
            "event_id": f"x{n}",
            "hand_id": start["hand_id"],
            "sequence": len(kept) + n,
            "occurred_at": at,
            "type": kind,
            **body,
        }
        for n, (kind, body) in enumerate(tail)
    ]
    result = judge_hand(INCIDENT, start["hand_id"], events)
    owed = {f.detail["player_id"]: f.detail["owed_to_player"] for f in result.findings}
    for seat_info, after in zip(start["seats"], finishing, strict=True):
        before = seat_info["stack"]
        assert owed.get(seat_info["player_id"], 0) == before - after


@st.composite
def tournaments(draw):
    paid = draw(st.integers(1, 6))
    payouts = sorted(
        draw(st.lists(st.integers(1, 5_000), min_size=paid, max_size=paid)), reverse=True
    )
    t = Tournament(
        buy_in=draw(st.integers(1, 10_000)),
        fee=draw(st.integers(0, 1_000)),
        bounty=draw(st.integers(0, 500)),
        guarantee=draw(st.integers(0, 100_000)),
        payouts=payouts,
    )
    players = [f"p{n}" for n in range(draw(st.integers(2, 12)))]
    for player in players:
        t.register(player, f"e-{player}")
    t.add("TournamentStarted", late_registration_until=None)
    busted = draw(st.integers(0, len(players) - 1))
    for place, player in enumerate(players[:busted]):
        t.out(player, len(players) - place)
    remaining = players[busted:]
    t.chips(**{p: draw(st.integers(1, 10**6)) for p in remaining})
    return t, remaining


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_cancellation_pays_each_remaining_player_the_policy_figure(case):
    t, remaining = case
    state = state_before(t.events, t.failure)
    done = cancellation_refunds(state)
    total = sum(state.chips[p] for p in remaining)
    n = len(remaining)
    owed = totals(done.refunds)
    for player in remaining:
        chips = state.chips[player]
        entry = state.current_entry[player]
        if not state.in_the_money:  # GG-2022 (2): integer arithmetic, independently
            pool = state.collected
            figure = entry.fee + entry.bounty + pool // (2 * n) + pool * chips // (2 * total)
        else:  # GG-2022 (3)
            unpaid = state.payouts[:n]
            rest = sum(unpaid) - n * unpaid[-1]
            figure = entry.fee + entry.bounty + unpaid[-1] + rest * chips // total
        assert owed.get(player, 0) == figure
    exact = cancellation_refunds(state, CancellationPolicy(remainder=Remainder.LARGEST_FRACTION))
    prizes = ("prize_pool_equal", "prize_pool_chips", "next_payout")
    paid_out = sum(r.amount for r in exact.refunds if r.component in prizes)
    pool = state.collected if not state.in_the_money else sum(state.payouts[:n])
    assert pool - 1 <= paid_out <= pool  # only the half unit of an odd pool is lost
