"""Incidents as events: record one (after the fact), amend it, read it back.

An incident is a subject of kind ``incident`` (``schemas/incident.avsc``) like any other:
IncidentRecorded states the failure window and what it affected; IncidentAmended
replaces the window and scope for the investigation (nothing is overwritten, the newer
statement wins). Recording goes through ``AuditStore.append`` (idempotent, hash-chained)
exactly as an ingested Avro file of the ``incident`` family would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from audit.store import AuditStore, SubjectRecords

KIND = "incident"
_SCOPES = ("tables", "tournaments", "machines", "games")


class IncidentError(ValueError):
    """The incident cannot be recorded or read; the message says why."""


@dataclass(frozen=True, slots=True)
class RecordedIncident:
    """An incident's current statement (IncidentRecorded, then each IncidentAmended)."""

    incident_id: str
    kind: str
    window_start: datetime
    window_end: datetime
    tables: tuple[str, ...]
    tournaments: tuple[str, ...]
    machines: tuple[str, ...]
    games: tuple[str, ...]
    description: str
    reported_by: str
    amendments: tuple[str, ...]
    """The reasons of the amendments applied, oldest first."""


def incident_from_events(events: Sequence[dict[str, Any]]) -> RecordedIncident:
    """Fold an incident's events; IncidentError when there is no IncidentRecorded."""
    ordered = sorted(events, key=lambda event: event["sequence"])
    first = next((e for e in ordered if e["type"] == "IncidentRecorded"), None)
    if first is None:
        raise IncidentError("no IncidentRecorded event")
    current = dict(first)
    reasons = []
    for event in ordered:
        if event["type"] == "IncidentAmended":
            current |= {k: event[k] for k in ("window_start", "window_end", *_SCOPES)}
            reasons.append(str(event["reason"]))
    return RecordedIncident(
        incident_id=str(first["incident_id"]),
        kind=str(first["kind"]),
        window_start=current["window_start"],
        window_end=current["window_end"],
        tables=tuple(current.get("tables") or ()),
        tournaments=tuple(current.get("tournaments") or ()),
        machines=tuple(current.get("machines") or ()),
        games=tuple(current.get("games") or ()),
        description=str(first.get("description") or ""),
        reported_by=str(first.get("reported_by") or ""),
        amendments=tuple(reasons),
    )


def load_incident(store: AuditStore, incident_id: str) -> RecordedIncident:
    events = store.records_of(KIND, incident_id)
    if not events:
        raise IncidentError(f"no incident {incident_id!r} in the store")
    return incident_from_events(events)


def _window(start: datetime, end: datetime) -> None:
    if start.tzinfo is None or end.tzinfo is None:
        raise IncidentError("window times must carry a time zone (UTC)")
    if end <= start:
        raise IncidentError(f"window end {end.isoformat()} is not after its start")


def _scope(scope: dict[str, Sequence[str]]) -> dict[str, list[str]]:
    unknown = set(scope) - set(_SCOPES)
    if unknown:
        raise IncidentError(f"unknown scope {sorted(unknown)}; use {list(_SCOPES)}")
    return {name: sorted(set(scope.get(name, ()))) for name in _SCOPES}


def record_incident(
    store: AuditStore,
    incident_id: str,
    *,
    kind: str,
    window_start: datetime,
    window_end: datetime,
    recorded_at: datetime,
    description: str = "",
    reported_by: str = "",
    **scope: Sequence[str],
) -> dict[str, Any]:
    """Append IncidentRecorded (sequence 0); an incident is recorded once, then amended."""
    _window(window_start, window_end)
    if store.records_of(KIND, incident_id):
        raise IncidentError(f"incident {incident_id!r} is already recorded; amend it instead")
    event = {
        "event_id": f"{incident_id}#0",
        "incident_id": incident_id,
        "sequence": 0,
        "occurred_at": recorded_at,
        "type": "IncidentRecorded",
        "kind": kind,
        "window_start": window_start,
        "window_end": window_end,
        **_scope(scope),
        "description": description,
        "reported_by": reported_by,
    }
    store.append([SubjectRecords(KIND, incident_id, [event], source="casino-audit incident")])
    return event


def amend_incident(
    store: AuditStore,
    incident_id: str,
    *,
    window_start: datetime,
    window_end: datetime,
    reason: str,
    recorded_at: datetime,
    **scope: Sequence[str],
) -> dict[str, Any]:
    """Append IncidentAmended: the new window and scope replace the older ones."""
    _window(window_start, window_end)
    events = store.records_of(KIND, incident_id)
    if not events:
        raise IncidentError(f"no incident {incident_id!r} to amend")
    sequence = max(e["sequence"] for e in events) + 1
    event = {
        "event_id": f"{incident_id}#{sequence}",
        "incident_id": incident_id,
        "sequence": sequence,
        "occurred_at": recorded_at,
        "type": "IncidentAmended",
        "window_start": window_start,
        "window_end": window_end,
        **_scope(scope),
        "reason": reason,
    }
    store.append([SubjectRecords(KIND, incident_id, [event], source="casino-audit incident")])
    return event
