"""A poker table of its own beside a synthetic day, where one class of fault is planted.

The day's first table of a rulebook (``tables.make_tables``: its stakes and declared
terms) under an id of its own, its terms written to a file of their own, seated through
the day as every table is (``seating.TableSession``), a hand every ``every`` from
``first``. Used by ``late_actions`` (the clock) and ``session_table`` (the session across
hands). Deterministic: the play from the named stream ``"<seed>:<day>:<stream>"``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from audit.families import family_named
from replayer.rulebooks.poker import PokerRulebook
from replayer.rulebooks.registry import get_rulebook
from simulate.avro_out import write_input_file
from simulate.players import player_pool
from simulate.poker import HandPlan, PlayedHand, play_hand
from simulate.seating import TableSession
from simulate.tables import TableSpec, make_tables, terms_declarations

PLAYERS = 40
"""The venue's first players, the side table's candidates."""


@dataclass(frozen=True, slots=True)
class SideTable:
    """Where and when a side table plays: its id, its stream's name, the rulebook whose
    first table it copies, its terms file, its first hand after midnight, the time
    between hands and between a hand's events."""

    table_id: str
    stream: str
    """The name of its random stream and files' streams."""
    rulebook: str
    terms_file: str
    first: timedelta
    every: timedelta
    event_gap: timedelta


HoldButton = Callable[[int], bool]
"""Whether the button stays put at hand ``number`` (a planted rotation fault)."""


def played(
    side: SideTable, seed: int, day: date, out: Path, hold: HoldButton = lambda _: False
) -> Iterator[PlayedHand]:
    """The side table's hands in play order (its terms written to ``out`` first)."""
    spec = next(t for t in make_tables(seed, 8) if t.rulebook == side.rulebook)
    table: TableSpec = replace(spec, table_id=side.table_id)
    book = get_rulebook(table.rulebook)
    assert isinstance(book, PokerRulebook)
    out.mkdir(parents=True, exist_ok=True)
    stream = f"{seed}:{day.isoformat()}:{side.stream}"
    write_input_file(
        out / side.terms_file,
        family_named("table"),
        terms_declarations([table]),
        stream_id=f"{stream}-terms",
    )
    rng = random.Random(stream)
    pool = player_pool(seed, table.venue)[:PLAYERS]
    session = TableSession(table, pool, [], book.min_players, rng)
    start = datetime(day.year, day.month, day.day, tzinfo=UTC) + side.first
    number = 0
    while True:
        button, seated = session.next_hand(hold_button=hold(number))
        plan = HandPlan(
            hand_id=f"{side.table_id}/{day:%Y%m%d}-{number + 1:06d}",
            started_at=start + number * side.every,
            button_seat=button,
            seated=seated,
            event_gap=side.event_gap,
        )
        hand = play_hand(table, book, plan, rng)
        yield hand
        session.update(dict(zip(hand.seats, hand.finishing(hand.settlement), strict=True)))
        number += 1


def write_hands(
    side: SideTable, seed: int, day: date, out: Path, events: list[dict[str, Any]]
) -> str:
    """The side table's hands written to ``poker-<table>.avro``; its name."""
    name = f"poker-{side.table_id}.avro"
    stream = f"{seed}:{day.isoformat()}:{side.stream}"
    write_input_file(out / name, family_named("poker"), events, stream_id=stream)
    return name
