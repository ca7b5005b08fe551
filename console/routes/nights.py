"""Nightly runs: ``/nights`` (each night with its findings by kind and owed totals),
``/nights/{day}`` (findings in words, owed per player/table/operator, the data-quality
checks as a table, the report's plots) and ``/nights/{day}/plots/{name}`` (the PNG)."""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, Response

from console.auth.access import Reader
from console.readmodel import queries
from console.routes.night_reads import night, plot_path, plots
from console.routes.render import views
from console.runtime import RuntimeDep

router = APIRouter()
LISTED = 30
SHOWN = 500


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise HTTPException(404, "not a day (YYYY-MM-DD)") from None


@router.get("/nights")
def night_list(request: Request, rt: RuntimeDep, viewer: Reader) -> Response:
    days = queries.nights(rt.model)
    summaries = [night(rt, date.fromisoformat(d)) for d in days[:LISTED]]
    return rt.render(request, "nights.html", nights=summaries, older=days[LISTED:])


@router.get("/nights/{day}")
def night_page(request: Request, rt: RuntimeDep, viewer: Reader, day: str) -> Response:
    when = _day(day)
    if when.isoformat() not in queries.nights(rt.model):
        raise HTTPException(404, "no nightly run stored for that day")
    summary = night(rt, when)
    return rt.render(
        request,
        "night.html",
        night=summary,
        rows=views(summary.rows[:SHOWN]),
        plots=plots(rt, summary.day),
        shown=SHOWN,
    )


@router.get("/nights/{day}/plots/{name}")
def night_plot(
    request: Request, rt: RuntimeDep, day: str, name: str, viewer: Reader
) -> FileResponse:
    path = plot_path(rt, _day(day).isoformat(), name)
    if path is None:
        raise HTTPException(404, "no such plot")
    return FileResponse(path, media_type="image/png")
