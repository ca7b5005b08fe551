"""Poker tournaments (pure functions, no I/O).

* ``state.state_before``: the tournament just before a moment (a failure's start);
* ``cancellation.cancellation_refunds``: GG-2022's four cancellation cases, staking
  included, in exact integer arithmetic (``money``);
* ``adjudicate.adjudicate_tournament``: same-hand elimination places, bounty splits and
  extra satellite seats, with ``wrong_place``, ``mispaid_bounty``, ``mispaid_prize``
  findings; across the hands (``continuity``) chips that stay in, eliminations that agree
  with the counts, entries that are personal and close at the money
  (``tournament_chips_unbalanced``, ``elimination_contradicts_chips``,
  ``entry_not_personal``, ``late_entry_after_itm``); deals (``deals``,
  ``deal_outside_rules``) and sanctions (``sanctions``).

Tournaments are played under PT-217/2007 II n.º 113-124 (late registration, re-entries
and rebuys, n.º 116) and GG-2022's tournament policies.
"""

from replayer.tournaments.adjudicate import TournamentVerdict, adjudicate_tournament
from replayer.tournaments.cancellation import (
    DEFAULT_POLICY,
    Cancellation,
    CancellationPolicy,
    Case,
    FeeRefund,
    cancellation_refunds,
)
from replayer.tournaments.eliminations import Busted, finishing_order
from replayer.tournaments.money import Remainder, equal_shares, shares
from replayer.tournaments.satellites import seat_value
from replayer.tournaments.state import Entry, TournamentState, state_before

__all__ = [
    "DEFAULT_POLICY",
    "Busted",
    "Cancellation",
    "CancellationPolicy",
    "Case",
    "Entry",
    "FeeRefund",
    "Remainder",
    "TournamentState",
    "TournamentVerdict",
    "adjudicate_tournament",
    "cancellation_refunds",
    "equal_shares",
    "finishing_order",
    "seat_value",
    "shares",
    "state_before",
]
