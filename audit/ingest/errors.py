"""Validation errors raised while ingesting external records.

``RecordRejected`` is what callers see: one rejected record, named precisely enough for an
inspector to open the file at the right place. ``FieldError`` is raised by the small
conversion helpers, which know the field but not the record; the record-level code turns
it into a ``RecordRejected``.
"""

from __future__ import annotations

from pathlib import Path

from audit.notation.escape import terminal_safe

#: Longest field name or reason kept: a reason quoting a hostile value stays readable.
MAX_REASON_CHARS = 2000


def cap(text: str, limit: int = MAX_REASON_CHARS) -> str:
    """``text``, cut to ``limit`` characters with a note of its full length."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 60]}… (cut: {len(text):,} characters in all)"


class FieldError(ValueError):
    """A field of a record is invalid; ``field`` names it (e.g. ``actions[7]``)."""

    def __init__(self, field: str, reason: str) -> None:
        field, reason = cap(field, 200), cap(reason)
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
        position, field, reason = cap(position, 500), cap(field, 200), cap(reason)
        super().__init__(source, position, field, reason, raw)
        self.source = str(source)
        self.position = position
        self.field = field
        self.reason = reason
        self.raw = raw

    def without_raw(self) -> RecordRejected:
        """The same rejection without its record text (what a summary keeps)."""
        return RecordRejected(self.source, self.position, self.field, self.reason, "")

    def __str__(self) -> str:
        """One line safe to print: a file name is the sender's choice, and may hold ANSI
        escapes, newlines or bidirectional overrides (``audit.notation.escape.terminal_safe``)."""
        return terminal_safe(f"{self.source}, {self.position}, field {self.field}: {self.reason}")
