"""PHH forced bets and ``actions`` replayed into event bodies, with the chips they move.

Grammar (phh-std ``required.rst``, "Actions"): ``d db CARDS``, ``d dh pN CARDS``,
``pN pb``, ``pN cbr AMOUNT``, ``pN cc``, ``pN f``, ``pN sd [CARDS]``, ``pN sm [CARDS|-]``,
``# commentary``; ``pN`` is the 1-based player index. ``cbr`` gives the player's total
bet on the street ("raise to"); our ``ActionTaken.amount`` is the chips it adds. Forced
bets follow PokerKit 0.7.7: antes first, then blinds and straddles, both "reversed" when
heads-up (player 1 posts the big blind, player 2 the button and small blind).

A body is ``(record_name, fields)`` of the poker schema (``schemas/poker_hand.avsc``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from audit.ingest.errors import FieldError
from audit.ingest.notation.amounts import Money
from audit.ingest.notation.cards import CardTracker

Body = tuple[str, dict[str, Any]]

_PLAYER = re.compile(r"p([1-9][0-9]*)")
#: Player actions that bet, with how many words follow the verb (``pN cbr 300``).
_BETTING_ARGUMENTS = {"f": 0, "cc": 0, "pb": 0, "cbr": 1}


@dataclass
class Chips:
    """Per player (index 0 = PHH ``p1``): chips behind, put in, bet this street, folded."""

    stacks: list[int]
    contributed: list[int] = field(init=False)
    street: list[int] = field(init=False)
    folded: list[bool] = field(init=False)

    def __post_init__(self) -> None:
        count = len(self.stacks)
        self.contributed = [0] * count
        self.street = [0] * count
        self.folded = [False] * count

    def put(self, index: int, amount: int, *, live: bool = True) -> None:
        """Move chips to the pot; a live bet also counts toward the street's betting."""
        self.stacks[index] -= amount
        self.contributed[index] += amount
        if live:
            self.street[index] += amount

    def new_street(self) -> None:
        self.street = [0] * len(self.street)


def blind_kinds(count: int) -> list[str]:
    """Kinds of the non-zero ``blinds_or_straddles``, in array order.

    One blind alone is the big blind (e.g. the short-deck button blind
    ``[0, 0, 0, 0, 0, 3000]``); otherwise small blind, big blind, then straddles.
    """
    if count == 1:
        return ["big_blind"]
    return ["small_blind", "big_blind"] + ["straddle"] * (count - 2)


def post_forced_bets(
    chips: Chips, antes: list[int], blinds: list[int] | None, *, ante_trimming: bool
) -> list[Body]:
    """``BlindPosted`` bodies for ``antes`` and ``blinds_or_straddles``, capped at stacks.

    With ``ante_trimming_status`` true, PokerKit returns the part of the largest ante
    that no other player matched; the ante we record is the trimmed one.
    """
    count = len(antes)
    effective = [min(ante, stack) for ante, stack in zip(_owed(antes), chips.stacks, strict=True)]
    # A blind is capped at the stack less the *untrimmed* ante (PokerKit's effective blind).
    room = [stack - ante for stack, ante in zip(chips.stacks, effective, strict=True)]
    posted = _trim_overbet(effective) if ante_trimming else effective
    bodies = []
    for index, amount in enumerate(posted):
        if amount:
            chips.put(index, amount, live=False)
            bodies.append(_blind(index, "ante", amount))
    if blinds is None:
        return bodies
    nonzero = [position for position, blind in enumerate(blinds) if blind]
    for position, kind in zip(nonzero, blind_kinds(len(nonzero)), strict=True):
        index = 1 - position if count == 2 else position
        amount = min(blinds[position], room[index])
        if amount:
            chips.put(index, amount)
            bodies.append(_blind(index, kind, amount))
    return bodies


def _owed(values: list[int]) -> list[int]:
    """Per-player forced bets: PHH arrays are reversed when heads-up (PokerKit)."""
    return values[::-1] if len(values) == 2 else values


def _trim_overbet(amounts: list[int]) -> list[int]:
    """Cap the largest amount at the second largest (PokerKit's bet collection)."""
    cutoff = sorted(amounts)[-2]
    return [min(amount, cutoff) for amount in amounts]


def _blind(index: int, kind: str, amount: int) -> Body:
    return "BlindPosted", {"seat": index + 1, "kind": kind, "amount": amount}


class ActionReplay:
    """Replays PHH ``actions`` one by one, tracking chips, streets and cards."""

    def __init__(
        self, chips: Chips, cards: CardTracker, money: Money, bring_in: int | None
    ) -> None:
        self.chips = chips
        self.cards = cards
        self.money = money
        self.bring_in = bring_in
        self.betting_since_deal = False
        #: ``p1``, ``p2``, ...: each player's label -> index (0 for ``p1``).
        self.labels = {f"p{index + 1}": index for index in range(len(chips.stacks))}

    def apply(self, position: int, action: Any) -> Body | None:
        """The body for ``actions[position]``, or ``None`` for no-ops and discards."""
        field = f"actions[{position}]"
        if not isinstance(action, str):
            raise FieldError(field, f"{action!r} is not a string")
        words = (action.split("#", 1)[0] if "#" in action else action).split()
        if not words:
            return None
        if words[0] == "d":
            return self._dealer(words, field, action)
        index = self._player(words[0], field)
        verb = words[1] if len(words) > 1 else ""
        arguments = len(words) - 2
        if verb in _BETTING_ARGUMENTS and arguments == _BETTING_ARGUMENTS[verb]:
            return self._betting(index, words, field)
        if verb == "sd" and arguments <= 1:
            self._street_boundary()
            if arguments:
                self.cards.discard(index + 1, words[2], field)
            return None
        if verb == "sm" and arguments == 0:
            return "CardsShown", {"seat": index + 1, "cards": [], "mucked": True}
        if verb == "sm" and arguments == 1:
            shown = self.cards.show(index + 1, words[2], field)
            return "CardsShown", {"seat": index + 1, "cards": shown, "mucked": False}
        raise FieldError(field, f"unknown action {action!r}")

    def _dealer(self, words: list[str], field: str, action: str) -> Body:
        """``d db CARDS`` or ``d dh pN CARDS`` (``words`` starts with ``d``)."""
        if len(words) == 3 and words[1] == "db":
            self.chips.new_street()
            self.betting_since_deal = False
            dealt = self.cards.deal_board(words[2], field)
            return "CardsDealt", {"target": "board", "seat": None, "cards": dealt}
        if len(words) == 4 and words[1] == "dh":
            index = self._player(words[2], field)
            self._street_boundary()
            dealt = self.cards.deal_hole(index + 1, words[3], field)
            return "CardsDealt", {"target": "hole", "seat": index + 1, "cards": dealt}
        raise FieldError(field, f"unknown dealer action {action!r}")

    def _street_boundary(self) -> None:
        """A deal or a draw after betting starts a new betting round (stud, draw games)."""
        if self.betting_since_deal:
            self.chips.new_street()
            self.betting_since_deal = False

    def _player(self, label: str, field: str) -> int:
        index = self.labels.get(label)
        if index is not None:
            return index
        if _PLAYER.fullmatch(label) is None:
            raise FieldError(field, f"{label!r} is not a player label such as 'p1'")
        raise FieldError(field, f"player {label} is out of range: {len(self.chips.stacks)} players")

    def _betting(self, index: int, words: list[str], field: str) -> Body:
        """``pN f``, ``pN cc``, ``pN pb`` or ``pN cbr X`` (``words``: the whole action)."""
        chips = self.chips
        if chips.folded[index]:
            raise FieldError(field, f"p{index + 1} has already folded")
        if chips.stacks[index] == 0:
            raise FieldError(field, f"p{index + 1} is all-in and cannot act")
        self.betting_since_deal = True
        verb = words[1]
        if verb == "f":
            chips.folded[index] = True
            return _action(index, "fold", 0)
        if verb == "cc":
            return self._check_or_call(index)
        if verb == "pb":
            return self._bring_in(index, field)
        return self._bet_or_raise(index, words[2], field)

    def _check_or_call(self, index: int) -> Body:
        """``pN cc``: match the largest street bet, all-in for less if short."""
        chips = self.chips
        amount = min(max(chips.street) - chips.street[index], chips.stacks[index])
        chips.put(index, amount)
        return _action(index, "call" if amount else "check", amount)

    def _bring_in(self, index: int, field: str) -> Body:
        """``pN pb``: the stud bring-in (PHH ``bring_in``), capped at the stack."""
        if self.bring_in is None:
            raise FieldError(field, "bring-in posted but the hand has no bring_in field")
        amount = min(self.bring_in, self.chips.stacks[index])
        self.chips.put(index, amount)
        return _blind(index, "bring_in", amount)

    def _bet_or_raise(self, index: int, text: str, field: str) -> Body:
        """``pN cbr X``: X is the player's total on this street; a bet when it opens."""
        chips = self.chips
        try:
            total = self.money.to_minor(Decimal(text), field)
        except InvalidOperation:
            raise FieldError(field, f"amount {text!r} is not a number") from None
        current = max(chips.street)
        if total <= current:
            raise FieldError(
                field,
                f"p{index + 1} bets or raises to {text}, not above the current bet "
                f"{self.money.major(current)}",
            )
        amount = total - chips.street[index]
        if amount > chips.stacks[index]:
            raise FieldError(
                field,
                f"p{index + 1} bets or raises to {text} but has only "
                f"{self.money.major(chips.stacks[index])} behind",
            )
        chips.put(index, amount)
        return _action(index, "raise" if current else "bet", amount)


def _action(index: int, action: str, amount: int) -> Body:
    return "ActionTaken", {"seat": index + 1, "action": action, "amount": amount}
