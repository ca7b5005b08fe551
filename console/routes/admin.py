"""Administration: accounts (``/admin/users``: list, add, approve, disable, end every
session of one: ``/admin/users/{name}/revoke``) and the access trail
(``/admin/access``: who looked at which subject's events, when, newest first)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from console.auth.access import Manager
from console.auth.accounts import (
    ROLES,
    AccountError,
    add_user,
    approve_user,
    disable_user,
    revoke_sessions,
)
from console.readmodel import queries
from console.runtime import Runtime, RuntimeDep

router = APIRouter()


def _users_page(request: Request, rt: Runtime, message: str = "", status: int = 200) -> Response:
    rt.model.refresh()
    return rt.render(
        request,
        "admin_users.html",
        status=status,
        users=queries.users(rt.model),
        roles=ROLES,
        message=message,
    )


@router.get("/admin/users")
def users(request: Request, rt: RuntimeDep, viewer: Manager) -> Response:
    return _users_page(request, rt)


@router.post("/admin/users")
def new_user(
    request: Request,
    rt: RuntimeDep,
    viewer: Manager,
    name: Annotated[str, Form()] = "",
    role: Annotated[str, Form()] = "",
    password: Annotated[str, Form()] = "",
) -> Response:
    try:
        add_user(rt.store, name, role, password, by=viewer.name, needs_approval=True,
                 hasher=rt.settings.hasher, now=rt.now())  # fmt: skip
    except AccountError as error:
        return _users_page(request, rt, str(error), status=400)
    return RedirectResponse("/admin/users", status_code=303)


@router.post("/admin/users/{name}/disable")
def disable(request: Request, rt: RuntimeDep, viewer: Manager, name: str) -> Response:
    if name == viewer.name:
        return _users_page(request, rt, "you cannot disable your own account", status=400)
    try:
        disable_user(rt.store, name, by=viewer.name, now=rt.now())
    except AccountError as error:
        raise HTTPException(404, str(error)) from None
    return RedirectResponse("/admin/users", status_code=303)


@router.post("/admin/users/{name}/approve")
def approve(request: Request, rt: RuntimeDep, viewer: Manager, name: str) -> Response:
    """A second admin approves an account added in the console (``console.auth.accounts``)."""
    try:
        approve_user(rt.store, name, by=viewer.account(), now=rt.now())
    except AccountError as error:
        return _users_page(request, rt, str(error), status=400)
    return RedirectResponse("/admin/users", status_code=303)


@router.post("/admin/users/{name}/revoke")
def revoke(request: Request, rt: RuntimeDep, viewer: Manager, name: str) -> Response:
    """End every session of ``name`` begun until now (a stolen cookie stops working)."""
    try:
        revoke_sessions(rt.store, name, by=viewer.name, now=rt.now())
    except AccountError as error:
        raise HTTPException(404, str(error)) from None
    return RedirectResponse("/admin/users", status_code=303)


@router.get("/admin/access")
def access(request: Request, rt: RuntimeDep, viewer: Manager, subject: str = "") -> Response:
    trail = queries.access(rt.model, subject or None, limit=500)
    return rt.render(request, "admin_access.html", trail=trail, subject=subject)
