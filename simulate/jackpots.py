"""The slot fleet's jackpots (PT-217/2007 III.3-6, III.8): plans, closing and faults.

Machines come in groups of ``GROUP`` (``plans_for_group``): an even group is linked into a
superjackpot ``sj-<group>`` (III.4) whose level its first machine reads; in an odd group
each machine feeds its own jackpot (III.3), and the first moves its jackpot whole to the
second at the end of the day (III.6: the same model and bets). Every machine deducts
``RATE_BPS`` of each wager (an integer share of every wager the simulator plays, so a game
missing from the records always changes what the deduction should be), records its
approval (III.8) and, when it reads a level, the level at the start of the day.
``close_pools`` ends the group's day: the transfer and each pool's closing level (III.5),
computed from what the machines recorded.

Faults (``JACKPOT_FAULTS``: kind -> finding kinds, and which machines can carry it):

* ``short_jackpot_contribution``: one deduction sent short (III.3-4);
* ``jackpot_share_below_return``: a machine deducting so much that its return without the
  jackpot is below 80% (III.3: "sem prejuízo da percentagem" of III.2); own jackpot only,
  so that the linked machines' shares stay alike;
* ``jackpot_short_of_contributions``: the closing level reads less than the pool holds
  (III.5); on a machine that reads a level;
* ``jackpot_moved_in_part``: the transfer moves part of the jackpot (III.6); on a machine
  that moves its jackpot;
* ``unapproved_configuration``: the approval on record lists another paytable (III.8).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from simulate.envelope import envelope

FlatEvent = dict[str, Any]
GROUP = 4
RATE_BPS = 1_000
"""10% of each wager to the jackpot: 2, 5 and 10 cents of the wagers 20, 50 and 100."""
EXCESSIVE_RATE_BPS = 1_400
"""The share that leaves a 93% paytable at 79% without the jackpot."""
MODEL = "aurora-5"
SHORT_CONTRIBUTION = "short_jackpot_contribution"
SHARE_BELOW_RETURN = "jackpot_share_below_return"
UNBACKED_LEVEL = "jackpot_short_of_contributions"
PARTIAL_TRANSFER = "jackpot_moved_in_part"
UNAPPROVED = "unapproved_configuration"


@dataclass(frozen=True)
class JackpotPlan:
    """What one machine's configuration declares of its jackpot, and its part in it."""

    pool: str
    rate_bps: int = RATE_BPS
    linked: tuple[str, ...] | None = None
    opening_level: int | None = None
    """The level read at the start of the day (by the machine that reads the pool)."""
    transfer_to: str | None = None

    @property
    def reads_level(self) -> bool:
        return self.opening_level is not None

    def declaration(self) -> dict[str, Any]:
        """The MachineConfigured fields of the plan."""
        return {
            "model": MODEL,
            "jackpot_pool": self.pool,
            "jackpot_rate_bps": self.rate_bps,
            "jackpot_linked": None if self.linked is None else list(self.linked),
        }


def plans_for_group(seed: int, day: Any, group: int, ids: Sequence[str]) -> dict[str, JackpotPlan]:
    """The jackpot plan of each machine of group ``group`` (see the module docstring)."""
    rng = random.Random(f"{seed}:{day}:jackpots:{group}")
    if group % 2 == 0 and len(ids) > 1:
        pool, linked = f"sj-{group}", tuple(ids)
        opening = rng.randrange(50_000, 500_000)
        return {
            m: JackpotPlan(pool, linked=linked, opening_level=opening if m == ids[0] else None)
            for m in ids
        }
    return {
        m: JackpotPlan(
            m,
            opening_level=rng.randrange(5_000, 50_000),
            transfer_to=ids[1] if m == ids[0] and len(ids) > 1 else None,
        )
        for m in ids
    }


def can_carry(kind: str, plan: JackpotPlan) -> bool:
    """Whether a machine with ``plan`` can carry the jackpot fault ``kind``."""
    return JACKPOT_FAULTS[kind][1](plan)


def close_pools(
    streams: Mapping[str, list[FlatEvent]],
    plans: Mapping[str, JackpotPlan],
    faults: Mapping[str, str],
    end: datetime,
) -> dict[str, dict[str, Any]]:
    """Append the group's transfer and closing levels to ``streams`` (in place), planting
    the faults ``faults`` names (machine -> kind); the planted faults' details."""
    details: dict[str, dict[str, Any]] = {}
    received: dict[str, int] = {}
    for machine, plan in plans.items():
        if plan.transfer_to is None:
            continue
        held = _level(streams, plans, plan.pool)
        moved = held
        if faults.get(machine) == PARTIAL_TRANSFER:
            moved = held - random.Random(f"{machine}:part").randint(1, max(1, held // 2))
            details[machine] = {"held": held, "moved": moved}
        _append(
            streams[machine],
            end - timedelta(seconds=20),
            "JackpotTransferred",
            pool=plan.pool,
            amount=moved,
            to_machine=plan.transfer_to,
            reason="machine withdrawn from play",
        )
        target = plans[plan.transfer_to].pool
        _append(
            streams[plan.transfer_to],
            end - timedelta(seconds=15),
            "JackpotReceived",
            pool=target,
            amount=moved,
            from_machine=machine,
        )
        received[target] = received.get(target, 0) + moved
    for machine, plan in plans.items():
        if not plan.reads_level:
            continue
        level = _level(streams, plans, plan.pool)
        if faults.get(machine) == UNBACKED_LEVEL:
            short = random.Random(f"{machine}:short").randint(1, max(1, level // 10))
            details[machine] = {"held": level, "short": short}
            level -= short
        _append(
            streams[machine],
            end - timedelta(seconds=5),
            "JackpotLevelRead",
            pool=plan.pool,
            amount=level,
        )
    return details


def _level(
    streams: Mapping[str, list[FlatEvent]], plans: Mapping[str, JackpotPlan], pool: str
) -> int:
    """What ``pool`` holds by the records so far: its opening level plus what came in,
    less what went out."""
    signs = {"JackpotContributed": 1, "JackpotReceived": 1, "JackpotTransferred": -1}
    opening = next(p.opening_level for p in plans.values() if p.pool == pool and p.reads_level)
    assert opening is not None
    return opening + sum(
        signs[e["type"]] * int(e["amount"])
        for events in streams.values()
        for e in events
        if e["type"] in signs and e.get("pool") == pool
    )


def _append(events: list[FlatEvent], at: datetime, record_type: str, **body: Any) -> None:
    machine = events[0]["machine_id"]
    events.append(envelope("machine_id", machine, len(events), at, record_type, **body))


def _short_contribution(events: list[FlatEvent], rng: random.Random) -> dict[str, Any]:
    """One deduction sent short by 1 to its whole amount."""
    index = rng.choice(
        [i for i, e in enumerate(events) if e["type"] == "JackpotContributed" and e["amount"]]
    )
    short = rng.randint(1, events[index]["amount"])
    events[index] = {**events[index], "amount": events[index]["amount"] - short}
    return {"sequence": index, "short": short}


def _other_paytable(events: list[FlatEvent], rng: random.Random) -> dict[str, Any]:
    """The approval on record lists another paytable than the one configured."""
    index = next(i for i, e in enumerate(events) if e["type"] == "ConfigurationApproved")
    events[index] = {**events[index], "paytable_id": f"{events[index]['paytable_id']}-r2"}
    return {"sequence": index, "approved": events[index]["paytable_id"]}


MACHINE_PLANTERS: dict[str, Callable[[list[FlatEvent], random.Random], dict[str, Any]]] = {
    SHORT_CONTRIBUTION: _short_contribution,
    UNAPPROVED: _other_paytable,
}
"""Faults planted in one machine's own stream (in place) -> the fault's detail; the
others are planted when the machine is generated (``EXCESSIVE_RATE_BPS``) or when its
group's day closes (``close_pools``)."""

JACKPOT_FAULTS: dict[str, tuple[tuple[str, ...], Callable[[JackpotPlan], bool]]] = {
    SHORT_CONTRIBUTION: (("jackpot_contribution",), lambda plan: True),
    SHARE_BELOW_RETURN: (("return_out_of_band",), lambda plan: plan.linked is None),
    UNBACKED_LEVEL: (("jackpot_liability",), lambda plan: plan.reads_level),
    PARTIAL_TRANSFER: (("jackpot_transfer",), lambda plan: plan.transfer_to is not None),
    UNAPPROVED: (("unapproved_configuration",), lambda plan: True),
}
"""Fault kind -> (the finding kinds the replayer raises for it, which plans can carry it)."""
