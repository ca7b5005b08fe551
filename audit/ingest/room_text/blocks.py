"""A room text file as blocks of lines: hands, other rooms' hands, and the rest.

Bytes: each line is read as UTF-8, else as cp1252 (PokerStars' older clients write ``€``
as the byte 0x80; the hand's source says so); a line that is neither is kept with its
bad bytes replaced and marked, and the block holding it is rejected naming the line and
byte. A byte-order mark is dropped wherever it is: at the start of the file, or between
hands where files were joined with ``cat``. A file that opens with a UTF-16 byte-order
mark (saved as "Unicode" by a Windows editor) is read as UTF-16 whole (``from_utf16``;
the hand's source says so); one that does not decode so is rejected naming the byte.

Lines end at LF, CRLF or a CR alone (old Mac exports), mixed as they come
(``LINE_END``). No-break spaces are spaces; leading and trailing blanks are dropped (archive
exports indent every line;
GGPoker ends ``Dealt to`` lines with a space); the archive separators ``*********** #
12 **************`` are dropped. A block starts at each line that opens a hand of a room
of ``rooms.ROOMS`` (one read here, or another, which is rejected by name), and
lines after a hand's summary that are no summary line start a block of their own (text
that belongs to no hand, rejected with its line numbers) so the hands around it go in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from audit.ingest.room_text.common import Line
from audit.ingest.room_text.rooms import RoomKind, room_at

#: UTF-16 byte-order marks (little- and big-endian).
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
SEPARATOR = re.compile(r"\*{3,} # \d+ \*{3,}")
#: A line ends at LF, CRLF (CRs before the LF included: ``\r\r\n`` is one end), or a CR
#: alone (old Mac OS exports end every line so); the forms may be mixed in one file.
LINE_END = re.compile(rb"\r*\n|\r")
_SUMMARY_LINE = re.compile(
    r"Seat \d+: .+|Total pot .+|(?:(?:FIRST|SECOND|THIRD) )?Board \[.*\]|Hand was run .+"
    r"|FIRST|SECOND|THIRD"
)


@dataclass
class Block:
    """Lines of one hand (``room`` the room whose first line opens it: one read here,
    or another), or of text belonging to no hand (``room`` None)."""

    lines: list[Line]
    room: RoomKind | None = None
    bad_bytes: dict[int, str] = field(default_factory=dict)
    cp1252: bool = False
    utf16: bool = False


def from_utf16(data: bytes) -> bytes:
    """A file that opens with a UTF-16 byte-order mark, as UTF-8 bytes (the same lines);
    UnicodeDecodeError when it is not UTF-16 throughout. Other files are returned as
    they are."""
    if not data.startswith(UTF16_BOMS):
        return data
    return data.decode("utf-16").encode("utf-8")


def decode(data: bytes) -> Iterator[tuple[int, str, str | None, bool]]:
    """(line number, text, bad-bytes reason or None, read as cp1252) per line."""
    for number, raw in enumerate(LINE_END.split(data), start=1):
        raw = raw.replace(b"\xef\xbb\xbf", b"")  # a BOM, whatever follows
        bad, legacy = None, False
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            try:
                text, legacy = raw.decode("cp1252"), True
            except UnicodeDecodeError:
                text = raw.decode("utf-8", errors="replace")
                bad = f"bytes that are neither UTF-8 nor cp1252 at byte {error.start} of the line"
        yield number, text.replace("\ufeff", "").replace("\xa0", " ").strip(), bad, legacy


def split(data: bytes) -> Iterator[Block]:
    """The file's blocks, in order (module docstring)."""
    block: Block | None = None
    in_summary = False
    for number, text, bad, legacy in decode(data):
        if not text or SEPARATOR.fullmatch(text):
            continue
        room = room_at(text)
        stray = in_summary and room is None and not _SUMMARY_LINE.fullmatch(text)
        if room or block is None or (stray and block.room):
            if block is not None:
                yield block
            block = Block([], room)
            in_summary = False
        block.lines.append(Line(number, text))
        if bad:
            block.bad_bytes[number] = bad
        block.cp1252 |= legacy
        if text == "*** SUMMARY ***":
            in_summary = True
    if block is not None:
        yield block
