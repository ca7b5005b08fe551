"""Which play was in flight during an incident.

With the window [start, end) of the incident (its latest statement):

* a poker hand at one of the incident's ``tables`` is in flight when it started before
  ``end`` and was not closed before ``start``: it has no HandEnded, HandVoided or
  HandReverted, or the first of them happened at or after ``start``;
* a banked round at one of the incident's ``games`` (RoundOpened.table_id: a live table
  or an RNG game instance) is in flight when it opened before ``end`` and was not closed
  before ``start``: it is still undecided, or its last event happened at or after
  ``start`` (``replayer.refunds.round_closed_at``); ``game == "rng"`` rounds follow the
  RNG casino rule, the others the live casino rule;
* a tournament is in flight when the incident lists it, or its TournamentCancelled
  names the incident, and it was not completed before ``start``.

So play that started during the window counts too (the servers were failing), and play
left open long before it counts (it was still pending when the failure hit). Slot
``machines`` are listed in the report as scoped; the sources set no refund rule for them.

The store has no time index: every poker, banked and tournament subject is read once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from audit.incidents.record import RecordedIncident
from audit.store import AuditStore
from replayer.refunds import hand_closed_at, round_closed_at

Events = list[dict[str, Any]]


@dataclass(slots=True)
class InFlight:
    """Subjects in flight, (subject id, events) each, in the order first stored."""

    hands: list[tuple[str, Events]] = field(default_factory=list)
    live_rounds: list[tuple[str, Events]] = field(default_factory=list)
    rng_rounds: list[tuple[str, Events]] = field(default_factory=list)
    tournaments: list[tuple[str, Events]] = field(default_factory=list)


def _first(events: Sequence[dict[str, Any]], kind: str) -> dict[str, Any] | None:
    return next((e for e in events if e["type"] == kind), None)


def hand_in_flight(events: Sequence[dict[str, Any]], incident: RecordedIncident) -> bool:
    start = _first(events, "HandStarted")
    if start is None or start["table_id"] not in incident.tables:
        return False
    if start["occurred_at"] >= incident.window_end:
        return False
    closed = hand_closed_at(events)
    return closed is None or closed >= incident.window_start


def round_in_flight(events: Sequence[dict[str, Any]], incident: RecordedIncident) -> bool:
    opened = _first(events, "RoundOpened")
    if opened is None or opened["table_id"] not in incident.games:
        return False
    if opened["occurred_at"] >= incident.window_end:
        return False
    if max(e["occurred_at"] for e in events) >= incident.window_start:
        return True
    return round_closed_at(events) is None


def tournament_in_flight(
    tournament_id: str, events: Sequence[dict[str, Any]], incident: RecordedIncident
) -> bool:
    cancelled = [e for e in events if e["type"] == "TournamentCancelled"]
    named = tournament_id in incident.tournaments or any(
        e.get("incident_id") == incident.incident_id for e in cancelled
    )
    completed = [e["occurred_at"] for e in events if e["type"] == "TournamentCompleted"]
    return named and not any(at < incident.window_start for at in completed)


def find_in_flight(store: AuditStore, incident: RecordedIncident) -> InFlight:
    """Every hand, round and tournament in flight during ``incident`` (module docstring)."""
    found = InFlight()
    if incident.tables:
        for hand_id, events in store.iter_subjects("poker"):
            if hand_in_flight(events, incident):
                found.hands.append((hand_id, events))
    if incident.games:
        for round_id, events in store.iter_subjects("banked"):
            if round_in_flight(events, incident):
                opened = _first(events, "RoundOpened")
                rounds = (
                    found.rng_rounds if opened and opened["game"] == "rng" else found.live_rounds
                )
                rounds.append((round_id, events))
    for tournament_id, events in store.iter_subjects("tournament"):
        if tournament_in_flight(tournament_id, events, incident):
            found.tournaments.append((tournament_id, events))
    return found
