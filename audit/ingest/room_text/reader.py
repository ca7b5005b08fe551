"""Room text files (``.txt``) into units of the ingest: one poker subject per hand.

A file may hold many hands, of GGPoker or PokerStars, told apart by each hand's first
line (the content, never the file name). Hands are separated by blank lines; text before
the first hand is one rejection. A hand with a line the importer does not understand is
rejected alone, naming the line number and text; the other hands of the file go in.

Identity: hand ``ggpoker/HD2255183008`` or ``pokerstars/123456789`` (the room's hand
number is unique within the room), table ``ggpoker/<table name>``, ``event_id``
``<hand id>#<sequence>``; every event carries the hand's start time. The same text read
again gives the same events, so re-importing a file stores nothing new.

Bounds (``audit.ingest.limits``): a file is read up to ``max_phh_file_bytes``, at most
``max_phhs_sections`` hands, ``max_events_per_subject`` events per hand.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from audit.ingest.errors import FieldError, RecordRejected, cap
from audit.ingest.file_names import file_identity
from audit.ingest.invariants import check_widths
from audit.ingest.limits import Limits
from audit.ingest.phh import poker_event
from audit.ingest.room_text import ggpoker, pokerstars
from audit.ingest.room_text.common import Line, TextError
from audit.ingest.room_text.parser import parse_hand
from audit.ingest.rulebook_choice import rulebook_for
from audit.ingest.text_files import read_text
from audit.ingest.toml_guard import LIMIT_FIELD
from audit.store import SubjectRecords
from replayer.rulebooks.registry import get_rulebook

TEXT = "(text)"
_HAND_NUMBER = re.compile(r"#(\w+)")


def room_of(text: str) -> str | None:
    """The room whose hand header ``text`` is, or None."""
    if ggpoker.is_header(text):
        return ggpoker.NAME
    if pokerstars.is_header(text):
        return pokerstars.NAME
    return None


def iter_text_units(
    path: Path, rulebooks: Sequence[str], limits: Limits
) -> Iterator[SubjectRecords | RecordRejected]:
    """Every hand of a room text file, converted, or its rejection."""
    data = read_text(path, limits, field=TEXT, encoding="utf-8-sig")
    if isinstance(data, RecordRejected):
        yield data
        return
    hands = _split(data.splitlines())
    count = 0
    for lines in hands:
        if room_of(lines[0].text) is None:
            yield RecordRejected(
                path,
                f"line {lines[0].number}",
                f"line {lines[0].number}",
                "text before the first hand: not a GGPoker or PokerStars hand header",
                _raw(lines),
            )
            continue
        count += 1
        if count > limits.max_phhs_sections:
            yield RecordRejected(
                path,
                f"line {lines[0].number} and after",
                LIMIT_FIELD,
                f"more than {limits.max_phhs_sections:,} hands, beyond "
                f"{limits.describe('max_phhs_sections')}: the rest of the "
                "file is not read",
                "",
            )
            return
        yield _unit(path, lines, rulebooks, limits)


def _split(texts: list[str]) -> Iterator[list[Line]]:
    """Runs of lines, each from a hand header (or the file's first text) to the next."""
    hand: list[Line] = []
    for number, text in enumerate(texts, start=1):
        text = text.rstrip("\r")
        if room_of(text) is not None and hand:
            yield hand
            hand = []
        if text.strip():
            hand.append(Line(number, text))
    if hand:
        yield hand


def _raw(lines: list[Line]) -> str:
    return "\n".join(line.text for line in lines)


def _unit(
    path: Path, lines: list[Line], rulebooks: Sequence[str], limits: Limits
) -> SubjectRecords | RecordRejected:
    room = ggpoker.ROOM if room_of(lines[0].text) == ggpoker.NAME else pokerstars.ROOM
    number = _HAND_NUMBER.search(lines[0].text)
    hand = f"hand {cap(number.group(1), 40)} " if number else "hand "
    position = f"{hand}at line {lines[0].number}"
    try:
        builder = parse_hand(lines, room)
        header = builder.header
        rulebook = _rulebook(room.name, header.variant, header.occurred_at, rulebooks)
        source = f"{file_identity(path)}, {position}"
        bodies = builder.bodies(rulebook, source)
        if len(bodies) > limits.max_events_per_subject:
            raise TextError(
                f"the hand has {len(bodies):,} events, beyond "
                f"{limits.describe('max_events_per_subject')}"
            )
        hand_id = f"{room.name}/{header.hand_number}"
        events = [
            poker_event(hand_id, sequence, header.occurred_at, name, body)
            for sequence, (name, body) in enumerate(bodies)
        ]
        for event in events:
            check_widths("poker", event)
    except TextError as error:
        where = f"line {error.line}" if error.line else "(hand)"
        return RecordRejected(path, position, where, str(error), _raw(lines))
    except FieldError as error:
        return RecordRejected(path, position, error.field, error.reason, _raw(lines))
    return SubjectRecords("poker", hand_id, events, source=str(path), position=position)


def _rulebook(room: str, variant: str, at: dt.datetime, rulebooks: Sequence[str]) -> str | None:
    """``--rulebook`` when given (the first covering the variant); else, for GGPoker,
    its house rules when they cover the hand's date; else none."""
    if rulebooks:
        return rulebook_for(rulebooks, variant)
    if room != ggpoker.NAME:
        return None
    book = get_rulebook(ggpoker.RULEBOOKS[variant])
    covered = book.valid_from <= at and (book.valid_until is None or at < book.valid_until)
    return book.id if covered else None
