"""``late_actions``: a GGPoker cash table where some players act after their time ran out
(issue 38 item 4), for ``generate_day(extra=...)``.

One table of its own (``gg-clock-001``, the day's first GG table's stakes and declared
terms under its own id), seated through the day as every table is
(``seating.TableSession``), a hand every ten minutes from noon, events two seconds apart.
In about ``fault_rate`` of the hands, and at least one, an action other than a fold or
a check comes after the rulebook's clock (``PokerRulebook.clock``: the time to act and a
full time bank) ran out: that action and every later event of the hand are delayed by
the clock's longest and a few seconds more (``acted_out_of_time``, GG-2022 Política de
limite de tempo de jogo; Política de banco de horas). The other hands are the untouched
set: every action in time.

Deterministic: the table from ``"<seed>:<day>:clock"``, the faults from
``"...:clock:faults"``.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from itertools import islice
from pathlib import Path
from typing import Any

from replayer.rulebooks.poker import ActionClock, PokerRulebook
from replayer.rulebooks.registry import get_rulebook
from simulate.day import EVENT_GAP, ExtraGenerator
from simulate.manifest import PlantedFault
from simulate.side_table import SideTable, played, write_hands

TABLE_ID, TERMS_FILE = "gg-clock-001", "clock-tables.avro"
ACTED_LATE = "acted_out_of_time"
HAND_EVERY, FIRST_HAND = timedelta(minutes=10), timedelta(hours=12)
TIMED_OUT = frozenset({"fold", "check"})
CLOCK_TABLE = SideTable(
    TABLE_ID, "clock", "gg-2022-cash-holdem", TERMS_FILE, FIRST_HAND, HAND_EVERY, EVENT_GAP
)


def late_actions(count: int, *, fault_rate: float = 0.0) -> ExtraGenerator:
    """An ``extra`` generator: ``count`` hands at the clock table, about ``fault_rate`` of
    them with an action after the time ran out, and at least one."""

    def extra(seed: int, day: date, out: Path) -> tuple[list[str], list[PlantedFault]]:
        book = get_rulebook(CLOCK_TABLE.rulebook)
        assert isinstance(book, PokerRulebook) and book.clock is not None
        fault_rng = random.Random(f"{seed}:{day.isoformat()}:clock:faults")
        events: list[dict[str, Any]] = []
        faults: list[PlantedFault] = []
        for hand in islice(played(CLOCK_TABLE, seed, day, out), count):
            rendered = hand.render()
            drawn = fault_rng.random() < fault_rate
            if drawn or not faults:  # at least one: the first hand with an action to time
                rendered, fault = _delayed(rendered, book.clock, fault_rng)
                faults += [fault] if fault is not None else []
            events += rendered
        return [write_hands(CLOCK_TABLE, seed, day, out, events)], faults

    return extra


def _delayed(
    events: list[dict[str, Any]], clock: ActionClock, rng: random.Random
) -> tuple[list[dict[str, Any]], PlantedFault | None]:
    """One action other than a fold or a check, and every later event, moved past the
    clock; the hand untouched when it has no such action."""
    actions = [e for e in events if e["type"] == "ActionTaken" and e["action"] not in TIMED_OUT]
    if not actions:
        return events, None
    late = rng.choice(actions)
    by = clock.longest + timedelta(seconds=rng.randint(5, 60))
    moved = [
        {**e, "occurred_at": e["occurred_at"] + by} if e["sequence"] >= late["sequence"] else e
        for e in events
    ]
    detail = {
        "seat": late["seat"],
        "sequence": late["sequence"],
        "action": late["action"],
        "seconds": (by + EVENT_GAP).total_seconds(),
    }
    return moved, PlantedFault(ACTED_LATE, str(late["hand_id"]), (ACTED_LATE,), detail)
