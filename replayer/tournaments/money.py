"""Exact shares of money: ``fractions.Fraction`` for the exact amount, floored to the minor
unit, never a float.

GG-2022 Política de concessão de prêmios: "os jogadores não receberão frações de
centavos ... se você ganhar $4.096, você receberá $4.09": every share is floored to the
minor unit. What happens to the units the floors leave over is a named choice
(``Remainder``): the source drops them (``DROP``, the default); ``LARGEST_FRACTION``
is our alternative, for operators that pay the pool out in full.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction

FRACTIONS_OF_A_CENT = "GG-2022 Política de concessão de prêmios (frações de centavo)"


class Remainder(StrEnum):
    """Who gets the minor units left over after flooring every share."""

    DROP = "drop"
    """Nobody: fractions of a cent are not paid (GG-2022, 4.096 -> 4.09)."""
    LARGEST_FRACTION = "largest_fraction"
    """Our choice, not in the sources: one unit each to the shares whose dropped fraction
    was largest, ties in the order given (a seat or registration order)."""


def shares(amount: Fraction | int, weights: Sequence[int], remainder: Remainder) -> list[int]:
    """``amount`` split in proportion to ``weights`` (all zero: equally), in minor units."""
    if not weights:
        return []
    total = sum(weights)
    if total == 0:
        weights, total = [1] * len(weights), len(weights)
    exact = [Fraction(amount) * weight / total for weight in weights]
    floors = [math.floor(share) for share in exact]
    if remainder is Remainder.LARGEST_FRACTION:
        left = math.floor(Fraction(amount)) - sum(floors)
        order = sorted(range(len(exact)), key=lambda i: (floors[i] - exact[i], i))
        for index in order[:left]:
            floors[index] += 1
    return floors


def equal_shares(amount: Fraction | int, count: int, remainder: Remainder) -> list[int]:
    """``amount`` split equally ``count`` ways, in minor units."""
    return shares(amount, [1] * count, remainder)
