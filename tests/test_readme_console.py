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
from pathlib import Path

import httpx
import pytest

from audit.store import AuditStore
from tests.console_store import CSRF
from tests.docs_text import chapter
from tests.test_store import hand

BIN = Path(sys.executable).parent
PASSWORD = "a passphrase of 12+ chars"  # the walk-through's alice.pw
TILE = re.compile(r'<div class="tile([^"]*)">\s*<b>([^<]*)</b>signatures')


def console_block() -> list[str]:
    """The command lines of the first ``sh`` block of "# Inspector console"."""
    text = chapter("console")
    section = text[text.index("# Inspector console") :]
    block = section[section.index("```sh\n") + 6 :]
    block = block[: block.index("```")]
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
    port = _free_port()
    server = subprocess.Popen(
        [*shlex.split(lines[-1].split("#")[0]), "--port", str(port)],
        cwd=demo_folder,
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
