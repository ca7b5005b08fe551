"""How stored events and quarantine records name an input file: by its folder and name."""

from __future__ import annotations

import os
from pathlib import Path


def file_identity(path: Path | str) -> str:
    """A file named without the path it was given by: its folder's name and its own
    (``data/pluribus/83/63.phh`` -> ``83/63.phh``), taken from the absolute path, so
    ``day/x.phh``, ``./day/x.phh`` and ``/srv/in/day/x.phh`` are the same file. Stored
    events and quarantine records name files this way; the path as given appears only
    in what ingest prints."""
    absolute = Path(os.path.abspath(path))
    folder = absolute.parent.name
    return f"{folder}/{absolute.name}" if folder else absolute.name
