"""What an evidence hand shows between the suspected players, in words
(``audit.show.collusion_hands.moves_between``), on hands written by hand."""

from __future__ import annotations

from typing import Any

from audit.show.collusion_hands import moves_between

SEATS = [{"seat": s, "player_id": p} for s, p in ((1, "ann"), (2, "bob"), (3, "cy"))]


def hand(*moves: tuple[Any, ...]) -> list[dict[str, Any]]:
    """HandStarted, then (seat, action) or ("board",) in order."""
    events: list[dict[str, Any]] = [{"type": "HandStarted", "sequence": 0, "seats": SEATS}]
    for move in moves:
        body: dict[str, Any] = (
            {"type": "CardsDealt", "target": "board"}
            if move == ("board",)
            else {"type": "ActionTaken", "seat": move[0], "action": move[1]}
        )
        events.append({"sequence": len(events), **body})
    return events


def test_a_fold_to_the_partner_and_a_squeeze_are_said() -> None:
    events = hand((1, "raise"), (2, "raise"), (3, "call"), (1, "fold"))
    assert moves_between(events, ["ann", "bob"]) == [
        "bob re-raised ann with a third player in",
        "ann folded to bob's bet",
    ]
    assert moves_between(events, ["ann", "cy"]) == []


def test_a_checked_down_heads_up_pot_and_a_bet_heads_up_are_told_apart() -> None:
    quiet = hand((3, "fold"), (1, "call"), (2, "check"), ("board",), (1, "check"), (2, "check"))
    assert moves_between(quiet, ["ann", "bob"]) == [
        "heads-up after the flop, neither bet: checked down"
    ]
    betting = hand((3, "fold"), (1, "call"), (2, "check"), ("board",), (1, "bet"), (2, "call"))
    assert moves_between(betting, ["bob", "ann"]) == ["heads-up after the flop, ann bet"]
    assert moves_between(betting, ["ann", "cy"]) == []


def test_the_better_hand_folded_on_the_river_is_said_with_both_hands() -> None:
    cards = [
        {"type": "CardsDealt", "target": "hole", "seat": 1, "cards": ["Ah", "Ad"]},
        {"type": "CardsDealt", "target": "hole", "seat": 2, "cards": ["Kc", "Qc"]},
    ]
    events = hand((3, "fold"), (1, "call"), (2, "check"), ("board",), (2, "bet"), (1, "fold"))
    events[1:1] = cards
    for i, event in enumerate(events):
        event["sequence"] = i
        if event.get("target") == "board":
            event["cards"] = ["2s", "7d", "9h", "Js", "3c"]  # the whole board at once
    assert moves_between(events, ["ann", "bob"]) == [
        "ann folded to bob's bet, holding the better hand (pair of aces, kickers "
        "jack-nine-seven against high card, king-queen-jack-nine-seven)",
        "heads-up after the flop, bob bet",
    ]
