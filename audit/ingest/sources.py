"""Which input files an ingest reads: the paths given, folders walked in sorted order."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

AVRO_SUFFIXES = (".avro",)
PHH_SUFFIXES = (".phh", ".phhs")
#: Operators' text hand histories (GGPoker, PokerStars; the room is told by content).
TEXT_SUFFIXES = (".txt",)
SUPPORTED_SUFFIXES = AVRO_SUFFIXES + PHH_SUFFIXES + TEXT_SUFFIXES


class MissingInput(FileNotFoundError):
    """A path given on the command line does not exist."""


def discover(paths: Sequence[Path]) -> Iterator[Path]:
    """Supported files under ``paths``, deterministic order; other files in folders skipped
    (a ``.txt`` file is kept only when its content opens a room's hand history).

    A file named explicitly is always yielded (an unsupported one is then rejected by the
    reader, so the user hears about it); a missing path raises MissingInput before any
    file is read.
    """
    for path in paths:
        if not path.exists():
            raise MissingInput(f"{path}: no such file or folder")
    from audit.ingest.room_text.detect import is_room_text

    for path in paths:
        if path.is_dir():
            yield from sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and p.suffix in SUPPORTED_SUFFIXES
                and (p.suffix not in TEXT_SUFFIXES or is_room_text(p))
            )
        else:
            yield path
