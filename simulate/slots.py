"""Synthetic slot machine streams (flat events of ``schemas/slot_machine.avsc``).

``machine_month`` plays a machine for some days: players insert bills or tickets, play
games on an integer-weighted paytable, cash out to tickets (or by hand above a limit), win
jackpots paid by hand; the machine's meters (modulo 10^width) are read at the end of every
day, or every hour (``readings_per_day=24``: the day's games spread over its hours, each
hour's events stamped within it). Options start the meters near their rollover, clear the
RAM on a given day (with its MachineReset and readings), or pay on a different paytable
than the one configured. Pure: a function of its ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from math import isqrt
from typing import Any

from replayer.slots.meters import COMPOSITES, METERS, contributions
from simulate.envelope import envelope
from simulate.jackpots import JackpotPlan

FlatEvent = dict[str, Any]

#: (multiplier of the wager, weight out of 10 000): returns 93% (PT-217/2007 III.2: >= 80%).
PAYTABLE_93 = ((1, 1500), (2, 1000), (5, 400), (10, 120), (50, 20), (200, 3), (1000, 1))
#: A machine paying 59%, far below the legal floor.
PAYTABLE_59 = ((1, 1500), (2, 1000), (5, 200), (10, 50), (50, 10), (200, 2))
WEIGHTS = 10_000
WAGERS, _HANDPAY_LIMIT = (20, 50, 100), 100_000
CURRENCY = "EUR"
"""The machines' currency (``MachineConfigured.currency``)."""


def paytable_return(paytable: tuple[tuple[int, int], ...]) -> Fraction:
    return sum((Fraction(m * w, WEIGHTS) for m, w in paytable), Fraction(0))


def paytable_sd_bps(paytable: tuple[tuple[int, int], ...]) -> int:
    """Standard deviation of the win per unit wagered, in basis points, rounded down."""
    mean = paytable_return(paytable)
    variance = sum((Fraction(m * m * w, WEIGHTS) for m, w in paytable), Fraction(0)) - mean**2
    return isqrt(int(variance * 10**8))


@dataclass
class _Machine:
    """Emits events 10 s apart from ``start`` (counted from the event at ``base``)."""

    machine_id: str
    start: datetime
    width: int
    meters: dict[str, int]
    events: list[FlatEvent] = field(default_factory=list)
    base: int = 0
    tickets: int = 0
    jackpot: JackpotPlan | None = None
    wagered: int = 0
    deducted: int = 0  # floor(wagered * rate) at the last JackpotContributed

    def resume(self, moment: datetime) -> None:
        """The next event happens at ``moment``, later ones 10 s apart."""
        self.start, self.base = moment, len(self.events)

    def emit(self, body_type: str, **fields: Any) -> FlatEvent:
        sequence = len(self.events)
        at = self.start + timedelta(seconds=10 * (sequence - self.base))
        event = envelope("machine_id", self.machine_id, sequence, at, body_type, **fields)
        self.events.append(event)
        for meter, amount in contributions(event).items():
            self.meters[meter] = (self.meters[meter] + amount) % 10**self.width
        return event

    def read(self, reason: str = "scheduled") -> None:
        self.emit("MeterRead", meters=dict(self.meters), reason=reason)

    def contribute(self) -> None:
        """The jackpot's share of the wagers since the last deduction (PT-217/2007 III.3),
        carried in fractions of a minor unit and sent whole."""
        if self.jackpot is None:
            return
        due = self.wagered * self.jackpot.rate_bps // 10_000
        self.emit("JackpotContributed", pool=self.jackpot.pool, amount=due - self.deducted)
        self.deducted = due


def machine_month(
    rng: random.Random,
    machine_id: str,
    start: datetime,
    *,
    days: int = 30,
    games_per_day: int = 400,
    width: int = 8,
    near_rollover: bool = False,
    ram_clear_day: int | None = None,
    paid_on: tuple[tuple[int, int], ...] = PAYTABLE_93,
    readings_per_day: int = 1,
    rollover_margin: int = 400_000,
    jackpot: JackpotPlan | None = None,
    opening_meters: Mapping[str, int] | None = None,
) -> list[FlatEvent]:
    """A machine's stream over ``days`` days, with a reading at the end of each day, or at
    the end of each of ``readings_per_day`` equal periods of it (24: hourly). With
    ``near_rollover`` the money meters start at most ``rollover_margin`` below 10^width
    and the other meters at a long-serving machine's counts; ``opening_meters`` (a stream
    continued from the day before: its last reading) start them there instead. With
    ``jackpot`` the configuration declares it and its approval follows (PT-217/2007
    III.3-4, III.8), the level is read after it when the machine reads one, and the
    jackpot's share of the wagers is deducted at the end of each period of play."""
    meters = dict.fromkeys((*METERS, *COMPOSITES), 0)
    if opening_meters is not None:
        meters |= opening_meters
    elif near_rollover:
        for meter in ("coin_in", "coin_out", "total_won", "drop", "bills_in"):
            meters[meter] = 10**width - rng.randint(1, rollover_margin)
        # So far into its meters, the machine has long been in service: every other meter
        # counts too (else the rolling money meters would be all its nonzero meters, and
        # their falling together would read as a RAM clear).
        games, drop = meters["coin_in"] // 50, meters["drop"]
        meters |= {"games_played": games, "games_won": games // 3, "jackpot": games // 4}
        meters |= {"ticket_in": drop // 4, "ticket_out": drop // 2}
        meters |= {"handpaid_cancelled_credits": drop // 50, "cancelled_credits": drop // 2}
        meters["total_won"] = (meters["coin_out"] + meters["jackpot"]) % 10**width
        meters["total_handpaid"] = meters["handpaid_cancelled_credits"] + meters["jackpot"]
    machine = _Machine(machine_id, start, width, meters, jackpot=jackpot)
    paytable = {
        "theoretical_return_bps": round(paytable_return(PAYTABLE_93) * 10_000),
        "max_single_win": 1000 * max(WAGERS),
    }
    machine.emit(
        "MachineConfigured",
        rulebook="pt-217-2007-slots",
        currency=CURRENCY,
        denomination=1,
        meter_width_digits=width,
        theoretical_return_bps=paytable["theoretical_return_bps"],
        return_sd_bps=paytable_sd_bps(PAYTABLE_93),
        max_single_win=paytable["max_single_win"],
        paytable_id="pt-93",
        source=None,
        **(jackpot.declaration() if jackpot is not None else {}),
    )
    if jackpot is not None:
        machine.emit(
            "ConfigurationApproved",
            approval=f"IGJ-{jackpot.declaration()['model']}-{jackpot.rate_bps}",
            model=jackpot.declaration()["model"],
            paytable_id="pt-93",
            denomination=1,
            **paytable,
            jackpot_rate_bps=jackpot.rate_bps,
        )
        if jackpot.opening_level is not None:
            machine.emit("JackpotLevelRead", pool=jackpot.pool, amount=jackpot.opening_level)
    machine.read("power_up")
    period = timedelta(days=1) / readings_per_day
    for day in range(days):
        for part in range(readings_per_day):
            games = games_per_day // readings_per_day + (part < games_per_day % readings_per_day)
            if readings_per_day > 1:
                machine.resume(start + timedelta(days=day) + part * period + timedelta(seconds=20))
            _play(rng, machine, games, paid_on)
            machine.contribute()
            if part + 1 < readings_per_day:
                machine.resume(start + timedelta(days=day) + (part + 1) * period)
                machine.read()
        if readings_per_day > 1:
            machine.resume(start + timedelta(days=day + 1) - timedelta(seconds=60))
        if day == ram_clear_day:
            machine.read("before_ram_clear")
            machine.emit("MachineReset", kind="ram_clear", reason="memory fault")
            machine.meters = dict.fromkeys(machine.meters, 0)
            machine.read("after_ram_clear")
        machine.read()
    return machine.events


def _play(
    rng: random.Random, machine: _Machine, games: int, paid_on: tuple[tuple[int, int], ...]
) -> None:
    """Sessions until ``games`` games are played: credits in, games, credits out."""
    played = 0
    while played < games:
        credits = rng.choice([2000, 5000, 10_000])
        if rng.random() < 0.3:
            machine.emit(
                "TicketRedeemed",
                ticket_id=f"{machine.machine_id}-in-{machine.tickets}",
                amount=credits,
            )
        else:
            machine.emit("BillInserted", amount=credits)
        machine.tickets += 1
        while credits >= min(WAGERS) and played < games and rng.random() > 0.01:
            wager = rng.choice([w for w in WAGERS if w <= credits])
            win = wager * _multiplier(rng, paid_on)
            handpaid = win >= _HANDPAY_LIMIT
            machine.emit("GamePlayed", wager=wager, win=win, handpaid=handpaid)
            machine.wagered += wager
            if handpaid:
                machine.emit("HandpayMade", amount=win, kind="jackpot")
            credits += (0 if handpaid else win) - wager
            played += 1
        if credits >= _HANDPAY_LIMIT:
            machine.emit("HandpayMade", amount=credits, kind="cancelled_credit")
        elif credits:
            machine.emit(
                "TicketPrinted",
                ticket_id=f"{machine.machine_id}-out-{machine.tickets}",
                amount=credits,
            )


def _multiplier(rng: random.Random, paytable: tuple[tuple[int, int], ...]) -> int:
    draw = rng.randrange(WEIGHTS)
    for multiplier, weight in paytable:
        if draw < weight:
            return multiplier
        draw -= weight
    return 0
