"""The overview (``/``), the findings list and its CSV (``/findings``,
``/findings.csv``) and search (``/search``)."""

from __future__ import annotations

import io
from datetime import date

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from audit.evidence.bundle import KINDS
from audit.show.finding_rows import write_findings
from audit.store import signature_valid
from console.auth.access import Reader
from console.readmodel import queries
from console.readmodel.queries import BadQuery, FindingsQuery, findings_page, iter_findings
from console.routes.night_reads import night
from console.routes.render import views
from console.runtime import RuntimeDep

router = APIRouter()
OVERVIEW_NIGHTS = 5


@router.get("/")
def overview(request: Request, rt: RuntimeDep, viewer: Reader, verify: str = "") -> Response:
    checkpoints = sorted(rt.store.chained.checkpoints(), key=lambda c: c.notification_id)
    latest = rt.chain.latest
    stale = latest is not None and latest.checkpoints != len(checkpoints)  # checkpoint since
    if verify or stale:
        rt.chain.ask()
    signed = [c for c in checkpoints if c.signature]
    key = rt.settings.public_key
    valid = signature_valid(signed[-1], key) if signed and key is not None else None
    recent = [night(rt, date.fromisoformat(d)) for d in queries.nights(rt.model)[:OVERVIEW_NIGHTS]]
    return rt.render(
        request,
        "overview.html",
        status_info=latest,
        stale=stale,
        verifying=rt.chain.running or bool(verify) or stale,
        head=rt.model.head(),
        last_checkpoint=checkpoints[-1] if checkpoints else None,
        last_signed=signed[-1] if signed else None,
        last_signed_valid=valid,
        nights=recent,
        by_kind=queries.counts_by_kind(rt.model),
        quarantined=rt.model.quarantined,
    )


def _query(request: Request) -> FindingsQuery:
    try:
        return FindingsQuery.from_params(dict(request.query_params))
    except BadQuery as error:
        raise HTTPException(400, str(error)) from None


@router.get("/findings")
def findings(
    request: Request,
    rt: RuntimeDep,
    viewer: Reader,
    cursor: str = "",
    limit: int = queries.PAGE,
) -> Response:
    query = _query(request)
    try:
        rows, next_cursor = findings_page(rt.model, query, cursor or None, limit)
    except BadQuery as error:
        raise HTTPException(400, str(error)) from None
    found = views(rows)
    return rt.render(
        request,
        "findings.html",
        query=query,
        rows=found,
        signoffs=queries.sign_offs(rt.model, [f.finding_id for f in found]),
        next_cursor=next_cursor,
        limit=limit,
        facets=queries.facets(rt.model),
        sorts=list(queries.SORTS),
    )


@router.get("/findings.csv")
def findings_csv(request: Request, rt: RuntimeDep, viewer: Reader) -> Response:
    """Every finding of the current filter (``audit.show.finding_rows`` columns), every cell
    formula-safe (``audit.wording.csv_safe``)."""
    out = io.StringIO()
    write_findings(iter_findings(rt.model, _query(request)), "csv", out)  # csv_safe cells
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": 'attachment; filename="findings.csv"'},
    )


@router.get("/search")
def search(
    request: Request,
    rt: RuntimeDep,
    viewer: Reader,
    q: str = "",
    cursor: str = "",
    limit: int = queries.PAGE,
) -> Response:
    text = q.strip()[:200]
    try:
        found = queries.search(rt.model, text, cursor or None, limit) if text else None
    except BadQuery as error:
        raise HTTPException(400, str(error)) from None
    stored = [k for k in KINDS if text and rt.store.records_of(k, text)] if text else []
    return rt.render(
        request,
        "search.html",
        q=text,
        found=found,
        stored=stored,
        paged=bool(cursor),
        limit=limit,
    )
