"""A pot shared between boards run more than once after an all-in (``BoardRun``).

None of the sources speaks of running the board more than once. The rule applied: a pot
of P run k times gives each run P/k, shared equally among that run's winners by that
run's board (``showdown``); a player is owed the sum of his shares over the runs. The
shares are then paid as the rulebook pays a split pot (``book.cite.board_runs``): each
player gets the whole split units of what he is owed, and the chips left over (less than
one unit per winner) go by the rulebook's odd-chip rule among the pot's winners
(``pots.split``): MO-97/2010 art.10(5) the first winner from seat one, PT-217/2007
n.º 67 one unit each from the "mão", GG-2022 (concessão de prémios, frações de centavo)
the fraction is dropped, counted over the player's winnings from the whole hand as
``pots.split_pots`` does. When every run has the same winners this is exactly the split
of the pot on one board.
"""

from __future__ import annotations

from fractions import Fraction

from replayer.poker.pots import recover_units, split
from replayer.rulebooks.poker import OddChip

RunPot = tuple[int, list[list[int]] | None]
"""(chips to share, each run's winning positions; None when a run cannot be judged)."""


def owed_by_run(amount: int, runs: list[list[int]]) -> dict[int, Fraction]:
    """What each winning position is owed: P/k per run, equal shares within a run.

    >>> owed_by_run(101, [[0], [0, 1]])
    {0: Fraction(303, 4), 1: Fraction(101, 4)}
    """
    owed: dict[int, Fraction] = {}
    for won in runs:
        for p in won:
            owed[p] = owed.get(p, Fraction(0)) + Fraction(amount, len(runs) * len(won))
    return dict(sorted(owed.items()))


def split_runs(
    pots: list[RunPot], unit: int, rule: OddChip, seat_of: tuple[int, ...]
) -> list[tuple[dict[int, int], int]]:
    """(share per winning position, chips kept by the house) of each pot, in order.

    A pot of 101 run twice, seat 5 (position 0) wins the first run and seat 2 (position 1)
    the second: 50.5 each; MO-97/2010 art.10(5) gives the odd chip to seat 2, GG-2022
    drops it:

    >>> split_runs([(101, [[0], [1]])], 1, OddChip.FIRST_WINNER_FROM_SEAT_ONE, (5, 2))
    [({0: 50, 1: 51}, 0)]
    >>> split_runs([(101, [[0], [1]])], 1, OddChip.DROPPED, (5, 2))
    [({0: 50, 1: 50}, 1)]

    The same winner in both runs wins the whole pot:

    >>> split_runs([(101, [[0], [0]])], 1, OddChip.DROPPED, (5, 2))
    [({0: 101}, 0)]
    """
    settled: list[tuple[dict[int, int], int]] = []
    exact: list[dict[int, Fraction]] = []
    for amount, runs in pots:
        owed = owed_by_run(amount, runs) if runs else {}
        exact.append(owed)
        shares = {p: int(value // unit) * unit for p, value in owed.items()}
        rest = amount - sum(shares.values()) if owed else 0
        if rest and rule is not OddChip.DROPPED:
            extra, kept = split(rest, list(owed), unit, rule, seat_of)
            for p, chips in extra.items():
                shares[p] += chips
            rest = kept
        settled.append((shares, rest))
    if rule is OddChip.DROPPED:
        _recover(settled, exact, unit)
    return settled


def _recover(
    settled: list[tuple[dict[int, int], int]], exact: list[dict[int, Fraction]], unit: int
) -> None:
    """GG-2022: a player's winnings from the hand, not each pot, lose their fraction.

    Each whole unit of a pot's kept remainder is credited to the pot's winners in
    proportion to the fractions they lost there; a player whose credit over every pot
    reaches whole units is paid them out of those remainders (``pots.recover_units``).
    """
    credit: dict[int, Fraction] = {}
    slots: list[tuple[int, tuple[int, ...]]] = []
    for index, ((shares, rest), owed) in enumerate(zip(settled, exact, strict=True)):
        units = rest // unit
        if not units:
            continue
        lost = {p: value - shares[p] for p, value in owed.items() if value > shares[p]}
        slots.extend([(index, tuple(lost))] * units)
        for p, fraction in lost.items():
            credit[p] = credit.get(p, Fraction(0)) + fraction * units / rest
    owed_units = {p: int(c) for p, c in sorted(credit.items()) if c >= 1}
    if owed_units:
        recover_units(settled, slots, owed_units, unit)
