"""What the players' cards show of a pair's play towards each other: the collusion
detector's card spots (``pipelines.detectors.collusion``, its features
``pipelines.detectors.collusion_features``).

A room's server deals every hole card and records it (``CardsDealt`` to a seat); a
security team reads a decision beside the cards of everybody still in the hand, which no
player at the table could. Two things integrity teams look for there (the methods as
rooms' fair-play pages and Mazrooei, Archibald and Bowling, AAAI 2013, section 2, describe
them):

``folds_ahead`` folding the better hand to the partner's river bet (chip dumping)
    On the river, facing a bet of the player who made it, holding the better hand of the
    two: folded or not (a dumper calls his partner down and gives the pot up there).
``strong_checks`` not betting a made hand against the partner (soft play)
    After the flop with only the two left, checked to or first to act, holding a pair or
    better and the better hand: bet, or checked.

"Ahead" compares the hands as they stand: after the flop their best five cards
(``replayer.poker.evaluator.best_any``, MO-97/2010 art.15); before it, a pair beats no
pair, then the higher pair or the higher cards (a proxy of the all-in favourite, named in
``preflop_value``). Equal hands are no spot. A seat whose cards are not known (``??`` in
a hand history) takes part in none; only hold'em hands are read (``HOLDEM``).
"""

from __future__ import annotations

from collections.abc import Sequence

from replayer.events import FlatEvent
from replayer.poker.evaluator import best_any, category
from replayer.rulebooks.poker import VARIANTS, Game

#: The variants read: hold'em (two hole cards, the best five of seven, the standard order).
HOLDEM = frozenset(code for code, (_, game) in VARIANTS.items() if game is Game.HOLDEM)
_RANKS = {r: i + 2 for i, r in enumerate("23456789TJQKA")}
FOLDS_AHEAD, STRONG_CHECKS = "folds_ahead", "strong_checks"
SPOTS = (FOLDS_AHEAD, STRONG_CHECKS)
#: A spot's weight among a pair's evidence hands (by what was done: (not, done)): the
#: better hand folded to the partner's river bet weighs like a squeeze, a made hand
#: checked to the partner like a checked-down pot.
EVIDENCE = {FOLDS_AHEAD: (0.0, 3.0), STRONG_CHECKS: (1.0, 0.0)}
Spot = tuple[int, int, str, bool]
"""(decider's seat, the other player's seat, the spot, what it counts: for ``folds_ahead``
a fold, for ``strong_checks`` a bet)."""


def preflop_value(hole: Sequence[str]) -> int:
    """Two hole cards' order before the flop: any pair above any unpaired hand, then the
    pair's rank, or the high card and then the low card."""
    high, low = sorted((_RANKS[c[0]] for c in hole), reverse=True)
    return 1_000 + high if high == low else high * 15 + low


def card_spots(ordered: Sequence[FlatEvent]) -> list[Spot]:
    """The hand's spots (the module docstring), from its events in sequence order; none
    when a card cannot be read (the hand's other evidence still counts)."""
    try:
        return _spots(ordered)
    except ValueError:  # a malformed or duplicate card: the replay reports it
        return []


def _spots(ordered: Sequence[FlatEvent]) -> list[Spot]:
    holes: dict[int, list[str]] = {}
    board: list[str] = []
    street: dict[int, int] = {}
    live: set[int] = set()
    aggressor: int | None = None
    values: dict[int, int] = {}
    seen: set[str] = set()
    spots: list[Spot] = []
    for event in ordered:
        kind = event["type"]
        if kind == "HandStarted":
            if event.get("variant") not in HOLDEM:
                return []
            live = {s["seat"] for s in event["seats"]}
        elif kind == "CardsDealt" and event["target"] == "hole":
            cards = list(event["cards"] or ())
            if len(cards) == 2 and all(len(c) == 2 and c[0] in _RANKS for c in cards):
                holes[event["seat"]] = _unseen(cards, seen)
        elif kind == "CardsDealt" and event["target"] == "board":
            board.extend(_unseen(event["cards"], seen))
            street, aggressor, values = {}, None, {}
        elif kind == "BlindPosted":
            street[event["seat"]] = street.get(event["seat"], 0) + event["amount"]
        elif kind == "ActionTaken" and event["seat"] in live:
            seat, action = event["seat"], event["action"]
            to_call = max(street.values(), default=0) - street.get(seat, 0)
            if seat in holes:
                facing = (to_call, aggressor)
                spots.extend(_decision(seat, action, facing, live, holes, board, values))
            street[seat] = street.get(seat, 0) + event["amount"]
            if action == "fold":
                live.discard(seat)
            elif action in ("bet", "raise"):
                aggressor = seat
    return spots


def _unseen(cards: Sequence[str], seen: set[str]) -> list[str]:
    """``cards``, added to those ``seen``; ``ValueError`` if one was dealt already."""
    for card in cards:
        if card in seen:
            raise ValueError(f"card {card} dealt twice")
        seen.add(card)
    return list(cards)


def _decision(
    seat: int,
    action: str,
    facing: tuple[int, int | None],
    live: set[int],
    holes: dict[int, list[str]],
    board: list[str],
    values: dict[int, int],
) -> list[Spot]:
    to_call, aggressor = facing
    mine = _value(seat, holes, board, values)
    folded = action == "fold"
    out: list[Spot] = []
    for other in sorted(live - {seat}):
        if other not in holes:
            continue
        theirs = _value(other, holes, board, values)
        if theirs == mine:
            continue
        ahead = mine > theirs
        if not board or not ahead:
            continue
        if to_call > 0 and aggressor == other and len(board) == 5:
            out.append((seat, other, FOLDS_AHEAD, folded))
        if len(live) == 2 and to_call == 0 and category(mine) != "high_card":
            out.append((seat, other, STRONG_CHECKS, action == "bet"))
    return out


def _value(seat: int, holes: dict[int, list[str]], board: list[str], values: dict[int, int]) -> int:
    """The seat's hand value on this street (kept in ``values`` until the next card)."""
    value = values.get(seat)
    if value is None:
        hole = holes[seat]
        value = values[seat] = best_any(hole, board) if board else preflop_value(hole)
    return value
