"""Where a subject's page leads: its table's declared terms, its players' other findings,
its night and the incidents about its table, machine or tournament.

From the read model's current verdict on the subject (``units``: table or machine, day,
players) and the incidents' current statements (``audit.incidents.record``: an incident
whose scope names the subject's table, game, machine or tournament). A link is made
only where its page exists: the table's terms where the table declared terms (a
``table`` verdict), the night where the day was judged nightly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from audit.incidents.record import IncidentError, RecordedIncident, load_incident
from audit.store import AuditStore
from console import queries
from console.readmodel import ReadModel


@dataclass(frozen=True, slots=True)
class IncidentLink:
    incident_id: str
    window_start: datetime
    window_end: datetime


@dataclass(frozen=True, slots=True)
class SubjectLinks:
    """What a subject's page links to (empty fields: no such page)."""

    table: str = ""
    """The table or machine the subject was played at."""
    terms: str = ""
    """The subject id of the table's declared terms (the table id), when declared."""
    night: str = ""
    players: tuple[str, ...] = ()
    incidents: tuple[IncidentLink, ...] = field(default_factory=tuple)


def _scoped(incident: RecordedIncident, subject: str, table: str) -> bool:
    at = {*incident.tables, *incident.games, *incident.machines}
    return bool(table and table in at) or subject in incident.tournaments


def subject_links(model: ReadModel, store: AuditStore, subject: str) -> SubjectLinks:
    """The links of ``subject`` (see the module docstring)."""
    units = queries.units_of(model, subject)
    table = next((str(u["table_id"]) for u in units if u.get("table_id")), "")
    day = next((str(u["day"]) for u in units if u.get("day")), "")
    judged = {str(u["kind"]) for u in queries.units_of(model, table)} if table else set()
    incidents = []
    for incident_id in queries.incidents(model):
        try:
            incident = load_incident(store, incident_id)
        except IncidentError:  # no statement to read: nothing to link
            continue
        if _scoped(incident, subject, table):
            incidents.append(IncidentLink(incident_id, incident.window_start, incident.window_end))
    return SubjectLinks(
        table=table,
        terms=table if "table" in judged else "",
        night=day if day in queries.nights(model) else "",
        players=tuple(queries.players_of(model, subject)),
        incidents=tuple(incidents),
    )
