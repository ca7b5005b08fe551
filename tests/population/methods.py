"""The colluders, each method as its published description has it (poker rooms' security
and fair-play pages, and Mazrooei, Archibald and Bowling, AAAI 2013, section 2), not as the
detector measures it. A method is a list of rules tried in order while a partner is dealt
in; the first that applies decides, else the player plays his honest archetype.

* soft play: "not betting or raising against a partner when one normally would": with
  only partners left they check the hand down, and never raise a partner's bet.
* chip dumping: "one player deliberately loses chips to another": in a dumping hand the
  receiver raises, the dumper calls him down and gives the pot up to his river bet (or
  loses it at showdown); with an outsider in after the flop each plays his own game.
* whipsaw (squeeze): "two players trap a third between them, raising and re-raising":
  with an outsider still in and a strong hand in the team, a partner re-raises his
  partner's bet whatever he holds himself.
* hole-card sharing: partners tell each other their cards: the weaker hand gets out of
  the stronger's way, nobody bets into a partner he knows is ahead, and no partner pays
  off a partner's bet he knows he cannot beat.
* ring: three or more players playing soft and squeezing together.
* team across tables: soft play by four players spread over two tables, meeting in turn.
* multi-accounting: one person in two seats: he sees both hands, never plays against
  himself and squeezes outsiders (sharing, soft play and whipsaw at once).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tests.population.agents import CALL, FOLD, Archetype, Decision, View, honest
from tests.population.cards import chen, postflop_strength

Rule = Callable[[View, random.Random], Decision | None]


def _strength_of(view: View, hole: object) -> float:
    if view.street == 0:
        return chen(hole)  # type: ignore[arg-type]
    return postflop_strength(hole, view.board)  # type: ignore[arg-type]


def soft(view: View, rng: random.Random) -> Decision | None:
    """Check down with partners alone; never raise a partner; no bluff into a partner."""
    outsiders = view.live - view.partners - {view.me}
    if not outsiders and view.street > 0:
        return (CALL, 0)
    if view.aggressor in view.partners:
        return (CALL, 0) if view.strength() > 0.45 or view.street == 0 else (FOLD, 0)
    return None


def dump(view: View, rng: random.Random) -> Decision | None:
    """The dumping hand, played against the partner alone: the receiver raises, the
    dumper calls him and every bet of his down to the river, and there gives the pot up
    to the receiver's bet; the receiver bets into him on every street whatever he holds.
    With an outsider still in, each plays his own game (a dumper feeds his partner, not
    the table)."""
    if not view.dumping or view.receiver is None or view.receiver not in view.live:
        return None
    outsiders = view.live - view.partners - {view.me}
    if view.me == view.receiver:
        if view.street > 0 and outsiders:
            return None
        return view.raise_to(0.8) if view.aggressor != view.me else (CALL, 0)
    if outsiders and view.street > 0:
        return None
    if view.aggressor == view.receiver and view.street == 3:
        return (FOLD, 0)
    return (CALL, 0)


def squeeze(view: View, rng: random.Random) -> Decision | None:
    """Re-raise a partner's bet while an outsider is caught between, when the team is
    strong."""
    outsiders = view.live - view.partners - {view.me}
    if not outsiders or view.aggressor not in view.partners:
        return None
    team = max(view.strength(), *(_team_strength(view, p) for p in view.partners))
    if team >= 0.55:
        return view.raise_to(0.9)
    return None


def _team_strength(view: View, partner: int) -> float:
    """The partner's strength as the team knows it: his cards when shared, else the fact
    of his bet (a bettor is taken to be strong)."""
    hole = view.partner_holes.get(partner)
    if hole is None:
        return 0.6 if view.aggressor == partner else 0.0
    points = _strength_of(view, hole)
    return (points + 1) / 21 if view.street == 0 else points


def share(view: View, rng: random.Random) -> Decision | None:
    """Known partner cards: give way to the stronger, never bet into or call a partner who
    is ahead."""
    live_partners = [p for p in view.partners if p in view.live and p in view.partner_holes]
    if not live_partners:
        return None
    mine = _strength_of(view, view.hole)
    best = max(_strength_of(view, view.partner_holes[p]) for p in live_partners)
    if best > mine and view.to_call:
        return (FOLD, 0)  # the partner is ahead: get out of his way
    outsiders = view.live - view.partners - {view.me}
    if not outsiders:
        return (CALL, 0) if view.to_call == 0 or mine >= best else (FOLD, 0)
    return None


SOFT_PLAY, CHIP_DUMPING, WHIPSAW = "soft_play", "chip_dumping", "whipsaw"
HOLE_CARD_SHARING, RING, TEAM_ACROSS_TABLES = "hole_card_sharing", "ring", "team_across_tables"
MULTI_ACCOUNTING = "multi_accounting"
#: The methods: their rules in order, group size, whether cards are shared.
METHODS: dict[str, tuple[tuple[Rule, ...], int, bool]] = {
    SOFT_PLAY: ((soft,), 2, False),
    CHIP_DUMPING: ((dump,), 2, False),
    WHIPSAW: ((squeeze,), 2, False),
    HOLE_CARD_SHARING: ((share, soft), 2, True),
    RING: ((squeeze, soft), 3, False),
    TEAM_ACROSS_TABLES: ((soft,), 4, False),
    MULTI_ACCOUNTING: ((share, squeeze, soft), 2, True),
}
#: Share of the hands dealt to both in which a chip-dumping pair dumps.
DUMP_RATE = 0.15


def colluding(method: str, style: Archetype, view: View, rng: random.Random) -> Decision:
    """The method's decision, or the player's honest one where no rule applies."""
    if view.partners & view.live:
        for rule in METHODS[method][0]:
            decided = rule(view, rng)
            if decided is not None:
                return decided
    return honest(style, view, rng)
