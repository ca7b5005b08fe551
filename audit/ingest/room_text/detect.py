"""Whether a text file is a room hand history, from its content (never its name)."""

from __future__ import annotations

from pathlib import Path

from audit.ingest.room_text import ggpoker, pokerstars
from audit.ingest.room_text.blocks import SEPARATOR, decode, other_room

#: Bytes read to find the first line of a file when a folder is walked.
SNIFF_BYTES = 4096


def is_header(text: str) -> bool:
    """Whether a line opens a GGPoker or PokerStars hand."""
    return ggpoker.is_header(text) or pokerstars.is_header(text)


def is_room_text(path: Path) -> bool:
    """Whether the first line of ``path`` that is not blank nor an archive separator
    (``*********** # 1 ****``) opens a hand: of GGPoker or PokerStars, or of another room
    (which the reader rejects by name rather than skipping). A folder's other ``.txt``
    files, notes and logs, are skipped, not quarantined."""
    try:
        with path.open("rb") as stream:
            head = stream.read(SNIFF_BYTES)
    except OSError:
        return True  # unreadable: the reader reports it
    for _, text, _, _ in decode(head):
        if text and not SEPARATOR.fullmatch(text):
            return is_header(text) or other_room(text) is not None
    return False
