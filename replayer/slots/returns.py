"""Is a machine's metered return consistent with a target return? Two one-sided tests.

The metered return over a span is R = won / coin_in, won = coin_out + jackpot. A slot's win
per game is bounded below by 0 and has a long upper tail (a top award of 1,000 × the stake
once in 10,000 games), so the two directions need different tests:

* **Paying too little** (R < t, the player's loss; the 80% floor of PT-217/2007 III.2):
  the normal approximation. Assumption (the rulebook's ``standard_errors`` docs): the n
  games are independent, of equal stake, and the win per unit wagered has standard
  deviation sd. Then R has standard error sd / sqrt(n), and R lies beyond k standard errors
  below t exactly when (t - R)^2 * n > k^2 * sd^2. The lower tail of a sum of non-negative
  wins is lighter than the normal one, so this errs towards fewer false alarms.
* **Paying too much** (R > t): the normal approximation fails here for any window short of
  millions of games: one top award in a day's few hundred games lifts R far beyond 3
  standard errors (measured: 2-3% of honest machines at 400 to 12,000 games). Bernstein's
  inequality holds at every n: each game's win lies in [0, b] with b the machine's declared
  ``max_single_win``, so under "expected return t" the summed variance is at most
  E[sum win^2] <= b * t * coin_in, and P(won - t * coin_in >= x) <=
  exp(-x^2 / (2 (b t coin_in + b x / 3))). The excess x is flagged when that bound is below
  exp(-k^2 / 2), i.e. x^2 > k^2 (b t coin_in + b x / 3): a false alarm is rarer than
  exp(-k^2 / 2) (1.1% at k = 3) whatever the paytable's shape.

Integers and ``Fraction`` only, no square root, no float.
"""

from __future__ import annotations

from fractions import Fraction


def beyond_standard_errors(
    actual: Fraction, target: Fraction, games: int, sd: Fraction, k: int
) -> bool:
    """True when ``actual`` differs from ``target`` by more than k standard errors."""
    return (actual - target) ** 2 * games > k**2 * sd**2


def overpays_beyond_bound(
    won: int, coin_in: int, target: Fraction, max_single_win: int, k: int
) -> bool:
    """True when ``won`` exceeds ``target * coin_in`` by more than Bernstein's bound allows
    at level exp(-k^2/2), each game's win lying in [0, ``max_single_win``]."""
    excess = won - target * coin_in
    if excess <= 0:
        return False
    return excess**2 > k**2 * (max_single_win * target * coin_in + max_single_win * excess / 3)
