"""Banked casino games re-adjudicated from a round's flat events.

``adjudicate_round(events)`` judges one round of punto banco, chemin de fer, blackjack or
roulette by its rulebook (``replayer.rulebooks.casino``) and returns a ``RoundVerdict``.
"""

from replayer.casino.adjudicate import adjudicate_round
from replayer.casino.verdict import RoundStep, RoundVerdict

__all__ = ["RoundStep", "RoundVerdict", "adjudicate_round"]
