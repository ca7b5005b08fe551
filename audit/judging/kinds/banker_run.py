"""A table's chemin de fer banker runs (``table:<table id>``): the garage rule judged
across the table's coups in play order by ``replayer.casino.garage.check_banker_runs``
(PT-217/2007 I.34, I.46; ``audit.judging.banker_runs``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.banked import rounds_of
from audit.judging.kinds.record import EvidencePart, Feed, SubjectKind
from audit.store import StoreReads
from replayer.casino.garage import RunVerdict, check_banker_runs

BANKER_RUN = "banker_run"
"""The subject kind of a table's banker runs (``table:<table id>``)."""


GAME = "chemin_de_fer"


def is_coup(records: Sequence[Mapping[str, Any]]) -> bool:
    """True when a banked round's records are a chemin de fer coup."""
    return bool(records) and records[0].get("game") == GAME


def _table_of_coup(records: Sequence[Mapping[str, Any]]) -> str | None:
    """A coup's table (None: the round is no chemin de fer coup)."""
    return str(records[0].get("table_id")) if is_coup(records) else None


def _coups(store: StoreReads, subject: str, record: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A table's banker runs' inputs: the coups its verdict lists (none in a verdict
    stored before they were listed: replay stores one that does), then its table's
    declarations when stored."""
    groups = [("banked", str(round_id)) for round_id in record.get("rounds") or ()]
    table = subject.removeprefix("table:")
    if groups and store.records_of("table", table):
        groups.append(("table", table))
    return groups


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
    feed=Feed("banked", _table_of_coup),
    evidence=EvidencePart(
        _coups,
        "coup",
        "the bundle holds the coups the verdict judged; a coup of the table stored later, "
        "outside the signed history, is not in it",
    ),
)
