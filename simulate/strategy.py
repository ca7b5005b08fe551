"""Betting decisions: honest styles, and the colluders' departures from them.

A decision sees one ``Spot`` (what the rules allow now, the pot, the player's own
strength) and returns ``(action, chips added)``. Every amount it returns lies inside the
spot's legal range, which ``poker`` computes from the replayer's own betting state, so a
generated hand never breaks a betting rule.

Honest play (``honest``): continue when the hand's strength beats a threshold that rises
with the price (pot odds) and falls with the player's looseness; bet or raise strong
hands with the player's aggression, bluff now and then; short stacks and monsters go
all-in at no-limit.

Collusion (``colluding``), only while a partner is still in the hand; otherwise the
colluder plays his honest style, so his play looks normal:

* ``soft_play``: never bets or raises into a partner when only partners are left, never
  raises a partner's bet, folds rather than confront a partner's bet with a medium hand.
* ``chip_dumping`` (in a "dump hand"): the dumper puts chips in (calls, bets), then folds
  to the receiver's bet or raise whatever he holds; the receiver bets or raises into the
  dumper whatever he holds.
* ``whipsaw`` (collusive raising): with a third player caught between them and a strong
  hand in the team, a partner re-raises a partner's bet or raise to squeeze the third
  player; the weaker partner later folds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from simulate.players import Style

CHIP_DUMPING = "chip_dumping"
SOFT_PLAY = "soft_play"
WHIPSAW = "whipsaw"
METHODS = (CHIP_DUMPING, SOFT_PLAY, WHIPSAW)


@dataclass(slots=True)
class Spot:
    """What a player faces when his action is due (chips in minor units)."""

    to_call: int
    stack: int
    pot: int
    current: int
    my_bet: int
    min_to: int
    """Smallest legal total bet for a bet/raise (an all-in for less is always legal)."""
    max_to: int | None
    """Largest legal total bet, or None when no bet or raise is allowed."""
    chip: int
    big_blind: int
    street: int
    strength: float
    no_limit: bool
    opponents: int = 1
    """Players still in the hand besides this one."""
    was_aggressor: bool = False
    """The player made the last bet or raise of the previous betting round."""
    aggressor_is_partner: bool = False
    only_partners_left: bool = False
    third_party_in: bool = False
    team_strength: float = 0.0
    role: str = ""
    """In a dump hand: "dumper" or "receiver"; in a whipsaw hand: "whipsaw"."""


def _to(spot: Spot, target: float) -> tuple[str, int]:
    """Bet/raise to about ``target`` total chips, clamped to the legal range."""
    assert spot.max_to is not None
    all_in = spot.my_bet + spot.stack
    total = int(target) // spot.chip * spot.chip
    total = max(spot.min_to, min(total, spot.max_to))
    if total >= all_in:
        total = min(all_in, spot.max_to)
    action = "bet" if spot.current == 0 else "raise"
    return action, total - spot.my_bet


def _call(spot: Spot) -> tuple[str, int]:
    return ("call", min(spot.to_call, spot.stack)) if spot.to_call else ("check", 0)


def _fold(spot: Spot) -> tuple[str, int]:
    return ("fold", 0) if spot.to_call else ("check", 0)


def _sized(spot: Spot, fraction: float) -> tuple[str, int]:
    pot_after_call = spot.pot + spot.to_call
    return _to(spot, spot.current + fraction * pot_after_call)


def honest(rng: random.Random, style: Style, spot: Spot) -> tuple[str, int]:
    """A decision in the player's own style."""
    s = spot.strength
    can_raise = spot.max_to is not None
    if spot.to_call == 0:
        if can_raise:
            if spot.no_limit and s > 0.93 and rng.random() < 0.2:
                return _to(spot, spot.my_bet + spot.stack)
            lead = style.aggression * min(1.0, max(0.0, (s - 0.38) * 2.2))
            if spot.was_aggressor:
                lead += 0.5 * style.aggression
            if spot.opponents == 1:
                lead += 0.3 * style.aggression
            if rng.random() < lead + style.bluff:
                return _sized(spot, style.sizing * rng.uniform(0.6, 1.3))
        return "check", 0
    odds = spot.to_call / (spot.pot + spot.to_call)
    if spot.street == 0:
        need = 0.47 + 0.3 * odds + 0.015 * min(spot.to_call / spot.big_blind, 10)
        need -= 0.7 * style.looseness
    else:
        need = 0.33 + 0.55 * odds - 0.5 * style.looseness
    short = spot.stack <= 15 * spot.big_blind
    if can_raise:
        if spot.no_limit and (s > 0.95 or (short and s > need + 0.12)) and rng.random() < 0.5:
            return _to(spot, spot.my_bet + spot.stack)
        if s > max(need + 0.1, 0.8 - 0.12 * style.aggression) and rng.random() < style.aggression:
            return _sized(spot, style.sizing * rng.uniform(0.7, 1.3))
        if rng.random() < style.bluff * 0.4:
            return _sized(spot, style.sizing)
    if s >= need or rng.random() < style.bluff * 0.2:
        return _call(spot)
    return _fold(spot)


def colluding(rng: random.Random, style: Style, method: str, spot: Spot) -> tuple[str, int]:
    """A colluder's decision while a partner is still in the hand."""
    can_raise = spot.max_to is not None
    if method == SOFT_PLAY:
        if spot.only_partners_left:
            # Check it down; against a partner's bet, call only a strong hand.
            return _call(spot) if spot.to_call == 0 or spot.strength > 0.7 else _fold(spot)
        if spot.aggressor_is_partner:
            return _call(spot) if spot.strength > 0.6 else _fold(spot)
        return honest(rng, style, spot)
    if method == CHIP_DUMPING and spot.role == "dumper":
        if spot.aggressor_is_partner:
            return _fold(spot)
        if spot.to_call == 0 and can_raise and spot.street > 0:
            return _sized(spot, 0.6)
        return _call(spot)
    if method == CHIP_DUMPING and spot.role == "receiver":
        if spot.aggressor_is_partner and can_raise:
            return _sized(spot, 0.8)
        if spot.to_call == 0 and can_raise and spot.street > 0 and rng.random() < 0.5:
            return _sized(spot, 0.5)
        return _call(spot) if spot.street == 0 else honest(rng, style, spot)
    if method == WHIPSAW and spot.role == "whipsaw" and spot.third_party_in:
        if spot.aggressor_is_partner and can_raise and spot.team_strength > 0.6:
            return _sized(spot, 0.9)
        if spot.aggressor_is_partner:
            return _call(spot)
    return honest(rng, style, spot)
