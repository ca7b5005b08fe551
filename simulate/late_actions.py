"""``late_actions``: a GGPoker cash table where some players act after their time ran out
(issue 38 item 4), for ``generate_day(extra=...)``.

One table of its own (``gg-clock-001``, the day's first GG table's stakes and declared
terms under its own id), seated through the day as every table is
(``seating.TableSession``), a hand every ten minutes from noon, events two seconds apart.
In about ``fault_rate`` of the hands one action other than a fold or a check comes after
the rulebook's clock (``PokerRulebook.clock``: the time to act and a full time bank) ran
out: that action and every later event of the hand are delayed by the clock's longest
and a few seconds more (``acted_out_of_time``, GG-2022 Política de limite de tempo de
jogo; Política de banco de horas). The other hands are the untouched set: every action
in time.

Deterministic: the table from ``"<seed>:<day>:clock"``, the faults from
``"...:clock:faults"``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from audit.families import family_named
from replayer.rulebooks.poker import ActionClock, PokerRulebook
from replayer.rulebooks.registry import get_rulebook
from simulate.avro_out import write_input_file
from simulate.day import EVENT_GAP, ExtraGenerator
from simulate.manifest import PlantedFault
from simulate.players import player_pool
from simulate.poker import HandPlan, play_hand
from simulate.seating import TableSession
from simulate.tables import make_tables, terms_declarations

TABLE_ID, TERMS_FILE = "gg-clock-001", "clock-tables.avro"
ACTED_LATE = "acted_out_of_time"
HAND_EVERY, FIRST_HAND = timedelta(minutes=10), timedelta(hours=12)
TIMED_OUT = frozenset({"fold", "check"})


def late_actions(count: int, *, fault_rate: float = 0.0) -> ExtraGenerator:
    """An ``extra`` generator: ``count`` hands at the clock table, about ``fault_rate`` of
    them with an action after the time ran out."""

    def extra(seed: int, day: date, out: Path) -> tuple[list[str], list[PlantedFault]]:
        table = replace(next(t for t in make_tables(seed, 8) if t.venue == "gg"), table_id=TABLE_ID)
        book = get_rulebook(table.rulebook)
        assert isinstance(book, PokerRulebook) and book.clock is not None
        out.mkdir(parents=True, exist_ok=True)
        write_input_file(
            out / TERMS_FILE,
            family_named("table"),
            terms_declarations([table]),
            stream_id=f"{seed}:{day.isoformat()}:clock-terms",
        )
        rng = random.Random(f"{seed}:{day.isoformat()}:clock")
        fault_rng = random.Random(f"{seed}:{day.isoformat()}:clock:faults")
        session = TableSession(table, player_pool(seed, "gg")[:40], [], book.min_players, rng)
        noon = datetime(day.year, day.month, day.day, tzinfo=UTC) + FIRST_HAND
        events: list[dict[str, Any]] = []
        faults: list[PlantedFault] = []
        for number in range(count):
            button, seated = session.next_hand()
            plan = HandPlan(
                hand_id=f"{TABLE_ID}/{day:%Y%m%d}-{number + 1:06d}",
                started_at=noon + number * HAND_EVERY,
                button_seat=button,
                seated=seated,
                event_gap=EVENT_GAP,
            )
            hand = play_hand(table, book, plan, rng)
            rendered = hand.render()
            if fault_rng.random() < fault_rate:
                rendered, fault = _delayed(rendered, book.clock, fault_rng)
                faults += [fault] if fault is not None else []
            events += rendered
            session.update(dict(zip(hand.seats, hand.finishing(hand.settlement), strict=True)))
        name = f"poker-{TABLE_ID}.avro"
        stream = f"{seed}:{day.isoformat()}:clock"
        write_input_file(out / name, family_named("poker"), events, stream_id=stream)
        return [name], faults

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
