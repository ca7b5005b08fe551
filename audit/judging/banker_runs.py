"""Chemin de fer banker runs: the garage rule judged across a table's coups
(PT-217/2007 I.34, I.46).

A banker may take money out of his bank only as the garage rule allows, judged across
the consecutive coups of his run (``replayer.casino.garage.check_banker_runs``); no
single round shows it. A table's coups are judged together as one ``banker_run``
subject (``table:<table id>``), by ``replay`` over the stored coups it judges and by the
nightly over the night's coups, through ``judge_banker_run``: the same coups give the
same inputs, so the same verdict unit, whichever path judged them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.banker_run import BANKER_RUN, BANKER_RUNS, is_coup
from audit.judging.path import TermsBook, started_at, verdict_unit
from audit.store import SubjectRecords
from replayer.casino.garage import RunVerdict

__all__ = ["banker_run_unit", "is_coup", "judge_banker_run"]


def _play_order(coup: Sequence[Mapping[str, Any]]) -> tuple[Any, str]:
    return coup[0]["occurred_at"], str(coup[0].get("round_id", ""))


def judge_banker_run(
    table_id: str, coups: Sequence[Sequence[dict[str, Any]]], terms: TermsBook | None = None
) -> tuple[Inputs, RunVerdict]:
    """The inputs (the coups' events in play order, the table's terms in force at the
    first: who runs the table, as a shoe's verdict names it) and the verdict of one
    table's run (its kind's adjudicator, ``audit.judging.kinds.banker_run``)."""
    ordered = sorted((c for c in coups if c), key=_play_order)
    events = [event for coup in ordered for event in coup]
    declared = None
    if terms is not None and ordered:
        declared = terms.in_force(table_id, started_at("banked", ordered[0]))
    inputs = Inputs(BANKER_RUN, f"table:{table_id}", events, terms=declared)
    return inputs, BANKER_RUNS.adjudicate(inputs, False)


def banker_run_unit(inputs: Inputs, verdict: RunVerdict) -> SubjectRecords:
    """The stored verdict unit of a table's banker runs (``verdict_unit``), with the coups
    it judged in play order (``rounds``: the inputs of its evidence bundle, since replay
    and a night may judge different sets of the table's coups)."""
    stored = verdict_unit(inputs, verdict)
    rounds = dict.fromkeys(str(event.get("round_id")) for event in inputs.events)
    stored.records[0]["rounds"] = list(rounds)
    return stored
