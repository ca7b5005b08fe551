"""Whether a text file is a room hand history, from its content (never its name)."""

from __future__ import annotations

from pathlib import Path

from audit.ingest.room_text import ggpoker, pokerstars

#: Bytes read to find the first line of a file when a folder is walked.
SNIFF_BYTES = 4096


def is_header(text: str) -> bool:
    """Whether a line opens a GGPoker or PokerStars hand."""
    return ggpoker.is_header(text) or pokerstars.is_header(text)


def is_room_text(path: Path) -> bool:
    """Whether the first non-blank line of ``path`` opens a GGPoker or PokerStars hand
    (a folder's other ``.txt`` files, notes and logs, are skipped, not quarantined)."""
    try:
        with path.open("rb") as stream:
            head = stream.read(SNIFF_BYTES).decode("utf-8-sig", errors="replace")
    except OSError:
        return True  # unreadable: the reader reports it
    first = next((line for line in head.splitlines() if line.strip()), "")
    return is_header(first)
