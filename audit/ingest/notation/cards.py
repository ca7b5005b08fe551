"""PHH card notation and the cards live in one hand.

Card notation (phh-std ``required.rst``, "Card Notation"): rank ``23456789TJQKA`` then
suit ``cdhs``, ``??`` for an unknown card, several cards concatenated (``AsKd``), and
``-`` in a showdown action for "the hole cards already dealt". Short-deck variants have
no deuces to fives, and such a card is a violation.

A known card may be live only once: dealt to one seat or to the board. A card discarded
in a draw (``pN sd``) leaves play, so it may be dealt again after the discards are
reshuffled (a triple draw can use more than 52 cards).
"""

from __future__ import annotations

from collections import defaultdict

from audit.ingest.errors import FieldError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
UNKNOWN = "??"

#: Variant codes played with the short deck (no deuces to fives): PHH ``NS``, and ``PS``.
SHORT_DECK_VARIANTS = frozenset({"NS", "PS"})


def ranks_of(variant: str) -> str:
    """The ranks of the deck a PHH ``variant`` is played with."""
    return RANKS[4:] if variant in SHORT_DECK_VARIANTS else RANKS


def parse_cards(text: str, field: str, ranks: str = RANKS) -> list[str]:
    """Split concatenated PHH cards (``"AsKd??"``) into two-character cards."""
    if not text or len(text) % 2:
        raise FieldError(field, f"{text!r} is not a sequence of two-character cards")
    cards = [text[i : i + 2] for i in range(0, len(text), 2)]
    for card in cards:
        if card != UNKNOWN and (card[0] not in ranks or card[1] not in SUITS):
            raise FieldError(
                field,
                f"{card!r} is not a card of this deck: rank in {ranks!r} then suit in "
                f"{SUITS!r}, or '??'",
            )
    return cards


class CardTracker:
    """Which known cards are live (dealt and not discarded), and each seat's hole cards."""

    def __init__(self, ranks: str) -> None:
        self.ranks = ranks
        self.holders: dict[str, str] = {}
        self.hole: defaultdict[int, list[str]] = defaultdict(list)

    def deal_hole(self, seat: int, text: str, field: str) -> list[str]:
        """``d dh pN CARDS``: cards dealt to a seat (down or, in stud, up)."""
        cards = parse_cards(text, field, self.ranks)
        for card in cards:
            self._claim(card, f"p{seat}", field)
        self.hole[seat].extend(cards)
        return cards

    def deal_board(self, text: str, field: str) -> list[str]:
        """``d db CARDS``: community cards."""
        cards = parse_cards(text, field, self.ranks)
        for card in cards:
            self._claim(card, "the board", field)
        return cards

    def discard(self, seat: int, text: str, field: str) -> None:
        """``pN sd CARDS``: the cards leave the seat's hand and play."""
        for card in parse_cards(text, field, self.ranks):
            self._take(seat, card, field, "discards")
            self.holders.pop(card, None)

    def show(self, seat: int, text: str, field: str) -> list[str]:
        """``pN sm CARDS`` or ``pN sm -``: the cards shown (unknown ones stay ``??``)."""
        if text == "-":
            return list(self.hole[seat])
        cards = parse_cards(text, field, self.ranks)
        known = [card for card in cards if card != UNKNOWN]
        if len(set(known)) != len(known):
            raise FieldError(field, f"{text!r} shows the same card twice")
        for card in known:
            if card not in self.hole[seat]:
                self._take(seat, card, field, "shows")
                self.hole[seat].append(card)
        return cards

    def _claim(self, card: str, holder: str, field: str) -> None:
        if card == UNKNOWN:
            return
        if card in self.holders:
            raise FieldError(field, f"duplicate card {card}: already dealt to {self.holders[card]}")
        self.holders[card] = holder

    def _take(self, seat: int, card: str, field: str, verb: str) -> None:
        """Remove ``card`` from the seat's hole cards; a card never seen replaces a ``??``."""
        hole = self.hole[seat]
        if card in hole:
            hole.remove(card)
            return
        if UNKNOWN not in hole:
            raise FieldError(field, f"p{seat} {verb} {card}, which is not among its hole cards")
        self._claim(card, f"p{seat}", field)
        hole.remove(UNKNOWN)
