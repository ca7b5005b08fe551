"""The ASGI app: ``create_app(store_url, *, secret_key=None, ...)``.

Routes (each page server-rendered HTML that works with JavaScript off; assets only from
``/static``):

    GET  /                          overview: chain status, latest nights, quarantine
    GET  /findings                  filter, sort, keyset pages (``next`` cursor)
    GET  /findings.csv              the current filter as CSV (formula-safe cells)
    GET  /subjects/{id}             any subject explained; its events, findings, history
    GET  /subjects/{id}/evidence    the evidence bundle (JSON download)
    POST /findings/{id}/sign-off    investigator: accepted / disputed / escalated + note
    GET  /search?q=                 subject id, player, table or machine, incident
    GET  /nights, /nights/{day}     nightly runs; /nights/{day}/plots/{name}.png
    GET  /incidents, /incidents/{id}; POST /incidents/{id}/notes (investigator)
    GET  /admin/users (+ POST add, POST /admin/users/{name}/disable), /admin/access
    GET  /login, POST /login, POST /logout

The store must exist (the console never creates one); it is opened once and closed when
the app stops. No API docs are served (FastAPI's would load assets from a CDN).
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode

from argon2 import PasswordHasher
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from audit.config import parse_store_url
from audit.store import AuditStore, require_existing
from console.auth.access import SignInNeeded, csrf_guard
from console.auth.access import router as auth_router
from console.routes import admin as routes_admin
from console.routes import incidents as routes_incidents
from console.routes import main as routes_main
from console.routes import nights as routes_nights
from console.routes import subjects as routes_subjects
from console.runtime import HERE, Runtime, Settings
from console.security import SecurityHeaders


def _secret(secret_key: bytes | str | None) -> bytes:
    if secret_key is None:
        return secrets.token_bytes(32)  # sessions end when the process does
    key = secret_key.encode() if isinstance(secret_key, str) else bytes(secret_key)
    if len(key) < 16:
        raise ValueError("the console's secret key needs at least 16 bytes")
    return key


def create_app(
    store_url: str,
    *,
    secret_key: bytes | str | None = None,
    reports_dir: Path | str | None = None,
    public_key: Ed25519PublicKey | None = None,
    signing_key: Ed25519PrivateKey | None = None,
    session_seconds: int = 8 * 3600,
    cookie_secure: bool = False,
    verify_every: timedelta = timedelta(seconds=60),
    clock: Callable[[], datetime] | None = None,
    hasher: PasswordHasher | None = None,
    chain_executor: Executor | None = None,
) -> FastAPI:
    """The console over the store at ``store_url`` (see the module docstring).

    ``secret_key`` signs sessions (random per process when None); ``reports_dir`` is the
    nightly report root whose plots the night pages show; ``public_key`` checks checkpoint
    signatures on the overview (verified in the background, again when the head has moved,
    at most once per ``verify_every``); ``signing_key`` (default: the store's,
    ``CASINO_AUDIT_SIGNING_KEY``) signs a checkpoint over each event the console appends
    (``console.auth.trail.seal``); ``cookie_secure`` marks cookies ``Secure`` (serve
    over TLS); ``clock``, ``hasher`` and ``chain_executor`` (where verifications run) are
    for tests.
    """
    require_existing(parse_store_url(store_url))
    settings = Settings(
        store_url=store_url,
        secret_key=_secret(secret_key),
        reports_dir=Path(reports_dir) if reports_dir is not None else None,
        public_key=public_key,
        session_seconds=session_seconds,
        cookie_secure=cookie_secure,
        verify_every=verify_every,
        clock=clock or (lambda: datetime.now(UTC)),
        hasher=hasher or PasswordHasher(),
        chain_executor=chain_executor,
    )
    store = AuditStore(store_url)
    if signing_key is not None:
        store.signing_key = signing_key
    runtime = Runtime(settings, store)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        runtime.chain.start()  # verifies in the background (console.readmodel.chainwatch)
        yield
        runtime.chain.stop()
        store.close()

    app = FastAPI(
        title="casino-audit console",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=lifespan,
        dependencies=[Depends(csrf_guard)],
    )
    app.state.runtime = runtime
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    for module in (routes_main, routes_subjects, routes_nights, routes_incidents, routes_admin):
        app.include_router(module.router)
    app.include_router(auth_router)
    _handlers(app, runtime)
    return app


def _handlers(app: FastAPI, runtime: Runtime) -> None:
    @app.exception_handler(SignInNeeded)
    async def sign_in(request: Request, error: SignInNeeded) -> Response:
        return RedirectResponse("/login?" + urlencode({"next": error.next_path}), 303)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        return runtime.render(
            request, "error.html", status=error.status_code, message=str(error.detail)
        )

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> Response:
        return runtime.render(request, "error.html", status=400, message="bad request")
