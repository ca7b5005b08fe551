"""Hand evaluator: rules by hand, PokerKit differential, 28-card exhaustive counts, properties.

Rules under test: category order and kickers (MO-97/2010 art.15; PT-217/2007 n.º 17),
ace low (MO-97/2010 art.14(3); PT-217/2007 n.º 72, 95), hold'em best 5 of 7
(PT-217/2007 n.º 94), exactly 2 hole + 3 board (MO-97/2010 art.10(1); PT-217/2007
n.º 73, 97), "póquer sintético" ranking (PT-217/2007 n.º 95, 103/105 cut).
"""

from __future__ import annotations

import os
import pickle
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement, pairwise
from math import comb, prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replayer.poker.cards import (
    RANKS,
    SUITS,
    card_text,
    full_deck,
    parse_card,
    synthetic_deck,
)
from replayer.poker.evaluator import (
    CATEGORIES,
    best_any,
    best_two_plus_three,
    category,
    describe,
    rank_five,
)
from replayer.rankings import MO_97_2010, STANDARD, SYNTHETIC, Ranking

Deal = tuple[list[str], list[str]]


def h(text: str) -> list[str]:
    """ "As Kd" -> ["As", "Kd"]."""
    return text.split()


# ------------------------------------------------------------------------------ cards


def test_parse_card_and_card_text_round_trip():
    assert parse_card("2c") == 0
    assert parse_card("As") == 51
    assert [card_text(parse_card(c)) for c in full_deck()] == full_deck()
    assert sorted(parse_card(c) for c in full_deck()) == list(range(52))


@pytest.mark.parametrize("bad", ["as", "AS", "10s", "A", "", "Ax", "1s", "AsK", " As", None, 51])
def test_parse_card_rejects_and_names_bad_text(bad):
    with pytest.raises(ValueError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", [-1, 52, True, "As", 1.0])
def test_card_text_rejects_non_cards(bad):
    with pytest.raises(ValueError):
        card_text(bad)


def test_decks():
    deck = full_deck()
    assert len(deck) == len(set(deck)) == 52
    assert {c[0] for c in deck} == set(RANKS) and {c[1] for c in deck} == set(SUITS)
    short = synthetic_deck()
    assert len(short) == len(set(short)) == 28  # PT-217/2007 n.º 95
    assert {c[0] for c in short} == set("AKQJT98")
    assert set(short) <= set(deck)


# ------------------------------------------------------------------ categories, order

CASES = [
    ("As Ks Qs Js Ts", "straight_flush", "royal flush"),
    ("9h 8h 7h 6h 5h", "straight_flush", "straight flush, nine high"),
    ("5d 4d 3d 2d Ad", "straight_flush", "straight flush, five high"),
    ("Qc Qd Qh Qs 7d", "four_of_a_kind", "four of a kind, queens, seven kicker"),
    ("Kc Kd Kh 7s 7c", "full_house", "full house, kings full of sevens"),
    ("Ah Jh 9h 4h 2h", "flush", "flush, ace-jack-nine-four-two"),
    ("Ac Kd Qh Js Tc", "straight", "straight, ace high"),
    ("Tc 9d 8h 7s 6c", "straight", "straight, ten high"),
    ("5c 4d 3h 2s Ac", "straight", "straight, five high"),
    ("7c 7d 7h Ks 2c", "three_of_a_kind", "three of a kind, sevens, kickers king-two"),
    ("Jc Jd 4h 4s Ac", "two_pair", "two pair, jacks and fours, ace kicker"),
    ("Tc Td Ah 8s 3c", "pair", "pair of tens, kickers ace-eight-three"),
    ("Ac Qd 9h 6s 3c", "high_card", "high card, ace-queen-nine-six-three"),
    ("Qc Kd Ah 2s 3c", "high_card", "high card, ace-king-queen-three-two"),  # no wrap-around
    ("As 8d 9h Tc Jc", "high_card", "high card, ace-jack-ten-nine-eight"),  # synthetic only
]


@pytest.mark.parametrize(("cards", "name", "text"), CASES)
def test_category_and_description(cards, name, text):
    value = rank_five(h(cards))
    assert category(value) == name
    assert describe(value) == text
    assert name in CATEGORIES


# Strictly increasing, one or more per category and the edges between them
# (MO-97/2010 art.15 (10) up to (1); PT-217/2007 n.º 17, standard order).
ASCENDING = [
    "7c 5d 4h 3s 2c",  # worst high card
    "Ac Kd Qh Js 9c",  # best high card
    "2c 2d 3h 4s 5d",
    "2c 2d 6h 4s 5d",
    "Ac Ad Kh Qs Jd",
    "3c 3d 2h 2s 4c",
    "3c 3d 2h 2s 5c",
    "4c 4d 2h 2s 3c",
    "Ac Ad Kh Ks Qc",
    "2c 2d 2h 3s 4c",
    "Ac Ad Ah Ks Qc",
    "5c 4d 3h 2s Ac",  # wheel: lowest straight (MO-97/2010 art.14(3))
    "6c 5d 4h 3s 2c",
    "Ac Kd Qh Js Tc",
    "7h 5h 4h 3h 2h",  # worst flush
    "Ah Kh Qh Jh 9h",
    "2c 2d 2h 3s 3c",
    "Ac Ad Ah Ks Kc",
    "2c 2d 2h 2s 3c",
    "2c 2d 2h 2s Ac",
    "Ac Ad Ah As Kc",
    "5h 4h 3h 2h Ah",  # steel wheel: lowest straight flush
    "6h 5h 4h 3h 2h",
    "Ah Kh Qh Jh Th",  # royal flush (MO-97/2010 art.15(1))
]


def test_standard_order_is_strict_and_categories_ascend():
    values = [rank_five(h(cards)) for cards in ASCENDING]
    assert values == sorted(values) and len(set(values)) == len(values)
    codes = [CATEGORIES.index(category(v)) for v in values]
    assert codes == sorted(codes)
    assert set(codes) == set(range(9))


@pytest.mark.parametrize(
    ("lower", "higher", "rule"),
    [
        ("Kc Kd 9h 7s 5c", "Kh Ks 9d 7c 6d", "pair: third kicker (art.15(9))"),
        ("Kc Kd 9h 7s 5c", "Ac Ad 3h 4s 2c", "pair: pair rank first"),
        ("Jc Jd 4h 4s 9c", "Jh Js 4d 4c Tc", "two pair: kicker (art.15(8))"),
        ("Jc Jd 4h 4s Ac", "Jh Js 5d 5c 2c", "two pair: second pair before kicker"),
        ("7c 7d 7h Ks 2c", "7c 7d 7h Ks 3c", "trips: second kicker (art.15(7))"),
        ("Ah Kh 9h 7h 4h", "Ad Kd 9d 7d 5d", "flush: last card (art.15(5))"),
        ("Ah Qh 9h 7h 4h", "Ad Kd 3d 2d 4d", "flush: second card"),
        ("3c 3d 3h As Ac", "4c 4d 4h 2s 2c", "full house: trips first (art.15(4))"),
        ("Qc Qd Qh 2s 2c", "Qs Qd Qh 3s 3c", "full house: then the pair"),
        ("Ac Qd 9h 6s 3c", "Ac Qd 9h 6s 4c", "high card: last card (art.15(10))"),
        ("9c 9d 9h 9s 2c", "9c 9d 9h 9s 3c", "quads: kicker (standard)"),
        ("8c 8d 8h 8s Ac", "9c 9d 9h 9s 2c", "quads: rank first (art.15(3))"),
    ],
)
def test_kickers_decide_within_a_category(lower, higher, rule):
    assert rank_five(h(lower)) < rank_five(h(higher)), rule


def test_equal_hands_give_equal_ints_suits_never_rank():
    # MO-97/2010 art.14(1), 15(2): same ranks tie whatever the suits; split pots need it.
    assert rank_five(h("As Kd Qh Js 9c")) == rank_five(h("Ad Ks Qc Jh 9d"))
    assert rank_five(h("As Ks Qs Js Ts")) == rank_five(h("Ah Kh Qh Jh Th"))
    assert rank_five(h("Ac Ad 7h 7s 2c")) == rank_five(h("Ah As 7c 7d 2d"))
    assert best_any(h("Ac 2d"), h("Kh Ks 9c 9d 5s")) == best_any(h("Ad 3c"), h("Kh Ks 9c 9d 5s"))


def test_card_order_does_not_matter_in_rank_five():
    cards = h("Tc Td Ah 8s 3c")
    assert {rank_five(list(p)) for p in combinations(cards, 5)} == {rank_five(cards)}
    assert rank_five(cards[::-1]) == rank_five(cards)


# ------------------------------------------------------------ quads kicker (MO art.15)


def test_quads_kicker_counts_is_a_ranking_parameter():
    assert STANDARD.quads_kicker_counts is True
    assert MO_97_2010.quads_kicker_counts is False
    low, high = h("9c 9d 9h 9s 2c"), h("9c 9d 9h 9s Ac")
    assert rank_five(low) < rank_five(high)
    assert rank_five(low, MO_97_2010) == rank_five(high, MO_97_2010)
    assert describe(rank_five(high, MO_97_2010)) == "four of a kind, nines (kicker ignored)"
    assert rank_five(h("8c 8d 8h 8s Ac"), MO_97_2010) < rank_five(low, MO_97_2010)
    # Otherwise MO-97/2010 is the standard order.
    for lower, higher in pairwise(ASCENDING):
        if not ("2s 3c" in lower and "2s Ac" in higher):
            assert rank_five(h(lower), MO_97_2010) < rank_five(h(higher), MO_97_2010)


def test_board_quads_holdem_kicker_vs_split():
    board = h("9c 9d 9h 9s 2c")
    ace, king = best_any(h("Ac 3d"), board), best_any(h("Kc Qd"), board)
    assert ace > king  # standard: the kicker decides
    assert best_any(h("Ac 3d"), board, MO_97_2010) == best_any(h("Kc Qd"), board, MO_97_2010)
    assert best_two_plus_three(h("Ac 3d 4d 5d"), board, MO_97_2010) > 0  # accepted


def test_omaha_quads_need_two_hole_cards():
    # Trips on the board + the fourth in hand is quads (1 hole card of the rank + 1 other).
    value = best_two_plus_three(h("Ac 7s 6h 5d"), h("As Ad Ah Kc 2d"))
    assert describe(value) == "four of a kind, aces, seven kicker"
    # Quads on the board cannot all play: at most 3 board cards.
    value = best_two_plus_three(h("Ac Ad 3h 4s"), h("Kc Kd Kh Ks 2c"))
    assert describe(value) == "full house, kings full of aces"
    value = best_two_plus_three(h("Qc Jd 3h 4s"), h("Kc Kd Kh Ks 2c"))
    assert category(value) == "three_of_a_kind"


# -------------------------------------------------------------- hold'em and omaha rules


def test_holdem_board_plays_and_partial_boards():
    royal = h("As Ks Qs Js Ts")
    assert best_any(h("2c 3d"), royal) == best_any(h("7h 8h"), royal) == rank_five(royal)
    board = h("Ac Kd Qh Js 9c")
    assert best_any(h("2c 3d"), board) == rank_five(board)  # board plays, split
    assert best_any(h("2c Td"), board) > rank_five(board)  # ten makes the straight
    assert category(best_any(h("As Kd"), h("Qh Js Tc"))) == "straight"  # 5 cards (flop)
    assert category(best_any(h("As Ad"), h("Qh Js Tc Ah"))) == "three_of_a_kind"  # 6
    assert best_any(h("Ah 2c"), h("Kh 9h 5h 3h 7d")) == rank_five(h("Ah Kh 9h 5h 3h"))


def test_holdem_best_five_of_more_than_seven_cards():
    cards = h("Ah 2c Kh 9h 5h 3h 7d 4s Qh")
    expected = max(rank_five(list(c)) for c in combinations(cards, 5))
    assert best_any(cards[:2], cards[2:]) == expected
    assert describe(expected) == "flush, ace-king-queen-nine-five"


@pytest.mark.parametrize(
    ("hole", "board", "holdem_category", "omaha_category"),
    [
        # One heart in hand + four on board: flush in hold'em, not in omaha.
        ("Qh Jd 5c 3s", "Ah Kh Th 4h 2c", "flush", "straight"),
        ("Qh Jd 8c 3s", "Ah Kh 9h 4h 2c", "flush", "high_card"),
        # Straight on the board: omaha must still use two hole cards.
        ("Ac Ad Kh Ks", "5c 6d 7h 8s 9c", "straight", "pair"),
        # One hole card to a board four-straight is not a straight in omaha.
        ("Kd 3c 4h 5s", "9c Tc Jd Qh 2s", "straight", "high_card"),
        # Trips in hand: only two of them can play.
        ("Ac Ad Ah 2s", "Kc 7d 5h 3s 9c", "three_of_a_kind", "pair"),
        # Two pair on the board + a pocket pair: no full house from one board pair.
        ("Qc Qd 3h 4s", "7c 7d Kh Ks 2c", "two_pair", "two_pair"),
    ],
)
def test_omaha_exactly_two_hole_and_three_board(hole, board, holdem_category, omaha_category):
    # MO-97/2010 art.10(1); PT-217/2007 n.º 73 vs hold'em n.º 94.
    hole_cards, board_cards = h(hole), h(board)
    assert category(best_any(hole_cards, board_cards)) == holdem_category
    value = best_two_plus_three(hole_cards, board_cards)
    assert category(value) == omaha_category
    assert value == max(
        rank_five([*pair, *triple])
        for pair in combinations(hole_cards, 2)
        for triple in combinations(board_cards, 3)
    )


def test_omaha_flush_with_two_suited_hole_cards():
    value = best_two_plus_three(h("Qh 3h Tc 3s"), h("Ah Kh 9h 4d 2c"))
    assert describe(value) == "flush, ace-king-queen-nine-three"


def test_omaha_partial_boards_and_bigger_holes():
    assert category(best_two_plus_three(h("As Kd 7c 2h"), h("Qh Js Tc"))) == "straight"
    assert category(best_two_plus_three(h("As Kd 7c 2h"), h("Qh Js Tc 7d"))) == "straight"
    hole, board = h("As Kd 7c 2h 7h 9h"), h("Qh Js Tc 7d 2d")  # 6 hole cards
    assert best_two_plus_three(hole, board) == max(
        rank_five([*p, *t]) for p in combinations(hole, 2) for t in combinations(board, 3)
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rank_five(h("As Kd Qh Js")), "exactly 5"),
        (lambda: rank_five(h("As Kd Qh Js As")), "duplicate"),
        (lambda: rank_five(h("As Kd Qh Js 1c")), "'1c'"),
        (lambda: rank_five("AsKdQhJsTc"), "sequence"),
        (lambda: best_any(h("As Kd"), h("Qh Js")), "at least 5"),
        (lambda: best_any(h("As Kd"), h("Qh Js As")), "duplicate"),
        (lambda: best_any(h("As Kd"), h("Qh Js 10c")), "'10c'"),
        (lambda: best_two_plus_three(h("As"), h("Qh Js Tc")), "2-7 hole"),
        (lambda: best_two_plus_three(h("As Kd"), h("Qh Js")), "3-5 board"),
        (lambda: best_two_plus_three(h("As Kd Qh Js"), h("Qh 2s 3d")), "duplicate"),
        (lambda: best_two_plus_three(h("As Kd"), h("Qh Js Tc"), "standard"), "Ranking"),
        (lambda: rank_five(h("7c 8d 9h Tc Jc"), SYNTHETIC), "'7c' is not in the deck"),
        (lambda: best_two_plus_three(h("As 2d"), h("Qh Js Tc"), SYNTHETIC), "'2d'"),
        (lambda: category(-1), "not a hand value"),
        (lambda: describe("x"), "not a hand value"),
        (lambda: describe(0xDDDDD), "not a hand value"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ---------------------------------------------------------------- "póquer sintético"


def test_synthetic_low_straight_a_8_9_t_j():
    # PT-217/2007 n.º 95: the ace is low after the 8 (A-8-9-T-J, the lowest straight).
    low = rank_five(h("As 8d 9h Tc Jc"), SYNTHETIC)
    assert category(low) == "straight" and describe(low) == "straight, jack high"
    assert (
        rank_five(h("Ac Ad Ah Ks Qc"), SYNTHETIC) < low < rank_five(h("8c 9d Th Js Qc"), SYNTHETIC)
    )
    steel = rank_five(h("Ah 8h 9h Th Jh"), SYNTHETIC)
    assert category(steel) == "straight_flush"
    assert (
        rank_five(h("Ac Ad Ah As Kc"), SYNTHETIC)
        < steel
        < rank_five(h("8h 9h Th Jh Qh"), SYNTHETIC)
    )
    assert category(rank_five(h("As 8d 9h Tc Jc"))) == "high_card"  # not in 52-card poker


def test_synthetic_flush_beats_full_house():
    flush, full = (
        rank_five(h("Ah Kh Qh Jh 9h"), SYNTHETIC),
        rank_five(h("Ac Ad Ah Ks Kc"), SYNTHETIC),
    )
    assert (category(flush), category(full)) == ("flush", "full_house")
    assert flush > full and rank_five(h("8h 9h Th Jh Kh"), SYNTHETIC) > full
    assert rank_five(h("Ah Kh Qh Jh 9h")) < rank_five(h("Ac Ad Ah Ks Kc"))  # standard
    assert SYNTHETIC.flush_beats_full_house and not STANDARD.flush_beats_full_house
    assert rank_five(h("Ac Ad Ah As 8c"), SYNTHETIC) > flush  # quads still above


def test_synthetic_uses_both_hole_cards():
    # PT-217/2007 n.º 97: 2 hole + 3 board; with 2 hole cards both must play.
    hole, board = h("As 8d"), h("Ks Qs Js Ts 9c")
    assert describe(best_any(hole, board, SYNTHETIC)) == "royal flush"
    assert describe(best_two_plus_three(hole, board, SYNTHETIC)) == "straight, jack high"


def independent_synthetic_counts() -> tuple[Counter[str], Counter[str]]:
    """Hands and distinct hand classes per category over C(28,5), from rank multisets.

    Written from first principles, without the evaluator: ranks 0..6 = 8 9 T J Q K A;
    straights are the three runs 8-Q, 9-K, T-A plus A-8-9-T-J (PT-217/2007 n.º 95).
    For a multiset with counts c_i, the suit choices are prod(C(4, c_i)); five distinct
    ranks are suited (flush) in exactly 4 of their 4**5 choices.
    """
    straights = [set(range(i, i + 5)) for i in range(3)] + [{6, 0, 1, 2, 3}]
    shapes = {
        (4, 1): "four_of_a_kind",
        (3, 2): "full_house",
        (3, 1, 1): "three_of_a_kind",
        (2, 2, 1): "two_pair",
        (2, 1, 1, 1): "pair",
    }
    hands: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    for ranks in combinations_with_replacement(range(7), 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        ways = prod(comb(4, c) for c in counts.values())
        shape = tuple(sorted(counts.values(), reverse=True))
        if shape == (1, 1, 1, 1, 1):
            suited, unsuited = (
                ("straight_flush", "straight")
                if set(ranks) in straights
                else ("flush", "high_card")
            )
            hands[suited] += 4
            hands[unsuited] += ways - 4
            classes[suited] += 1
            classes[unsuited] += 1
        else:
            hands[shapes[shape]] += ways
            classes[shapes[shape]] += 1
    return hands, classes


def test_synthetic_exhaustive_category_counts():
    expected_hands, expected_classes = independent_synthetic_counts()
    assert sum(expected_hands.values()) == comb(28, 5) == 98_280
    # Also by hand: 4x4 straight flushes, 7x24 quads, 7x4x6x6 full houses, 4x21-16 flushes,
    # 4x4**5-16 straights, 7x4xC(6,2)x16 trips, C(7,2)x36x5x4 two pair, 7x6xC(6,3)x64 pairs.
    assert expected_hands == {
        "straight_flush": 16,
        "four_of_a_kind": 168,
        "full_house": 1_008,
        "flush": 68,
        "straight": 4_080,
        "three_of_a_kind": 6_720,
        "two_pair": 15_120,
        "pair": 53_760,
        "high_card": 17_340,
    }
    hands: Counter[str] = Counter()
    values: dict[str, set[int]] = {name: set() for name in CATEGORIES}
    for five in combinations(synthetic_deck(), 5):
        value = rank_five(five, SYNTHETIC)
        name = category(value)
        hands[name] += 1
        values[name].add(value)
    assert hands == expected_hands
    assert {name: len(v) for name, v in values.items()} == expected_classes
    # Order of categories under the synthetic ranking: flush just above full house.
    order = sorted(CATEGORIES, key=lambda name: min(values[name]))
    assert order == [
        "high_card",
        "pair",
        "two_pair",
        "three_of_a_kind",
        "straight",
        "full_house",
        "flush",
        "four_of_a_kind",
        "straight_flush",
    ]
    for lower, higher in pairwise(order):
        assert max(values[lower]) < min(values[higher])


# ---------------------------------------------------------------------- Ranking


def test_ranking_parameters_and_validation():
    assert Ranking("standard") == STANDARD
    assert STANDARD.low_straight == ("A", "2", "3", "4", "5")
    assert SYNTHETIC.low_straight == ("A", "8", "9", "T", "J")
    bad_lows = ["A234", "23456", "A2346", "ATJQK", "A2344", "A1234", "A89TJQ"]
    for bad in [tuple(low) for low in bad_lows]:
        with pytest.raises(ValueError):
            Ranking("bad", low_straight=bad)
    clone = pickle.loads(pickle.dumps(SYNTHETIC))
    assert clone == SYNTHETIC and "_tables" not in clone.__dict__
    assert rank_five(h("As 8d 9h Tc Jc"), clone) == rank_five(h("As 8d 9h Tc Jc"), SYNTHETIC)


# --------------------------------------------------------- differential vs PokerKit


def deal_showdowns(
    seed: int, deck: Sequence[str], n_hole: int, deals: int, players: int = 2
) -> list[Deal]:
    """Hands in groups of ``players`` sharing one 5-card board, as at a showdown."""
    rng = random.Random(seed)
    hands: list[Deal] = []
    for _ in range(deals):
        cards = rng.sample(deck, 5 + n_hole * players)
        board = cards[:5]
        for p in range(players):
            hands.append((cards[5 + p * n_hole : 5 + (p + 1) * n_hole], board))
    return hands


def pokerkit_indices(game: str, hands: Sequence[Deal]) -> list[int]:
    """PokerKit's strength index of each hand (larger = stronger, equal = tie)."""
    from pokerkit import OmahaHoldemHand, ShortDeckHoldemHand, StandardHighHand

    cls = {"holdem": StandardHighHand, "omaha": OmahaHoldemHand, "short-deck": ShortDeckHoldemHand}[
        game
    ]
    return [cls.from_game("".join(hole), "".join(board)).entry.index for hole, board in hands]


def pokerkit_indices_parallel(game: str, hands: Sequence[Deal], chunk: int = 2_000) -> list[int]:
    """``pokerkit_indices`` over worker processes (PokerKit is slow), in order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    workers = min(os.cpu_count() or 1, 16)
    if workers < 2 or len(hands) <= chunk:
        return pokerkit_indices(game, hands)
    parts = [hands[i : i + chunk] for i in range(0, len(hands), chunk)]
    # spawned, never forked from the test process (it may hold threads and open stores)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        results = list(pool.map(pokerkit_indices, [game] * len(parts), parts))
    return [index for part in results for index in part]


def order_disagreements(ours: Sequence[int], theirs: Sequence[int]) -> int:
    """Pairs (i < j) whose comparison sign differs between the two evaluators.

    Counted over all n(n-1)/2 pairs in O(n log n): pairs tied in one and not the other,
    plus pairs ordered both ways (inversions of ``theirs`` sorted by ``ours``).
    """
    n = len(ours)
    assert len(theirs) == n

    def tied(keys: Sequence[object]) -> int:
        return sum(k * (k - 1) // 2 for k in Counter(keys).values())

    tied_both = tied(list(zip(ours, theirs, strict=True)))
    mismatched_ties = (tied(ours) - tied_both) + (tied(theirs) - tied_both)
    order = sorted(range(n), key=lambda i: (ours[i], theirs[i]))
    ranks = {v: r for r, v in enumerate(sorted(set(theirs)), start=1)}
    tree = [0] * (len(ranks) + 1)
    inversions = 0
    for seen, i in enumerate(order):  # earlier (smaller ours) with strictly larger theirs
        r = ranks[theirs[i]]
        not_greater, k = 0, r
        while k > 0:
            not_greater += tree[k]
            k -= k & -k
        inversions += seen - not_greater
        k = r
        while k < len(tree):
            tree[k] += 1
            k += k & -k
    # Pairs tied in ours are sorted by theirs, so they add no inversion.
    return mismatched_ties + inversions


def showdown_disagreements(ours: Sequence[int], theirs: Sequence[int], players: int = 2) -> int:
    """Same-board pairs (real showdowns) whose winner or split differs."""

    def sign(x: int) -> int:
        return (x > 0) - (x < 0)

    bad = 0
    for start in range(0, len(ours), players):
        for i, j in combinations(range(start, start + players), 2):
            bad += sign(ours[i] - ours[j]) != sign(theirs[i] - theirs[j])
    return bad


def test_order_disagreements_counts_every_kind_of_mismatch():
    assert order_disagreements([1, 2, 3], [10, 20, 30]) == 0
    assert order_disagreements([1, 1, 3], [5, 5, 9]) == 0
    assert order_disagreements([1, 2, 3], [10, 30, 20]) == 1  # inversion
    assert order_disagreements([1, 1, 3], [5, 6, 9]) == 1  # we tie, they do not
    assert order_disagreements([1, 2, 3], [5, 5, 9]) == 1  # they tie, we do not
    assert order_disagreements([3, 2, 1], [1, 2, 3]) == 3


def class_representatives(ranks: str = RANKS) -> list[list[str]]:
    """One 5-card hand per equivalence class (7,462 for 52 cards), built from rank
    multisets: repeated ranks get distinct suits; 5 distinct ranks once unsuited and
    once suited."""
    reps = []
    for multiset in combinations_with_replacement(ranks, 5):
        counts = Counter(multiset)
        if max(counts.values()) > 4:
            continue
        if len(counts) == 5:
            reps.append([r + ("d" if i == 0 else "c") for i, r in enumerate(multiset)])
            reps.append([r + "h" for r in multiset])
        else:
            reps.append([r + SUITS[k] for r, c in counts.items() for k in range(c)])
    return reps


def test_every_five_card_class_ordered_like_pokerkit():
    from pokerkit import StandardHighHand

    reps = class_representatives()
    assert len(reps) == 7_462
    ours = [rank_five(cards) for cards in reps]
    theirs = [StandardHighHand("".join(cards)).entry.index for cards in reps]
    assert len(set(ours)) == len(set(theirs)) == 7_462
    assert order_disagreements(ours, theirs) == 0


@pytest.mark.parametrize(
    ("game", "n_hole", "evaluate"),
    [("holdem", 2, best_any), ("omaha", 4, best_two_plus_three)],
)
def test_differential_vs_pokerkit(game, n_hole, evaluate):
    hands = deal_showdowns(seed=972010 + n_hole, deck=full_deck(), n_hole=n_hole, deals=10_000)
    assert len(hands) == 20_000
    ours = [evaluate(hole, board) for hole, board in hands]
    theirs = pokerkit_indices_parallel(game, hands)
    assert showdown_disagreements(ours, theirs) == 0
    assert order_disagreements(ours, theirs) == 0
    assert len(set(ours)) > 2_000  # the sample reaches deep into the kickers


def test_differential_short_deck_parameters_vs_pokerkit():
    from pokerkit import ShortDeckHoldemHand

    # The flush/full-house swap and the ace-low run are parameters: check them on the
    # 36-card short deck (A-6-7-8-9, flush > full house) against PokerKit's own table.
    short_deck = Ranking(
        "short-deck-36", flush_beats_full_house=True, low_straight=("A", "6", "7", "8", "9")
    )
    deck = [c for c in full_deck() if c[0] in "6789TJQKA"]
    hands = deal_showdowns(seed=36, deck=deck, n_hole=2, deals=1_500)
    ours = [best_any(hole, board, short_deck) for hole, board in hands]
    theirs = pokerkit_indices("short-deck", hands)
    assert order_disagreements(ours, theirs) == 0
    reps = class_representatives("6789TJQKA")
    ours = [rank_five(cards, short_deck) for cards in reps]
    theirs = [ShortDeckHoldemHand("".join(cards)).entry.index for cards in reps]
    assert len(set(ours)) == len(set(theirs)) == len(reps)
    assert order_disagreements(ours, theirs) == 0


# ------------------------------------------------------------------------ properties

holdem_hands = st.permutations(full_deck()).map(lambda cards: (list(cards[:2]), list(cards[2:7])))
omaha_hands = st.permutations(full_deck()).map(lambda cards: (list(cards[:4]), list(cards[4:9])))
synthetic_hands = st.permutations(synthetic_deck()).map(
    lambda cards: (list(cards[:2]), list(cards[2:7]))
)
suit_maps = st.permutations(SUITS).map(lambda perm: dict(zip(SUITS, perm, strict=True)))
rankings = st.sampled_from([STANDARD, MO_97_2010])


def relabel(cards: Sequence[str], suits: dict[str, str]) -> list[str]:
    return [c[0] + suits[c[1]] for c in cards]


@settings(max_examples=300, deadline=None)
@given(hand=holdem_hands, suits=suit_maps, ranking=rankings, data=st.data())
def test_holdem_invariant_under_suit_permutation_and_card_order(hand, suits, ranking, data):
    hole, board = hand
    value = best_any(hole, board, ranking)
    assert best_any(relabel(hole, suits), relabel(board, suits), ranking) == value
    shuffled = data.draw(st.permutations(hole + board))
    assert best_any(shuffled[:3], shuffled[3:], ranking) == value
    assert rank_five(relabel(board, suits), ranking) == rank_five(board[::-1], ranking)
    # Best of 7 is the best of its 21 five-card hands.
    assert value == max(rank_five(list(c), ranking) for c in combinations(hole + board, 5))


@settings(max_examples=200, deadline=None)
@given(hand=omaha_hands, suits=suit_maps, ranking=rankings, data=st.data())
def test_omaha_invariant_under_suit_permutation_and_card_order(hand, suits, ranking, data):
    hole, board = hand
    value = best_two_plus_three(hole, board, ranking)
    assert best_two_plus_three(relabel(hole, suits), relabel(board, suits), ranking) == value
    assert (
        best_two_plus_three(
            data.draw(st.permutations(hole)), data.draw(st.permutations(board)), ranking
        )
        == value
    )
    assert value == max(
        rank_five([*p, *t], ranking) for p in combinations(hole, 2) for t in combinations(board, 3)
    )


@settings(max_examples=200, deadline=None)
@given(hand=synthetic_hands, suits=suit_maps, data=st.data())
def test_synthetic_invariant_under_suit_permutation_and_card_order(hand, suits, data):
    hole, board = hand
    value = best_two_plus_three(hole, board, SYNTHETIC)
    assert best_two_plus_three(relabel(hole, suits), relabel(board, suits), SYNTHETIC) == value
    assert best_two_plus_three(hole[::-1], data.draw(st.permutations(board)), SYNTHETIC) == value
    assert value == max(rank_five([*hole, *t], SYNTHETIC) for t in combinations(board, 3))
    assert best_any(hole, board, SYNTHETIC) >= value


@settings(max_examples=100, deadline=None)
@given(
    cards=st.permutations(full_deck()),
    n_hole=st.integers(2, 6),
    n_board=st.integers(3, 5),
    ranking=st.sampled_from([STANDARD, MO_97_2010, SYNTHETIC]),
)
def test_any_hole_and_board_size_matches_brute_force(cards, n_hole, n_board, ranking):
    if ranking is SYNTHETIC:
        cards = [c for c in cards if c[0] in ranking.deck_ranks]
    hole, board = list(cards[:n_hole]), list(cards[n_hole : n_hole + n_board])
    assert best_two_plus_three(hole, board, ranking) == max(
        rank_five([*p, *t], ranking) for p in combinations(hole, 2) for t in combinations(board, 3)
    )
    assert best_any(hole, board, ranking) == max(
        rank_five(list(c), ranking) for c in combinations(hole + board, 5)
    )
