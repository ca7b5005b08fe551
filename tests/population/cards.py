"""Hand strength as players are taught to judge it, without simulation.

Preflop: Bill Chen's formula ("The Mathematics of Poker", 2006): points for the highest
card, halved pairs, suited bonus, gap penalties. Postflop: the made hand's class
(PokerKit's evaluator), lifted for a pair that uses a hole card at or above the board's
top card (top pair or an overpair) and lowered when the board alone makes the hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerkit import Card, StandardHighHand

_HIGH = {14: 10.0, 13: 8.0, 12: 7.0, 11: 6.0}
#: Strength of a made hand by PokerKit's class label.
_CLASS = {
    "High card": 0.12,
    "One pair": 0.42,
    "Two pair": 0.68,
    "Three of a kind": 0.8,
    "Straight": 0.86,
    "Flush": 0.9,
    "Full house": 0.95,
    "Four of a kind": 0.99,
    "Straight flush": 1.0,
}
_RANKS = {r: i + 2 for i, r in enumerate("23456789TJQKA")}


def rank(card: Card) -> int:
    return _RANKS[card.rank.value]


def chen(hole: Sequence[Card]) -> float:
    """Chen points of two hole cards (-1 .. 20)."""
    a, b = sorted((rank(c) for c in hole), reverse=True)
    score = _HIGH.get(a, a / 2)
    if a == b:
        return max(score * 2, 5.0)
    if hole[0].suit == hole[1].suit:
        score += 2
    gap = a - b - 1
    score -= {0: 0, 1: 1, 2: 2, 3: 4}.get(gap, 5)
    if gap <= 1 and a < 12:
        score += 1
    return score


def preflop_strength(hole: Sequence[Card]) -> float:
    """Chen points scaled to 0..1."""
    return (chen(hole) + 1) / 21


def postflop_strength(hole: Sequence[Card], board: Sequence[Card]) -> float:
    """The made hand's class strength, adjusted for top pair and for a board-made hand."""
    mine = StandardHighHand.from_game(hole, board)
    label = mine.entry.label.value
    value = _CLASS[label]
    if len(board) >= 5:
        on_board = StandardHighHand.from_game((), board)
        if on_board.entry.index == mine.entry.index:
            return 0.1  # the board plays: a tie at best
    if label == "One pair":
        top = max(rank(c) for c in board)
        ranks = [rank(c) for c in hole]
        paired = [r for r in ranks if any(rank(c) == r for c in board)]
        if ranks[0] == ranks[1] and ranks[0] > top:
            value += 0.25  # overpair
        elif paired and max(paired) == top:
            value += 0.18 + 0.01 * max(r for r in ranks)  # top pair, kicker
        elif not paired and ranks[0] != ranks[1]:
            value -= 0.2  # the pair is on the board
    return min(value, 1.0)
