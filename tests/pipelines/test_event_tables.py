"""Every record type of ``schemas/*.avsc`` has an entry in each table keyed by record type
that applies to its family (describing, PHH export, replaying), and no table names a type
no schema declares (issue 25: a new event type is added to each table, never to an
``if`` chain)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from audit.families import family_named
from audit.ingest.phh.export import WRITERS, NotWritten
from audit.show.banked_events import DESCRIBERS as BANKED_WORDS
from replayer.casino.record import READERS
from replayer.poker.dispatch import HANDLERS, SEATED_HANDLERS
from replayer.poker.wording import DESCRIBERS as POKER_WORDS
from replayer.slots.meters import CONTRIBUTIONS
from replayer.slots.reconcile import APPLY
from replayer.tournaments.state import TALLY

TABLES: dict[str, tuple[str, Mapping[str, object]]] = {
    "poker describe (replayer.poker.wording)": ("poker", POKER_WORDS),
    "poker PHH export (audit.ingest.phh.export)": ("poker", WRITERS),
    "poker replay (replayer.poker.dispatch)": ("poker", {**SEATED_HANDLERS, **HANDLERS}),
    "banked describe (audit.show.banked_events)": ("banked", BANKED_WORDS),
    "banked replay (replayer.casino.record)": ("banked", READERS),
    "slots replay (replayer.slots.reconcile)": ("slots", APPLY),
    "slots meters (replayer.slots.meters)": ("slots", CONTRIBUTIONS),
    "tournament state (replayer.tournaments.state)": ("tournament", TALLY),
}


@pytest.mark.parametrize("table", sorted(TABLES))
def test_table_has_exactly_the_schema_record_types(table: str) -> None:
    family, entries = TABLES[table]
    declared = family_named(family).record_names
    assert len(set(declared)) == len(declared)
    missing = sorted(set(declared) - set(entries))
    extra = sorted(set(entries) - set(declared))
    assert missing == [], f"{table}: no entry for {missing}"
    assert extra == [], f"{table}: entries for types the schema does not declare: {extra}"


def test_a_type_phh_cannot_express_says_why() -> None:
    """A poker type without an export is listed with its reason, never silently absent."""
    unwritten = {kind: value for kind, value in WRITERS.items() if isinstance(value, NotWritten)}
    assert sorted(unwritten) == ["DeckRevealed", "HandStarted", "PotAwarded"]
    assert all(value.why for value in unwritten.values())
    assert all(callable(value) for kind, value in WRITERS.items() if kind not in unwritten)


def test_a_poker_event_has_one_handler() -> None:
    """An event naming a seat is handled given its position, any other as it is: never
    both (``replayer.poker.dispatch.apply`` would take the first)."""
    assert set(SEATED_HANDLERS).isdisjoint(HANDLERS)
