"""A small store for the console's tests, on SQLite and PostgreSQL, built once per
session and backend: a synthetic day (poker, banked rounds, slot machines, tournaments)
plus an input file of hostile names, through the whole nightly with signed checkpoints, an
incident investigated, and one account per role.

Import the fixtures (``console_store``, ``make_client``) into a test module to use them.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from tests.three_handed import three_handed

with warnings.catch_warnings():  # starlette prefers httpx2; httpx is what is installed
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

DAY = date(2025, 3, 1)
NOON = datetime(2025, 3, 1, 12, tzinfo=UTC)
PASSWORD = "correct horse battery staple"
ROLES = ("inspector", "investigator", "admin")
HOSTILE_TABLE = "=1+2<script>alert('t')</script>\x1b[2J"
HOSTILE_PLAYER = '<script>alert("p")</script>\'\x1b[31mred'
FORMULA_PLAYER = "@SUM(1)"
HOSTILE_HAND = f"{HOSTILE_TABLE}/1"
INCIDENT = "inc-1"
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Cheap argon2 parameters for tests (verification reads them from each hash)."""


def hostile_hand(hand_id: str, table: str, players: tuple[str, str, str]) -> list[dict]:
    """Three-handed hold'em (``tests.three_handed``); the big blind (seat 2) is paid 120 of
    a pot of 150: a ``mispaid_pot`` naming the hostile players."""
    return three_handed(hand_id, NOON, table=table, players=players, award=120)


@dataclass
class ConsoleStore:
    """What the tests need to know about the built store."""

    url: str
    base: Path
    public_key: Path
    private_key: Path
    reports: Path
    users: dict[str, str] = field(default_factory=dict)
    """role -> user name."""


def build(url: str, base: Path) -> ConsoleStore:
    """The store (see the module docstring)."""
    from audit.families import family_named
    from audit.incidents.investigation import append_findings, investigate
    from audit.incidents.record import record_incident
    from audit.ingest.avro_files import write_events
    from audit.store import AuditStore
    from audit.store.signing import SIGNING_KEY_ENV, generate_keypair
    from console.auth.accounts import add_user
    from pipelines.nightly import run_nightly
    from tests.small_day import write_small_day

    folder = base / "in" / DAY.isoformat()
    write_small_day(folder, DAY, rounds=60, machines=2, tournaments=2)
    players = ("p-one", HOSTILE_PLAYER, FORMULA_PLAYER)
    write_events(
        folder / "hostile.avro",
        family_named("poker"),
        hostile_hand(HOSTILE_HAND, HOSTILE_TABLE, players),
    )
    private, public = generate_keypair(base / "keys")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(SIGNING_KEY_ENV, str(private))
        run_nightly(url, base / "in", DAY, base / "out", workers=1)
        store = AuditStore(url)
        try:
            record_incident(
                store,
                INCIDENT,
                kind="server_failure",
                window_start=NOON,
                window_end=NOON + timedelta(minutes=10),
                recorded_at=NOON + timedelta(hours=2),
                tables=[HOSTILE_TABLE],
                description="servers down <script>x</script> \x1b[5m",
                reported_by="ops",
            )
            append_findings(store, investigate(store, INCIDENT, as_of=NOON + timedelta(days=1)))
            store.checkpoint()
            built = ConsoleStore(url, base, public, private, base / "out")
            for role in ROLES:
                name = f"{role}-1"
                add_user(
                    store,
                    name,
                    role,
                    PASSWORD,
                    by="tests",
                    needs_approval=False,
                    hasher=FAST_HASHER,
                )
                built.users[role] = name
        finally:
            store.close()
    return built


VERIFIER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-chain-verify")
"""Where the test apps' background chain verifications run: a thread of the test process
rather than a spawned interpreter per app (the tests make hundreds of apps; the served
console's own worker process is exercised by the browser tests' ``casino-audit serve``)."""

_BUILT: dict[str, ConsoleStore] = {}
"""Built stores by backend: pytest tears a parametrized session fixture down whenever
the next test wants the other parameter; the store itself is kept for the session."""


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def console_store(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> ConsoleStore:
    """The built store, once per backend per session (per worker)."""
    from tests.conftest import fresh_postgres_url

    if request.param not in _BUILT:
        base = tmp_path_factory.mktemp(f"console-{request.param}")
        sqlite = f"sqlite:///{base / 'store.db'}"
        url = sqlite if request.param == "sqlite" else fresh_postgres_url()
        _BUILT[request.param] = build(url, base)
    return _BUILT[request.param]


class Clock:
    """A settable clock for the console (rate limits)."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


CSRF = re.compile(r'name="csrf_token" value="([^"]*)"')


def csrf_of(html: str) -> str:
    found = CSRF.search(html)
    assert found is not None, "no CSRF token on the page"
    return found.group(1)


def sign_in(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    """Sign ``client`` in; the response of the POST (not followed)."""
    token = csrf_of(client.get("/login").text)
    return client.post(
        "/login",
        data={"username": name, "password": password, "csrf_token": token, "next": "/"},
        follow_redirects=False,
    )


@pytest.fixture
def make_client(console_store: ConsoleStore) -> Iterator[Callable[..., TestClient]]:
    """``make_client(role=None, **create_app options)``: a TestClient on a new app,
    signed in as the role's user (anonymous when None)."""
    from audit.store.signing import load_public_key
    from console.app import create_app

    clients: list[TestClient] = []

    def make(role: str | None = None, **options: Any) -> TestClient:
        options.setdefault("hasher", FAST_HASHER)
        options.setdefault("chain_executor", VERIFIER)
        options.setdefault("reports_dir", console_store.reports)
        options.setdefault("public_key", load_public_key(console_store.public_key))
        app = create_app(console_store.url, **options)
        client = TestClient(app, follow_redirects=False)
        client.__enter__()
        clients.append(client)
        if role is not None:
            response = sign_in(client, console_store.users[role])
            assert response.status_code == 303, response.text
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


__all__ = ["console_store", "make_client"]
