"""Who wins each pot.

A pot open to one player who has not folded or mucked is his without showing
(PT-217/2007 n.º 51). Otherwise the contenders' hands are valued with the rulebook's
ranking and hand rule: any 5 of hole + board in hold'em (PT-217/2007 n.º 94), exactly
2 hole + 3 board in omaha and "póquer sintético" (MO-97/2010 art.10(1); PT-217/2007
n.º 73, 97); the best value wins, equal values share (MO-97/2010 art.10(4)).

A contender's cards are the ones he showed, else the ones dealt to him. If any contender
of a contested pot has an undisclosed card (``"??"``) or the board is incomplete, the pot
cannot be judged: ``winners`` returns None and the caller says so (data_quality), never
guessing.
"""

from __future__ import annotations

from replayer.poker.deal import UNKNOWN
from replayer.poker.evaluator import best_any, best_two_plus_three
from replayer.rulebooks.poker import Game, PokerRulebook


def hand_values(
    book: PokerRulebook,
    game: Game,
    contenders: list[int],
    cards: list[list[str]],
    board: list[str],
) -> dict[int, int]:
    """Value of each contender whose hand can be evaluated (missing otherwise)."""
    if len(board) != sum(book.board_schedule) or UNKNOWN in board:
        return {}
    evaluate = best_any if game is Game.HOLDEM else best_two_plus_three
    ranking = book.ranking
    values = {}
    for pos in contenders:
        hole = cards[pos]
        if len(hole) == book.hole_cards and UNKNOWN not in hole:
            try:
                values[pos] = evaluate(hole, board, ranking)
            except ValueError:
                continue  # invalid cards were already reported by the deal checks
    return values


def winners(
    eligible: tuple[int, ...], live: list[bool], values: dict[int, int]
) -> list[int] | None:
    """Winning positions of a pot, or None when it cannot be judged."""
    contenders = [p for p in eligible if live[p]]
    if len(contenders) == 1:
        return contenders
    if not contenders or any(p not in values for p in contenders):
        return None
    best = max(values[p] for p in contenders)
    return [p for p in contenders if values[p] == best]
