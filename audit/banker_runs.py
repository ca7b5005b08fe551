"""Chemin de fer banker runs: the garage rule judged across a table's coups
(PT-217/2007 I.34, I.46).

A banker may take money out of his bank only as the garage rule allows, judged across
the consecutive coups of his run (``replayer.casino.garage.check_banker_runs``); no
single round shows it. ``replay`` judges each table's stored coups together as one
``banker_run`` subject (``table:<table id>``); the nightly's ``banker_runs`` detector
judges the night's coups of each table the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

BANKER_RUN = "banker_run"
"""The subject kind of a table's banker runs (``table:<table id>``)."""
GAME = "chemin_de_fer"


def is_coup(records: Sequence[Mapping[str, Any]]) -> bool:
    """True when a banked round's records are a chemin de fer coup."""
    return bool(records) and records[0].get("game") == GAME
