"""What the players' cards show of a pair's play (``pipelines.detectors.collusion_cards``),
on hands written by hand: the better hand folded to the river bet, a made hand checked
heads-up, unknown and unreadable cards."""

from __future__ import annotations

from typing import Any

from pipelines.detectors.collusion_cards import (
    FOLDS_AHEAD,
    STRONG_CHECKS,
    card_spots,
    preflop_value,
)

SEATS = [{"seat": 1, "player_id": "ann"}, {"seat": 2, "player_id": "bob"}]


def hand(ann: list[str], bob: list[str], *moves: tuple[Any, ...]) -> list[dict[str, Any]]:
    """Blinds 50/100 (ann the small blind), both hole cards, then (seat, action, amount)
    or ("board", cards) in order."""
    events: list[dict[str, Any]] = [
        {"type": "HandStarted", "variant": "NT", "seats": SEATS},
        {"type": "BlindPosted", "seat": 1, "amount": 50},
        {"type": "BlindPosted", "seat": 2, "amount": 100},
        {"type": "CardsDealt", "target": "hole", "seat": 1, "cards": ann},
        {"type": "CardsDealt", "target": "hole", "seat": 2, "cards": bob},
    ]
    for move in moves:
        if move[0] == "board":
            events.append({"type": "CardsDealt", "target": "board", "cards": move[1]})
        else:
            events.append(
                {"type": "ActionTaken", "seat": move[0], "action": move[1], "amount": move[2]}
            )
    return [{"sequence": i, **e} for i, e in enumerate(events)]


CALLED_DOWN = (
    (1, "call", 50),
    (2, "check", 0),
    ("board", ["2s", "7d", "9h"]),
    (2, "check", 0),
    (1, "check", 0),
    ("board", ["Js"]),
    (2, "check", 0),
    (1, "check", 0),
    ("board", ["3c"]),
    (2, "bet", 200),
    (1, "fold", 0),
)


def test_the_better_hand_folded_to_the_river_bet_and_a_made_hand_checked() -> None:
    """Ann's aces are ahead of Bob's king-queen on every street: she checks them heads-up
    on the flop and the turn (checked to on neither, first to act after Bob's check) and
    folds them to his river bet."""
    spots = card_spots(hand(["Ah", "Ad"], ["Kc", "Qc"], *CALLED_DOWN))
    assert [s for s in spots if s[2] == FOLDS_AHEAD] == [(1, 2, FOLDS_AHEAD, True)]
    assert [s for s in spots if s[2] == STRONG_CHECKS] == [
        (1, 2, STRONG_CHECKS, False),
        (1, 2, STRONG_CHECKS, False),
    ]


def test_the_worse_hand_folded_and_high_card_checked_are_no_spots() -> None:
    """With the cards the other way round Ann folds the worse hand and holds no pair: no
    spot of hers; Bob, first to act, checked his aces on the flop and the turn and bet
    them on the river."""
    spots = card_spots(hand(["Kc", "Qc"], ["Ah", "Ad"], *CALLED_DOWN))
    assert spots == [
        (2, 1, STRONG_CHECKS, False),
        (2, 1, STRONG_CHECKS, False),
        (2, 1, STRONG_CHECKS, True),
    ]


def test_unknown_and_unreadable_cards_make_no_spot() -> None:
    """A seat whose cards a hand history hides (``??``) takes part in no spot; a hand whose
    cards cannot be read (a card twice) gives none, without an error; nor does a hand of
    another game than hold'em."""
    assert card_spots(hand(["??", "??"], ["Kc", "Qc"], *CALLED_DOWN)) == []
    twice = hand(["Ah", "Ad"], ["Ah", "Qc"], *CALLED_DOWN)
    assert card_spots(twice) == []
    omaha = hand(["Ah", "Ad"], ["Kc", "Qc"], *CALLED_DOWN)
    omaha[0]["variant"] = "PO"
    assert card_spots(omaha) == []


def test_before_the_flop_a_pair_is_ahead_of_two_higher_cards() -> None:
    assert preflop_value(["2c", "2d"]) > preflop_value(["As", "Kd"])
    assert preflop_value(["As", "Kd"]) > preflop_value(["As", "Qd"]) > preflop_value(["Ks", "Qd"])
