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

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from audit.ingest.errors import FieldError, RecordRejected, cap
from audit.ingest.file_names import file_identity
from audit.ingest.invariants import check_widths
from audit.ingest.limits import Limits
from audit.ingest.phh import poker_event
from audit.ingest.room_text.blocks import UTF16_BOMS, Block, from_utf16, split
from audit.ingest.room_text.building import Header
from audit.ingest.room_text.common import Line, TextError
from audit.ingest.room_text.headers import in_declared_zone
from audit.ingest.room_text.parser import Room, parse_hand
from audit.ingest.room_text.rooms import READ_HERE, RoomKind
from audit.ingest.rulebook_choice import rulebook_for
from audit.ingest.text_files import read_text
from audit.ingest.toml_guard import LIMIT_FIELD
from audit.store import SubjectRecords
from replayer.rulebooks.registry import NONE_APPLIES, get_rulebook

TEXT = "(text)"
_HAND_NUMBER = re.compile(r"#(\w+)")


def iter_text_units(
    path: Path, rulebooks: Sequence[str], limits: Limits, *, header_zone: str | None = None
) -> Iterator[SubjectRecords | RecordRejected]:
    """Every block of a room text file (``blocks``): a hand converted, or a rejection.
    ``header_zone``: the zone the operator declares for headers that give none (None:
    such a hand is a rejection, ``headers.in_declared_zone``)."""
    text = read_text(path, limits, field=TEXT, encoding="latin-1")  # bytes, size-checked
    if isinstance(text, RecordRejected):
        yield text
        return
    data = text.encode("latin-1")
    was_utf16 = data.startswith(UTF16_BOMS)
    try:
        utf8 = from_utf16(data)
    except UnicodeDecodeError as error:
        yield RecordRejected(
            path,
            "file",
            TEXT,
            f"opens with a UTF-16 byte-order mark but is not UTF-16 text at byte {error.start}",
            cap(data.decode("utf-8", errors="replace"), 2000),
        )
        return
    count = 0
    for block in split(utf8):
        block.utf16 = was_utf16
        lines = block.lines
        span = f"lines {lines[0].number}-{lines[-1].number}"
        if block.room is None or block.room.grammar is None:
            reason = (
                f"room not supported: {block.room.label}"
                if block.room
                else f"text belonging to no hand: not a {READ_HERE} hand"
            )
            yield RecordRejected(path, span, f"line {lines[0].number}", reason, _raw(lines))
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
        yield _unit(path, block, block.room, block.room.grammar, rulebooks, limits, header_zone)


def _raw(lines: list[Line]) -> str:
    return "\n".join(line.text for line in lines)


def _unit(
    path: Path,
    block: Block,
    kind: RoomKind,
    room: Room,
    rulebooks: Sequence[str],
    limits: Limits,
    header_zone: str | None,
) -> SubjectRecords | RecordRejected:
    """One hand of a room read here (``room``, ``kind``'s grammar), or its rejection."""
    lines = block.lines
    number = _HAND_NUMBER.search(lines[0].text)
    hand = f"hand {cap(number.group(1), 40)} " if number else "hand "
    position = f"{hand}at line {lines[0].number}"
    if block.bad_bytes:
        line, reason = next(iter(block.bad_bytes.items()))
        return RecordRejected(path, position, f"line {line}", reason, _raw(lines))
    try:
        builder = parse_hand(lines, room)
        header = builder.header
        in_declared_zone(header, header_zone, lines[0].number)
        if block.cp1252:
            builder.note("text read as cp1252")
        if block.utf16:
            builder.note("text read as UTF-16")
        rulebook = _rulebook(kind, header, rulebooks)
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
        where = error.field or (f"line {error.line}" if error.line else "(hand)")
        if error.field and error.line:
            where = f"{error.field} (line {error.line})"
        return RecordRejected(path, position, where, str(error), _raw(lines))
    except FieldError as error:
        return RecordRejected(path, position, error.field, error.reason, _raw(lines))
    return SubjectRecords("poker", hand_id, events, source=str(path), position=position)


def _rulebook(kind: RoomKind, header: Header, rulebooks: Sequence[str]) -> str | None:
    """``--rulebook`` when given (the first covering the variant and the hand's play);
    else, for a hand of a room with house rules of its own (``RoomKind.rulebook``: GGPoker's
    cash or tournament book for a variant they cover) that book when it covers the hand's
    date; else ``NONE_APPLIES``: a room's hand is never judged by whichever land casino's
    rules are in force that day (a PokerStars hand, a GG hand before 2022-09-28)."""
    variant, at, tournament = header.variant, header.occurred_at, header.tournament_id
    if rulebooks:
        return rulebook_for(rulebooks, variant, tournament=tournament is not None)
    rulebook_id = kind.rulebook(variant, tournament is not None) if kind.rulebook else None
    if rulebook_id is None:
        return NONE_APPLIES
    book = get_rulebook(rulebook_id)
    return book.id if book.covers(variant, at) else NONE_APPLIES
