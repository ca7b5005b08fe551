"""A subject's page (``/subjects/{id}``), its evidence bundle (``/subjects/{id}/evidence``)
and sign-offs of findings (``POST /findings/{finding_id}/sign-off``).

Both the page and the bundle show the subject's stored events, so each appends a
``SubjectViewed`` event (``console.auth.trail``) before it is served. The page's reads of the
store that ``audit.explain.explanation`` also makes are made once (``console.readmodel.pagereads``),
and what it computes from them is kept until the store changes
(``console.routes.subject_parts``); the explanation is data, rendered by
``templates/explanation.html``.
"""

from __future__ import annotations

import json
import re
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from audit.evidence.bundle import NoEvidence, build_bundle
from audit.evidence.proofs import NoProof
from audit.judging import judged_across, latest
from console.auth.access import Decider, Reader
from console.auth.trail import DECISIONS, TrailError, record_sign_off, record_view
from console.readmodel import queries
from console.readmodel.queries import ModelVerdicts
from console.routes.render import views
from console.routes.subject_parts import EVENTS_SHOWN, subject_parts
from console.runtime import RuntimeDep, subject_url

router = APIRouter()
FINDINGS_SHOWN = 20
"""Finding cards on one subject page: a subject with more (a slot machine flagged at
every reading) lists them a page at a time, so a page's work stays bounded."""
_FILE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


@router.get("/subjects/{subject_id:path}/evidence")
def evidence(
    request: Request,
    rt: RuntimeDep,
    viewer: Reader,
    subject_id: str,
    kind: str = "",
    proof: str = "auto",
) -> Response:
    if proof not in ("auto", "merkle", "hash-chain"):
        raise HTTPException(400, "proof is auto, merkle or hash-chain")
    try:
        bundle = build_bundle(
            rt.store,
            ModelVerdicts(rt.model),
            subject_id,
            kind=kind or None,
            made_by=viewer.name,
            made_at=rt.now(),
            trees=rt.trees,
            proof=proof,
        )
    except NoEvidence as error:
        raise HTTPException(404, str(error)) from None
    except NoProof as error:
        raise HTTPException(409, str(error)) from None
    record_view(rt.store, viewer.name, subject_id, "evidence", rt.now())
    name = _FILE_NAME.sub("_", subject_id).strip("._")[:80] or "subject"
    return Response(
        json.dumps(bundle, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="evidence-{name}.json"'},
    )


@router.get("/subjects/{subject_id:path}")
def subject_page(
    request: Request,
    rt: RuntimeDep,
    viewer: Reader,
    subject_id: str,
    findings_from: int = 0,
    events_upto: int | None = None,
) -> Response:
    """The subject explained, its findings first: ``FINDINGS_SHOWN`` cards from the
    ``findings_from``-th (0-based), with links to the previous and next ones; its stored
    events ``EVENTS_SHOWN`` at a time, the latest unless ``events_upto``
    (``console.routes.subject_parts``: what the page computes from the store is kept
    until the store changes)."""
    parts = subject_parts(rt, subject_id, events_upto)
    total = queries.findings_count(rt.model, subject_id)
    first = min(max(0, findings_from), max(0, total - 1))
    rows = queries.findings_about(rt.model, subject_id, first, FINDINGS_SHOWN)
    if parts.explanation is None and parts.unexplained is None and not parts.stored and not rows:
        raise HTTPException(404, "no such subject in the store")
    record_view(rt.store, viewer.name, subject_id, "subject", rt.now())
    history = list(reversed(parts.units))
    found = views(rows)
    return rt.render(
        request,
        "subject.html",
        subject=subject_id,
        explanation=parts.explanation,
        unexplained=parts.unexplained,
        findings=found,
        findings_total=total,
        findings_from=first,
        findings_shown=FINDINGS_SHOWN,
        signoffs=queries.sign_offs(rt.model, [f.finding_id for f in found]),
        decisions=DECISIONS,
        stored=parts.stored,
        events_shown=EVENTS_SHOWN,
        history=history,
        current=latest([unit_id for unit_id, _ in parts.units]),
        links=parts.links,
        suspicion=parts.suspicion and bool(history),
        across=next(iter(judged_across(subject_id)), None) if history else None,
    )


@router.post("/findings/{finding_id}/sign-off")
def sign_off(
    request: Request,
    rt: RuntimeDep,
    viewer: Decider,
    finding_id: str,
    decision: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
) -> Response:
    row = queries.finding(rt.model, finding_id)
    if row is None:
        raise HTTPException(404, "no current finding with that id")
    try:
        record_sign_off(
            rt.store,
            viewer.name,
            finding_id=finding_id,
            subject=str(row.get("subject")),
            decision=decision,
            note=note,
            now=rt.now(),
        )
    except TrailError as error:
        raise HTTPException(400, str(error)) from None
    place = queries.finding_position(rt.model, row)
    page = f"?findings_from={place - place % FINDINGS_SHOWN}" if place >= FINDINGS_SHOWN else ""
    target = subject_url(row.get("subject"), page) + "#finding-" + quote(finding_id, safe="")
    return RedirectResponse(target, status_code=303)
