"""A real browser against the real console: Debian's Chromium driven by Playwright, the
console served by uvicorn on 127.0.0.1, over a small store built like a real night.

* ``chromium_path()``: ``/usr/bin/chromium`` (``.ci/run`` installs Debian's ``chromium``
  where it is missing). Without it the browser tests are skipped with the reason, except
  in CI (``CI`` set), where they fail: CI must run them. Playwright never downloads a
  browser here (no ``playwright install``): it launches this one.
* ``build_store(url, base)``: a synthetic day (poker, banked rounds, slot machines) with
  faults planted often enough that there is a ``mispaid_pot`` and a
  ``meter_discrepancy``, through ``run_nightly`` with signed checkpoints, and one account
  per role made through the CLI (``casino-audit user add … --password-file``).
* ``serving(app)``: the app on uvicorn in a background thread, on a socket bound to
  127.0.0.1 and a port the kernel chose (no race for a "free" port); stopped on exit.
* ``launch(playwright)``: Chromium with the flags below (headless, no sandbox, nothing
  fetched from outside); ``sync_api()``: Playwright's (a skip without it, a failure in
  CI); ``sign_in(browser, base, name, path)``: a new context signed in, on ``path``.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

CHROMIUM = Path(os.environ.get("CASINO_AUDIT_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DAY = date(2025, 3, 1)
PASSWORD = "correct horse battery staple"
ROLES = ("inspector", "investigator", "admin")
SCREENSHOT_ENV = "CASINO_AUDIT_SCREENSHOT"
SCREENSHOT = Path(__file__).resolve().parents[1] / "docs" / "console.png"
TIMEOUT_MS = 60_000
"""Generous: the machine is shared with other test runs."""


def chromium_path() -> Path:
    """The browser; a skip (locally) or a failure (in CI) when it is not installed."""
    if CHROMIUM.exists():
        return CHROMIUM
    message = f"{CHROMIUM} not found: install Debian's chromium (apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(f"{message}; `make test` installs it: CI must run the browser tests")
    pytest.skip(message)


def launch(playwright: Any) -> Any:
    """Chromium headless, sandbox off (we run as root in CI), nothing fetched from outside."""
    return playwright.chromium.launch(
        executable_path=str(chromium_path()), args=CHROMIUM_ARGS, timeout=60_000
    )


@dataclass
class BrowserStore:
    """What the browser tests need to know about the store they drive."""

    url: str
    base: Path
    public_key: Path
    users: dict[str, str] = field(default_factory=dict)
    """role -> user name (password ``PASSWORD``)."""


def build_store(url: str, base: Path) -> BrowserStore:
    """The store of the module docstring (about 300 hands, 60 rounds, 4 machines)."""
    from audit.store.signing import SIGNING_KEY_ENV, generate_keypair
    from cli.main import main
    from pipelines.nightly import run_nightly
    from tests.small_day import write_small_day

    write_small_day(
        base / "in" / DAY.isoformat(),
        DAY,
        seed=11,
        hands=300,
        fault_rate=0.08,
        rounds=60,
        machines=4,
        tournaments=0,
        round_faults=0.2,
        machine_faults=0.75,
    )
    private, public = generate_keypair(base / "keys")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(SIGNING_KEY_ENV, str(private))  # every checkpoint of the night signed
        run_nightly(url, base / "in", DAY, base / "out", workers=1)
    password_file = base / "password"
    password_file.write_text(PASSWORD + "\n", encoding="utf-8")
    built = BrowserStore(url, base, public)
    for role in ROLES:
        name = f"{role[:5]}-ana"
        argv = ["--store", url, "user", "add", name, "--role", role]
        assert main([*argv, "--password-file", str(password_file)]) == 0
        built.users[role] = name
    return built


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` on uvicorn in a background thread; yields its base URL."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on", server_header=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def sync_api() -> Any:
    try:
        from playwright import sync_api
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("playwright is not installed (the test extra): pip install -e .[test]")
        pytest.skip("playwright is not installed (pip install -c constraints.txt -e .[test])")
    return sync_api


def sign_in(browser: Any, base: str, name: str, path: str = "/findings") -> Any:
    """A new browser context (its own cookies) signed in as ``name``, on ``path``."""
    context = browser.new_context(
        base_url=base, viewport={"width": 1280, "height": 800}, accept_downloads=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(path)
    assert urlsplit(page.url).path == "/login"  # sent to sign in, and back afterwards
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url(re.compile(re.escape(path) + "$"))
    assert page.locator("header .who").inner_text().startswith(name)
    return page
