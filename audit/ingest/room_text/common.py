"""What GGPoker and PokerStars text hand histories share: money, cards, time, names.

Both rooms write amounts as decimal text with a currency symbol and thousands commas
(``$1,005.50``, ``€0.5``, ``1,250`` for play chips); we read them as ``Decimal`` text into
integer minor units of the hand's currency (``audit.ingest.notation.amounts``), never as floats,
and an amount that is not a whole number of minor units is a rejection. Cards are
``As Td`` in brackets, ``??`` never appears in the text (a blank ``Dealt to`` line is an
undisclosed hand, which we record as ``??`` cards).

A ``TextError`` is raised by the helpers for a line the importer does not understand; the
reader turns it into a rejection of the hand naming the file, line number and text.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from zoneinfo import ZoneInfo

from audit.ingest.errors import FieldError, cap
from audit.ingest.notation.amounts import Money, money_of
from audit.ingest.notation.cards import RANKS, SUITS
from audit.ingest.notation.time import ZONE_ABBREVIATIONS
from audit.notation.money import CHIP_MINOR_UNITS, CHIPS, TOURNAMENT_CHIPS

#: Currency symbols of the stakes; the ISO code after the stakes (``USD``) wins.
SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
#: Time zone names of the rooms' headers that follow daylight saving (IANA), beside the
#: fixed abbreviations PHH import accepts (``audit.ingest.notation.time.ZONE_ABBREVIATIONS``).
ZONES = {
    "ET": "America/New_York",
    "CT": "America/Chicago",
    "MT": "America/Denver",
    "PT": "America/Los_Angeles",
    "MSK": "Europe/Moscow",
    "WET": "Europe/Lisbon",
    "AET": "Australia/Sydney",
}

_AMOUNT = re.compile(r"(?P<symbol>[$€£]?)(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)")
_CARDS = re.compile(r"\[(?P<cards>[^\[\]]*)\]")


class TextError(ValueError):
    """A line of a hand the importer does not understand (the reason says why);
    ``line`` is its number in the file, once known."""

    line: int | None = None
    field: str | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a hand: its number in the file (1-based) and its text."""

    number: int
    text: str

    def error(self, reason: str) -> TextError:
        return TextError(f"{reason}: {cap(repr(self.text), 300)}")


def money_for(stakes: str, code: str | None) -> Money:
    """The hand's unit from its stakes (``$0.01/$0.02``) and ISO code (``USD``), if any.

    No symbol and no code: play or tournament chips (``XXX``, ``CHIP_MINOR_UNITS`` per
    chip). ``¥`` and other symbols are refused: the text does not say which yen or yuan.
    """
    symbols = {char for char in stakes if not (char.isdigit() or char in "./, ")}
    if symbols - set(SYMBOLS):
        raise TextError(f"unknown currency symbol in the stakes {cap(repr(stakes), 60)}")
    currency = code or (SYMBOLS[next(iter(symbols))] if len(symbols) == 1 else None)
    if len(symbols) > 1:
        raise TextError(f"mixed currency symbols in the stakes {cap(repr(stakes), 60)}")
    if currency is None:
        return Money(CHIPS, CHIP_MINOR_UNITS)
    try:
        return money_of(currency)
    except FieldError as error:
        raise TextError(error.reason) from None


def tournament_money() -> Money:
    """The unit of a tournament hand's amounts: whole chips (``TOURNAMENT_CHIPS``)."""
    return Money(TOURNAMENT_CHIPS, 1)


def shown(minor: int, money: Money) -> str:
    """An amount of a hand as the text writes it, for a reason: ``USD 1.25``, ``1,500
    chips`` (this layer does not import ``audit.notation.money``, which imports it)."""
    if money.minor_per_major == 1:
        unit = "chips" if money.currency in (TOURNAMENT_CHIPS, CHIPS) else money.currency
        return f"{minor:,} {unit}" if unit == "chips" else f"{unit} {minor:,}"
    places = len(str(money.minor_per_major)) - 1
    whole, rest = divmod(minor, money.minor_per_major)
    if money.currency == CHIPS:
        return f"{whole:,}.{rest:0{places}d} chips".replace(f".{0:0{places}d} ", " ")
    return f"{money.currency} {whole:,}.{rest:0{places}d}"


def amount(text: str, money: Money) -> int:
    """``$1,005.50`` (symbol optional) as minor units of ``money``; TextError otherwise."""
    match = _AMOUNT.fullmatch(text.strip())
    if match is None:
        raise TextError(f"{cap(repr(text), 60)} is not an amount")
    symbol = match.group("symbol")
    if symbol and (money.currency == TOURNAMENT_CHIPS or SYMBOLS[symbol] != money.currency):
        raise TextError(f"amount {text!r} is not in the hand's currency {money.currency}")
    try:
        return money.to_minor(Decimal(match.group("number").replace(",", "")), "amount")
    except (FieldError, InvalidOperation) as error:
        reason = error.reason if isinstance(error, FieldError) else "not a number"
        raise TextError(f"amount {text!r}: {reason}") from None


def cards(text: str, count: int | None = None) -> list[str]:
    """``[As Td]`` or ``As Td`` as cards; ``count`` when the number is fixed."""
    inner = _CARDS.fullmatch(text.strip())
    words = (inner.group("cards") if inner else text).split()
    for card in words:
        if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
            raise TextError(f"{cap(repr(card), 20)} is not a card (rank 2-9TJQKA, suit cdhs)")
    if not words or (count is not None and len(words) != count):
        raise TextError(f"{cap(repr(text), 60)} is not {count or 'some'} card(s)")
    return words


def bracketed(text: str) -> list[list[str]]:
    """Every ``[...]`` group of cards in ``text``, in order."""
    return [cards(match.group(0)) for match in _CARDS.finditer(text)]


def local_time(date: str, clock: str) -> dt.datetime:
    """The header's ``YYYY/MM/DD`` and ``H:MM:SS`` as a naive local time."""
    try:
        return dt.datetime.strptime(f"{date} {clock}", "%Y/%m/%d %H:%M:%S")
    except ValueError:
        raise TextError(f"{date} {clock} is not a date and time") from None


def zone_info(zone: str) -> dt.tzinfo:
    """A header's zone (``ET``, ``CET``) or a declared one (those, or an IANA name such
    as ``Europe/Malta``); TextError for any other."""
    if zone in ZONES:
        return ZoneInfo(ZONES[zone])
    if zone in ZONE_ABBREVIATIONS:
        return dt.timezone(dt.timedelta(hours=ZONE_ABBREVIATIONS[zone]))
    if "/" in zone:
        try:
            return ZoneInfo(zone)
        except (ValueError, KeyError, OSError):  # not a name, not found, unreadable
            pass
    raise TextError(f"unknown time zone {cap(repr(zone), 40)}")


def in_zone(local: dt.datetime, zone: str) -> dt.datetime:
    """``local`` (naive) read in ``zone``, as UTC."""
    tzinfo = zone_info(zone)
    try:
        return local.replace(tzinfo=tzinfo).astimezone(dt.UTC)
    except OverflowError:
        raise TextError(f"{local:%Y/%m/%d %H:%M:%S} {zone} is out of range in UTC") from None


class Names:
    """The players of a hand by name, to split ``NAME: verb`` lines whose names may hold
    anything, colons and brackets included (names are hostile input)."""

    def __init__(self) -> None:
        self.seat_of: dict[str, int] = {}

    def add(self, name: str, seat: int) -> None:
        if name in self.seat_of:
            raise TextError(f"player {cap(repr(name), 60)} sits twice")
        self.seat_of[name] = seat

    def split(self, text: str, separator: str) -> tuple[int, str] | None:
        """(seat, the rest) when ``text`` is a known name, ``separator``, the rest; the
        longest matching name wins."""
        best: tuple[int, str] | None = None
        start = 0
        while (index := text.find(separator, start)) >= 0:
            seat = self.seat_of.get(text[:index])
            if seat is not None:
                best = (seat, text[index + len(separator) :])
            start = index + 1
        return best

    def ending(self, text: str, prefix: str) -> int | None:
        """The seat of the name that ``text`` ends with after ``prefix``."""
        if not text.startswith(prefix):
            return None
        return self.seat_of.get(text[len(prefix) :])
