"""Poker hand re-adjudication: ``adjudicate_hand(events) -> HandVerdict``.

Modules: ``cards`` and ``evaluator`` (cards and hand values; the ranking orders are
``replayer.rankings``), ``table`` (seats and positions), ``betting`` (the betting state
machine), ``board`` (board schedule), ``deal`` (deck, deal and shuffle-commitment
checks), ``hand`` (the state of a hand being replayed), ``dispatch`` (one handler per
event kind), ``steps`` (the step-by-step replay), ``pots`` (main and side pots,
sharing), ``showdown`` (winners), ``rake`` (commission), ``settlement`` (payouts and
refunds at the end of the hand), ``replay`` (the orchestration), ``verdict`` (what is
returned).
"""

from replayer.poker.replay import adjudicate_hand
from replayer.poker.verdict import HandVerdict, PotResult, Step

__all__ = ["HandVerdict", "PotResult", "Step", "adjudicate_hand"]
