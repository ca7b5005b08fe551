"""Slot machines: meter readings reconciled against game and handpay events.

``reconcile_machine(events)`` judges one machine's stream by its rulebook
(``pt-217-2007-slots``) and returns a ``MachineVerdict``.
"""

from replayer.slots.reconcile import reconcile_machine
from replayer.slots.verdict import ConfigurationPeriod, MachineStep, MachineVerdict, Window

__all__ = ["ConfigurationPeriod", "MachineStep", "MachineVerdict", "Window", "reconcile_machine"]
