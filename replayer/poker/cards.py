"""Playing cards as two-character strings (rank then suit) and as small ints.

A card is written ``"As"``, ``"Td"``, ``"9c"``, ``"2h"``: rank from ``RANKS``
(``T`` is the ten), suit from ``SUITS``. Suits carry no value (MO-97/2010 art.14(1));
ranks run 2 < 3 < ... < K < A (MO-97/2010 art.14(2); PT-217/2007 n.º 72).

Decks:

* ``full_deck()``: 52 cards, hold'em and omaha (MO-97/2010 art.1(1)(3); PT-217/2007 n.º 72).
* ``synthetic_deck()``: 28 cards A K Q J T 9 8 in four suits, "póquer sintético"
  (PT-217/2007 n.º 95).

``parse_card`` maps a card to ``rank_index * 4 + suit_index`` (0..51, ``2c`` = 0,
``As`` = 51); ``card_text`` is its inverse. Parsing is strict: no lower-case ranks,
no ``"10"``, no surrounding spaces, so a malformed hand history is reported, not guessed.
"""

from __future__ import annotations

from replayer.rankings import RANKS

SUITS = "cdhs"

#: Ranks of the 28-card "póquer sintético" deck, ascending (PT-217/2007 n.º 95).
SYNTHETIC_RANKS = "89TJQKA"

_CARD_TEXTS: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
_CARD_INTS: dict[str, int] = {text: index for index, text in enumerate(_CARD_TEXTS)}


def parse_card(text: object) -> int:
    """Return the int of a two-character card such as ``"As"``.

    Raises ``ValueError`` naming the bad text for anything else (typed ``object``: the
    compiled build would raise ``TypeError`` at the call for a value that is not text).
    """
    card = _CARD_INTS.get(text) if isinstance(text, str) else None
    if card is None:
        raise ValueError(
            f"bad card {text!r}: expected rank in {RANKS!r} then suit in {SUITS!r}, e.g. 'As'"
        )
    return card


def card_text(card: object) -> str:
    """Return the two-character text of a card int (inverse of ``parse_card``)."""
    if type(card) is not int or not isinstance(card, int) or not 0 <= card < 52:
        raise ValueError(f"bad card int {card!r}: expected 0..51")
    return _CARD_TEXTS[card]


def full_deck() -> list[str]:
    """The 52-card deck (MO-97/2010 art.1(1)(3); PT-217/2007 n.º 72), 2c first, As last."""
    return list(_CARD_TEXTS)


def synthetic_deck() -> list[str]:
    """The 28-card "póquer sintético" deck, 8c first, As last (PT-217/2007 n.º 95)."""
    return [rank + suit for rank in SYNTHETIC_RANKS for suit in SUITS]
