"""Cards of the banked games: two-character strings, rank then suit (``As``, ``Td``, ``9c``).

Card values differ by game:

* baccarat (punto banco, GG-2022 live II 1.3.2; chemin de fer, PT-217/2007 I.9-11):
  2-9 face value, ten and court cards 0, ace 1; a hand's total is its sum mod 10;
* blackjack (GG-2022 live III 1.5): 2-10 face value, court cards 10, ace 1 or 11.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "cdhs"

_BACCARAT_VALUE = {rank: int(rank) for rank in "23456789"} | dict.fromkeys("TJQK", 0) | {"A": 1}
_BLACKJACK_VALUE = {rank: int(rank) for rank in "23456789"} | dict.fromkeys("TJQK", 10) | {"A": 1}


def check_card(text: object) -> str:
    """Return ``text`` if it is a card, else raise ``ValueError`` naming it."""
    if not (isinstance(text, str) and len(text) == 2 and text[0] in RANKS and text[1] in SUITS):
        raise ValueError(f"bad card {text!r}: expected rank in {RANKS!r} then suit in {SUITS!r}")
    return text


def baccarat_value(card: str) -> int:
    """Point value of a card in baccarat (GG-2022 live II 1.3.2; PT-217/2007 I.9)."""
    return _BACCARAT_VALUE[check_card(card)[0]]


def baccarat_total(values: Iterable[int]) -> int:
    """Point count of a baccarat hand: the last digit of the sum (II 1.1; PT-217/2007 I.10)."""
    return sum(values) % 10


def baccarat_points(cards: Iterable[str]) -> int:
    """Point count of a baccarat hand given as cards."""
    return baccarat_total(baccarat_value(card) for card in cards)


def blackjack_value(card: str) -> int:
    """Value of a card in blackjack counting an ace as 1 (GG-2022 live III 1.5)."""
    return _BLACKJACK_VALUE[check_card(card)[0]]


def blackjack_total(cards: Iterable[str]) -> tuple[int, bool]:
    """Best total of a blackjack hand and whether it is soft (an ace counted 11).

    An ace counts 11 unless that takes the hand over 21 (GG-2022 live III 1.5; "total
    suave", III 1.1).
    """
    values = [blackjack_value(card) for card in cards]
    hard = sum(values)
    if 1 in values and hard + 10 <= 21:
        return hard + 10, True
    return hard, False
