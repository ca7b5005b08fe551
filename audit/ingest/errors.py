"""Validation errors raised while ingesting external records.

``RecordRejected`` is what callers see: one rejected record, named precisely enough for an
inspector to open the file at the right place. ``FieldError`` is raised by the small
conversion helpers, which know the field but not the record; the record-level code turns
it into a ``RecordRejected``.
"""

from __future__ import annotations

from pathlib import Path


class FieldError(ValueError):
    """A field of a record is invalid; ``field`` names it (e.g. ``actions[7]``)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(field, reason)
        self.field = field
        self.reason = reason

    def __str__(self) -> str:
        return f"field {self.field}: {self.reason}"


class RecordRejected(Exception):
    """One input record cannot be converted.

    ``source`` is the file, ``position`` the record inside it (``"file"``, ``"hand 63"``,
    ``"section 3"``), ``field`` the offending field (``"actions[7]"``,
    ``"finishing_stacks[2]"``; ``"(syntax)"`` when the text is not valid TOML),
    ``reason`` one sentence, ``raw`` the record's text as read.
    """

    def __init__(
        self, source: str | Path, position: str, field: str, reason: str, raw: str
    ) -> None:
        super().__init__(source, position, field, reason, raw)
        self.source = str(source)
        self.position = position
        self.field = field
        self.reason = reason
        self.raw = raw

    def __str__(self) -> str:
        return f"{self.source}, {self.position}, field {self.field}: {self.reason}"
