"""The room registry (``audit.ingest.room_text.rooms.ROOMS``): detection, splitting and
reading iterate its one record per room, so a room added there is told apart by content,
split out and rejected by its name, and the rooms read here are the records with a
grammar."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from audit.ingest.errors import RecordRejected
from audit.ingest.limits import Limits
from audit.ingest.room_text import rooms
from audit.ingest.room_text.detect import is_room_text
from audit.ingest.room_text.reader import iter_text_units
from audit.store import SubjectRecords
from tests.audit.ingest.test_import_real_forms import CASH

ACME = rooms.RoomKind("Acme Poker", re.compile(r"Acme Poker Game \d+"))
NOTE = "exported by a tracker, 3 hands\n"


def test_a_room_added_to_the_registry_is_detected_split_and_rejected_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    acme = "Acme Poker Game 12 - blinds 1/2\nSeat 1: ana\n"
    alone, mixed = tmp_path / "acme.txt", tmp_path / "mixed.txt"
    alone.write_text(NOTE + acme)
    mixed.write_text(NOTE + acme + "\n" + CASH)
    assert not is_room_text(alone)  # a note and lines of no room known: not hands
    monkeypatch.setattr(rooms, "ROOMS", (*rooms.ROOMS, ACME))
    assert is_room_text(alone)
    read = list(iter_text_units(mixed, [], Limits(), header_zone="UTC"))
    assert [type(unit) for unit in read] == [RecordRejected, RecordRejected, SubjectRecords]
    first, other, _ = read
    assert isinstance(first, RecordRejected) and isinstance(other, RecordRejected)
    assert first.reason == "text belonging to no hand: not a GGPoker or PokerStars hand"
    assert other.reason == "room not supported: Acme Poker"
    assert other.position == "lines 2-3"


def test_the_rooms_read_here_are_the_records_with_a_grammar() -> None:
    read = [kind.label for kind in rooms.ROOMS if kind.grammar is not None]
    assert read == ["GGPoker", "PokerStars"]
    assert rooms.READ_HERE == "GGPoker or PokerStars"
    labels = [kind.label for kind in rooms.ROOMS]
    assert {"Winamax", "PKR", "888poker"} <= set(labels)


@pytest.mark.parametrize(
    ("line", "label"),
    [
        ("Poker Hand #HD2255183008: Hold'em No Limit ($0.01/$0.02) - 2025/04/07", "GGPoker"),
        ("PokerStars Hand #123: Hold'em No Limit ($0.05/$0.10 USD)", "PokerStars"),
        ("Winamax Poker - CashGame - HandId: #1-2-3", "Winamax"),
        ("Mão PokerStars #137737997245: Torneio #1", "PokerStars in a language other than English"),
        ("PokerStars is a room", "PokerStars"),
        ("a note", None),
    ],
)
def test_a_first_line_names_its_room(line: str, label: str | None) -> None:
    kind = rooms.room_at(line)
    assert (kind.label if kind else None) == label


def test_a_later_line_needs_the_stricter_form() -> None:
    assert rooms.room_at("PokerStars is a room", later=True) is None
    kind = rooms.room_at("PokerStars Hand #123: Hold'em", later=True)
    assert kind is not None and kind.label == "PokerStars"
