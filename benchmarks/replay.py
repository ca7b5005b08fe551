"""Replay speed: ``adjudicate_hand`` vs PokerKit's state machine on the same hands.

Usage: ``.venv/bin/python benchmarks/replay.py [HANDS_PER_VARIANT] [SEED]``

Hands are random legal hands played by PokerKit (``tests/poker_sim.py``, seeded). The
PokerKit figure replays each hand's events through ``NoLimitTexasHoldem`` /
``PotLimitOmahaHoldem`` (state creation, dealing the recorded cards, applying the
recorded actions, automatic showdown and chip pushing): the same work the replayer does.
Single process, one core; the evaluator's tables are built before timing, and the loaded
hands are moved out of the garbage collector's sight (``gc.freeze``) so that collections
do not rescan the whole input for both contestants alike.
"""

from __future__ import annotations

import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerkit import Automation, NoLimitTexasHoldem, PotLimitOmahaHoldem

from replayer.compiled import build_description
from replayer.poker import adjudicate_hand
from tests.poker_sim import simulate

CASES = (
    ("NT", "gg-2022-cash-holdem", NoLimitTexasHoldem),
    ("PO", "mo-97-2010-omaha", PotLimitOmahaHoldem),
)
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def pokerkit_replay(game, events) -> list[int]:
    """Final stacks of the hand according to PokerKit, from our events."""
    start = events[0]
    listed = sorted(start["seats"], key=lambda s: s["seat"])
    button = start["button"]
    order = [s for s in listed if s["seat"] > button] + [s for s in listed if s["seat"] <= button]
    index = {s["seat"]: i for i, s in enumerate(order)}
    state = game.create_state(
        AUTOMATIONS,
        True,
        0,
        (start["small_blind"], start["big_blind"]),
        start["big_blind"],
        tuple(s["stack"] for s in order),
        len(order),
    )
    for event in events[1:]:
        kind = event["type"]
        if kind == "CardsDealt":
            cards = "".join(event["cards"])
            if event["target"] == "hole":
                state.deal_hole(cards)
            elif event["target"] == "burn":
                state.burn_card(cards)
            else:
                state.deal_board(cards)
        elif kind == "ActionTaken":
            action = event["action"]
            if action == "fold":
                state.fold()
            elif action in ("check", "call"):
                state.check_or_call()
            else:
                player = index[event["seat"]]
                state.complete_bet_or_raise_to(state.bets[player] + event["amount"])
    return list(state.stacks)


def main(count: int = 2000, seed: int = 1) -> None:
    print(f"replayer {build_description()}")
    for variant, book, game in CASES:
        rng = random.Random(seed)
        hands = [simulate(rng, variant, rulebook=book, hand_number=i).events for i in range(count)]
        for events in hands[:200]:  # warm up: evaluator tables, caches
            adjudicate_hand(events)
        gc.collect()
        gc.freeze()
        began = time.perf_counter()
        for events in hands:
            pokerkit_replay(game, events)
        pokerkit = count / (time.perf_counter() - began)
        rates = []
        for with_steps in (True, False):
            began = time.perf_counter()
            for events in hands:
                adjudicate_hand(events, with_steps=with_steps)
            rates.append(count / (time.perf_counter() - began))
        print(
            f"{variant} {book}: {count} hands; PokerKit {pokerkit:,.0f} hands/s; "
            f"replayer {rates[0]:,.0f} hands/s with steps ({rates[0] / pokerkit:.0f}x), "
            f"{rates[1]:,.0f} without ({rates[1] / pokerkit:.0f}x)"
        )


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
