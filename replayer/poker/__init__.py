"""Poker hand re-adjudication: ``adjudicate_hand(events) -> HandVerdict``.

Modules: ``cards`` and ``evaluator`` (cards and hand values), ``betting`` (the betting
state machine), ``deal`` (deck, deal and shuffle-commitment checks), ``pots`` (main and
side pots, sharing), ``showdown`` (winners), ``rake`` (commission), ``replay`` (the
orchestration), ``verdict`` (what is returned).
"""

from replayer.poker.replay import adjudicate_hand
from replayer.poker.verdict import HandVerdict, PotResult, Step, render_steps

__all__ = ["HandVerdict", "PotResult", "Step", "adjudicate_hand", "render_steps"]
