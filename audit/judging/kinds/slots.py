"""The slot machine (``machine_id``): its meters and events reconciled by
``replayer.slots.reconcile.reconcile_machine``; the machine is its own table (its terms,
naming the operator, are declared under its id); its jackpots are judged with the
jackpot records of the machines they link or move to (``related``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.record import Shown, SubjectKind
from audit.show.model import Line
from audit.show.slots import slots_body
from audit.store import RecordReads
from replayer.slots.jackpot import jackpot_records, related_machines
from replayer.slots.reconcile import reconcile_machine
from replayer.slots.verdict import MachineVerdict
from replayer.verdict import Verdict


def _adjudicate(inputs: Inputs, with_steps: bool) -> MachineVerdict:
    return reconcile_machine(inputs.events, inputs.related)


def jackpot_machines(
    store: RecordReads, kind: str, configured: Mapping[str, Any]
) -> Sequence[dict[str, Any]]:
    """The jackpot records of the machines the machine's jackpots link or move to
    (``replayer.slots.jackpot.related_machines``: PT-217/2007 III.4, III.6), read from its
    stored stream (the transfers are not in its opening event)."""
    own = store.records_of(kind, str(configured["machine_id"]))
    return [
        record
        for machine in related_machines(own)
        for record in jackpot_records(store.records_of(kind, machine))
    ]


def _story(
    inputs: Inputs, verdict: Verdict, about: Mapping[str, Any], numbers: Mapping[str, int]
) -> tuple[Line, ...]:
    """The machine's readings and events (``audit.show.slots``)."""
    return tuple(slots_body(verdict, inputs.events, numbers))


SLOTS = SubjectKind[MachineVerdict](
    "slots",
    _adjudicate,
    "MachineConfigured",
    title="SLOT MACHINE",
    noun="slot machine",
    place="machine",
    declared=True,
    own_table=True,
    related=jackpot_machines,
    shown=Shown(_story, variant="slots"),
)
