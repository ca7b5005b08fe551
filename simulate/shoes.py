"""Simulated shoes: a card table deals its rounds from real shoes, one after another.

A ``DealingShoe`` is shuffled once from its own random stream and dealt card by card
across rounds: each round takes the cards it draws from where the last one stopped. The
shoe is opened as the rulebook says (its decks, the cut card ``cut_card_from_end`` cards
from the end, chemin de fer's burnt cards, PT-217/2007 I.13) and the round whose draw
reaches the cut card is its last (PT-217/2007 I.14; GG-2022 live II 3.2.2, 3.5.4; live
III 3.2.2); the next round opens a new shoe. ``recorded`` writes what the records state:
``ShoeOpened`` in a shoe's first round, ``CutCardDrawn`` where the cut card came out,
``ShoeEnded`` in a table's last round of the day when its shoe is not done (the table
closes).

Faults across rounds (``simulate.floor`` plants them at a shoe's last coup, so that the
shoe closes within the day), each round legal on its own:

* ``card_shown_too_often``: in a shoe's last coup, one card replaced by another of the
  same rank (the round plays and settles the same) that the shoe has already shown as
  often as its decks hold: ``shoe_composition`` on that round;
* ``dealt_past_last_coup``: one more round dealt from a shoe after its last coup:
  ``past_last_coup`` on that round;
* chemin de fer: ``kept_hand_after_lost_sabot``, a banker who lost the sabot's last coup
  banks the next sabot's first (PT-217/2007 I.32): ``illegal_action`` on that coup (a
  sabot whose last coup the bank won may end sooner, ``ShoeEnded`` for too few players,
  after a coup the bank lost: I.15);
  ``too_few_seated``, a sabot's last coup recorded with three players seated (I.16):
  ``illegal_action`` on it; ``played_past_closing``, a sabot opened under a closing time
  minutes away, played on past it (I.107): ``illegal_action`` on its first coup past it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from replayer.casino.cards import RANKS, SUITS, baccarat_value
from replayer.rulebooks.casino import (
    CASINO_RULEBOOKS,
    BlackjackRules,
    CheminDeFerRules,
    PuntoBancoRules,
)
from simulate.envelope import FlatEvent, renumbered

ShoeRules = PuntoBancoRules | CheminDeFerRules | BlackjackRules


def _shoe_rules(rulebook_id: str) -> ShoeRules:
    rules = CASINO_RULEBOOKS[rulebook_id]
    assert isinstance(rules, PuntoBancoRules | CheminDeFerRules | BlackjackRules)
    return rules


#: Game -> its rulebook (decks, cut card): the games dealt from a shoe.
SHOE_RULEBOOKS: dict[str, ShoeRules] = {
    "punto_banco": _shoe_rules("gg-2022-live-baccarat"),
    "chemin_de_fer": _shoe_rules("pt-217-2007-chemin-de-fer"),
    "blackjack": _shoe_rules("gg-2022-live-blackjack"),
}
#: Cards a round of the game may need at most (a blackjack round of four boxes with
#: splits and hits stays well under 40).
ROUND_NEEDS = {"punto_banco": 6, "chemin_de_fer": 6, "blackjack": 40}
SHOE_FAULTS: dict[str, tuple[str, ...]] = {
    "card_shown_too_often": ("shoe_composition",),
    "dealt_past_last_coup": ("past_last_coup",),
}
"""Fault -> the finding kinds it must raise: the faults of every game dealt from a shoe."""
CHEMIN_FAULTS: dict[str, tuple[str, ...]] = {
    "kept_hand_after_lost_sabot": ("illegal_action",),
    "too_few_seated": ("illegal_action",),
    "played_past_closing": ("illegal_action",),
    "garage_not_allowed": ("illegal_action",),
}
"""The chemin de fer faults across coups."""
TOO_FEW_SEATED = 3


@dataclass
class DealingShoe:
    """One shoe of a table: its cards in order, how many are out, what it has shown."""

    shoe_id: str
    game: str
    cards: list[str]
    burnt: list[str]
    out: int = 0
    rounds: int = 0
    shown: Counter[str] = field(default_factory=Counter)
    last_coup_dealt: bool = False
    closing_at: datetime | None = None
    """The table's official closing time the sabot opens under (chemin de fer)."""

    @classmethod
    def opened(cls, shoe_id: str, game: str, rng: random.Random) -> DealingShoe:
        """A freshly shuffled shoe; chemin de fer burns the first card and as many more
        as its value (PT-217/2007 I.13)."""
        rules = SHOE_RULEBOOKS[game]
        cards = [rank + suit for rank in RANKS for suit in SUITS] * rules.decks
        rng.shuffle(cards)
        burnt = cards[: 1 + baccarat_value(cards[0])] if game == "chemin_de_fer" else []
        shoe = cls(shoe_id, game, cards, burnt, out=len(burnt))
        shoe.shown.update(burnt)
        return shoe

    @property
    def before_cut(self) -> int:
        """How many cards lie before the cut card."""
        return len(self.cards) - SHOE_RULEBOOKS[self.game].cut_card_from_end

    def left(self) -> list[str]:
        return self.cards[self.out :]

    def last_coup(self, events: list[FlatEvent]) -> bool:
        """Whether the round ``events`` (not yet counted out) reaches the cut card."""
        drawn = sum(1 for e in events if e["type"] == "CardDealt")
        return not self.last_coup_dealt and self.out <= self.before_cut < self.out + drawn

    def can_deal_after(self, events: list[FlatEvent]) -> bool:
        """Whether, after the round ``events`` (not yet counted out), a round of the game
        surely finds its cards in what is left."""
        drawn = sum(1 for e in events if e["type"] == "CardDealt")
        return len(self.cards) - self.out - drawn >= ROUND_NEEDS[self.game]

    def recorded(
        self, events: list[FlatEvent], closing: bool = False, reason: str = "table_closed"
    ) -> list[FlatEvent]:
        """The round's events with the shoe's records added (``ShoeOpened`` in its first
        round, ``CutCardDrawn`` where the card came out, and ``ShoeEnded`` for ``reason``
        when the shoe ends with this round, ``closing``, before the cut card came out),
        the cards it drew counted out."""
        dealt = [i for i, e in enumerate(events) if e["type"] == "CardDealt"]
        first = events[0]
        base = {k: first[k] for k in ("event_id", "round_id", "sequence")}
        extra: dict[int, FlatEvent] = {}
        if self.rounds == 0:
            rules = SHOE_RULEBOOKS[self.game]
            extra[1] = {
                **base,
                "occurred_at": first["occurred_at"],
                "type": "ShoeOpened",
                "decks": rules.decks,
                "cut_card_from_end": rules.cut_card_from_end,
                "burnt": list(self.burnt),
                "closing_at": self.closing_at,
            }
        cut = self.before_cut - self.out
        if not self.last_coup_dealt and 0 <= cut < len(dealt):
            at = events[dealt[cut]]["occurred_at"]
            extra[dealt[cut]] = {
                **base,
                "occurred_at": at,
                "type": "CutCardDrawn",
                "after_cards": cut,
            }
            self.last_coup_dealt = True
        self.out += len(dealt)
        self.rounds += 1
        self.shown.update(events[i]["card"] for i in dealt)
        merged = [e for i, event in enumerate(events) for e in (extra.get(i), event) if e]
        if closing and not self.last_coup_dealt:
            at = events[-1]["occurred_at"]
            merged.append({**base, "occurred_at": at, "type": "ShoeEnded", "reason": reason})
            self.last_coup_dealt = True
        return renumbered("round_id", merged)


def shown_too_often(shoe: DealingShoe, events: list[FlatEvent]) -> FlatEvent | None:
    """``card_shown_too_often`` planted in ``events``, the shoe's last coup, before it is
    counted: a dealt card replaced by one of the same rank the shoe has already shown as
    often as its decks hold (the round plays and settles the same); the card dealt, or
    None when no card of the round has such a twin."""
    decks = SHOE_RULEBOOKS[shoe.game].decks
    for event in events:
        if event["type"] != "CardDealt":
            continue
        rank, suit = event["card"][0], event["card"][1]
        twins = [rank + s for s in SUITS if s != suit and shoe.shown[rank + s] >= decks]
        if twins:
            event["card"] = twins[0]
            return event
    return None
