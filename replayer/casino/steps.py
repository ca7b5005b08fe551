"""The step-by-step view of a round: each event with the table's state after it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from replayer.casino.cards import check_card
from replayer.casino.record import VOID_TYPES
from replayer.casino.verdict import RoundStep
from replayer.events import FlatEvent
from replayer.findings import Finding

_MONEY = {
    "BetPlaced": "staked",
    "PayoutMade": "paid",
    "RefundPaid": "refunded",
    "CommissionTaken": "commission",
    "CagnotteTaken": "cagnotte",
}


def build_steps(
    events: Sequence[FlatEvent],
    hand_total: Callable[[Sequence[str]], int] | None,
    findings: Sequence[Finding],
) -> tuple[RoundStep, ...]:
    """Fold the events into states; attach each finding that names an event's sequence."""
    state: dict[str, Any] = {
        "status": "open",
        "cards": {},
        "totals": {},
        "pocket": None,
        **{total: 0 for total in _MONEY.values()},
    }
    steps = []
    for event in events:
        state = _apply(state, event, hand_total)
        raised = tuple(f for f in findings if f.detail.get("sequence") == event["sequence"])
        steps.append(RoundStep(event["sequence"], event, state, raised))
    return tuple(steps)


def _apply(
    state: dict[str, Any], event: FlatEvent, hand_total: Callable[[Sequence[str]], int] | None
) -> dict[str, Any]:
    after = {**state, "cards": dict(state["cards"]), "totals": dict(state["totals"])}
    kind = event["type"]
    if kind in _MONEY:
        after[_MONEY[kind]] += event["amount"]
    elif kind in VOID_TYPES:
        after["status"] = "void"
    elif kind == "SpinResult":
        after["pocket"] = event["pocket"]
    elif kind == "PlayerDecision" and event["decision"] == "split" and event.get("new_hand"):
        cards = after["cards"].get(f"hand {event['hand']}", [])
        for number, hand in ((event["hand"], cards[:1]), (event["new_hand"], cards[1:2])):
            after["cards"][f"hand {number}"] = hand
            if hand_total is not None and _all_cards(hand):
                after["totals"][f"hand {number}"] = hand_total(hand)
    elif kind == "CardDealt":
        label = f"hand {event['hand']}" if event["to"] == "hand" else event["to"]
        cards = [*after["cards"].get(label, []), event["card"]]
        after["cards"][label] = cards
        if hand_total is not None and _all_cards(cards):
            after["totals"][label] = hand_total(cards)
    return after


def _all_cards(cards: Sequence[str]) -> bool:
    try:
        for card in cards:
            check_card(card)
    except ValueError:
        return False
    return True
