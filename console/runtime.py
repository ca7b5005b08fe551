"""What every page needs: the store, the read model, the background chain verification
(``console.readmodel.chainwatch``), the kept Merkle tree (``audit.evidence.treecache``), sessions,
templates, settings.

One ``Runtime`` per app (``request.app.state.runtime``). Templates are Jinja2 with
autoescape on for everything (``audit.pages.environment``, shared with the nightly
report, as are its findings parts); the filters are the only ways values reach a page:
``t`` (text from the records, control characters and ANSI escapes made visible by
``audit.wording.terminal_safe``; autoescape then makes ``<script>`` and quotes inert),
``v`` (a form field's value: escaped, control characters as character references, so it
round-trips), ``money`` (``audit.notation.money.format_money``; ``t`` and ``money`` from
``audit.pages``), ``kind`` (a finding kind in plain words with its identifier,
``audit.wording.kind_label``; ``kind_label`` the words alone), ``count`` (``331 poker
hands``) and ``subject_url`` / ``q`` (URL quoting).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote, urlencode

import jinja2
from argon2 import PasswordHasher
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from fastapi import Depends, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape

from audit import pages
from audit.evidence.treecache import TreeCache
from audit.store import AuditStore
from audit.wording import kind_label, subject_count
from console.readmodel.chainwatch import ChainWatch
from console.readmodel.investigations import Investigations
from console.readmodel.kept import KeptAnswers
from console.readmodel.model import ReadModel
from console.security import LoginLimiter, Sessions

HERE = Path(__file__).resolve().parent


@dataclass
class Settings:
    """How the console was started (``console.app.create_app``)."""

    store_url: str
    secret_key: bytes
    reports_dir: Path | None = None
    public_key: Ed25519PublicKey | None = None
    session_seconds: int = 8 * 3600
    cookie_secure: bool = False
    verify_every: timedelta = timedelta(seconds=60)
    chain_executor: Executor | None = None
    """Where chain verifications run (``console.readmodel.chainwatch``; tests): a worker process."""
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    hasher: PasswordHasher = field(default_factory=PasswordHasher)


def subject_url(subject: Any, suffix: str = "") -> str:
    return "/subjects/" + quote(str(subject), safe="") + suffix


def incident_url(incident: Any, suffix: str = "") -> str:
    return "/incidents/" + quote(str(incident), safe="") + suffix


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _value(value: Any) -> Markup:
    """A form field's value: HTML-escaped, control characters as numeric references, so
    it is inert on the page and comes back unchanged when the form is sent again."""
    text = str(escape("" if value is None else value))
    return Markup(_CONTROL.sub(lambda m: f"&#{ord(m.group())};", text))


def _kind(kind: Any) -> Markup:
    """A finding kind in plain words (``audit.wording.kind_label``), its identifier
    beside it, small (what the filters and the CSV use)."""
    text = pages.text(kind)
    return Markup('<span class="kind-label">{}</span> <code class="kind-id">{}</code>').format(
        kind_label(text), text
    )


def _count(kind: Any, count: int) -> str:
    return subject_count(pages.text(kind), int(count))


def environment() -> jinja2.Environment:
    """The console's templates over the shared findings parts (``audit.pages``, whose
    ``t`` and ``money`` filters the pages use too)."""
    env = pages.environment(HERE / "templates")
    env.filters.update(
        v=_value,
        subject_url=subject_url,
        q=quote,
        kind=_kind,
        kind_label=kind_label,
        count=_count,
    )
    env.globals.update(
        subject_url=subject_url,
        incident_url=incident_url,
        urlencode=urlencode,
        kind_label=kind_label,
    )
    return env


class Runtime:
    """The console's state (see the module docstring)."""

    def __init__(self, settings: Settings, store: AuditStore):
        self.settings = settings
        self.store = store
        self.model = ReadModel(store)
        self.sessions = Sessions(settings.secret_key, settings.session_seconds)
        self.limiter = LoginLimiter(clock=settings.clock)
        self.templates = Jinja2Templates(env=environment())
        self.chain = ChainWatch(
            settings.store_url,
            self.model.head,
            public_key=settings.public_key,
            every=settings.verify_every,
            clock=settings.clock,
            executor=settings.chain_executor,
        )
        # day -> (read model generation, its console.routes.night_reads.Night): nights imports this
        self.night_cache: dict[str, tuple[int, object]] = {}
        self.investigations = Investigations(self.model, store)
        # subject id -> its page's parts from the store (console.routes.subject_parts)
        self.subject_parts: KeptAnswers[str, Any] = KeptAnswers(self.model)
        self.trees = TreeCache()

    def now(self) -> datetime:
        return self.settings.clock()

    def render(
        self, request: Request, name: str, *, status: int = 200, **context: Any
    ) -> HTMLResponse:
        viewer = getattr(request.state, "viewer", None)
        context.setdefault("viewer", viewer)
        context.setdefault("csrf", viewer.csrf if viewer is not None else "")
        return self.templates.TemplateResponse(request, name, context, status_code=status)


def runtime(request: Request) -> Runtime:
    """The console's runtime, which ``console.app.create_app`` keeps in the app's state."""
    rt: Runtime = request.app.state.runtime
    return rt


RuntimeDep = Annotated[Runtime, Depends(runtime)]
"""What a page declares to be given the runtime (as FastAPI's full-stack template's
``SessionDep`` gives a database session): ``def page(request: Request, rt: RuntimeDep)``."""
