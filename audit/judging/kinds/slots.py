"""The slot machine (``machine_id``): its meters and events reconciled by
``replayer.slots.reconcile.reconcile_machine``; the machine is its own table (its terms,
naming the operator, are declared under its id)."""

from __future__ import annotations

from audit.judging.inputs import Inputs
from audit.judging.kinds.record import SubjectKind
from replayer.slots.reconcile import reconcile_machine
from replayer.slots.verdict import MachineVerdict


def _adjudicate(inputs: Inputs, with_steps: bool) -> MachineVerdict:
    return reconcile_machine(inputs.events)


SLOTS = SubjectKind[MachineVerdict](
    "slots",
    _adjudicate,
    "MachineConfigured",
    title="SLOT MACHINE",
    noun="slot machine",
    place="machine",
    declared=True,
    own_table=True,
)
