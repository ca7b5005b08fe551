"""The unsigned tail: the rows stored after the last signed checkpoint, and how many of
them hold only the console's own access trail.

The console appends its access trail (``console.auth.trail``: ``SubjectViewed``, sessions
ended or revoked, sign-offs, incident notes) as people read and decide; a console started
without the signing key cannot sign a checkpoint over it, so until the next signed
checkpoint (ingest, replay, nightly, ``casino-audit checkpoint``) those rows are unsigned.
``verify --public-key`` and the console's overview name such a tail as what it is, the
console's trail awaiting the next signed checkpoint, never as tampering; any other row
after the last signed checkpoint is not covered by a signature
(``audit.store.heads.require_signed``).

Both count **rows** of the hash chain (a packed row holds one append's events, a trail
fact is one row), the unit of ``ChainReport.events_checked`` and of a checkpoint's
``event_count``, up to the head the verification read, so the numbers every output shows
for the same store agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eventsourcing.utils import get_topic

from audit.store.subjects import INTERNAL_RECORD_TYPES, AccessTrail, IncidentNote, SignOff

TRAIL_TOPICS = tuple(
    topic
    for cls in (AccessTrail, SignOff, IncidentNote)
    for topic in (
        get_topic(cls.Opened),
        *(get_topic(cls.event_class(name)) for name in INTERNAL_RECORD_TYPES[cls]),
    )
)
"""The topics of the console's access-trail facts (``console.auth.trail``)."""


@dataclass(frozen=True, slots=True)
class AfterSigned:
    """The rows stored after the last signed checkpoint: all of them, and how many of
    those hold nothing but the console's access trail."""

    events: int
    trail: int

    @property
    def only_trail(self) -> bool:
        """Whether there are later rows and every one is the console's trail."""
        return bool(self.events) and self.events == self.trail


def events_after(
    recorder: Any, notification_id: int, upto: int | None = None, batch: int = 2000
) -> AfterSigned:
    """The rows after ``notification_id`` up to ``upto`` (default: the head now), both
    counts over the same rows (so trail appended meanwhile never makes them disagree)."""
    stop = int(recorder.max_notification_id() or 0) if upto is None else upto
    rows = trail = 0
    row, row_is_trail = 0, False  # the row being read (its events are consecutive)
    start = notification_id + 1
    while start <= stop and (page := recorder.select_notifications(start, batch, stop=stop)):
        for notification in page:
            if notification.id != row:
                trail += row_is_trail
                rows, row, row_is_trail = rows + 1, notification.id, True
            row_is_trail = row_is_trail and notification.topic in TRAIL_TOPICS
        start = page[-1].id + 1
    return AfterSigned(rows, trail + row_is_trail)
