"""The roles block of ``docs/deployment.md`` runs as written and ends with the reader's
``verify --public-key`` exit 0.

Every line of the block's ``sh`` text, in order, in a folder holding a night's input
(``./casino-audit-input/2025-03-01``, clean hands): ``psql`` against the throwaway
cluster (``PGHOST``…), the text's host, database, role and schema names swapped for
the test's (random, dropped afterwards) and its ``…`` passwords for one. ``export``
lines set the next lines' environment, as in a shell.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from psycopg import sql

from audit.families import family_named
from audit.ingest.avro_files import write_events
from tests.conftest import postgres_base_url
from tests.docs_text import chapter
from tests.pipelines.test_nightly import DAY, poker_hand

BIN = Path(sys.executable).parent
PASSWORD = "walk-through-pw"


def roles_block() -> list[str]:
    """The command lines of the first ``sh`` block under "## PostgreSQL roles"."""
    text = chapter("deployment")
    section = text[text.index("## PostgreSQL roles") :]
    block = section[section.index("```sh\n") + 6 :]
    block = block[: block.index("```")]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


@pytest.fixture
def names() -> Iterator[dict[str, str]]:
    """The text's names -> the test's (unique on the shared cluster); dropped after."""
    base = postgres_base_url()  # skips without a server, before anything is made
    tag = uuid.uuid4().hex[:8]
    swap = {role: f"{role}_{tag}" for role in ("audit_owner", "audit_writer", "audit_reader")}
    swap["schema=audit"] = f"schema=deploy_{tag}"
    yield swap
    with psycopg.connect(base, autocommit=True) as conn:
        schema = swap["schema=audit"].split("=")[1]
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
        for role in (swap["audit_owner"], swap["audit_writer"], swap["audit_reader"]):
            conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
            conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


def _as_run_here(line: str, names: dict[str, str]) -> str:
    """The text's line against the test's cluster and names."""
    base = urlsplit(postgres_base_url())
    line = line.replace("@db:5432/casino?", f"@{base.hostname}:{base.port}{base.path}?")
    line = line.replace("…", PASSWORD)
    for old, new in names.items():
        line = re.sub(rf"\b{re.escape(old)}\b", new, line)
    return line


def _clean_day(folder: Path) -> None:
    """A night's input where the nightly's text looks for it: clean hands only."""
    day = folder / "casino-audit-input" / DAY.isoformat() / "poker"
    day.mkdir(parents=True)
    events = [e for n in range(1, 4) for e in poker_hand("casino-a/t1", n)]
    write_events(day / "0001.avro", family_named("poker"), events)


def test_the_roles_block_ends_with_the_readers_verify_exit_0(
    tmp_path: Path, names: dict[str, str]
) -> None:
    base = urlsplit(postgres_base_url())
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASINO_AUDIT_")}
    env |= {
        "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        "PGHOST": base.hostname or "127.0.0.1",
        "PGPORT": str(base.port),
        "PGUSER": base.username or "postgres",
        "PGDATABASE": base.path.lstrip("/"),
    }
    _clean_day(tmp_path)
    lines = roles_block()
    assert "verify --public-key" in lines[-1]
    for line in lines:
        command = _as_run_here(line.split("  #")[0], names)
        if command.startswith("export "):
            name, value = command.removeprefix("export ").split("=", 1)
            env[name] = value
            continue
        done = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        last = line is lines[-1]
        allowed = (0,) if last else (0, 1)  # a night's findings are exit 1; never exit 2
        assert done.returncode in allowed, f"{command}\n{done.stdout}\n{done.stderr}"
    assert "chain intact" in done.stdout and "0 checkpoint(s) unsigned" in done.stdout


def test_a_writer_without_the_key_is_named_as_such_not_as_deleted_checkpoints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The roles block's writer run without ``CASINO_AUDIT_SIGNING_KEY``: the reader's
    ``verify --public-key`` cannot vouch for the store (exit 1) and says why in the words
    of the likely cause first, not "checkpoints deleted, replaced by unsigned ones"."""
    from audit.store import AuditStore, generate_keypair
    from cli.main import main
    from tests.audit.store.test_store import hand

    monkeypatch.delenv("CASINO_AUDIT_SIGNING_KEY", raising=False)
    _, public = generate_keypair(tmp_path / "keys")
    url = f"sqlite:///{tmp_path / 'store.db'}"
    store = AuditStore(url)
    store.append([hand("t/1")])
    assert store.checkpoint() is not None
    store.close()
    capsys.readouterr()
    assert main(["--store", url, "verify", "--public-key", str(public)]) == 1
    out = capsys.readouterr().out
    assert "NOT VERIFIED" in out and "written without a signing key" in out
    assert "replaced by unsigned ones" not in out
