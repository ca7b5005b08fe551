"""Is a machine's metered return consistent with a target return? An exact z-test.

The metered return over a span is R = (coin_out + jackpot) / coin_in. Assumption (the
rulebook's ``standard_errors`` docs): the n games are independent, of equal stake, and the
win per unit wagered on one game has standard deviation sd (the paytable's, or the
rulebook's assumed value). Then R has standard error sd / sqrt(n), and R departs from a
target t beyond k standard errors exactly when (R - t)^2 * n > k^2 * sd^2: integers and
``Fraction`` only, no square root, no float.
"""

from __future__ import annotations

from fractions import Fraction


def beyond_standard_errors(
    actual: Fraction, target: Fraction, games: int, sd: Fraction, k: int
) -> bool:
    """True when ``actual`` differs from ``target`` by more than k standard errors."""
    return (actual - target) ** 2 * games > k**2 * sd**2
