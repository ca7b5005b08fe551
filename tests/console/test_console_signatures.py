"""The overview's signature tile and row: an inspector's own looks keep a signed store
green, and a checkpoint written since the last verification is never shown stale."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest

from audit.store import AuditStore
from audit.store.signing import SIGNING_KEY_ENV
from console.auth.trail import record_view
from tests.console_store import HOSTILE_HAND, ConsoleStore, console_store, make_client

__all__ = ["console_store", "make_client"]  # fixtures used here
TILE = re.compile(r'<div class="tile([^"]*)">\s*<b>([^<]*)</b>signatures')


def _tile(page: str) -> tuple[str, str]:
    found = TILE.search(page)
    assert found is not None, "no signatures tile"
    return found.group(1).strip(), found.group(2)


def _settled(client: Any) -> str:
    assert client.app.state.runtime.chain.settled(timeout=300) is not None
    return client.get("/").text


def _signed_head(console_store: ConsoleStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A signed checkpoint at a new head, as the next nightly makes: whatever the other
    tests appended to the shared store before is covered from here on."""
    with monkeypatch.context() as patch:
        patch.setenv(SIGNING_KEY_ENV, str(console_store.private_key))
        store = AuditStore(console_store.url)
        record_view(store, "tests", HOSTILE_HAND, "subject")  # a new head to sign
        assert store.checkpoint().signature  # type: ignore[union-attr]
        store.close()


def test_an_inspectors_looks_keep_the_signatures_covered(
    console_store: ConsoleStore, make_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _signed_head(console_store, monkeypatch)
    client = make_client("inspector")
    for view in ("/subjects/", "/evidence/"):
        client.get(view + quote(HOSTILE_HAND, safe=""))
    client.get(f"/subjects/{quote(HOSTILE_HAND, safe='')}")
    assert client.get("/?verify=1").status_code == 200
    page = _settled(client)
    assert _tile(page) == ("ok", "covered")
    assert "NOT COVERED" not in page and "stripped" not in page


def test_a_new_checkpoint_is_checked_before_its_status_is_shown(
    console_store: ConsoleStore, make_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = make_client("inspector")
    client.get(f"/subjects/{quote(HOSTILE_HAND, safe='')}")  # trail after the last signature
    _settled(client)
    with monkeypatch.context() as patch:
        patch.setenv(SIGNING_KEY_ENV, str(console_store.private_key))
        store = AuditStore(console_store.url)
        assert store.checkpoint() is not None  # `casino-audit checkpoint` meanwhile
        store.close()
    page = client.get("/").text
    assert _tile(page) == ("", "checking…")  # never the verification from before it
    page = _settled(client)
    assert _tile(page) == ("ok", "covered")
    assert "covering every event" in page
