"""Fleet view of the slot machines played on a day, read from the replayer's verdicts.

Nothing is counted here: each figure is read from the machine's ``MachineVerdict``
(``replayer.slots.reconcile_machine``, the verdict the night stores), which alone knows
what each event adds to each meter (``replayer.slots.meters``), hand pays and RAM clears
included (PT-217/2007 III.9; SAS meter practice). Per machine, for the day:

* its play: games, coin in and coin out (the coin_out meter: wins the machine credited,
  not those paid by hand) of the day's events. An event's own contributions are its
  step's ``since_reading`` less the step's before it: the replayer's sums since the last
  reading only grow between a reading and the next, and restart (empty) at a reading or
  a RAM clear, where no event adds anything;
* the actual return (coin out over coin in) against the paytable's theoretical return,
  in basis points, and how many standard errors apart they are (the sd the machine
  declares, else its rulebook's ``default_return_sd``);
* the meter variance: per meter, over the reading windows the day's readings close
  (``MachineVerdict.windows``), the metered advance less what the events in the window
  add, nonzero meters only. A RAM clear recorded between two readings (a MachineReset)
  restarts every meter at zero in the replayer, so it is no variance; an unrecorded one
  leaves its window unjudged (the verdict's finding says so), so it is none here either.

The night computes these when it judges a machine (``day_figures``) and notes them in
the partition's ledger (``fleet_noted``); ``pipelines.detectors.meters_detection`` reads
the ledgers. Money stays in integer minor units; only the z-score is a float.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from datetime import date, datetime
from fractions import Fraction
from typing import Any

from replayer.rulebooks.casino import CASINO_RULEBOOKS, SlotRules
from replayer.slots import MachineVerdict

UNJUDGED_WINDOW = "unexplained_ram_clear"
"""A window the replayer could not reconcile (``replayer.slots.Window.status``)."""


def _day_of(event: Mapping[str, Any]) -> date | None:
    at = event.get("occurred_at")
    return at.date() if isinstance(at, datetime) else None


def day_figures(verdict: MachineVerdict, day: date) -> dict[str, Any]:
    """The day's figures of one machine from its verdict (module docstring); the stream
    judged may span days."""
    played: Counter[str] = Counter()
    before: Mapping[str, int] = {}
    config: Mapping[str, Any] = {}
    readings: set[int] = set()  # sequences of the day's readings
    for step in verdict.steps:
        since: Mapping[str, int] = step.state.get("since_reading") or {}
        on = _day_of(step.event)
        if on == day:
            played += Counter(since) - Counter(before)  # empty at a restart
            if step.event.get("type") == "MeterRead":
                readings.add(step.sequence)
        if step.event.get("type") == "MachineConfigured" and (on is None or on <= day):
            config = step.event
        before = since
    games, coin_in, coin_out = played["games_played"], played["coin_in"], played["coin_out"]
    theoretical = int(config.get("theoretical_return_bps") or 0)
    actual = coin_out * 10_000 // coin_in if coin_in else 0
    sd = _sd_bps(verdict, config)
    z = (actual - theoretical) / (sd / math.sqrt(games)) if games and theoretical and sd else 0.0
    return {
        "games": games,
        "coin_in": coin_in,
        "coin_out": coin_out,
        "actual_return_bps": actual,
        "theoretical_return_bps": theoretical,
        "z": round(z, 3),
        "meter_variance": _variance(verdict, readings),
    }


def _sd_bps(verdict: MachineVerdict, config: Mapping[str, Any]) -> int:
    """The sd of the return per unit wagered, in basis points: the machine's declared
    ``return_sd_bps``, else its rulebook's ``default_return_sd`` (0: no rulebook)."""
    if config.get("return_sd_bps") is not None:
        return int(config["return_sd_bps"])
    rules = CASINO_RULEBOOKS.get(verdict.rulebook_id or "")
    if not isinstance(rules, SlotRules):
        return 0
    return round(Fraction(rules.default_return_sd) * 10_000)


def _variance(verdict: MachineVerdict, readings: set[int]) -> dict[str, int]:
    """meter -> metered advance less the events' sum, over the judged windows the day's
    readings close (nonzero meters only)."""
    variance: Counter[str] = Counter()
    for window in verdict.windows:
        if window.end_sequence in readings and window.status != UNJUDGED_WINDOW:
            for meter, metered in window.metered.items():
                variance[meter] += metered - window.event_sums.get(meter, 0)
    return {meter: amount for meter, amount in sorted(variance.items()) if amount}


def fleet_noted(fleet: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """What a partition's ledger notes for the slot fleet: machine -> its day's figures
    (``day_figures``, sorted by machine); nothing when no machine was judged."""
    return {"fleet": {machine: dict(fleet[machine]) for machine in sorted(fleet)}} if fleet else {}
