"""How strong a player believes his hand is, on a 0..1 scale (a heuristic, not equity).

Before three board cards are out: a preflop score from ranks, pairs, suits and
connectedness. From three board cards on: the hand's category under the rulebook's
ranking and hand rule (``evaluator.best_any`` for hold'em, ``best_two_plus_three`` for
omaha and "póquer sintético"), discounted when the board alone makes the hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from replayer.poker.evaluator import best_any, best_two_plus_three, rank_five
from replayer.rankings import Ranking
from replayer.rulebooks.poker import Game

_RANK = {r: i + 2 for i, r in enumerate("23456789TJQKA")}
#: Score by category code (high card .. straight flush).
_CATEGORY_SCORE = (0.12, 0.42, 0.64, 0.74, 0.8, 0.84, 0.9, 0.96, 0.99)


def preflop(hole: Sequence[str], game: Game) -> float:
    """Starting-hand score from the hole cards alone."""
    ranks = sorted((_RANK[c[0]] for c in hole), reverse=True)
    suits = [c[1] for c in hole]
    if game is Game.OMAHA:
        pairs = len(ranks) - len(set(ranks))
        suited = len(suits) - len(set(suits))
        spread = ranks[0] - ranks[-1]
        score = 0.1 + sum(ranks) / 56 * 0.45 + 0.07 * pairs + 0.05 * min(suited, 2)
        score += 0.08 if spread <= 4 else 0.0
        return min(score, 1.0)
    low = 8 if game is Game.SYNTHETIC else 2
    high, second = ranks[0], ranks[1]
    scale = 14 - low
    if high == second:
        return 0.55 + 0.45 * (high - low) / scale
    score = 0.08 + 0.3 * (high - low) / scale + 0.22 * (second - low) / scale
    if suits[0] == suits[1]:
        score += 0.06
    if high - second <= 2:
        score += 0.04
    return min(score, 0.95)


def made(hole: Sequence[str], board: Sequence[str], game: Game, ranking: Ranking) -> float:
    """Score of the best hand with at least three board cards."""
    if game is Game.HOLDEM:
        value = best_any(hole, board, ranking)
    else:
        value = best_two_plus_three(hole, board, ranking)
    code = value >> 20 & 0xF
    top = (value >> 16 & 0xF) / 15
    score = _CATEGORY_SCORE[code] + 0.05 * top
    if game is Game.HOLDEM and len(board) == 5 and value == rank_five(board, ranking):
        score = min(score, 0.3)  # the board plays: nothing of one's own
    return min(score, 1.0)


def strength(hole: Sequence[str], board: Sequence[str], game: Game, ranking: Ranking) -> float:
    """Preflop score before three board cards, made-hand score after."""
    if len(board) < 3:
        return preflop(hole, game)
    return made(hole, board, game, ranking)
