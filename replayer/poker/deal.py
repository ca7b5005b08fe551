"""Deal checks: the deck, the cards each player and the board received, and the shuffle
commitment. Every failure is an ``invalid_deal`` issue citing the rulebook's article.

* Every known card belongs to the rulebook's deck (52 or 28 cards) and appears once among
  hole, board, burnt and shown cards. ``"??"`` is a card not disclosed: allowed anywhere.
* Each player dealt any hole card has exactly ``hole_cards`` of them.
* A player's shown cards are the cards dealt to him when those are known.
* Burns: none where the rulebook has none (PT-217/2007 n.º 100); where it burns, a record
  that has burns has one before each board dealing. A record without burns is accepted
  (many histories omit them).
* Shuffle commitment (``HandStarted.shuffle_commitment`` + ``DeckRevealed``):
  ``sha256(" ".join(order) + ":" + salt)`` equals the commitment, the order is a
  permutation of the deck, and every dealt card came from it in this dealing order:
  hole cards first, from the top, round the table from the first player left of the
  button, one card at a time (``hole_round_robin``, MO-97/2010 art.6(1), PT-217/2007
  n.º 35) or a player's cards together; then for each betting round that turns board
  cards a burn (when the rulebook burns) and the board cards, from the top, or from the
  bottom of the deck when the rulebook says so (PT-217/2007 n.º 107).
"""

from __future__ import annotations

import hashlib
from collections import Counter

from replayer.findings import FindingKind
from replayer.poker.betting import Issue
from replayer.poker.cards import full_deck, synthetic_deck
from replayer.rulebooks.poker import PokerRulebook

UNKNOWN = "??"
INVALID = FindingKind.INVALID_DEAL

_DECKS = {52: frozenset(full_deck()), 28: frozenset(synthetic_deck())}


def check_cards(
    book: PokerRulebook,
    holes: list[list[str]],
    board: list[str],
    burns: list[str],
    shown: dict[int, list[str]],
    seat_of: tuple[int, ...],
    issues: list[Issue],
) -> None:
    """Deck membership, uniqueness, hole counts, shown = dealt, burns."""
    cite = book.cite
    deck = _DECKS[book.deck_size]
    known: list[str] = []
    hole_count = book.hole_cards
    for pos, cards in enumerate(holes):
        known += cards
        if cards and len(cards) != hole_count:
            issues.append(
                Issue(
                    INVALID,
                    cite.hole_cards,
                    f"seat {seat_of[pos]} dealt {len(cards)} hole cards",
                    book.hole_cards,
                    len(cards),
                )
            )
    known += board
    known += burns
    for pos in sorted(shown):
        cards = [card for card in shown[pos] if card != UNKNOWN]
        dealt = [card for card in holes[pos] if card != UNKNOWN]
        if dealt and len(dealt) == len(holes[pos]) and sorted(cards) != sorted(dealt):
            issues.append(
                Issue(
                    INVALID,
                    cite.hole_cards,
                    f"seat {seat_of[pos]} shows cards it was not dealt",
                    sorted(dealt),
                    sorted(cards),
                )
            )
        elif not dealt:
            known.extend(cards)
    distinct = set(known)
    unknown = 0
    if UNKNOWN in distinct:
        distinct.discard(UNKNOWN)
        unknown = known.count(UNKNOWN)
    foreign = [] if distinct <= deck else sorted(distinct - deck)
    if foreign:
        issues.append(
            Issue(
                INVALID,
                cite.deck,
                f"cards outside the {book.deck_size}-card deck",
                f"{book.deck_size}-card deck",
                foreign,
            )
        )
    if len(distinct) != len(known) - unknown:
        repeated = sorted(c for c, k in Counter(known).items() if k > 1 and c != UNKNOWN)
        issues.append(Issue(INVALID, cite.deck, "cards dealt more than once", [], repeated))
    if burns and not book.burns:
        issues.append(
            Issue(INVALID, cite.burns, "cards burnt where the rules burn none", 0, len(burns))
        )
    elif burns:
        dealings = _board_dealings(book, len(board))
        if len(burns) != dealings:
            issues.append(
                Issue(
                    INVALID, cite.burns, "one burn before each board dealing", dealings, len(burns)
                )
            )


def _board_dealings(book: PokerRulebook, board_count: int) -> int:
    """How many board dealings (rounds turning cards) ``board_count`` cards took."""
    dealings = 0
    for count in book.board_schedule:
        if board_count <= 0:
            break
        if count:
            dealings += 1
            board_count -= count
    return dealings


def check_commitment(
    book: PokerRulebook,
    commitment: str,
    order: list[str],
    salt: str,
    holes: list[list[str]],
    board: list[str],
    burns: list[str],
    seat_of: tuple[int, ...],
    issues: list[Issue],
) -> None:
    """The revealed deck matches the published commitment and explains every dealt card."""
    cite = book.cite.deal_order
    digest = hashlib.sha256((" ".join(order) + ":" + salt).encode()).hexdigest()
    if digest != commitment.lower():
        issues.append(
            Issue(
                INVALID,
                cite,
                "revealed deck does not match the shuffle commitment",
                commitment.lower(),
                digest,
            )
        )
        return
    deck = _DECKS[book.deck_size]
    if len(order) != len(deck) or set(order) != deck:
        issues.append(
            Issue(
                INVALID, book.cite.deck, "revealed deck is not a full deck", len(deck), len(order)
            )
        )
        return
    top = 0
    bottom = len(order) - 1
    n = len(holes)
    expected_holes: list[list[str]] = [[] for _ in range(n)]
    if book.hole_round_robin:
        for _ in range(book.hole_cards):
            for pos in range(n):
                expected_holes[pos].append(order[top])
                top += 1
    else:
        for pos in range(n):
            expected_holes[pos].extend(order[top : top + book.hole_cards])
            top += book.hole_cards
    expected_burns: list[str] = []
    expected_board: list[str] = []
    for count in book.board_schedule:
        if len(expected_board) >= len(board):
            break
        if not count:
            continue
        if book.burns:
            expected_burns.append(order[top])
            top += 1
        for _ in range(count):
            if book.board_from_bottom:
                expected_board.append(order[bottom])
                bottom -= 1
            else:
                expected_board.append(order[top])
                top += 1
    mismatches = []
    for pos in range(n):
        for got, want in zip(holes[pos], expected_holes[pos], strict=False):
            if got != UNKNOWN and got != want:
                mismatches.append({"seat": seat_of[pos], "dealt": got, "deck_order": want})
    for got, want in zip(board, expected_board, strict=False):
        if got != UNKNOWN and got != want:
            mismatches.append({"board": got, "deck_order": want})
    for got, want in zip(burns, expected_burns, strict=False):
        if got != UNKNOWN and got != want:
            mismatches.append({"burn": got, "deck_order": want})
    if mismatches:
        issues.append(
            Issue(
                INVALID,
                cite,
                "dealt cards do not follow the committed deck order",
                "cards in committed order",
                mismatches,
            )
        )
