"""Incidents: the list (``/incidents``), one investigation (``/incidents/{id}``: the
report of ``audit.incidents.investigate`` as ``audit.incidents.report`` writes it, the
incident's stored events, investigators' notes) and ``POST /incidents/{id}/notes``.

An investigation is judged as of ``?as_of=`` (ISO 8601), else as of the latest stored
investigation of the incident, else as of the end of the incident's window, and kept per
(incident, as of) until the store changes (``console.readmodel.investigations``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from audit.incidents.record import KIND, IncidentError, incident_from_events
from audit.incidents.report import plain, render_text
from audit.judging import current_of
from audit.show.common import adjudication_units
from console.auth.access import Decider, Reader
from console.auth.trail import TrailError, record_note, record_view
from console.readmodel import queries
from console.readmodel.investigations import AsOf, default_as_of
from console.readmodel.queries import ModelVerdicts
from console.routes.render import record_json, report_lines
from console.runtime import Runtime, RuntimeDep, incident_url

router = APIRouter()


def _as_of(rt: Runtime, incident_id: str, events: list[dict[str, Any]], text: str) -> AsOf:
    if text:
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            raise HTTPException(400, "as_of is an ISO 8601 time") from None
        return AsOf(moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment, "as asked")
    units = adjudication_units(rt.store, [(KIND, incident_id)], ModelVerdicts(rt.model))
    current = current_of(units)
    stored = current.get("as_of") if current else None
    try:
        return default_as_of(incident_from_events(events), str(stored) if stored else None)
    except IncidentError as error:
        raise HTTPException(400, str(error)) from None


@router.get("/incidents")
def incident_list(request: Request, rt: RuntimeDep, viewer: Reader) -> Response:
    return rt.render(request, "incidents.html", incidents=queries.incidents(rt.model))


@router.get("/incidents/{incident_id:path}")
def incident_page(
    request: Request, rt: RuntimeDep, viewer: Reader, incident_id: str, as_of: str = ""
) -> Response:
    events = rt.store.records_of(KIND, incident_id)
    if not events:
        raise HTTPException(404, "no such incident in the store")
    moment = _as_of(rt, incident_id, events, as_of)
    try:
        investigation = rt.investigations.of(incident_id, moment.moment)
    except IncidentError as error:
        raise HTTPException(400, str(error)) from None
    record_view(rt.store, viewer.name, incident_id, "incident", rt.now())
    return rt.render(
        request,
        "incident.html",
        incident_id=incident_id,
        as_of=moment.moment.isoformat(),
        as_of_source=moment.source,
        report=report_lines(render_text(investigation)),
        subjects=[(s.family, s.subject, plain(s.status)) for s in investigation.subjects],
        events=[record_json(e) for e in events],
        notes=queries.notes(rt.model, incident_id),
    )


@router.post("/incidents/{incident_id:path}/notes")
def add_note(
    request: Request,
    rt: RuntimeDep,
    viewer: Decider,
    incident_id: str,
    note: Annotated[str, Form()] = "",
) -> Response:
    if not rt.store.records_of(KIND, incident_id):
        raise HTTPException(404, "no such incident in the store")
    try:
        record_note(rt.store, viewer.name, incident_id=incident_id, note=note, now=rt.now())
    except TrailError as error:
        raise HTTPException(400, str(error)) from None
    return RedirectResponse(incident_url(incident_id, "#notes"), status_code=303)
