"""A suspected pair's page in a real browser (Debian's Chromium through Playwright), on
SQLite and PostgreSQL: the inspector reads what was measured in words and the collusion
rule that applies (never the chat-and-emoji rule), sees one consistent verdict, follows an
evidence hand by its link, downloads the pair's evidence bundle with its button and
checks it offline with ``casino-audit verify-evidence`` (proven; with the score changed,
not). Skipped like ``tests/console/test_console_browser.py`` when Chromium is missing outside CI.
"""

from __future__ import annotations

import json
import re
from base64 import b64decode, b64encode
from pathlib import Path
from urllib.parse import quote

import pytest

from audit.store import AuditStore
from audit.store.packing import pack_events, unpack
from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
from console.app import create_app
from console.auth.accounts import add_user
from tests.browser_harness import (
    PASSWORD,
    TIMEOUT_MS,
    BrowserStore,
    chromium_path,
    launch,
    serving,
    sign_in,
    sync_api,
)
from tests.console.test_console_browser import _verify_evidence
from tests.console.test_console_pair_page import HANDS, PAIR, store_suspected_pair
from tests.console_store import FAST_HASHER


def _store(url: str, base: Path, monkeypatch: pytest.MonkeyPatch) -> BrowserStore:
    """Two hands and the night's detector unit suspecting the pair over them, signed."""
    private, public = generate_keypair(base / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    store = AuditStore(url)
    try:
        store_suspected_pair(store)
        add_user(
            store,
            "ines",
            "inspector",
            PASSWORD,
            by="tests",
            needs_approval=False,
            hasher=FAST_HASHER,
        )
    finally:
        store.close()
    built = BrowserStore(url, base, public)
    built.users["inspector"] = "ines"
    return built


def test_a_pairs_page_in_a_real_browser(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chromium_path()
    playwright_api = sync_api()
    store = _store(store_url, tmp_path, monkeypatch)
    app = create_app(store.url, public_key=load_public_key(store.public_key), hasher=FAST_HASHER)
    page_path = "/subjects/" + quote(PAIR, safe="")
    with serving(app) as base, playwright_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = sign_in(browser, base, "ines")
            page.goto(page_path)
            text = page.locator("main").inner_text()
            assert "WHAT WAS MEASURED, in words" in text
            assert (
                "they clearly folded to each other's bets more often than to other players' "
                "bets (6.0 standard deviations)" in text
            )
            assert "GG-2022 Política de conluio — Collusion" in text
            assert "chat" not in text and "emoji" not in text
            assert "1 stored verdict(s)" in text and "No stored verdict" not in text
            assert "casino-audit show" not in text  # hands are links, not commands

            page.locator("pre.explain a", has_text=HANDS[0]).first.click()
            page.wait_for_url(re.compile(re.escape("/subjects/" + quote(HANDS[0], safe=""))))
            assert page.locator("main h1").inner_text() == HANDS[0]
            page.go_back()

            button = page.locator("p.actions a:has-text('Evidence bundle (the suspicion')")
            with page.expect_download(timeout=TIMEOUT_MS) as download_info:
                button.click()
            saved = tmp_path / download_info.value.suggested_filename
            download_info.value.save_as(saved)
            bundle = json.loads(saved.read_text(encoding="utf-8"))
            assert bundle["subject"] == {"kind": "collusion", "id": PAIR}
            result = _verify_evidence(saved, store.public_key, tmp_path)
            assert result.returncode == 0, result.stdout + result.stderr
            assert "PROVEN" in result.stdout and "NOT PROVEN" not in result.stdout
            assert f"suspicion on {PAIR} (score 7.1 over 140 shared hands" in result.stdout

            [row] = bundle["verdict"]["events"]  # the unit's packed row: Opened, verdict
            stored = unpack(row["originator_id"], row["version"], b64decode(row["state_b64"]))
            assert b"7.1" in stored[1][2]
            altered = [(topic, state.replace(b"7.1", b"9.1", 1)) for _, topic, state in stored]
            row["state_b64"] = b64encode(pack_events(altered)).decode()
            forged = tmp_path / "forged.json"
            forged.write_text(json.dumps(bundle), encoding="utf-8")
            result = _verify_evidence(forged, store.public_key, tmp_path)
            assert result.returncode == 1 and "NOT PROVEN" in result.stdout
            page.context.close()
        finally:
            browser.close()
