"""Who is asking: the signed-in viewer, permissions per route, CSRF on every POST,
and the sign-in and sign-out pages.

Every page depends on ``require(permission)``: anonymous requests are sent to
``/login`` (303), signed-in users without the permission get 403. ``csrf_guard`` is an
app-wide dependency: every request that is not GET/HEAD/OPTIONS is refused (403)
unless its form's ``csrf_token`` matches (``console.security``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from console.auth.accounts import User, password_matches, permissions_of
from console.auth.trail import record_session_ended
from console.readmodel import queries
from console.runtime import Runtime, RuntimeDep
from console.security import (
    ACCOUNT,
    ADDRESS,
    CSRF_FIELD,
    PRESESSION_COOKIE,
    SESSION_COOKIE,
    Session,
    minutes,
    same,
)

router = APIRouter()


class SignInNeeded(Exception):
    """The request needs a signed-in user (handled: redirect to ``/login``)."""

    def __init__(self, next_path: str):
        self.next_path = next_path


@dataclass(frozen=True)
class Viewer:
    """The signed-in user of a request."""

    name: str
    role: str
    session: Session
    csrf: str
    pending: bool
    """Awaiting a second admin's approval: reads only (``console.auth.accounts``)."""

    def can(self, permission: str) -> bool:
        return permission in permissions_of(self.role, self.pending)

    def account(self) -> User:
        """The viewer as an account, for the rules of ``console.auth.accounts``."""
        return User(self.name, self.role, "", "", "", needs_approval=self.pending)


def current_viewer(request: Request, rt: Runtime) -> Viewer | None:
    """The enabled user whose session cookie came with the request (read model fresh)."""
    if getattr(request.state, "viewer_read", False):  # once per request
        return getattr(request.state, "viewer", None)
    request.state.viewer_read = True
    rt.model.refresh()
    session = rt.sessions.read(request.cookies.get(SESSION_COOKIE))
    if session is None:
        return None
    account = queries.user(rt.model, session.user)
    if account is None or account["disabled_at"] or queries.session_ended(rt.model, session):
        return None
    pending = bool(account["needs_approval"]) and not account["approved_by"]
    csrf = rt.sessions.csrf_for(session)
    viewer = Viewer(session.user, account["role"], session, csrf, pending)
    request.state.viewer = viewer
    return viewer


def require(permission: str) -> Callable[[Request, Runtime], Viewer]:
    """A dependency: the viewer, who must hold ``permission``."""

    def dependency(request: Request, rt: RuntimeDep) -> Viewer:
        viewer = current_viewer(request, rt)
        if viewer is None:
            path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
            raise SignInNeeded(path if request.method == "GET" else "/")
        if not viewer.can(permission):
            raise HTTPException(403, f"the {viewer.role} role may not do this")
        return viewer

    return dependency


Reader = Annotated["Viewer", Depends(require("read"))]
"""A page any signed-in role may see (``console.auth.accounts.READ``)."""
Decider = Annotated["Viewer", Depends(require("decide"))]
"""Sign-offs and incident notes: investigators."""
Manager = Annotated["Viewer", Depends(require("manage"))]
"""Accounts and the access trail: admins."""


async def csrf_guard(request: Request, rt: RuntimeDep) -> None:
    """Refuse any state-changing request whose form token does not match."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    form: Mapping[str, object]
    try:
        form = await request.form()
    except Exception:  # a body that is not a form: no token, refused below
        form = {}
    token = form.get(CSRF_FIELD)
    viewer = current_viewer(request, rt)  # the same rule the forms were rendered with
    expected: str | None
    if viewer is not None:
        expected = viewer.csrf
    else:
        cookie = request.cookies.get(PRESESSION_COOKIE)
        expected = rt.sessions.presession_token(cookie)
    if not same(token if isinstance(token, str) else None, expected):
        raise HTTPException(403, "the form's CSRF token is missing or wrong: reload and retry")


def _safe_next(path: str | None) -> str:
    """Only a local path (never ``//host`` or a scheme): no open redirect."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    return path


def _login_page(
    request: Request, rt: Runtime, next_path: str, message: str = "", status: int = 200
) -> Response:
    viewer = current_viewer(request, rt)
    cookie = None
    if viewer is not None:
        token = viewer.csrf
    else:
        token, cookie = rt.sessions.presession()
    response = rt.render(
        request,
        "login.html",
        status=status,
        next_path=_safe_next(next_path),
        message=message,
        csrf=token,
    )
    if cookie is not None:
        response.set_cookie(
            PRESESSION_COOKIE,
            cookie,
            httponly=True,
            samesite="strict",
            secure=rt.settings.cookie_secure,
            path="/",
        )
    return response


@router.get("/login")
def login_form(request: Request, rt: RuntimeDep, next: str = "/") -> Response:
    return _login_page(request, rt, next)


@router.post("/login")
def login(
    request: Request,
    rt: RuntimeDep,
    username: Annotated[str, Form()] = "",
    password: Annotated[str, Form()] = "",
    next: Annotated[str, Form()] = "/",
) -> Response:
    rt.model.refresh()
    address = request.client.host if request.client else "unknown"
    keys = [ACCOUNT + username, ADDRESS + address]
    locked = rt.limiter.locked(keys)
    if locked:
        whom = " and ".join(
            "for this user name" if key.startswith(ACCOUNT) else "from this address"
            for key in locked
        )
        message = (
            f"Too many failed sign-ins {whom}: locked for "
            f"{minutes(max(locked.values()))} more minute(s)."
        )
        return _login_page(request, rt, next, message, status=429)
    account = queries.user(rt.model, username)
    user = (
        User(
            account["name"],
            account["role"],
            account["password_hash"],
            account["added_at"],
            account["added_by"],
            account["disabled_at"],
        )
        if account is not None
        else None
    )
    if not password_matches(user, password, rt.settings.hasher):
        rt.limiter.failed(keys)
        return _login_page(request, rt, next, "Wrong user name or password.", status=401)
    rt.limiter.succeeded(keys[0])
    old = rt.sessions.read(request.cookies.get(SESSION_COOKIE))
    if old is not None:
        record_session_ended(rt.store, old.user, old.ref, "signed in again", rt.now())
    value, _ = rt.sessions.issue(username, rt.now())
    response = RedirectResponse(_safe_next(next), status_code=303)
    response.set_cookie(
        SESSION_COOKIE,
        value,
        max_age=rt.settings.session_seconds,
        httponly=True,
        samesite="strict",
        secure=rt.settings.cookie_secure,
        path="/",
    )
    response.delete_cookie(PRESESSION_COOKIE, path="/")
    return response


@router.post("/logout")
def logout(request: Request, rt: RuntimeDep, viewer: Reader) -> Response:
    record_session_ended(rt.store, viewer.name, viewer.session.ref, "signed out", rt.now())
    response = RedirectResponse("/login?" + urlencode({"next": "/"}), status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response
