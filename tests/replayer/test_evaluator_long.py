"""Long proof tier for the hand evaluator (``make long``; not in CI).

* 1,000,000 random hold'em hands (best 5 of 7, PT-217/2007 n.º 94) and 1,000,000 random
  omaha hands (exactly 2 of 4 hole + 3 of 5 board, MO-97/2010 art.10(1); PT-217/2007
  n.º 73) against PokerKit, in same-board pairs: every same-board showdown and every one
  of the n(n-1)/2 pairs across the whole sample must be ordered (win/lose/split) alike.
* 100,000 short-deck hands (ranking parameters flush_beats_full_house and low_straight)
  against PokerKit's short-deck table.
* All C(52,5) = 2,598,960 five-card hands: the textbook count of each category and the
  7,462 distinct hand values (MO-97/2010 art.15; PT-217/2007 n.º 17).

Run with ``-s`` to see the figures.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

import pytest

from replayer.poker.cards import full_deck
from replayer.poker.evaluator import (
    CATEGORIES,
    best_any,
    best_two_plus_three,
    category,
    rank_five,
)
from replayer.rankings import Ranking
from tests.replayer.test_evaluator import (
    deal_showdowns,
    order_disagreements,
    pokerkit_indices,
    showdown_disagreements,
)

pytestmark = pytest.mark.long

BLOCK_DEALS = 50_000  # deals generated, evaluated and dropped per block (memory)
CHUNK = 5_000  # hands per PokerKit task


def run_differential(
    game: str,
    evaluate: Callable[..., int],
    ranking: Ranking | None,
    deck: Sequence[str],
    n_hole: int,
    deals: int,
    seed: int,
) -> tuple[int, int, int, int, float]:
    """(hands, same-board pair disagreements, all-pairs disagreements, distinct values, s)."""
    start = time.perf_counter()
    ours: list[int] = []
    theirs: list[int] = []
    workers = max(1, min(os.cpu_count() or 1, 16))
    context = multiprocessing.get_context("fork")
    with context.Pool(workers) as pool:
        for block, first in enumerate(range(0, deals, BLOCK_DEALS)):
            count = min(BLOCK_DEALS, deals - first)
            hands = deal_showdowns(seed * 1_000 + block, deck, n_hole, count)
            chunks = [hands[i : i + CHUNK] for i in range(0, len(hands), CHUNK)]
            pending = pool.starmap_async(pokerkit_indices, [(game, c) for c in chunks])
            if ranking is None:
                ours.extend(evaluate(hole, board) for hole, board in hands)
            else:
                ours.extend(evaluate(hole, board, ranking) for hole, board in hands)
            theirs.extend(index for part in pending.get() for index in part)
    same_board = showdown_disagreements(ours, theirs)
    all_pairs = order_disagreements(ours, theirs)
    return len(ours), same_board, all_pairs, len(set(ours)), time.perf_counter() - start


@pytest.mark.parametrize(
    ("game", "n_hole", "evaluate", "seed"),
    [("holdem", 2, best_any, 94), ("omaha", 4, best_two_plus_three, 73)],
)
def test_million_hands_vs_pokerkit(game, n_hole, evaluate, seed, capsys):
    hands, same_board, all_pairs, distinct, seconds = run_differential(
        game, evaluate, None, full_deck(), n_hole, deals=500_000, seed=seed
    )
    with capsys.disabled():
        print(
            f"\n{game}: {hands:,} hands vs PokerKit, {hands // 2:,} same-board pairs "
            f"({same_board} disagreements), {hands * (hands - 1) // 2:,} pairs overall "
            f"({all_pairs} disagreements), {distinct:,} distinct values, {seconds:.0f} s"
        )
    assert hands == 1_000_000
    assert same_board == 0
    assert all_pairs == 0


def test_short_deck_parameters_vs_pokerkit(capsys):
    short_deck = Ranking(
        "short-deck-36", flush_beats_full_house=True, low_straight=("A", "6", "7", "8", "9")
    )
    deck = [c for c in full_deck() if c[0] in "6789TJQKA"]
    hands, same_board, all_pairs, distinct, seconds = run_differential(
        "short-deck", best_any, short_deck, deck, 2, deals=50_000, seed=36
    )
    with capsys.disabled():
        print(
            f"\nshort deck: {hands:,} hands vs PokerKit, {same_board} same-board and "
            f"{all_pairs} overall disagreements, {distinct:,} distinct values, {seconds:.0f} s"
        )
    assert (hands, same_board, all_pairs) == (100_000, 0, 0)


def test_all_five_card_hands_textbook_counts(capsys):
    start = time.perf_counter()
    hands: Counter[str] = Counter()
    values: dict[str, set[int]] = {name: set() for name in CATEGORIES}
    for five in combinations(full_deck(), 5):
        value = rank_five(five)
        name = category(value)
        hands[name] += 1
        values[name].add(value)
    with capsys.disabled():
        print(f"\nC(52,5): {sum(hands.values()):,} hands in {time.perf_counter() - start:.0f} s")
    assert hands == {
        "straight_flush": 40,
        "four_of_a_kind": 624,
        "full_house": 3_744,
        "flush": 5_108,
        "straight": 10_200,
        "three_of_a_kind": 54_912,
        "two_pair": 123_552,
        "pair": 1_098_240,
        "high_card": 1_302_540,
    }
    assert {name: len(v) for name, v in values.items()} == {
        "straight_flush": 10,
        "four_of_a_kind": 156,
        "full_house": 156,
        "flush": 1_277,
        "straight": 10,
        "three_of_a_kind": 858,
        "two_pair": 858,
        "pair": 2_860,
        "high_card": 1_277,
    }
