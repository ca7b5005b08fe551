"""Whether a text file is a room hand history, from its content (never its name)."""

from __future__ import annotations

from pathlib import Path

from audit.ingest.room_text.blocks import UTF16_BOMS, decode
from audit.ingest.room_text.rooms import room_at

#: Bytes read from the start of a file when a folder is walked: a hand header must
#: begin within them for the file to be read.
SNIFF_BYTES = 1 << 20


def is_room_text(path: Path) -> bool:
    """Whether a line in the first ``SNIFF_BYTES`` of ``path`` opens a hand of a room of
    ``rooms.ROOMS``: one read here, or another (which the reader rejects by name rather
    than skipping). Any line, not only the first (a tracker's export may open with a note
    of its own, and the hands after it are not to be lost), a later line in the shape of a
    hand's first (``RoomKind.later_line``); a file in UTF-16 is looked at as such. A folder's
    other ``.txt`` files, notes and logs, are skipped, not quarantined."""
    try:
        with path.open("rb") as stream:
            head = stream.read(SNIFF_BYTES)
    except OSError:
        return True  # unreadable: the reader reports it
    if head.startswith(UTF16_BOMS):  # cut at an even byte: a character may be cut
        head = head[: len(head) // 2 * 2].decode("utf-16", errors="replace").encode("utf-8")
    lines = (text for _, text, _, _ in decode(head) if text)
    first = next(lines, "")
    return room_at(first) is not None or any(
        room_at(text, later=True) is not None for text in lines
    )
