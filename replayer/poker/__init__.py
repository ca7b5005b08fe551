"""Poker hand re-adjudication: ``adjudicate_hand(events) -> HandVerdict``.

Modules: ``cards`` and ``evaluator`` (cards and hand values), ``betting`` (the betting
state machine), ``deal`` (deck, deal and shuffle-commitment checks), ``pots`` (main and
side pots, sharing), ``showdown`` (winners), ``rake`` (commission), ``replay`` (the
orchestration), ``verdict`` (what is returned).
"""

from importlib import import_module
from typing import Any

# Loaded on first use: the rulebooks import ``replayer.poker.evaluator`` while ``replay``
# imports the rulebooks, so importing this package must not import ``replay`` eagerly.
_PUBLIC = {
    "adjudicate_hand": "replayer.poker.replay",
    "HandVerdict": "replayer.poker.verdict",
    "PotResult": "replayer.poker.verdict",
    "Step": "replayer.poker.verdict",
    "render_steps": "replayer.poker.verdict",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'replayer.poker' has no attribute {name!r}")
    return getattr(import_module(_PUBLIC[name]), name)
