"""Which input files an ingest reads: the paths given, folders walked in sorted order."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

AVRO_SUFFIXES = (".avro",)
PHH_SUFFIXES = (".phh", ".phhs")
SUPPORTED_SUFFIXES = AVRO_SUFFIXES + PHH_SUFFIXES


class MissingInput(FileNotFoundError):
    """A path given on the command line does not exist."""


def discover(paths: Sequence[Path]) -> Iterator[Path]:
    """Supported files under ``paths``, deterministic order; other files in folders skipped.

    A file named explicitly is always yielded (an unsupported one is then rejected by the
    reader, so the user hears about it); a missing path raises MissingInput before any
    file is read.
    """
    for path in paths:
        if not path.exists():
            raise MissingInput(f"{path}: no such file or folder")
    for path in paths:
        if path.is_dir():
            yield from sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix in SUPPORTED_SUFFIXES
            )
        else:
            yield path


def file_identity(path: Path | str) -> str:
    """A file named without the path it was given by: its folder's name and its own
    (``data/pluribus/83/63.phh`` -> ``83/63.phh``), taken from the absolute path, so
    ``day/x.phh``, ``./day/x.phh`` and ``/srv/in/day/x.phh`` are the same file. Stored
    events and quarantine records name files this way; the path as given appears only
    in what ingest prints."""
    absolute = Path(os.path.abspath(path))
    folder = absolute.parent.name
    return f"{folder}/{absolute.name}" if folder else absolute.name
