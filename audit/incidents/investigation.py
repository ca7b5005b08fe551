"""Incident investigations: after a server failure, what was in flight, what the rules
required to be given back, and what was actually given back.

    record_incident / amend_incident    (audit.incidents.record)  the incident as events
    find_in_flight                      (audit.incidents.inflight) hands, rounds, tournaments
    judge_* / compare                   (audit.incidents.compare)  required vs recorded
    render_text / to_json / write_csv   (audit.incidents.report)   the report

``investigate(store, incident_id, as_of=...)`` runs the middle two; the CLI
(``casino-audit incident …``) and the Airflow DAG ``incident_investigation`` both call
it. ``as_of`` is the moment the investigation speaks for (an RNG bet is only due back 24
hours after the failure): the same events and ``as_of`` give the same findings.
``append_findings`` stores them as an adjudication of kind ``incident`` (idempotent), so
``casino-audit findings`` lists them with the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from audit.incidents.compare import SubjectResult, judge_hand, judge_round, judge_tournament
from audit.incidents.inflight import find_in_flight
from audit.incidents.record import KIND, RecordedIncident, load_incident
from audit.judging import findings_json, verdict_record
from audit.store import AuditStore, canonical, record_digest
from replayer.findings import Finding
from replayer.refunds import PENDING_BET_HOLD
from replayer.tournaments import DEFAULT_POLICY, CancellationPolicy


@dataclass(frozen=True, slots=True)
class Investigation:
    """An incident, the subjects in flight judged, as of a moment."""

    incident: RecordedIncident
    as_of: datetime
    subjects: tuple[SubjectResult, ...]
    input_digest: str
    """Digest of every event judged and ``as_of``: the investigation's identity."""
    events_judged: int

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(f for subject in self.subjects for f in subject.findings)


def investigate(
    store: AuditStore,
    incident_id: str,
    *,
    as_of: datetime,
    hold: timedelta = PENDING_BET_HOLD,
    policy: CancellationPolicy = DEFAULT_POLICY,
) -> Investigation:
    """Judge every subject in flight during the incident (see the module docstring)."""
    incident_events = store.records_of(KIND, incident_id)
    incident = load_incident(store, incident_id)
    found = find_in_flight(store, incident)
    judged = [incident_events] + [
        events
        for group in (found.hands, found.live_rounds, found.rng_rounds, found.tournaments)
        for _, events in group
    ]
    parts = [canonical(record) for events in judged for record in events]
    subjects = [judge_hand(incident, hand_id, events) for hand_id, events in found.hands]
    subjects += [
        judge_round(incident, round_id, events, as_of=as_of, hold=hold)
        for round_id, events in found.live_rounds + found.rng_rounds
    ]
    subjects += [
        judge_tournament(incident, tournament_id, events, policy)
        for tournament_id, events in found.tournaments
    ]
    digest = record_digest([*parts, as_of.isoformat(), str(hold), repr(policy)])
    return Investigation(incident, as_of, tuple(subjects), digest, len(parts))


def append_findings(store: AuditStore, investigation: Investigation) -> int:
    """Store the findings as an adjudication of kind ``incident`` (the verdict unit of
    ``audit.judging.verdict_record``); 1 if new, 0 if this investigation of the same
    events and ``as_of`` is already stored."""
    unit = verdict_record(
        KIND,
        investigation.incident.incident_id,
        digest=investigation.input_digest,
        events_judged=investigation.events_judged,
        findings=findings_json(investigation),
        as_of=investigation.as_of.isoformat(),
    )
    return store.append([unit]).stored
