"""Sessions, CSRF tokens, sign-in rate limiting and the security headers.

* **Session**: a cookie holding ``{"u": user, "n": nonce}`` signed with the console's
  secret (``itsdangerous``, timestamped; refused after ``session_seconds``), ``HttpOnly``,
  ``SameSite=Strict``, ``Secure`` when the console is served over TLS. The role is never
  in the cookie: each request reads the account from the read model, so a disabled user
  is out at the next click. The cookie also carries when it was issued (``"t"``). Signing
  out, signing in again and an admin's revocation are stored in the access trail
  (``console.auth.trail``: ``SessionEnded``, ``SessionsRevoked``) and checked at every request
  (``console.auth.access.current_viewer``), so an ended session stays ended after a restart and
  in every console process over the same store.
* **CSRF**: every form carries ``csrf_token``; every POST is refused (403) unless it
  matches. Signed in, the token is bound to the session (HMAC of the session nonce);
  before signing in (the sign-in form) it is a double-submit token: a random value in
  the form and, signed, in a ``SameSite=Strict`` cookie.
* **Sign-in rate limit** (``LoginLimiter``): at most 5 failed sign-ins per user name and
  20 per client address within 15 minutes; then that name or address is locked until
  its oldest counted failure leaves the window, with a message saying which and for how
  long. One person's typos lock only the name typed, not the address others share.
* **Headers**: ``Content-Security-Policy: default-src 'self'`` (and no inline script or
  style, no framing, forms to this site only), ``nosniff``, no referrer, no caching.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SESSION_COOKIE = "casino_audit_session"
PRESESSION_COOKIE = "casino_audit_csrf"
CSRF_FIELD = "csrf_token"
CSP = (
    "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}


@dataclass(frozen=True, slots=True)
class Session:
    user: str
    nonce: str
    issued_at: datetime

    @property
    def ref(self) -> str:
        """The session's name in the access trail: a digest, never the nonce itself."""
        return hashlib.sha256(b"session\x00" + self.nonce.encode()).hexdigest()[:32]


class Sessions:
    """Signed session cookies and the tokens bound to them."""

    def __init__(self, secret: bytes, session_seconds: int):
        self._secret = secret
        self.seconds = session_seconds
        self._signer = URLSafeTimedSerializer(secret, salt="casino-audit console session")
        self._presession = URLSafeSerializer(secret, salt="casino-audit console csrf")

    def issue(self, user: str, now: datetime) -> tuple[str, Session]:
        """A new session's cookie value, issued at ``now``."""
        session = Session(user, secrets.token_urlsafe(24), now)
        cookie = {"u": user, "n": session.nonce, "t": now.isoformat()}
        return self._signer.dumps(cookie), session

    def read(self, cookie: str | None) -> Session | None:
        """The session a cookie holds, if signed by us and not expired (whether it was
        ended is the access trail's to say)."""
        if not cookie:
            return None
        try:
            data = self._signer.loads(cookie, max_age=self.seconds)
        except BadSignature:  # also SignatureExpired
            return None
        if not isinstance(data, dict) or not isinstance(data.get("u"), str):
            return None
        try:
            issued = aware(datetime.fromisoformat(str(data.get("t"))))
        except ValueError:  # a cookie from before sessions were stored: sign in again
            return None
        return Session(data["u"], str(data.get("n", "")), issued)

    def csrf_for(self, session: Session) -> str:
        """The CSRF token bound to a session."""
        mac = hmac.new(self._secret, b"csrf\x00" + session.nonce.encode(), hashlib.sha256)
        return mac.hexdigest()

    def presession(self) -> tuple[str, str]:
        """(form token, cookie value) for a form shown before signing in."""
        token = secrets.token_urlsafe(24)
        return token, self._presession.dumps(token)

    def presession_token(self, cookie: str | None) -> str | None:
        if not cookie:
            return None
        try:
            token = self._presession.loads(cookie)
        except BadSignature:
            return None
        return token if isinstance(token, str) else None


def aware(moment: datetime) -> datetime:
    """``moment`` with a time zone (a naive time is read as UTC), so times compare."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def same(a: str | None, b: str | None) -> bool:
    """Constant-time equality of two tokens (False when either is missing)."""
    return bool(a) and bool(b) and hmac.compare_digest(str(a), str(b))


ACCOUNT, ADDRESS = "user:", "addr:"
"""The two kinds of key the sign-in limit counts failures under (``account``, ``address``)."""


@dataclass
class LoginLimiter:
    """Failed sign-ins per account name (``user:NAME``) and per client address
    (``addr:IP``) within a sliding window: ``max_failures`` on one name lock that name
    (whoever types it), ``max_address_failures`` from one address lock that address.

    The address limit is the higher one on purpose: an office behind one address (NAT,
    or a proxy not named with ``--trusted-proxy``) shares it, so one person's typos lock
    only the name they mistyped, never their colleagues; guessing across many names from
    one address is still stopped at ``max_address_failures``."""

    max_failures: int = 5
    max_address_failures: int = 20
    window: timedelta = timedelta(minutes=15)
    clock: Callable[[], datetime] = field(default=datetime.now)
    _failures: dict[str, deque[datetime]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def limit(self, key: str) -> int:
        return self.max_address_failures if key.startswith(ADDRESS) else self.max_failures

    def _recent(self, key: str, now: datetime) -> deque[datetime]:
        times = self._failures.setdefault(key, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        return times

    def locked(self, keys: list[str]) -> dict[str, timedelta]:
        """The locked keys among ``keys`` and how long until each may try again."""
        now = self.clock()
        waits = {}
        with self._lock:
            for key in keys:
                times, most = self._recent(key, now), self.limit(key)
                if len(times) >= most:
                    waits[key] = times[-most] + self.window - now
        return waits

    def failed(self, keys: list[str]) -> None:
        now = self.clock()
        with self._lock:
            for key in keys:
                self._recent(key, now).append(now)

    def succeeded(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)


def minutes(wait: timedelta) -> int:
    """A wait in whole minutes, rounded up (at least 1)."""
    return max(1, -(-int(wait.total_seconds()) // 60))


class SecurityHeaders:
    """ASGI middleware adding ``HEADERS`` to every response (and ``no-store`` to pages)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = str(scope.get("path", "")).startswith("/static/")

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.decode("latin-1").lower() not in HEADERS
                ]
                headers += [(k.encode(), v.encode()) for k, v in HEADERS.items()]
                if not static:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)
