"""Money in words: the one formatter every human-facing output uses.

``format_money(minor, currency)`` writes an integer count of minor units (the only way
the project stores money, README "Event schemas and ingest") as an inspector reads it::

    format_money(288, "EUR")        EUR 2.88
    format_money(62500, "MOP")      MOP 625.00
    format_money(112560000, "USD")  USD 1,125,600.00
    format_money(1500, "JPY")       JPY 1,500
    format_money(1234, "KWD")       KWD 1.234
    format_money(-35, "EUR")        -EUR 0.35
    format_money(22500, "XXX")      225 chips
    format_money(1011250, "XXX")    10,112.5 chips
    format_money(100, "XXX")        1 chip
    format_money(1500, "CHIPS")     1,500 chips
    format_money(1500, None)        1,500 minor units

* **Exponents** are ISO 4217's: 2 unless listed otherwise (0 for JPY, KRW and the other
  zero-decimal codes; 3 for BHD, IQD, JOD, KWD, LYD, OMR, TND; 4 for CLF, UYW).
* **Negative amounts** put the sign before the code: ``-EUR 0.35`` (one glance at the
  first character tells the sign; ``EUR -0.35`` is not used anywhere).
* **Chips**: ``XXX`` (ISO 4217 "no currency") means chips, 1 chip = ``CHIP_MINOR_UNITS``
  (100) minor units (README "PHH import"): whole chips without decimals, half chips as
  ``.5``, ``1 chip`` in the singular. ``CHIPS`` is a tournament hand's unit (the room
  text importer, ``audit.ingest.room_text.common.TOURNAMENT_CHIPS``): whole chips, one
  chip a unit, never decimals: ``1,500 chips``.
* **Unknown or missing currency** (None, a code outside ISO 4217, or a code ISO gives no
  minor unit such as ``XAU``): the integer with ``minor units`` and the code when it
  has the ISO shape (``1,500 minor units of XAU``); no guessed decimals.

Integer arithmetic only (``divmod``); a float is refused, never rounded.
"""

from __future__ import annotations

import re

#: ISO 4217 code for "no currency": tournament or play chips.
CHIPS = "XXX"

#: A room's tournament hand's currency: whole chips, one chip a unit (room text import).
TOURNAMENT_CHIPS = "CHIPS"
#: Minor units per chip when the PHH file has no ``currency``: 1 chip = 100 minor units.
CHIP_MINOR_UNITS = 100

__all__ = [
    "CHIPS",
    "CHIP_MINOR_UNITS",
    "TOURNAMENT_CHIPS",
    "exponent",
    "format_money",
    "is_money",
]


def _codes(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: ISO 4217 codes with no minor unit (exponent 0).
_ZERO = _codes("BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF")
#: ISO 4217 codes with three decimals.
_THREE = _codes("BHD IQD JOD KWD LYD OMR TND")
#: ISO 4217 codes with four decimals.
_FOUR = _codes("CLF UYW")
#: ISO 4217 codes with two decimals (current, and recently withdrawn ones still seen in data).
_TWO = _codes(
    """AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN
    BWP BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN
    ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IRR JMD
    KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR
    MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB
    SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY
    TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG ZWL"""
)
_ISO_SHAPE = re.compile(r"[A-Z]{3}")


def exponent(currency: str | None) -> int | None:
    """ISO 4217 minor-unit exponent of ``currency``; None when it is not a known currency
    with a minor unit (None, chips ``XXX``, ``XAU``, an unknown code)."""
    if currency in _TWO:
        return 2
    if currency in _ZERO:
        return 0
    if currency in _THREE:
        return 3
    if currency in _FOUR:
        return 4
    return None


def is_money(currency: str | None) -> bool:
    """True when ``format_money`` writes ``currency`` as money or chips (not raw units)."""
    return currency in (CHIPS, TOURNAMENT_CHIPS) or exponent(currency) is not None


def _grouped(whole: int) -> str:
    return f"{whole:,}"


def format_money(minor: int, currency: str | None) -> str:
    """``minor`` units of ``currency`` in words (see the module docstring)."""
    if isinstance(minor, bool) or not isinstance(minor, int):
        raise TypeError(f"money is an integer count of minor units, got {minor!r}")
    sign = "-" if minor < 0 else ""
    size = abs(minor)
    if currency == TOURNAMENT_CHIPS:
        return f"{sign}{_grouped(size)} chip{'' if size == 1 else 's'}"
    if currency == CHIPS:
        whole, rest = divmod(size, CHIP_MINOR_UNITS)
        if rest:
            width = len(str(CHIP_MINOR_UNITS - 1))
            fraction = f"{rest:0{width}d}".rstrip("0")
            return f"{sign}{_grouped(whole)}.{fraction} chips"
        return f"{sign}{_grouped(whole)} chip{'' if whole == 1 else 's'}"
    places = exponent(currency)
    if places is None:
        code = currency if isinstance(currency, str) and _ISO_SHAPE.fullmatch(currency) else None
        suffix = f" of {code}" if code else ""
        return f"{sign}{_grouped(size)} minor unit{'' if size == 1 else 's'}{suffix}"
    if places == 0:
        return f"{sign}{currency} {_grouped(size)}"
    whole, rest = divmod(size, 10**places)
    return f"{sign}{currency} {_grouped(whole)}.{rest:0{places}d}"
