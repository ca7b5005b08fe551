"""A baccarat coup rebuilt "by the table" from the cards in the order they left the shoe.

Punto banco and chemin de fer share the deal: four cards alternately, the player's
(the ponto's) first (GG-2022 live II 3.4.3; PT-217/2007 I.62), then at most one third card
each, the player's first. Who gets the next card is a rule (``NextSide``) of the hands
dealt so far. When a card went to the wrong hand, the coup is reconstructed: the shoe's
cards are dealt again in their order, by the table, and cards left over are burned
(PT-217/2007 I.71, I.100). ``rebuild`` does that; ``deal_finding`` reports the first departure
of the record from the rebuilt deal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from replayer.casino.cards import baccarat_points, baccarat_total, baccarat_value
from replayer.findings import Finding, FindingKind
from replayer.frozen import rebuilt_by_init

PLAYER, BANKER = "player", "banker"

#: Given the player's and banker's card values so far: which hand takes the next card,
#: or None when the coup is complete.
NextSide = Callable[[Sequence[int], Sequence[int]], str | None]


def initial_side(player: Sequence[int], banker: Sequence[int]) -> str | None:
    """The two first cards each, alternately, player first; None once they are out."""
    if len(player) + len(banker) >= 4:
        return None
    return PLAYER if len(player) == len(banker) else BANKER


def is_natural(values: Sequence[int]) -> bool:
    """8 or 9 on the two first cards (GG-2022 live II 1.1 "Natural", 3.5.1)."""
    return len(values) == 2 and baccarat_total(values) >= 8


@dataclass(frozen=True, slots=True)
class Coup:
    """Hands as the table deals them from a sequence of cards."""

    player: tuple[str, ...]
    banker: tuple[str, ...]
    sides: tuple[str, ...]  # the receiving hand of each card used, in shoe order
    complete: bool  # False when the shoe sequence ran out before the table was done

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)

    @property
    def player_total(self) -> int:
        return baccarat_points(self.player)

    @property
    def banker_total(self) -> int:
        return baccarat_points(self.banker)

    @property
    def winner(self) -> str:
        """'player', 'banker' or 'tie' (GG-2022 live II 2.1.2-2.1.4; PT-217/2007 I.2)."""
        if self.player_total == self.banker_total:
            return "tie"
        return PLAYER if self.player_total > self.banker_total else BANKER

    def as_outcome(self) -> dict[str, object]:
        return {
            "player": list(self.player),
            "banker": list(self.banker),
            "player_total": self.player_total,
            "banker_total": self.banker_total,
            "winner": self.winner if self.complete else None,
        }


def rebuild(shoe: Sequence[str], next_side: NextSide) -> Coup:
    """Deal ``shoe`` (cards in the order they left it) by ``next_side``."""
    hands: dict[str, list[str]] = {PLAYER: [], BANKER: []}
    values: dict[str, list[int]] = {PLAYER: [], BANKER: []}
    sides: list[str] = []
    for card in shoe:
        side = next_side(values[PLAYER], values[BANKER])
        if side is None:
            break
        hands[side].append(card)
        values[side].append(baccarat_value(card))
        sides.append(side)
    complete = next_side(values[PLAYER], values[BANKER]) is None
    return Coup(tuple(hands[PLAYER]), tuple(hands[BANKER]), tuple(sides), complete)


def deal_finding(
    subject: str,
    recorded: Sequence[str],
    coup: Coup,
    shoe: Sequence[str],
    citations: tuple[str, str],
    **detail: object,
) -> Finding | None:
    """``invalid_deal`` (first four cards) or ``wrong_draw`` (third cards) when the record
    departs from the table's deal; ``citations`` are (deal article, table article)."""
    if list(recorded) == list(coup.sides) and coup.complete:
        return None
    initial = list(recorded[:4]) != list(coup.sides[:4])
    return Finding(
        FindingKind.INVALID_DEAL if initial else FindingKind.WRONG_DRAW,
        subject,
        citations[0] if initial else citations[1],
        _reason(recorded, coup, shoe),
        expected=list(coup.sides),
        recorded=list(recorded),
        detail={"cards": list(shoe), **detail},
    )


def _reason(recorded: Sequence[str], coup: Coup, shoe: Sequence[str]) -> str:
    """One line on the first card whose hand departs from the table's deal."""
    for index, (got, due) in enumerate(zip(recorded, coup.sides, strict=False)):
        if got != due:
            return f"card {index + 1} ({shoe[index]}) went to the {got}, the table's is {due}"
    if len(recorded) > len(coup.sides):
        extra = len(recorded) - len(coup.sides)
        return f"{extra} card(s) drawn after the table's coup was complete"
    return f"the table needs {len(coup.sides) - len(recorded)} more card(s) than were drawn"
