"""Issue 42, item 7: every console page is given the runtime as a declared dependency
(``console.runtime.RuntimeDep``, as FastAPI's full-stack template's ``SessionDep``), not
by fetching it from the request in its body."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from console.auth import access
from console.routes import admin, incidents, main, nights, subjects
from console.runtime import runtime

ROUTERS = (access.router, admin.router, incidents.router, main.router, nights.router)


def _calls(dependant: Dependant) -> Iterator[object]:
    for sub in dependant.dependencies:
        yield sub.call
        yield from _calls(sub)


def _routes() -> list[APIRoute]:
    found = [r for router in (*ROUTERS, subjects.router) for r in router.routes]
    return [r for r in found if isinstance(r, APIRoute)]


def test_every_page_declares_the_runtime() -> None:
    routes = _routes()
    assert len(routes) >= 20
    for route in routes:
        direct = [sub.call for sub in route.dependant.dependencies]
        assert runtime in direct, f"{route.path} does not declare rt: RuntimeDep"


def test_no_page_fetches_the_runtime_from_the_request() -> None:
    for route in _routes():
        source = inspect.getsource(route.endpoint)
        assert "runtime(request)" not in source, route.path
        assert "app.state" not in source, route.path


def test_the_viewer_dependencies_share_the_runtime() -> None:
    """The sign-in check reads the same declared runtime (FastAPI caches a dependency
    per request, so a page and its viewer check get one runtime)."""
    route = next(r for r in _routes() if r.path == "/subjects/{subject_id:path}")
    assert list(_calls(route.dependant)).count(runtime) >= 2
