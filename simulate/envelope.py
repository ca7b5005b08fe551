"""The envelope every simulated event shares: ``event_id``, the subject's id field,
``sequence``, ``occurred_at`` and ``type``, then the body's fields.

One ``event_id`` format for every family: ``<subject id>#<sequence>`` (unique across the
store, as the schemas require, because subject ids are).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

FlatEvent = dict[str, Any]


def event_id(subject: str, sequence: int | str) -> str:
    """``<subject>#<sequence>``."""
    return f"{subject}#{sequence}"


def envelope(
    subject_field: str,
    subject: str,
    sequence: int,
    at: datetime,
    record_type: str,
    /,
    **body: Any,
) -> FlatEvent:
    """One flat event of ``subject`` (named by ``subject_field``, e.g. ``hand_id``)."""
    return {
        "event_id": event_id(subject, sequence),
        subject_field: subject,
        "sequence": sequence,
        "occurred_at": at,
        "type": record_type,
        **body,
    }


def renumbered(subject_field: str, events: Iterable[FlatEvent]) -> list[FlatEvent]:
    """``events`` with consecutive sequences from 0 and their ids to match (after a
    planted fault removed or inserted one)."""
    return [
        {**event, "sequence": index, "event_id": event_id(event[subject_field], index)}
        for index, event in enumerate(events)
    ]
