"""The console walk-through (``docs/console.md``) runs as written: every line of its
``sh`` block, in order, in a folder holding what ``make demo`` leaves (a store whose head is already
checkpointed unsigned, a reports folder), then ``serve`` answers and its overview says
the signatures cover the store.

The only change to the lines: ``serve`` gets ``--port`` of a free port (the text's
8765 may be taken on a shared machine). The server listens on 127.0.0.1.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from audit.store import AuditStore
from tests.audit.store.test_store import hand
from tests.console_store import CSRF
from tests.docs_text import chapter

BIN = Path(sys.executable).parent
PASSWORD = "a passphrase of 12+ chars"  # the walk-through's alice.pw
TILE = re.compile(r'<div class="tile([^"]*)">\s*<b>([^<]*)</b>signatures')


def console_block(which: int = 0) -> list[str]:
    """The command lines of the ``which``-th ``sh`` block of "# Inspector console" (0:
    the set-up, 1: the reader's check after reading pages)."""
    text = chapter("console")
    section = text[text.index("# Inspector console") :]
    for _ in range(which + 1):
        section = section[section.index("```sh\n") + 6 :]
        block, section = section[: section.index("```")], section[section.index("```") + 3 :]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def demo_folder(tmp_path: Path) -> Path:
    """What ``make demo`` leaves, in small: the store (head checkpointed, unsigned) and
    the reports folder."""
    store = AuditStore(f"sqlite:///{tmp_path / 'casino-audit.db'}")
    store.append([hand("t/1"), hand("t/2")])
    assert store.checkpoint() is not None and store.signing_key is None
    store.close()
    (tmp_path / "casino-audit-demo" / "reports").mkdir(parents=True)
    return tmp_path


@pytest.fixture
def env() -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CASINO_AUDIT_")}
    return clean | {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


@pytest.fixture
def served(demo_folder: Path, env: dict[str, str]) -> Iterator[str]:
    """Run the block's lines in order; ``serve`` in the background. Yields its URL."""
    lines = console_block()
    assert lines[-1].startswith("casino-audit serve ")
    for line in lines[:-1]:
        done = subprocess.run(
            ["bash", "-c", line], cwd=demo_folder, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
    with _serving(lines[-1], demo_folder, env) as url:
        yield url


@contextmanager
def _serving(line: str, folder: Path, env: dict[str, str]) -> Iterator[str]:
    """``serve`` as ``line`` says, on a free port, until the block ends; yields its URL."""
    port = _free_port()
    server = subprocess.Popen(
        [*shlex.split(line.split("#")[0]), "--port", str(port)],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, server.communicate()[0]
            try:
                httpx.get(f"{url}/login", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "serve did not answer"
                time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_readme_serve_walk_through_runs_as_written(served: str) -> None:
    with httpx.Client(base_url=served, timeout=30) as client:
        login = client.get("/login")
        assert login.status_code == 200
        token = CSRF.search(login.text)
        assert token is not None
        signed_in = client.post(
            "/login",
            data={"username": "alice", "password": PASSWORD, "csrf_token": token.group(1)},
        )
        assert signed_in.status_code == 303
        deadline = time.monotonic() + 300
        while "verifying" in (page := client.get("/").text) or "checking" in page:
            assert time.monotonic() < deadline, "the verification did not finish"
            time.sleep(1)
        found = TILE.search(page)
        assert found is not None
        assert (found.group(1).strip(), found.group(2)) == ("ok", "covered")


def _read_pages(client: httpx.Client) -> None:
    """Sign in as alice and read pages as an inspector would: the trail grows."""
    token = CSRF.search(client.get("/login").text)
    assert token is not None
    signed_in = client.post(
        "/login", data={"username": "alice", "password": PASSWORD, "csrf_token": token.group(1)}
    )
    assert signed_in.status_code == 303
    for path in ("/", "/findings", "/subjects/t%2F1", "/subjects/t%2F2", "/subjects/t%2F1"):
        assert client.get(path).status_code == 200, path


def _settled_overview(client: httpx.Client) -> str:
    client.get("/?verify=1")
    deadline = time.monotonic() + 300
    while "verifying" in (page := client.get("/").text) or "checking" in page:
        assert time.monotonic() < deadline, "the verification did not finish"
        time.sleep(1)
    return page


LATER = re.compile(r"the (\d+) later event\(s\) are this console|(\d+) later event\(s\) await")


def test_after_reading_pages_verify_and_the_overview_agree_and_pass(
    served: str, demo_folder: Path, env: dict[str, str]
) -> None:
    """docs/console.md to its end: after an inspector reads pages, the reader's
    ``verify --public-key`` exits 0 and names the console's unsigned trail (never
    "CHAIN BROKEN"), and the overview counts the same later rows in both of its rows."""
    with httpx.Client(base_url=served, timeout=30) as client:
        _read_pages(client)
        page = _settled_overview(client)
    found = TILE.search(page)
    assert found is not None and (found.group(1).strip(), found.group(2)) == ("ok", "covered")
    counts = {int(a or b) for a, b in LATER.findall(page)}
    assert len(LATER.findall(page)) == 2 and len(counts) == 1, page
    (line,) = console_block(1)
    done = subprocess.run(
        ["bash", "-c", line], cwd=demo_folder, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "CHAIN BROKEN" not in done.stdout and "NOT VERIFIED" not in done.stdout
    tail = re.search(
        r"unsigned tail: the (\d+) row\(s\) .* console's own access trail", done.stdout
    )
    assert tail is not None, done.stdout
    assert int(tail.group(1)) >= counts.pop() > 0  # the trail may have grown since


def test_a_tail_other_than_the_console_trail_still_fails_verify(
    demo_folder: Path, env: dict[str, str]
) -> None:
    """The named tail is only the console's trail: a hand appended after the signed
    checkpoint is not covered, and ``verify --public-key`` exits 1 saying so."""
    for line in console_block()[:-1]:
        subprocess.run(["bash", "-c", line], cwd=demo_folder, env=env, check=True)
    store = AuditStore(f"sqlite:///{demo_folder / 'casino-audit.db'}")
    store.append([hand("t/3")])
    store.close()
    (line,) = console_block(1)
    done = subprocess.run(
        ["bash", "-c", line], cwd=demo_folder, env=env, capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "not covered by a signature" in done.stdout and "unsigned tail" not in done.stdout


def test_serve_with_the_sign_key_signs_its_trail_as_it_writes(
    demo_folder: Path, env: dict[str, str]
) -> None:
    """``serve --sign-key``: every row the console appends is covered by a signed
    checkpoint at once, so ``verify --public-key`` has no unsigned tail at all."""
    lines = console_block()
    for line in lines[:-1]:
        subprocess.run(["bash", "-c", line], cwd=demo_folder, env=env, check=True)
    serve = f"{lines[-1].split('#')[0]} --sign-key keys/checkpoint-signing.key"
    with _serving(serve, demo_folder, env) as url, httpx.Client(base_url=url, timeout=30) as c:
        _read_pages(c)
    (line,) = console_block(1)
    done = subprocess.run(
        ["bash", "-c", line], cwd=demo_folder, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout
    assert "unsigned tail" not in done.stdout
