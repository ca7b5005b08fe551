"""The single-zero roulette layout: every legal bet of every type (GG-2022 live IV 1.1).

The numbers 1-36 lie in 12 rows of three (1-2-3, 4-5-6, ...) and three columns (1, 4, ...,
34; 2, 5, ..., 35; 3, 6, ..., 36); 0 sits above the first row. A bet's numbers are legal
for its type when they are one of that type's sets here:

* straight: one number, 0 included; split: two adjacent numbers, across or down a row,
  or 0 with 1, 2 or 3; street: a row (and the trios 0-1-2, 0-2-3 when the rulebook
  accepts them); corner: four numbers meeting at a corner, or 0-1-2-3 (IV 1.1 "Aposta
  de canto"); four_number: 0-1-2-3; six_line: two adjacent rows;
* column, dozen (1-12, 13-24, 25-36), red, black, odd, even, low (1-18), high (19-36).
"""

from __future__ import annotations

from functools import cache

RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
NUMBERS = range(1, 37)
FIRST_FOUR = frozenset({0, 1, 2, 3})

#: Even-money bets, whose numbers may be omitted from the record.
EVEN_MONEY: dict[str, frozenset[int]] = {
    "red": RED,
    "black": frozenset(NUMBERS) - RED,
    "odd": frozenset(n for n in NUMBERS if n % 2),
    "even": frozenset(n for n in NUMBERS if not n % 2),
    "low": frozenset(range(1, 19)),
    "high": frozenset(range(19, 37)),
}


def _row(first: int, rows: int = 1) -> frozenset[int]:
    return frozenset(range(first, first + 3 * rows))


@cache
def legal_bets(zero_trios: bool) -> dict[str, frozenset[frozenset[int]]]:
    """Every legal set of numbers for every bet type."""
    row_starts = range(1, 37, 3)
    across = [frozenset({n, n + 1}) for n in NUMBERS if n % 3]
    down = [frozenset({n, n + 3}) for n in range(1, 34)]
    zero_splits = [frozenset({0, n}) for n in (1, 2, 3)]
    trios = [frozenset({0, 1, 2}), frozenset({0, 2, 3})] if zero_trios else []
    corners = [frozenset({n, n + 1, n + 3, n + 4}) for n in range(1, 33) if n % 3]
    return {
        "straight": frozenset(frozenset({n}) for n in range(37)),
        "split": frozenset(across + down + zero_splits),
        "street": frozenset([_row(start) for start in row_starts] + trios),
        "corner": frozenset([*corners, FIRST_FOUR]),
        "four_number": frozenset({FIRST_FOUR}),
        "six_line": frozenset(_row(start, 2) for start in row_starts[:-1]),
        "column": frozenset(frozenset(n for n in NUMBERS if n % 3 == c) for c in (1, 2, 0)),
        "dozen": frozenset(frozenset(range(d, d + 12)) for d in (1, 13, 25)),
        **{name: frozenset({numbers}) for name, numbers in EVEN_MONEY.items()},
    }


def bet_numbers(bet_type: str, numbers: tuple[int, ...], zero_trios: bool) -> frozenset[int] | None:
    """The numbers a bet covers, or None when they are not a legal bet of its type."""
    legal = legal_bets(zero_trios).get(bet_type)
    if legal is None:
        return None
    if not numbers and bet_type in EVEN_MONEY:
        return EVEN_MONEY[bet_type]
    covered = frozenset(numbers)
    if len(covered) != len(numbers) or covered not in legal:
        return None
    return covered
