"""``session_table``: a live table whose session across hands is planted (issue 38 item 1),
for ``generate_day(extra=...)``.

One table of its own (``pt-session-001``: the day's first PT-217/2007 hold'em table's
stakes and terms, ``side_table``), a hand a minute from 09:00, so that its hands are one
session by their times (``replayer.sessions.chaining``). Every session fault is planted at
least once, and more at about ``fault_rate`` of the hands, each hand legal on its own:

* ``button_stuck``: the button stays on its seat for one hand between the same players
  (MO-97/2010 art.1(2); PT-217/2007 n.º 29): ``button_not_rotated`` on that hand. It
  needs the play: the hand is dealt with the button where it was;
* ``chips_removed_between_hands`` and ``rake_left_out_of_record``, planted between two
  hands once the table has played (``session_faults.BETWEEN_HANDS``): ``chips_vanished``
  and ``record_contradicts_itself`` on the later hand.

A pair of hands gets at most one fault. Deterministic: the play from
``"<seed>:<day>:session"`` (``side_table``), the faults from ``"...:session:faults"``.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from itertools import islice
from pathlib import Path
from typing import Any

from simulate.day import EVENT_GAP, ExtraGenerator
from simulate.manifest import PlantedFault
from simulate.session_faults import BETWEEN_HANDS, BUTTON_STUCK, SESSION_FAULTS
from simulate.side_table import SideTable, played, write_hands

SESSION_TABLE = SideTable(
    "pt-session-001",
    "session",
    "pt-217-2007-holdem",
    "session-tables.avro",
    timedelta(hours=9),
    timedelta(minutes=1),
    EVENT_GAP,
)
FAULT_KINDS = tuple(SESSION_FAULTS)


def session_table(count: int, *, fault_rate: float = 0.0) -> ExtraGenerator:
    """An ``extra`` generator: ``count`` hands at the session table, every session fault
    planted at least once and about ``fault_rate`` of the hands with one more."""

    def extra(seed: int, day: date, out: Path) -> tuple[list[str], list[PlantedFault]]:
        rng = random.Random(f"{seed}:{day.isoformat()}:session:faults")
        owed = list(FAULT_KINDS)
        owed += [rng.choice(FAULT_KINDS) for _ in range(count) if rng.random() < fault_rate]
        faults: list[PlantedFault] = []
        hands: list[list[dict[str, Any]]] = []
        buttons: list[int | None] = []

        def hold(number: int) -> bool:
            return number > 0 and BUTTON_STUCK in owed and not _faulty(faults, hands[-1])

        for hand in islice(played(SESSION_TABLE, seed, day, out, hold), count):
            hands.append(hand.render())  # the button deals last: ``hand.seats[-1]``
            if buttons and buttons[-1] == hand.seats[-1] and BUTTON_STUCK in owed:
                owed.remove(BUTTON_STUCK)
                detail = {"hands": [hands[-2][0]["hand_id"], hand.hand_id]}
                faults.append(
                    PlantedFault(BUTTON_STUCK, hand.hand_id, SESSION_FAULTS[BUTTON_STUCK], detail)
                )
            buttons.append(hand.seats[-1])
        for index in range(1, len(hands)):
            waiting = [kind for kind in owed if kind in BETWEEN_HANDS]
            if not waiting or _faulty(faults, hands[index - 1], hands[index]):
                continue
            fault = BETWEEN_HANDS[waiting[0]](hands, index, rng)
            if fault is not None:
                owed.remove(waiting[0])
                faults.append(fault)
        events = [event for events in hands for event in events]
        return [write_hands(SESSION_TABLE, seed, day, out, events)], faults

    return extra


def _faulty(faults: list[PlantedFault], *hands: list[dict[str, Any]]) -> bool:
    """Whether a fault is planted on or just after one of ``hands``."""
    ids = {str(events[0]["hand_id"]) for events in hands}
    return any(ids & {f.subject, *f.detail.get("hands", ())} for f in faults)
