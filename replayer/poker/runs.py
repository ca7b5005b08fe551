"""A pot shared between boards run more than once after an all-in (``BoardRun``).

None of the sources speaks of running the board more than once. A pot of P run k times
gives each run P/k, shared equally among that run's winners by that run's board
(``showdown``); how the indivisible part is paid is the rulebook's named choice
(``RunShare``, cited as ``book.cite.board_runs``):

* ``EXACT`` (MO-97/2010, PT-217/2007: their split rules applied to the whole pot): a
  player is owed the sum of his exact shares over the runs; each gets the whole split
  units of it, and the chips left over (less than one unit per winner) go by the
  rulebook's odd-chip rule among the pot's winners (``pots.split``): MO-97/2010
  art.10(5) the first winner from seat one, PT-217/2007 n.º 67 one unit each from the
  "mão", or, under ``OddChip.DROPPED``, the fraction dropped counted over the player's
  winnings from the whole hand as ``pots.split_pots`` does. When every run has the same
  winners this is exactly the split of the pot on one board.
* ``FIRST_RUN_ODD_UNIT`` (GG-2022 cash, open choice as the room's histories pay): the pot
  is first divided between the runs in whole units, the units left one each to the first
  runs; each run's part is then a pot of its own, split among that run's winners
  (``pots.split``).
"""

from __future__ import annotations

from fractions import Fraction

from replayer.poker.pots import recover_units, split
from replayer.rulebooks.poker import OddChip, RunShare

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
    pots: list[RunPot],
    unit: int,
    rule: OddChip,
    seat_of: tuple[int, ...],
    run_share: RunShare,
) -> list[tuple[dict[int, int], int]]:
    """(share per winning position, chips kept by the house) of each pot, in order.

    A pot of 101 run twice, seat 5 (position 0) wins the first run and seat 2 (position 1)
    the second: 50.5 each; MO-97/2010 art.10(5) gives the odd chip to seat 2, GG-2022
    drops it:

    >>> exact = RunShare.EXACT
    >>> split_runs([(101, [[0], [1]])], 1, OddChip.FIRST_WINNER_FROM_SEAT_ONE, (5, 2), exact)
    [({0: 50, 1: 51}, 0)]
    >>> split_runs([(101, [[0], [1]])], 1, OddChip.DROPPED, (5, 2), exact)
    [({0: 50, 1: 50}, 1)]

    The same winner in both runs wins the whole pot:

    >>> split_runs([(101, [[0], [0]])], 1, OddChip.DROPPED, (5, 2), exact)
    [({0: 101}, 0)]

    GG-2022 cash (open choice, as the room pays): 9785 run twice is 4893 for the first
    run and 4892 for the second, whoever sits first left of the button:

    >>> split_runs(
    ...     [(9785, [[1], [0]])], 1, OddChip.FIRST_WINNER_LEFT_OF_BUTTON, (1, 4),
    ...     RunShare.FIRST_RUN_ODD_UNIT,
    ... )
    [({0: 4892, 1: 4893}, 0)]
    """
    if run_share is RunShare.FIRST_RUN_ODD_UNIT:
        return [_by_run(amount, runs, unit, rule, seat_of) for amount, runs in pots]
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


def _by_run(
    amount: int,
    runs: list[list[int]] | None,
    unit: int,
    rule: OddChip,
    seat_of: tuple[int, ...],
) -> tuple[dict[int, int], int]:
    """``RunShare.FIRST_RUN_ODD_UNIT``: the pot divided between the runs in whole units
    (the units left one each to the first runs, any part of a unit to the first), each
    run's part split among its winners (``pots.split``)."""
    if not runs:
        return {}, 0
    count = len(runs)
    base = amount // (count * unit) * unit
    units, part = divmod(amount - base * count, unit)
    shares: dict[int, int] = {}
    kept = 0
    for index, won in enumerate(runs):
        run_amount = base + (unit if index < units else 0) + (part if index == 0 else 0)
        run_shares, run_kept = split(run_amount, won, unit, rule, seat_of)
        kept += run_kept
        for p, chips in run_shares.items():
            shares[p] = shares.get(p, 0) + chips
    return dict(sorted(shares.items())), kept


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
