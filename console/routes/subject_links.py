"""Where a subject's page leads: its table's declared terms, its players' other findings,
its night, the incidents about its table, machine or tournament, and between a
tournament hand and its tournament (``audit.grouping.tournament_hands``: the hand's tournament
when that tournament is stored; a tournament's stored hands).

From the read model's current verdict on the subject (``units``: table or machine, day,
players) and the incidents' current statements (``audit.incidents.record``: an incident
whose scope names the subject's table, game, machine or tournament). A link is made
only where its page exists: the table's terms where the table declared terms (a
``table`` verdict), the night where the day was judged nightly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from audit.grouping.tournament_hands import hands_of, tournament_of, tournament_stored
from audit.incidents.record import IncidentError, RecordedIncident, load_incident
from audit.store import AuditStore
from console.readmodel import queries
from console.readmodel.model import ReadModel


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
    tournament: str = ""
    """The stored tournament a tournament hand was played in."""
    hands: tuple[str, ...] = ()
    """A tournament's hands in the store."""


def _scoped(incident: RecordedIncident, subject: str, table: str) -> bool:
    at = {*incident.tables, *incident.games, *incident.machines}
    return bool(table and table in at) or subject in incident.tournaments


def _tournament_links(
    model: ReadModel, store: AuditStore, subject: str
) -> tuple[str, tuple[str, ...]]:
    """(the stored tournament of a tournament hand, a tournament's judged hands, found
    by the read model: ``audit.grouping.subject_index``)."""
    if store.records_of("tournament", subject):
        return "", tuple(hands_of(store, subject, queries.ModelVerdicts(model)))
    opening = store.records_of("poker", subject)[:1]
    tournament = tournament_of(opening[0]) if opening else None
    if tournament and tournament_stored(store, tournament):
        return tournament, ()
    return "", ()


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
    tournament, hands = _tournament_links(model, store, subject)
    return SubjectLinks(
        tournament=tournament,
        hands=hands,
        table=table,
        terms=table if "table" in judged else "",
        night=day if day in queries.nights(model) else "",
        players=tuple(queries.players_of(model, subject)),
        incidents=tuple(incidents),
    )
