"""eventsourcing's reads of the events table, seeing packed rows as their events.

Both chained recorders put ``PackedReads`` before eventsourcing's recorder:
``select_events`` (an aggregate's events, what ``AuditStore.records_of`` and the
repository read) and ``select_notifications`` (the notification log, what the console's
read model and ``iter_subject_ids`` read) return one ``StoredEvent`` or ``Notification``
per event, a packed row's events each with its row's notification id
(``audit.store.packing``). Asked for some topics, they select the rows of those topics
and the packed rows that may hold them (``packing.row_topics``), then keep the events
in those topics.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Notification, StoredEvent
from eventsourcing.utils import get_topic

from audit.store.chain import originator_hex
from audit.store.packing import covered_versions, expand, is_packed, row_topics, unpack
from audit.store.subjects import SUBJECT_CLASSES

KINDS = {get_topic(cls): kind for kind, cls in SUBJECT_CLASSES.items()}
"""Subject class topic -> subject kind."""
OPENED = {get_topic(cls.Opened) for cls in SUBJECT_CLASSES.values()}
"""The topics of subjects' ``Opened`` events (only ever first in an opening pack)."""


def expand_rows(rows: Sequence[Any]) -> list[tuple[Any, int, str, bytes]]:
    """(row, version, topic, state) of each event of stored rows (each with
    ``originator_id``, ``originator_version``, ``topic``, ``state``)."""
    return [
        (row, version, topic, state)
        for row in rows
        for version, topic, state in expand(
            row.originator_id, row.originator_version, row.topic, row.state
        )
    ]


class PackedReads:
    """eventsourcing's event and notification reads, one item per event."""

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        rows = super().select_events(originator_id)  # type: ignore[misc]
        events = [
            StoredEvent(row.originator_id, version, topic, state)
            for row, version, topic, state in expand_rows(rows)
            if (gt is None or version > gt) and (lte is None or version <= lte)
        ]
        if desc:
            events.reverse()
        return events if limit is None else events[:limit]

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        """Up to about ``limit`` events in ``topics`` (all when empty) from notification
        ``start`` on: rows are read ``limit`` at a time until at least ``limit`` events
        are found or no row is left, so that fewer than ``limit`` means the end (a page
        may hold more: a packed row's events are never split between pages)."""
        wanted = set(topics)
        selected = row_topics(topics, KINDS, OPENED) if topics else topics
        first_only = 1 if wanted and wanted <= OPENED else None  # an Opened is first
        found: list[Notification] = []
        while True:
            rows = super().select_notifications(  # type: ignore[misc]
                start, limit, stop, selected, inclusive_of_start=inclusive_of_start
            )
            for row in rows:
                if not is_packed(row.topic):
                    found.append(row)
                    continue
                found.extend(
                    Notification(row.originator_id, version, topic, state, row.id)
                    for version, topic, state in unpack(
                        row.originator_id, row.originator_version, row.state, first_only
                    )
                    if not wanted or topic in wanted
                )
            if len(rows) < limit or len(found) >= limit:
                return found
            start, inclusive_of_start = rows[-1].id, False

    def select_rows(self, start: int, limit: int, topics: Sequence[str]) -> Sequence[Any]:
        """Up to ``limit`` rows in ``topics`` from notification ``start`` on, as stored: a
        packed row is one item, its state not inflated (for a reader that inflates each
        row once and keeps all its events, ``AuditStore.iter_subject_batches``)."""
        rows: Sequence[Any] = super().select_notifications(  # type: ignore[misc]
            start, limit, None, topics
        )
        return rows


def versions_held(rows: Sequence[tuple[Any, int, str, bytes]]) -> set[tuple[str, int]]:
    """(originator, version) of every event of rows (originator, first version, topic,
    state or its header: ``packing.covered_versions`` reads no more)."""
    return {
        (originator, v)
        for originator, version, topic, head in rows
        for v in covered_versions(originator, version, topic, head)
    }


def appended_later(stored_events: Sequence[StoredEvent], *, keyless: bool = False) -> list[str]:
    """The originators (hex) of the rows of a batch that do not open their subject: those
    whose versions another writer may have stored since the batch was planned
    (``AuditStore.append`` reads what is stored before the insert's transaction; a row at
    version 1 that another writer stored meanwhile is refused by the primary key). Every
    row's originator when the key refuses nothing (``keyless``: a partitioned table, whose
    key holds the notification id, ``audit.store.partitions``)."""
    return sorted(
        {
            originator_hex(s.originator_id)
            for s in stored_events
            if keyless or s.originator_version > 1
        }
    )


def overlap(stored_events: Sequence[StoredEvent], held: set[tuple[str, int]]) -> str | None:
    """The first event of the batch at a version already ``held``, named (None if none)."""
    for s in stored_events:
        originator = originator_hex(s.originator_id)
        for version in covered_versions(originator, s.originator_version, s.topic, s.state):
            if (originator, version) in held:
                return f"{originator} version {version} is already stored"
    return None
