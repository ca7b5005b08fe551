"""PokerKit as the test oracle of the PHH export: an exported hand replayed in PokerKit.

PokerKit (pinned in ``constraints.txt``) is imported only by tests and benchmarks, never
by the project. ``pokerkit_replay(text)`` gives PokerKit's final stacks and the recorded
finishing stacks, in minor units, or None for a hand PokerKit cannot be given;
``pokerkit_check(text)`` says which, with the reason PokerKit refuses a hand:

* a variant PokerKit does not deal (``NO``, ``PO5``, ``PO6``: PHH has no code for them);
* a field PokerKit has no word for (``_runs``, a board run more than once; ``_forced_bets``,
  a forced bet that is neither an ante nor a blind; ``_cashouts``; ``_voided``;
  ``_house_money``, money the house put in the pot);
* no ``finishing_stacks`` (nothing to compare);
* a hand outside PokerKit's model, named by ``outside_pokerkit`` from the PHH fields
  when PokerKit errs or replays to other stacks: a big blind posted short (all-in for
  less, or not posted: the room has the others call the full blind, PokerKit the blind
  as posted), a fold by a player with no chips behind, a raise no other player can call
  (the room returns it uncalled, PokerKit refuses it), a folded player's cards shown or
  mucked (PokerKit shows only at showdown);
* PokerKit's own error on the hand (its message).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from decimal import Decimal

from pokerkit import HandHistory

from audit.ingest.notation.amounts import money_of

SKIPPED_BY_POKERKIT = ("_runs", "_forced_bets", "_cashouts", "_voided", "_house_money")
AMOUNTS = ("antes", "blinds_or_straddles", "min_bet", "small_bet", "big_bet", "starting_stacks")


@dataclass(frozen=True)
class Replayed:
    """PokerKit's verdict on one exported hand: ``refused`` names why it was not
    replayed; else ``stacks`` (PokerKit's) and ``recorded`` (the export's finishing)."""

    refused: str = ""
    stacks: tuple[int, ...] = ()
    recorded: tuple[int, ...] = ()
    house: int = 0
    """The rake and pot fees the export records (``_rake``, ``_fees``): PokerKit pays
    the whole pot, the room pays it less these."""

    @property
    def agrees(self) -> bool:
        return not self.refused and self.stacks == self.recorded

    @property
    def agrees_less_house(self) -> bool:
        """PokerKit's stacks are the room's but for the house's take, taken from the
        players PokerKit pays (no seat gets more than PokerKit gives it)."""
        return (
            not self.refused
            and self.house > 0
            and sum(self.stacks) - sum(self.recorded) == self.house
            and all(r <= p for r, p in zip(self.recorded, self.stacks, strict=True))
        )


def _scale(fields: dict) -> int:
    """Units per PHH amount given to PokerKit: the currency's minor units; chips (no
    ``currency``) whole when every amount is (a room's tournament chips), so PokerKit
    never splits a pot's odd chip into hundredths."""
    if fields.get("currency") is None and all(
        Decimal(v) == int(v)
        for key in ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks")
        for v in fields.get(key, [])
    ):
        return 1
    return money_of(fields.get("currency")).minor_per_major


def pokerkit_check(text: str) -> Replayed:
    """The exported PHH ``text`` replayed in PokerKit (see the module docstring)."""
    fields = tomllib.loads(text, parse_float=Decimal)
    variant = str(fields.get("variant"))
    if variant not in HandHistory.game_types:
        return Replayed(refused=f"variant {variant} not in PokerKit")
    skipped = [key for key in SKIPPED_BY_POKERKIT if key in fields]
    if skipped:
        return Replayed(refused=f"{skipped[0]} has no PokerKit field")
    if "finishing_stacks" not in fields:
        return Replayed(refused="no finishing_stacks")
    scale = _scale(fields)

    def minor(value: Decimal | int) -> int:
        return int(Decimal(value) * scale)

    def action(text: str) -> str:
        words = text.split()
        return f"{words[0]} cbr {minor(Decimal(words[2]))}" if words[1] == "cbr" else text

    kwargs = {
        key: [minor(v) for v in fields[key]]
        if isinstance(fields[key], list)
        else minor(fields[key])
        for key in AMOUNTS
        if key in fields
    }
    try:
        history = HandHistory(
            variant=variant, actions=[action(a) for a in fields["actions"]], **kwargs
        )
        *_, state = history
    except (ValueError, TypeError, KeyError, IndexError) as error:
        if reason := outside_pokerkit(fields):
            return Replayed(refused=reason)
        return Replayed(refused=f"PokerKit: {type(error).__name__}: {str(error)[:120]}")
    fees = [fee for fee in fields.get("_fees", []) if "player" not in fee]
    house = minor(fields.get("_rake", 0)) + sum(minor(fee["amount"]) for fee in fees)
    replayed = Replayed(
        stacks=tuple(state.stacks),
        recorded=tuple(minor(v) for v in fields["finishing_stacks"]),
        house=house,
    )
    disagrees = not replayed.agrees and not replayed.agrees_less_house
    if disagrees and (reason := outside_pokerkit(fields)):
        return Replayed(refused=reason)
    return replayed


def outside_pokerkit(fields: dict) -> str:
    """Why a hand's PHH ``fields`` are outside PokerKit's model, or "" (see the module
    docstring): the big blind ``min_bet`` above every posted blind, then the actions
    walked with each player's chips behind and street bet."""
    blinds = [Decimal(v) for v in fields["blinds_or_straddles"]]
    if "min_bet" in fields and max(blinds) < Decimal(fields["min_bet"]):
        return (
            f"big blind posted short ({max(blinds)} of {fields['min_bet']}): the room has "
            "the others call the full blind, PokerKit the blind as posted"
        )
    bets = list(blinds)
    behind = [
        Decimal(stack) - Decimal(ante) - blind
        for stack, ante, blind in zip(
            fields["starting_stacks"], fields["antes"], blinds, strict=True
        )
    ]
    folded: set[int] = set()
    for text in fields["actions"]:
        words = text.split()
        if words[0] == "d":
            bets = [Decimal(0)] * len(bets) if words[1] == "db" else bets
            continue
        who = int(words[0][1:]) - 1
        reason = _refused_action(words, who, bets, behind, folded)
        if reason:
            return reason
    return ""


def _refused_action(
    words: list[str], who: int, bets: list[Decimal], behind: list[Decimal], folded: set[int]
) -> str:
    """The reason PokerKit refuses player ``who``'s action ``words``, or "" after applying
    it to ``bets``, ``behind`` and ``folded``."""
    player = words[0]
    if words[1] == "sm" and who in folded:
        return f"{player} shows or mucks after folding: PokerKit shows only at showdown"
    if words[1] == "f":
        folded.add(who)
        if behind[who] == 0:
            return f"{player} folds all-in (no chips behind): PokerKit has no such fold"
    elif words[1] == "cc":
        paid = min(max(bets) - bets[who], behind[who])
        bets[who] += paid
        behind[who] -= paid
    elif words[1] == "cbr":
        callers = [
            i
            for i in range(len(bets))
            if i != who and i not in folded and behind[i] + bets[i] > max(bets)
        ]
        if not callers:
            return (
                f"{player} raises where no other player can call more: the room returns "
                "it uncalled, PokerKit refuses the raise"
            )
        paid = Decimal(words[2]) - bets[who]
        bets[who] += paid
        behind[who] -= paid
    return ""


def pokerkit_replay(text: str) -> tuple[list[int], list[int]] | None:
    """(PokerKit's final stacks, the recorded finishing stacks) in minor units, or None
    for a hand PokerKit cannot be given."""
    replayed = pokerkit_check(text)
    if replayed.refused and not replayed.refused.startswith("PokerKit: "):
        return None
    if replayed.refused:
        raise AssertionError(replayed.refused)
    return list(replayed.stacks), list(replayed.recorded)
