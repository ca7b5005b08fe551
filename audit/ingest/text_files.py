"""Text input files (PHH, room hand histories) read whole, but never beyond the limit.

A file larger than ``limits.max_phh_file_bytes`` is one rejection and is not read (its
size is taken from the open file, and at most one byte past the limit is ever read, so a
file growing while it is read cannot exceed it); a file that is not text in the given
encoding is one rejection naming the byte where decoding failed.
"""

from __future__ import annotations

import os
from pathlib import Path

from audit.ingest.errors import RecordRejected
from audit.ingest.limits import Limits
from audit.ingest.toml_guard import LIMIT_FIELD


def read_text(path: Path, limits: Limits, *, field: str, encoding: str) -> str | RecordRejected:
    """The text of ``path`` in ``encoding``, or the rejection of the whole file
    (``field`` names what failed to decode: the format's syntax or text field)."""
    with path.open("rb") as stream:
        size = os.fstat(stream.fileno()).st_size
        limit = limits.max_phh_file_bytes
        data = b"" if size > limit else stream.read(size + 1)
        if size < len(data) <= limit:  # grown since: the rest, up to one byte past the limit
            data += stream.read(limit + 1 - len(data))
    if max(size, len(data)) > limits.max_phh_file_bytes:
        return RecordRejected(
            path,
            "file",
            LIMIT_FIELD,
            f"file of {max(size, len(data)):,} bytes or more, beyond "
            f"{limits.describe('max_phh_file_bytes')}; not read",
            f"(file of {size:,} bytes left in place; too large to read)",
        )
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raw = data.decode("utf-8", errors="replace")
        return RecordRejected(path, "file", field, f"not UTF-8 text at byte {error.start}", raw)
