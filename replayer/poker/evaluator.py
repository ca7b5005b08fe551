"""Deterministic poker hand evaluator for the replayer (pure Python, table driven).

Hand ranking, best to worst (MO-97/2010 art.15; PT-217/2007 n.º 17, whose list is cut
from our copy, so the standard order is used, see ``design/RULES.md``)::

    straight flush (the royal flush, A-K-Q-J-T suited, is the top one; art.15(1)-(2))
    four of a kind (art.15(3))      full house (art.15(4))      flush (art.15(5))
    straight (art.15(6))            three of a kind (art.15(7))  two pair (art.15(8))
    one pair (art.15(9))            high card (art.15(10))

Suits never rank (MO-97/2010 art.14(1)); ranks run 2 < ... < K < A (art.14(2)); the ace
also plays low in the lowest straight A-2-3-4-5 (art.14(3); PT-217/2007 n.º 72), or
A-8-9-T-J in the 28-card "póquer sintético" (PT-217/2007 n.º 95). Within a category the
kickers decide, highest first, and identical ranks tie (art.15(2)-(10); GG-2022 kicker
rule).

Which cards make the hand:

* ``best_any``: best 5 of all the cards, hold'em (PT-217/2007 n.º 94).
* ``best_two_plus_three``: exactly 2 hole + exactly 3 board cards, omaha (MO-97/2010
  art.10(1); PT-217/2007 n.º 73) and "póquer sintético" (PT-217/2007 n.º 97).

Hand values are ints, larger is better, equal hands give equal ints (split pots,
MO-97/2010 art.10(4)); they compare meaningfully only within one ``Ranking`` (the
orders the rulebooks choose, ``replayer.rankings``). Layout::

    bits 24..27  position of the category in the ranking's order
    bits 20..23  category code (fixed, for ``category``/``describe``)
    bits  0..19  tie-break ranks, 4 bits each, most significant first

Inputs are checked, never guessed: a malformed card, a duplicate card or a card outside
the ranking's deck raises ``ValueError`` naming it.

Speed: each card maps to a packed int (base-5 rank digit + 3-bit suit counter), so the
sum of a hand's cards is a key for its rank multiset and its suit counts. Per ranking,
tables built once on first use (~0.3 s for 52 cards) map every rank multiset of 5, 6 or
7 cards to its best non-flush value and every set of 5-7 suited ranks to its best
flush: a hold'em hand is one dict lookup plus a flush check. For omaha, each hole pair
has a row of the values of every board triple, indexed by small ``_B3`` sums and read
ten at a time with ``operator.itemgetter``. ``benchmarks/evaluator.py`` measures it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from operator import itemgetter

from replayer.poker.cards import SUITS
from replayer.rankings import RANKS, STANDARD, Ranking

__all__ = [
    "CATEGORIES",
    "best_any",
    "best_two_plus_three",
    "category",
    "describe",
    "rank_five",
]

#: Category names by category code; the code order is the standard order.
CATEGORIES: tuple[str, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
(
    _HIGH_CARD,
    _PAIR,
    _TWO_PAIR,
    _TRIPS,
    _STRAIGHT,
    _FLUSH,
    _FULL_HOUSE,
    _QUADS,
    _STRAIGHT_FLUSH,
) = range(9)

_CODE_SHIFT = 20
_POSITION_SHIFT = 24
#: Kicker nibble of four of a kind when the ranking ignores the kicker (not a rank).
_NO_KICKER = 0xF

# Packed card: rank r adds 5**r (a base-5 digit counts each rank; at most 7 cards keep
# the rank part below 5**13 < 2**31), suit s adds 1 << (31 + 3*s) (3-bit counters).
_SUIT_SHIFT = 31
_RANK_MASK = (1 << _SUIT_SHIFT) - 1
_POW5 = tuple(5**r for r in range(13))
_PACK: dict[str, int] = {
    rank + suit: _POW5[r] + (1 << (_SUIT_SHIFT + 3 * s))
    for r, rank in enumerate(RANKS)
    for s, suit in enumerate(SUITS)
}
_pack = _PACK.__getitem__
# The two halves of a packed card, for omaha: suit counters shifted down to bit 0.
_rank_part = {text: value & _RANK_MASK for text, value in _PACK.items()}.__getitem__
_suit_part = {text: value >> _SUIT_SHIFT for text, value in _PACK.items()}.__getitem__
# Omaha keys: a B3 set (greedy, Mian-Chowla style): the sum of any 3 of these, repeats
# allowed, identifies the 3 ranks, and so does the sum of any 2. Board triples and hole
# pairs become small ints that index plain lists (checked in ``_build_tables``).
_B3 = (0, 1, 4, 13, 32, 71, 124, 218, 375, 572, 744, 1208, 1556)
_small = {rank + suit: _B3[r] for r, rank in enumerate(RANKS) for suit in SUITS}.__getitem__


def _suit_field_table(minimum: int, base: int) -> tuple[int, ...]:
    """For each 12-bit sum of suit counters: ``base`` shifted to the first suit having
    at least ``minimum`` cards, or 0."""
    table = []
    for counters in range(1 << 12):
        found = 0
        for s in range(4):
            if (counters >> (3 * s)) & 7 >= minimum:
                found = base << (3 * s)
                break
        table.append(found)
    return tuple(table)


# With at most 7 cards at most one suit reaches 5 (a flush); with at most 5 board cards
# at most one suit reaches 3 (an omaha flush). Hold'em wants the bit position of that
# suit in a packed card, omaha its counter unit in a suit part.
_FLUSH_SHIFT = tuple(u.bit_length() - 1 if u else 0 for u in _suit_field_table(5, 1 << 31))
_BOARD3_UNIT = _suit_field_table(3, 1)


#: (non-flush, flush, omaha rows): see ``_build_tables``.
_Tables = tuple[dict[int, int], dict[int, int], list[list[int | None]]]


#: Tables per distinct ranking: equal rankings share one set.
_TABLE_CACHE: dict[tuple[bool, tuple[str, ...], bool], _Tables] = {}
#: Tables per ``Ranking`` object, by ``id``; ``_LOADED_RANKINGS`` keeps each object alive
#: so that its ``id`` is never reused.
_LOADED: dict[int, _Tables] = {}
_LOADED_RANKINGS: list[Ranking] = []


def _tables(ranking: Ranking) -> _Tables:
    """(non-flush, flush, omaha rows) of a ranking, built on first use (~0.3 s)."""
    tables = _LOADED.get(id(ranking))
    if tables is None:
        if not isinstance(ranking, Ranking):
            raise TypeError(f"not a Ranking: {ranking!r}")
        key = (ranking.flush_beats_full_house, ranking.low_straight, ranking.quads_kicker_counts)
        tables = _TABLE_CACHE.get(key)
        if tables is None:
            tables = _TABLE_CACHE[key] = _build_tables(ranking)
        _LOADED_RANKINGS.append(ranking)
        _LOADED[id(ranking)] = tables
    return tables


# --------------------------------------------------------------------------- tables


def _value(ranking: Ranking, code: int, tiebreak: Sequence[int]) -> int:
    """Encode a hand: position in the ranking's order, category code, tie-break nibbles."""
    position = code
    if ranking.flush_beats_full_house and code in (_FLUSH, _FULL_HOUSE):
        position = _FULL_HOUSE if code == _FLUSH else _FLUSH
    value = (position << _POSITION_SHIFT) | (code << _CODE_SHIFT)
    shift = 16
    for rank in tiebreak:
        value |= rank << shift
        shift -= 4
    return value


def _straight_top(ranking: Ranking, distinct: frozenset[int]) -> int | None:
    """Top rank of the straight formed by 5 distinct ranks, or None (art.14(3))."""
    top = max(distinct)
    if distinct == frozenset(range(top - 4, top + 1)):
        return top
    if distinct == frozenset({12, *range(ranking.lowest_rank, ranking.lowest_rank + 4)}):
        return ranking.lowest_rank + 3
    return None


def _five_value(ranking: Ranking, ranks: Sequence[int], suited: bool) -> int:
    """Value of exactly 5 cards given their ranks and whether they share a suit."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = tuple(count for _, count in groups)
    order = [rank for rank, _ in groups]
    if shape == (1, 1, 1, 1, 1):
        top = _straight_top(ranking, frozenset(ranks))
        if suited:
            if top is not None:
                return _value(ranking, _STRAIGHT_FLUSH, (top,))
            return _value(ranking, _FLUSH, order)
        if top is not None:
            return _value(ranking, _STRAIGHT, (top,))
        return _value(ranking, _HIGH_CARD, order)
    if suited:
        raise AssertionError("suited cards have distinct ranks")
    if shape == (4, 1):
        kicker = order[1] if ranking.quads_kicker_counts else _NO_KICKER
        return _value(ranking, _QUADS, (order[0], kicker))
    code = {
        (3, 2): _FULL_HOUSE,
        (3, 1, 1): _TRIPS,
        (2, 2, 1): _TWO_PAIR,
        (2, 1, 1, 1): _PAIR,
    }[shape]
    return _value(ranking, code, order)


def _key(ranks: Sequence[int]) -> int:
    return sum(_POW5[r] for r in ranks)


def _build_tables(ranking: Ranking) -> _Tables:
    """Lookup tables of one ranking, keyed by sums of ``_POW5`` (rank multisets).

    * non-flush: every multiset of 5, 6 or 7 ranks -> best 5-card value ignoring suits
      (for 6 and 7 cards: the max over dropping one card, recursively);
    * flush: every set of 5, 6 or 7 distinct ranks -> best flush or straight flush;
    * rows: ``rows[pair][triple]`` -> 5-card non-flush value of a hole pair and a board
      triple, both as sums of ``_B3`` (small ints); None where no such hand exists (a
      rank outside the ranking's deck: a pair with one has a row of None only), which
      makes ``max`` raise.
    """
    ranks = range(ranking.lowest_rank, 13)
    non_flush: dict[int, int] = {}
    flush: dict[int, int] = {}
    hand: tuple[int, ...]
    for hand in combinations_with_replacement(ranks, 5):
        if hand[0] != hand[4]:  # sorted: five of a kind only if first == last
            non_flush[_key(hand)] = _five_value(ranking, hand, suited=False)
    for hand in combinations(ranks, 5):
        flush[_key(hand)] = _five_value(ranking, hand, suited=True)
    pow5 = _POW5
    for size in (6, 7):
        for hand in combinations_with_replacement(ranks, size):
            # sorted: some rank five times or more iff hand[i] == hand[i + 4]
            if any(hand[i] == hand[i + 4] for i in range(size - 4)):
                continue
            key = _key(hand)
            distinct = set(hand)
            non_flush[key] = max([non_flush[key - pow5[r]] for r in distinct])
            if len(distinct) == size:
                flush[key] = max([flush[key - pow5[r]] for r in distinct])
    triples = list(combinations_with_replacement(range(13), 3))
    if len({sum(_B3[r] for r in t) for t in triples}) != len(triples):
        raise AssertionError("_B3 sums of three ranks are not unique")
    no_hand: list[int | None] = [None] * (3 * _B3[-1] + 1)
    rows: list[list[int | None]] = [no_hand] * (2 * _B3[-1] + 1)
    for pair in combinations_with_replacement(ranks, 2):
        row: list[int | None] = [None] * (3 * _B3[-1] + 1)
        pair_key = _key(pair)
        for triple in combinations_with_replacement(ranks, 3):
            value = non_flush.get(pair_key + _key(triple))
            if value is not None:
                row[sum(_B3[r] for r in triple)] = value
        rows[_B3[pair[0]] + _B3[pair[1]]] = row
    return non_flush, flush, rows


# ------------------------------------------------------------------------ evaluation


def _bad_input(ranking: Ranking, *groups: Sequence[str]) -> ValueError:
    """Explain why cards could not be evaluated (bad text, outside the deck)."""
    if not isinstance(ranking, Ranking):
        return ValueError(f"ranking must be a Ranking, not {ranking!r}")
    for group in groups:
        if isinstance(group, str):
            return ValueError(f"cards must be a sequence of 2-character cards, not {group!r}")
        for text in group:
            if not isinstance(text, str) or text not in _PACK:
                return ValueError(
                    f"bad card {text!r}: expected rank in {RANKS!r} then suit in {SUITS!r}"
                )
            if text[0] not in ranking.deck_ranks:
                return ValueError(
                    f"card {text!r} is not in the deck of ranking {ranking.name!r} "
                    f"(ranks {ranking.deck_ranks})"
                )
    return ValueError(f"cannot evaluate {groups!r}")


def _duplicates(cards: Sequence[str]) -> ValueError:
    dup = sorted(text for text, count in Counter(cards).items() if count > 1)
    return ValueError(f"duplicate cards {dup} in {list(cards)!r}")


def rank_five(cards: Sequence[str], ranking: Ranking = STANDARD) -> int:
    """Value of exactly five cards (MO-97/2010 art.15; PT-217/2007 n.º 17, 103).

    A full house beats a flush (MO-97/2010 art.15(4)-(5)); in "póquer sintético" the
    flush is placed above it (``replayer.rankings.SYNTHETIC``):

    >>> rank_five(["9h", "9d", "9c", "As", "Ad"]) > rank_five(["Ah", "Kh", "Qh", "Jh", "9h"])
    True
    >>> from replayer.rankings import SYNTHETIC
    >>> full_house, flush = ["9h", "9d", "9c", "As", "Ad"], ["Ah", "Kh", "Qh", "Jh", "9h"]
    >>> rank_five(full_house, SYNTHETIC) > rank_five(flush, SYNTHETIC)
    False
    """
    try:
        non_flush, flush, _ = _tables(ranking)
        total = sum(map(_pack, cards))
        if len(cards) != 5:
            raise ValueError(f"rank_five needs exactly 5 cards, got {len(cards)}: {cards!r}")
        if len(set(cards)) != 5:
            raise _duplicates(cards)
        if _FLUSH_SHIFT[total >> _SUIT_SHIFT]:
            return flush[total & _RANK_MASK]
        return non_flush[total & _RANK_MASK]
    except (KeyError, TypeError, AttributeError):
        raise _bad_input(ranking, cards) from None


def best_any(hole: Sequence[str], board: Sequence[str], ranking: Ranking = STANDARD) -> int:
    """Best 5 of all hole and board cards (hold'em, PT-217/2007 n.º 94); the board may play.

    Needs at least 5 cards in all; duplicate cards raise ``ValueError``.

    The ace plays low in A-2-3-4-5 (MO-97/2010 art.14(3)):

    >>> describe(best_any(["As", "4d"], ["Qh", "7c", "5d", "3s", "2h"]))
    'straight, five high'

    Four nines on the board: the kicker decides in standard poker, but MO-97/2010
    art.15(3) does not count it, so the pot is split:

    >>> from replayer.rankings import MO_97_2010
    >>> board = ["9c", "9d", "9h", "9s", "2d"]
    >>> best_any(["Ah", "3c"], board) > best_any(["Kh", "3d"], board)
    True
    >>> best_any(["Ah", "3c"], board, MO_97_2010) == best_any(["Kh", "3d"], board, MO_97_2010)
    True
    """
    cards = (*hole, *board)
    try:
        non_flush, flush, _ = _tables(ranking)
        total = sum(map(_pack, cards))
        count = len(cards)
        if len(set(cards)) != count:
            raise _duplicates(cards)
        if 5 <= count <= 7:
            shift = _FLUSH_SHIFT[total >> _SUIT_SHIFT]
            if shift:
                return _with_flush(non_flush, flush, list(map(_pack, cards)), total, shift)
            return non_flush[total & _RANK_MASK]
        if count < 5:
            raise ValueError(f"best_any needs at least 5 cards, got {count}: {cards!r}")
        best = 0
        for seven in combinations(map(_pack, cards), 7):
            total = sum(seven)
            shift = _FLUSH_SHIFT[total >> _SUIT_SHIFT]
            if shift:
                value = _with_flush(non_flush, flush, seven, total, shift)
            else:
                value = non_flush[total & _RANK_MASK]
            best = max(best, value)
        return best
    except (KeyError, TypeError, AttributeError):
        raise _bad_input(ranking, hole, board) from None


def _with_flush(
    non_flush: dict[int, int], flush: dict[int, int], values: Sequence[int], total: int, shift: int
) -> int:
    """Best of 5-7 packed cards when the suit at ``shift`` has 5 or more of them."""
    suited = flush[sum([v & _RANK_MASK for v in values if v >> shift & 1])]
    return max(suited, non_flush[total & _RANK_MASK])


def best_two_plus_three(
    hole: Sequence[str], board: Sequence[str], ranking: Ranking = STANDARD
) -> int:
    """Best hand of exactly 2 hole + exactly 3 board cards (MO-97/2010 art.10(1);
    PT-217/2007 n.º 73 omaha, n.º 97 "póquer sintético").

    Needs 2-7 hole cards and 3-5 board cards; duplicate cards raise ``ValueError``.

    Four spades on the board and one in the hand make no omaha flush: two hole cards
    must play (MO-97/2010 art.10(1)), where hold'em would play the flush:

    >>> hole, board = ["As", "Kd", "Qc", "Jh"], ["2s", "7s", "9s", "Ts", "3h"]
    >>> describe(best_two_plus_three(hole, board))
    'high card, ace-king-ten-nine-seven'
    >>> describe(best_any(hole[:2], board))
    'flush, ace-ten-nine-seven-two'
    """
    try:
        _, flush, rows = _tables(ranking)
        n_hole = len(hole)
        n_board = len(board)
        if len({*hole, *board}) != n_hole + n_board:
            raise _duplicates((*hole, *board))
        if n_board == 5:
            b0, b1, b2, b3, b4 = map(_small, board)
            s01 = b0 + b1
            s02 = b0 + b2
            s12 = b1 + b2
            s34 = b3 + b4
            # Fetches the 10 board-triple entries of a hole-pair row in one C call.
            scan: itemgetter[tuple[int, ...]] = itemgetter(
                s01 + b2, s01 + b3, s01 + b4, s02 + b3, s02 + b4,
                s12 + b3, s12 + b4, b0 + s34, b1 + s34, b2 + s34,
            )  # fmt: skip
        elif n_board in (3, 4):
            triples = [a + b + c for a, b, c in combinations(map(_small, board), 3)]
            # Always >= 2 keys, so it returns a tuple.
            scan = itemgetter(triples[0], *triples[1:], triples[0])
        else:
            raise ValueError(f"best_two_plus_three needs 3-5 board cards, got {n_board}")
        # ``max`` of a scan raises TypeError on a None entry, so what it returns is an int.
        best: int
        if n_hole == 4:
            h0, h1, h2, h3 = map(_small, hole)
            best = max(
                max(scan(rows[h0 + h1])),
                max(scan(rows[h0 + h2])),
                max(scan(rows[h0 + h3])),
                max(scan(rows[h1 + h2])),
                max(scan(rows[h1 + h3])),
                max(scan(rows[h2 + h3])),
            )
        elif n_hole == 2:
            h0, h1 = map(_small, hole)
            best = max(scan(rows[h0 + h1]))
        elif 2 < n_hole <= 7:
            pairs = {a + b for a, b in combinations(map(_small, hole), 2)}
            best = max([max(scan(rows[pair])) for pair in pairs])
        else:
            raise ValueError(f"best_two_plus_three needs 2-7 hole cards, got {n_hole}")
        unit = _BOARD3_UNIT[sum(map(_suit_part, board))]
        if unit and sum(map(_suit_part, hole)) // unit & 7 >= 2:
            # A flush needs 2 hole and 3 board cards of the board's 3+ suit.
            suited_hole = [_rank_part(c) for c in hole if _suit_part(c) == unit]
            suited_board = [_rank_part(c) for c in board if _suit_part(c) == unit]
            suited = max(
                flush[a + b + c + d + e]
                for a, b in combinations(suited_hole, 2)
                for c, d, e in combinations(suited_board, 3)
            )
            if suited > best:
                return suited
        return best
    except (KeyError, TypeError, AttributeError):
        raise _bad_input(ranking, hole, board) from None


# ---------------------------------------------------------------------- description


def _checked(rank: object) -> tuple[int, int]:
    """(rank, its category code) for a hand value; ``ValueError`` naming anything else.

    Typed ``object`` (and narrowed twice: ``type`` refuses a bool, ``isinstance`` tells
    the type checker) so that the compiled build raises the same ``ValueError``."""
    if type(rank) is not int or not isinstance(rank, int) or rank < 0:
        raise ValueError(f"not a hand value: {rank!r}")
    code = (rank >> _CODE_SHIFT) & 0xF
    if rank >> _POSITION_SHIFT > 8 or code > 8:
        raise ValueError(f"not a hand value: {rank!r}")
    return rank, code


def category(rank: object) -> str:
    """Category name of a hand value: "high_card" ... "straight_flush" (MO-97/2010 art.15)."""
    return CATEGORIES[_checked(rank)[1]]


_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "jack", "queen", "king", "ace")  # fmt: skip
_PLURALS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
            "tens", "jacks", "queens", "kings", "aces")  # fmt: skip


def _nibbles(rank: int, count: int) -> list[int]:
    return [(rank >> (16 - 4 * i)) & 0xF for i in range(count)]


def describe(rank: object) -> str:
    """Plain-English hand, for inspectors: e.g. "full house, kings full of sevens"."""
    try:
        return _describe(*_checked(rank))
    except IndexError:
        raise ValueError(f"not a hand value: {rank!r}") from None


def _describe(rank: int, code: int) -> str:
    if code == _STRAIGHT_FLUSH:
        (top,) = _nibbles(rank, 1)
        return "royal flush" if top == 12 else f"straight flush, {_NAMES[top]} high"
    if code == _QUADS:
        quad, kicker = _nibbles(rank, 2)
        if kicker == _NO_KICKER:
            return f"four of a kind, {_PLURALS[quad]} (kicker ignored)"
        return f"four of a kind, {_PLURALS[quad]}, {_NAMES[kicker]} kicker"
    if code == _FULL_HOUSE:
        trips, pair = _nibbles(rank, 2)
        return f"full house, {_PLURALS[trips]} full of {_PLURALS[pair]}"
    if code == _FLUSH:
        return "flush, " + "-".join(_NAMES[r] for r in _nibbles(rank, 5))
    if code == _STRAIGHT:
        (top,) = _nibbles(rank, 1)
        return f"straight, {_NAMES[top]} high"
    if code == _TRIPS:
        trips, *kickers = _nibbles(rank, 3)
        return f"three of a kind, {_PLURALS[trips]}, kickers " + "-".join(
            _NAMES[r] for r in kickers
        )
    if code == _TWO_PAIR:
        high, low, kicker = _nibbles(rank, 3)
        return f"two pair, {_PLURALS[high]} and {_PLURALS[low]}, {_NAMES[kicker]} kicker"
    if code == _PAIR:
        pair, *kickers = _nibbles(rank, 4)
        return f"pair of {_PLURALS[pair]}, kickers " + "-".join(_NAMES[r] for r in kickers)
    return "high card, " + "-".join(_NAMES[r] for r in _nibbles(rank, 5))
