"""Who may do what in the console: every route × every role (anonymous, inspector,
investigator, admin), CSRF on every POST, the sign-in rate limit, session cookies; the
``user`` commands (argon2 hashes only, never a password in the store) and ``serve``.

On SQLite and PostgreSQL (the ``console_store`` fixture of ``tests.console_store``).
"""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute

from audit.store import AuditStore
from cli.main import main
from console.auth.accounts import add_user, disable_user
from tests.console_store import (
    DAY,
    FAST_HASHER,
    HOSTILE_HAND,
    INCIDENT,
    PASSWORD,
    Clock,
    ConsoleStore,
    console_store,
    csrf_of,
    make_client,
    sign_in,
)
from tests.docs_text import chapter

__all__ = ["console_store", "make_client"]  # fixtures used here

ANONYMOUS = None
INSPECTOR, INVESTIGATOR, ADMIN = "inspector", "investigator", "admin"
READERS = frozenset({INSPECTOR, INVESTIGATOR, ADMIN})
ROLES = (ANONYMOUS, INSPECTOR, INVESTIGATOR, ADMIN)


@dataclass(frozen=True)
class Route:
    """A route as the app declares it, who may use it, and the form it is sent."""

    method: str
    path: str
    allowed: frozenset[str | None]
    form: dict[str, str] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)


ROUTES = (
    Route("GET", "/", READERS),
    Route("GET", "/findings", READERS),
    Route("GET", "/findings.csv", READERS),
    Route("GET", "/search", READERS),
    Route("GET", "/subjects/{subject_id:path}", READERS),
    Route("GET", "/subjects/{subject_id:path}/evidence", READERS),
    Route(
        "POST",
        "/findings/{finding_id}/sign-off",
        frozenset({INVESTIGATOR}),
        {"decision": "accepted", "note": "checked against the shoe"},
    ),
    Route("GET", "/nights", READERS),
    Route("GET", "/nights/{day}", READERS),
    Route("GET", "/nights/{day}/plots/{name}", READERS, values={"name": "rake-vs-cap.png"}),
    Route("GET", "/incidents", READERS),
    Route("GET", "/incidents/{incident_id:path}", READERS),
    Route(
        "POST",
        "/incidents/{incident_id:path}/notes",
        frozenset({INVESTIGATOR}),
        {"note": "called the floor"},
    ),
    Route("GET", "/admin/users", frozenset({ADMIN})),
    Route(
        "POST",
        "/admin/users",
        frozenset({ADMIN}),
        {"name": "{new_user}", "role": "inspector", "password": PASSWORD},
    ),
    Route("POST", "/admin/users/{name}/disable", frozenset({ADMIN}), values={"name": "{victim}"}),
    Route("POST", "/admin/users/{name}/revoke", frozenset({ADMIN}), values={"name": "{victim}"}),
    Route("POST", "/admin/users/{name}/approve", frozenset({ADMIN}), values={"name": "{pending}"}),
    Route("GET", "/admin/access", frozenset({ADMIN})),
    Route("POST", "/logout", READERS),  # last: it ends the session
)
PUBLIC = {("GET", "/login"), ("POST", "/login")}
"""Routes everyone may use (tested below on their own)."""


def _fill(text: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)(?::path)?\}", lambda m: values[m.group(1)], text)


def _values(store: ConsoleStore, finding_id: str) -> dict[str, str]:
    victim = f"victim-{uuid.uuid4().hex[:8]}"
    from audit.store import AuditStore

    app_store = AuditStore(store.url)
    try:
        add_user(
            app_store,
            victim,
            "inspector",
            PASSWORD,
            by="tests",
            needs_approval=False,
            hasher=FAST_HASHER,
        )
        pending = f"pending-{uuid.uuid4().hex[:8]}"
        add_user(app_store, pending, "investigator", PASSWORD, by="another-admin",
                 needs_approval=True, hasher=FAST_HASHER)  # fmt: skip
    finally:
        app_store.close()
    return {
        "pending": pending,
        "subject_id": quote(HOSTILE_HAND, safe=""),
        "finding_id": finding_id,
        "day": DAY.isoformat(),
        "incident_id": INCIDENT,
        "victim": victim,
        "new_user": f"new-{uuid.uuid4().hex[:8]}",
    }


def _request(client: Any, route: Route, values: dict[str, str]) -> Any:
    own = {k: _fill(v, values) for k, v in route.values.items()}
    url = _fill(route.path, {**values, **own})
    if route.method == "GET":
        return client.get(url)
    signed_in = client.cookies.get("casino_audit_session") is not None
    token = csrf_of(client.get("/" if signed_in else "/login").text)
    form = {k: _fill(v, values) for k, v in route.form.items()}
    return client.post(url, data={**form, "csrf_token": token})


def _finding_of_hostile_hand(client: Any) -> str:
    page = client.get("/findings?" + "player=p-one")
    found = re.search(r'data-finding="([0-9a-f]+)"', page.text)
    assert found is not None, page.text[:2000]
    return found.group(1)


def test_every_route_is_in_the_table(make_client: Any) -> None:
    app = make_client().app
    declared = {
        (method, route.path)
        for route in app.routes
        if isinstance(route, APIRoute)
        for method in route.methods
    }
    assert declared == {(r.method, r.path) for r in ROUTES} | PUBLIC


@pytest.mark.parametrize("role", ROLES, ids=lambda r: r or "anonymous")
def test_route_by_role(console_store: ConsoleStore, make_client: Any, role: str | None) -> None:
    finding_id = _finding_of_hostile_hand(make_client(INSPECTOR))
    values = _values(console_store, finding_id)
    client = make_client(role)
    for route in ROUTES:
        response = _request(client, route, values)
        where = f"{route.method} {route.path} as {role or 'anonymous'}"
        if role in route.allowed:
            expected = 200 if route.method == "GET" else 303
            assert response.status_code == expected, (where, response.text[:500])
            if route.method == "GET":
                assert "default-src 'self'" in response.headers["content-security-policy"]
        elif role is None:
            assert response.status_code == 303, where
            assert response.headers["location"].startswith("/login?next="), where
        else:
            assert response.status_code == 403, where


@pytest.mark.parametrize("role", [INVESTIGATOR, ADMIN])
def test_a_post_without_the_csrf_token_is_refused(
    console_store: ConsoleStore, make_client: Any, role: str
) -> None:
    finding_id = _finding_of_hostile_hand(make_client(INSPECTOR))
    values = _values(console_store, finding_id)
    client = make_client(role)
    other = make_client(role)
    foreign = csrf_of(other.get("/").text)  # a valid token, of another session
    for route in [r for r in ROUTES if r.method == "POST"]:
        own = {k: _fill(v, values) for k, v in route.values.items()}
        url = _fill(route.path, {**values, **own})
        form = {k: _fill(v, values) for k, v in route.form.items()}
        for token in (None, "", "0" * 64, foreign):
            data = form if token is None else {**form, "csrf_token": token}
            assert client.post(url, data=data).status_code == 403, (url, token)
    assert client.get("/").status_code == 200  # still signed in: logout was refused too


def test_the_sign_in_form_needs_its_csrf_token(
    console_store: ConsoleStore, make_client: Any
) -> None:
    client = make_client()
    client.get("/login")
    data = {"username": console_store.users[INSPECTOR], "password": PASSWORD}
    assert client.post("/login", data=data).status_code == 403
    assert client.post("/login", data={**data, "csrf_token": "forged"}).status_code == 403


def test_sign_in_is_rate_limited_per_user_name(
    console_store: ConsoleStore, make_client: Any
) -> None:
    from fastapi.testclient import TestClient

    clock = Clock()
    first = make_client(clock=clock)
    name = console_store.users[INSPECTOR]
    for n in range(ACCOUNT_LIMIT):
        address = TestClient(first.app, client=(f"127.0.0.{n + 2}", 5000), follow_redirects=False)
        assert sign_in(address, name, "wrong password!!").status_code == 401
    locked = sign_in(first, name)  # the right password, a fresh address: still locked
    assert locked.status_code == 429
    assert "locked for 15 more minute(s)" in locked.text
    clock.advance(minutes=14)
    assert sign_in(first, name).status_code == 429
    clock.advance(minutes=1, seconds=1)
    assert sign_in(first, name).status_code == 303


ACCOUNT_LIMIT, ADDRESS_LIMIT = 5, 20
"""The documented numbers (``docs/console.md``: 5 failures per user name, 20 per address)."""


def test_the_console_chapter_states_the_sign_in_limits_the_tests_hold() -> None:
    text = " ".join(chapter("console").split())
    assert (
        f"sign-in locks a user name after {ACCOUNT_LIMIT} failures on it, and a client "
        f"address after {ADDRESS_LIMIT} failures from it (any names), each for 15 minutes"
    ) in text


def test_sign_in_is_rate_limited_per_address(console_store: ConsoleStore, make_client: Any) -> None:
    clock = Clock()
    client = make_client(clock=clock)
    for n in range(ADDRESS_LIMIT):  # one guess per name: no name reaches its own limit
        assert sign_in(client, f"nobody-{n}", "wrong password!!").status_code == 401
    locked = sign_in(client, console_store.users[ADMIN])
    assert locked.status_code == 429 and "from this address" in locked.text
    assert "for this user name" not in locked.text
    clock.advance(minutes=16)
    assert sign_in(client, console_store.users[ADMIN]).status_code == 303


def test_one_persons_typos_do_not_lock_out_others_at_the_same_address(
    console_store: ConsoleStore, make_client: Any
) -> None:
    """An office behind one address: the inspector mistypes her password until her name
    is locked (the documented 5); the admin, from the same address, still signs in; the
    address locks only at the documented 20 failures."""
    clock = Clock()
    client = make_client(clock=clock)
    name = console_store.users[INSPECTOR]
    for n in range(ACCOUNT_LIMIT):
        assert sign_in(client, name, f"typo {n}!!!!!!!!").status_code == 401
    locked = sign_in(client, name)  # now even the right password waits
    assert locked.status_code == 429 and "for this user name" in locked.text
    assert "from this address" not in locked.text
    from fastapi.testclient import TestClient

    office = TestClient(client.app, follow_redirects=False)  # same console, same address
    assert sign_in(office, console_store.users[ADMIN]).status_code == 303
    for n in range(ADDRESS_LIMIT - ACCOUNT_LIMIT):
        assert sign_in(office, f"nobody-{n}", "wrong password!!").status_code == 401
    assert sign_in(office, console_store.users[ADMIN]).status_code == 429


def test_session_cookie_is_http_only_strict_and_expires(
    console_store: ConsoleStore, make_client: Any
) -> None:
    client = make_client()
    response = sign_in(client, console_store.users[INSPECTOR])
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "max-age=28800" in cookie
    short = make_client(INSPECTOR, session_seconds=1)
    assert short.get("/").status_code == 200
    time.sleep(2.2)
    assert short.get("/").status_code == 303


def test_sign_out_ends_the_session_and_disabling_ends_it_too(
    console_store: ConsoleStore, make_client: Any
) -> None:
    from audit.store import AuditStore

    client = make_client(INSPECTOR)
    stolen = client.cookies.get("casino_audit_session")
    token = csrf_of(client.get("/").text)
    assert client.post("/logout", data={"csrf_token": token}).status_code == 303
    replay = make_client()
    replay.cookies.set("casino_audit_session", stolen)
    assert replay.get("/").status_code == 303

    name = f"leaver-{uuid.uuid4().hex[:8]}"
    store = AuditStore(console_store.url)
    try:
        add_user(
            store,
            name,
            "investigator",
            PASSWORD,
            by="tests",
            needs_approval=False,
            hasher=FAST_HASHER,
        )
        leaver = make_client()
        assert sign_in(leaver, name).status_code == 303
        assert leaver.get("/").status_code == 200
        disable_user(store, name, by="tests")
    finally:
        store.close()
    assert leaver.get("/").status_code == 303
    assert sign_in(leaver, name).status_code == 401


def _stolen_after(console_store: ConsoleStore, make_client: Any, end: Any) -> Any:
    """A cookie captured from a signed-in inspector, after ``end(client)`` ended its
    session in one console process, replayed to another process with the same
    ``--secret-key-file`` (as after a restart, or behind a second worker)."""
    secret = f"shared secret {uuid.uuid4().hex}"
    name = f"stolen-{uuid.uuid4().hex[:8]}"
    store = AuditStore(console_store.url)
    try:
        add_user(
            store, name, "inspector", PASSWORD, by="tests", needs_approval=False, hasher=FAST_HASHER
        )
    finally:
        store.close()
    first = make_client(secret_key=secret)
    assert sign_in(first, name).status_code == 303
    stolen = first.cookies.get("casino_audit_session")
    end(first, name)
    restarted = make_client(secret_key=secret)
    restarted.cookies.set("casino_audit_session", stolen)
    return restarted.get("/")


def test_a_logout_survives_a_restart(console_store: ConsoleStore, make_client: Any) -> None:
    def logout(client: Any, name: str) -> None:
        token = csrf_of(client.get("/").text)
        assert client.post("/logout", data={"csrf_token": token}).status_code == 303

    assert _stolen_after(console_store, make_client, logout).status_code == 303
    assert _stolen_after(console_store, make_client, lambda c, n: None).status_code == 200


def test_signing_in_again_ends_the_old_session_everywhere(
    console_store: ConsoleStore, make_client: Any
) -> None:
    assert _stolen_after(console_store, make_client, sign_in).status_code == 303


def test_an_admin_revokes_every_session_of_a_user(
    console_store: ConsoleStore, make_client: Any
) -> None:
    admin = make_client(ADMIN)

    def revoke(client: Any, name: str) -> None:
        token = csrf_of(admin.get("/admin/users").text)
        done = admin.post(f"/admin/users/{name}/revoke", data={"csrf_token": token})
        assert done.status_code == 303, done.text
        assert client.get("/").status_code == 303  # the live session too

    assert _stolen_after(console_store, make_client, revoke).status_code == 303
    token = csrf_of(admin.get("/admin/users").text)
    assert admin.post("/admin/users/nobody-x/revoke", data={"csrf_token": token}).status_code == 404


def test_the_revoke_command_ends_every_session(
    console_store: ConsoleStore, make_client: Any, capsys: Any
) -> None:
    def revoke(client: Any, name: str) -> None:
        assert main(["--store", console_store.url, "user", "revoke", name]) == 0

    assert _stolen_after(console_store, make_client, revoke).status_code == 303
    assert main(["--store", console_store.url, "user", "revoke", "nobody-x"]) == 2
    assert "no user 'nobody-x'" in capsys.readouterr().err


# -- separation of duties (issue #26, item 4; docs/console.md "Duties") ---------------------------


def _console_adds(admin: Any, role: str) -> str:
    """``admin`` adds an account of ``role`` in the console; its name."""
    name = f"{role[:5]}-{uuid.uuid4().hex[:8]}"
    token = csrf_of(admin.get("/admin/users").text)
    form = {"name": name, "role": role, "password": PASSWORD, "csrf_token": token}
    assert admin.post("/admin/users", data=form).status_code == 303
    return name


def _approve(admin: Any, name: str) -> Any:
    token = csrf_of(admin.get("/admin/users").text)
    return admin.post(f"/admin/users/{name}/approve", data={"csrf_token": token})


def _signs_off(console_store: ConsoleStore, make_client: Any, name: str) -> int:
    """The status of ``name``'s sign-off of a finding (303 recorded, 403 refused)."""
    client = make_client()
    assert sign_in(client, name).status_code == 303
    finding = _finding_of_hostile_hand(client)
    token = csrf_of(client.get("/").text)
    form = {"decision": "accepted", "note": "mine", "csrf_token": token}
    return client.post(f"/findings/{finding}/sign-off", data=form).status_code


def _second_admin(console_store: ConsoleStore, make_client: Any) -> Any:
    """A client signed in as a second admin, added outside the console."""
    name = f"admin2-{uuid.uuid4().hex[:8]}"
    store = AuditStore(console_store.url)
    try:
        add_user(store, name, "admin", PASSWORD, by="cli", needs_approval=False,
                 hasher=FAST_HASHER)  # fmt: skip
    finally:
        store.close()
    client = make_client()
    assert sign_in(client, name).status_code == 303
    return client


def test_an_admin_cannot_add_an_investigator_and_sign_off_as_it(
    console_store: ConsoleStore, make_client: Any
) -> None:
    admin = make_client(ADMIN)
    puppet = _console_adds(admin, "investigator")
    assert _signs_off(console_store, make_client, puppet) == 403  # reads only
    refused = _approve(admin, puppet)  # the admin who added it cannot vouch for it
    assert refused.status_code == 400 and "other than" in refused.text
    assert _signs_off(console_store, make_client, puppet) == 403
    assert _approve(_second_admin(console_store, make_client), puppet).status_code == 303
    assert _signs_off(console_store, make_client, puppet) == 303


def test_an_admin_cannot_add_an_admin_to_approve_its_own_accounts(
    console_store: ConsoleStore, make_client: Any
) -> None:
    admin = make_client(ADMIN)
    accomplice, puppet = _console_adds(admin, "admin"), _console_adds(admin, "investigator")
    helper = make_client()
    assert sign_in(helper, accomplice).status_code == 303
    assert helper.get("/admin/users").status_code == 403  # pending: reads only
    assert _approve(helper, puppet).status_code == 403
    assert _signs_off(console_store, make_client, puppet) == 403


def test_the_duties_table_holds(console_store: ConsoleStore, make_client: Any) -> None:
    """docs/console.md "Duties": who may sign off, by how the account came to be."""
    admin = make_client(ADMIN)
    inspector = _console_adds(admin, "inspector")
    assert _signs_off(console_store, make_client, console_store.users[ADMIN]) == 403
    assert _signs_off(console_store, make_client, inspector) == 403
    assert _signs_off(console_store, make_client, console_store.users[INVESTIGATOR]) == 303
    assert _approve(_second_admin(console_store, make_client), inspector).status_code == 400


def test_wrong_password_and_unknown_user_read_alike(
    console_store: ConsoleStore, make_client: Any
) -> None:
    client = make_client()
    unknown = sign_in(client, "no-such-user", "whatever at all")
    wrong = sign_in(client, console_store.users[ADMIN], "whatever at all")
    assert unknown.status_code == wrong.status_code == 401
    assert "Wrong user name or password." in unknown.text and "Wrong user name" in wrong.text


def test_user_commands(console_store: ConsoleStore, tmp_path: Path, capsys: Any) -> None:
    url = console_store.url
    secret = tmp_path / "password"
    secret.write_text(PASSWORD + "\n")
    name = f"cli-{tmp_path.name[-8:]}".replace("_", "-")
    assert main(["--store", url, "user", "add", name, "--role", "investigator",
                 "--password-file", str(secret)]) == 0  # fmt: skip
    assert main(["--store", url, "user", "add", name, "--role", "admin",
                 "--password-file", str(secret)]) == 2  # fmt: skip
    assert main(["--store", url, "user", "add", "bad name", "--role", "admin",
                 "--password-file", str(secret)]) == 2  # fmt: skip
    assert main(["--store", url, "user", "disable", name]) == 0
    assert main(["--store", url, "user", "list"]) == 0
    out = capsys.readouterr()
    assert f"user {name} added (investigator)" in out.out and "already exists" in out.err
    listed = next(line for line in out.out.splitlines() if line.startswith(name))
    assert "investigator" in listed and "disabled" in listed
    store = AuditStore(url)
    try:
        from audit.evidence.chainrows import rows_between
        from audit.store import expand_row

        rows = rows_between(store, 0, store.recorder.max_notification_id())
        states = b"".join(  # a packed row's events each (audit.store.packing)
            state
            for r in rows
            for _, _, state in expand_row(r.originator_id, r.originator_version, r.topic, r.state)
        )
    finally:
        store.close()
    assert PASSWORD.encode() not in states and b"$argon2id$" in states


def test_serve_runs_uvicorn_on_loopback(
    console_store: ConsoleStore, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    import uvicorn
    from fastapi import FastAPI

    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.update(app=app, **options))
    assert main(["--store", console_store.url, "serve"]) == 0
    assert isinstance(ran["app"], FastAPI)
    assert (ran["host"], ran["port"]) == ("127.0.0.1", 8765)
    assert (ran["proxy_headers"], ran["forwarded_allow_ips"]) == (False, [])
    assert "http://127.0.0.1:8765/" in capsys.readouterr().out


def _served(app: Any, trusted: list[str], client: str) -> Any:
    """A client at ``client`` of ``app`` as ``serve --trusted-proxy …`` runs it: through
    uvicorn's own Config (its proxy middleware), with the options ``serve`` passes."""
    import uvicorn
    from fastapi.testclient import TestClient

    from cli.console import proxy_options

    config = uvicorn.Config(app, **proxy_options(trusted))  # type: ignore[arg-type]
    config.load()
    return TestClient(config.loaded_app, client=(client, 5000), follow_redirects=False)


def test_a_local_client_cannot_choose_its_address(
    console_store: ConsoleStore, make_client: Any
) -> None:
    """No --trusted-proxy: X-Forwarded-For from loopback is not believed, so spraying
    passwords under made-up addresses still locks the one real address."""
    local = _served(make_client(clock=Clock()).app, [], "127.0.0.1")
    for n in range(ADDRESS_LIMIT):
        local.headers["x-forwarded-for"] = f"203.0.113.{n}"
        assert sign_in(local, f"nobody-{n}", "wrong password!!").status_code == 401
    local.headers["x-forwarded-for"] = "203.0.113.99"
    locked = sign_in(local, console_store.users[ADMIN])
    assert locked.status_code == 429 and "this address" in locked.text


def test_behind_a_named_proxy_each_client_is_limited_on_its_own(
    console_store: ConsoleStore, make_client: Any
) -> None:
    """--trusted-proxy 10.0.0.5: the address limit reached by one client behind the proxy
    locks that client's address, not everyone behind the proxy; another proxy is not
    believed."""
    app = make_client(clock=Clock()).app
    proxy = _served(app, ["10.0.0.5"], "10.0.0.5")
    proxy.headers["x-forwarded-for"] = "198.51.100.7"
    for n in range(ADDRESS_LIMIT):
        assert sign_in(proxy, f"nobody-{n}", "wrong password!!").status_code == 401
    assert sign_in(proxy, console_store.users[ADMIN]).status_code == 429
    proxy.headers["x-forwarded-for"] = "198.51.100.8"
    assert sign_in(proxy, console_store.users[ADMIN]).status_code == 303
    other = _served(app, ["10.0.0.5"], "10.0.0.6")
    other.headers["x-forwarded-for"] = "198.51.100.9"
    for n in range(ADDRESS_LIMIT):
        assert sign_in(other, f"nobody-{n}", "wrong password!!").status_code == 401
    other.headers["x-forwarded-for"] = "198.51.100.10"
    assert sign_in(other, console_store.users[ADMIN]).status_code == 429  # 10.0.0.6 locked


def test_serve_refuses_a_trusted_proxy_that_is_not_an_address(
    console_store: ConsoleStore, capsys: Any
) -> None:
    for bad in ("*", "proxy.example"):
        assert main(["--store", console_store.url, "serve", "--trusted-proxy", bad]) == 2
        assert "not an IP address or network" in capsys.readouterr().err


def test_serve_refuses_a_missing_store(tmp_path: Path, capsys: Any) -> None:
    missing = f"sqlite:///{tmp_path / 'none.db'}"
    assert main(["--store", missing, "serve", "--port", "0"]) == 2
    assert "no store" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()
