"""PHH amounts to integer minor units.

PHH writes every amount (``antes``, ``blinds_or_straddles``, ``starting_stacks``,
``cbr`` amounts, ``finishing_stacks``, ...) in major units of its ``currency`` field
(ISO 4217), or in chips when ``currency`` is absent. The project counts money in integer
minor units of ``HandStarted.currency``: cents for USD, yen for JPY, and for chips
(currency ``"XXX"``) ``CHIP_MINOR_UNITS`` per chip, so the half chips of split pots in
real data (``10112.5``) stay exact. TOML floats are read as ``decimal.Decimal``, never as
binary floats.
"""

from __future__ import annotations

import decimal
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from audit.ingest.errors import FieldError
from audit.ingest.limits import LONG_MAX
from audit.notation.money import CHIP_MINOR_UNITS, CHIPS

#: Exact arithmetic: any rounding, overflow or underflow raises instead of passing a
#: rounded amount for an exact one (``1.000…0001`` with more digits than the default
#: 28-digit context keeps, ``1e-1100000``).
_EXACT = decimal.Context(
    prec=decimal.MAX_PREC,
    Emax=decimal.MAX_EMAX,
    Emin=decimal.MIN_EMIN,
    traps=[decimal.Inexact, decimal.Overflow, decimal.Underflow, decimal.InvalidOperation],
)


#: ISO 4217 minor-unit exponents of the currencies we accept.
CURRENCY_EXPONENTS: dict[str, int] = {
    "AUD": 2,
    "CAD": 2,
    "CHF": 2,
    "CNY": 2,
    "EUR": 2,
    "GBP": 2,
    "HKD": 2,
    "JPY": 0,
    "KRW": 0,
    "MOP": 2,
    "PHP": 2,
    "SGD": 2,
    "USD": 2,
}


@dataclass(frozen=True, slots=True)
class Money:
    """The unit of a hand's amounts: ISO 4217 code and minor units per major unit."""

    currency: str
    minor_per_major: int

    def to_minor(self, value: Any, field: str, index: int | None = None) -> int:
        """Convert one non-negative PHH amount (int or Decimal) to minor units; an error
        names ``field``, or its element ``field[index]``."""
        if type(value) is int and 0 <= value <= LONG_MAX // self.minor_per_major:
            return value * self.minor_per_major  # the common case, checked below in full
        if index is not None:
            field = f"{field}[{index}]"
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise FieldError(field, f"amount {_short(repr(value))} is not a number")
        if isinstance(value, Decimal) and not value.is_finite():
            raise FieldError(
                field, f"amount {value} is not a finite number (unknown amounts are not supported)"
            )
        if value < 0:
            raise FieldError(field, f"amount {_short(value)} is negative")
        if value > LONG_MAX // self.minor_per_major:
            raise FieldError(
                field,
                f"amount {_short(value)} is too large: at most "
                f"{LONG_MAX // self.minor_per_major:,} {self.unit_name} (a 64-bit count of "
                f"minor units)",
            )
        if isinstance(value, int):
            return value * self.minor_per_major
        try:
            minor = _EXACT.multiply(value, self.minor_per_major)
            whole = minor == _EXACT.to_integral_value(minor)
        except decimal.DecimalException:
            whole = False
        if not whole:
            raise FieldError(
                field,
                f"amount {_short(value)} is not a whole number of minor units "
                f"(1/{self.minor_per_major} of {self.unit_name})",
            )
        return int(minor)

    def to_minor_list(self, values: list[Any], field: str) -> list[int]:
        """Convert a per-player PHH array, naming the element (``field[i]``) on error."""
        return [self.to_minor(value, field, i) for i, value in enumerate(values)]

    def major(self, minor: int) -> str:
        """An amount in minor units written back in the PHH file's units (``10112.5``)."""
        return format((Decimal(minor) / self.minor_per_major).normalize(), "f")

    @property
    def unit_name(self) -> str:
        return "a chip" if self.currency == CHIPS else self.currency


def _short(value: Any) -> str:
    """An amount for a reason, cut when it is absurdly long."""
    text = str(value) if not isinstance(value, int) or value.bit_length() < 10_000 else "(huge)"
    return text if len(text) <= 40 else f"{text[:20]}…{text[-10:]} ({len(text)} characters)"


def money_of(currency: Any) -> Money:
    """The unit named by the PHH ``currency`` field (absent: chips)."""
    if currency is None or currency == CHIPS:
        return Money(CHIPS, CHIP_MINOR_UNITS)
    if not isinstance(currency, str) or currency not in CURRENCY_EXPONENTS:
        raise FieldError(
            "currency",
            f"unsupported currency {_short(repr(currency))}: expected one of "
            f"{', '.join(sorted(CURRENCY_EXPONENTS))} or none (chips)",
        )
    return Money(currency, 10 ** CURRENCY_EXPONENTS[currency])
