"""A table's chemin de fer banker runs (``table:<table id>``): the garage rule judged
across the table's coups in play order by ``replayer.casino.garage.check_banker_runs``
(PT-217/2007 I.34, I.46; ``audit.judging.banker_runs``)."""

from __future__ import annotations

from audit.judging.inputs import Inputs
from audit.judging.kinds.banked import rounds_of
from audit.judging.kinds.record import SubjectKind
from replayer.casino.garage import RunVerdict, check_banker_runs

BANKER_RUN = "banker_run"
"""The subject kind of a table's banker runs (``table:<table id>``)."""


def _adjudicate(inputs: Inputs, with_steps: bool) -> RunVerdict:
    return check_banker_runs(rounds_of(inputs.events))


def _named(subject: str) -> bool:
    return subject.startswith("table:")


BANKER_RUNS = SubjectKind[RunVerdict](
    BANKER_RUN,
    _adjudicate,
    None,
    title="CHEMIN DE FER BANKER RUNS",
    noun="chemin de fer banker runs",
    across=_named,
)
