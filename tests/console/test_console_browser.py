"""The inspector console in a real browser (Debian's Chromium through Playwright), on
SQLite and PostgreSQL: sign in, filter the findings to one kind and page through them,
open a poker finding and a slot finding, read what is owed in currency, download each
evidence bundle and check it offline with ``casino-audit verify-evidence`` (no store
configured; with one amount changed it is refused), sign a finding off as an
investigator, and be refused, as an inspector, the admin pages (403) and sign-offs (no
form; a crafted POST refused, nothing recorded).

``CASINO_AUDIT_SCREENSHOT=1`` also writes a full-page screenshot of the findings page to
``docs/console.png`` (off by default, so that a test run never rewrites tracked files).
Skipped, with the reason, when ``/usr/bin/chromium`` is missing outside CI; in CI
(``CI`` set) that is a failure. See ``tests/browser_harness.py``.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from audit.store import compact
from audit.store.packing import is_packed, pack_events, unpack
from tests.browser_harness import (
    SCREENSHOT,
    SCREENSHOT_ENV,
    TIMEOUT_MS,
    BrowserStore,
    build_store,
    chromium_path,
    launch,
    serving,
    sign_in,
    sync_api,
)

OWED = re.compile(r"^[A-Z]{3} \d[\d,]*(\.\d+)? owed (to|back to the house by) \S")
"""An owed line as the subject page words it: ``USD 0.35 owed to the player p-12``."""
AMOUNT = re.compile(r'"amount":\s*(\d+)')


def _subject_of_kind(page: Any, kind: str) -> tuple[str, str]:
    """Filter the findings to ``kind`` with the form; (subject id, finding id) of the first
    row, after checking every row on every page is of that kind."""
    page.goto("/findings")
    page.select_option("form.filters select[name=kind]", kind)
    page.fill("form.filters input[name=limit]", "4")
    page.click("form.filters button[type=submit]")
    page.wait_for_url(re.compile(r"/findings\?"))
    assert parse_qs(urlsplit(page.url).query)["kind"] == [kind]
    rows = page.locator("table.findings tr[data-finding]")
    first_subject = rows.first.locator("td").nth(1).inner_text()
    first_finding = rows.first.get_attribute("data-finding")
    seen: list[str] = []
    while True:  # keyset pages: each finding once, all of the kind
        assert rows.count() > 0
        kinds = rows.evaluate_all("rs => rs.map(r => r.cells[0].dataset.kind)")
        assert set(kinds) == {kind}, kinds
        seen += rows.evaluate_all("rs => rs.map(r => r.dataset.finding)")
        following = page.locator("a[rel=next]")
        if following.count() == 0:
            break
        following.click()
        page.wait_for_url(re.compile(r"cursor="))
    assert len(seen) == len(set(seen))
    assert first_finding is not None
    return first_subject, first_finding


def _open_subject(page: Any, subject: str, kind: str) -> Any:
    """Go back to the first finding of ``kind`` and open its subject by the link."""
    page.goto(f"/findings?kind={kind}")
    page.locator("table.findings tr[data-finding] td:nth-child(2) a").first.click()
    page.wait_for_url(re.compile(r"/subjects/"))
    assert page.locator("main h1").inner_text() == subject
    kinds = page.locator("article.finding h3").evaluate_all("hs => hs.map(h => h.dataset.kind)")
    assert kind in kinds, kinds
    return page


def _download_and_verify(page: Any, store: BrowserStore, folder: Path, kind: str) -> Path:
    """Download the subject's evidence bundle of ``kind`` in the browser; check it offline."""
    link = page.locator(f"p.actions a:has-text('Evidence bundle ({kind})')")
    with page.expect_download(timeout=TIMEOUT_MS) as download_info:
        link.click()
    download = download_info.value
    assert download.suggested_filename.startswith("evidence-")
    saved = folder / download.suggested_filename
    download.save_as(saved)
    bundle = json.loads(saved.read_text(encoding="utf-8"))
    assert bundle["subject"]["kind"] == kind
    assert bundle["proof"]["type"] == "merkle"
    assert bundle["proof"]["checkpoint"]["signature"]  # up to a signed tree head
    result = _verify_evidence(saved, store.public_key, folder)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PROVEN" in result.stdout and "NOT PROVEN" not in result.stdout
    return saved


def _amount_raised(event: dict[str, Any], kind: str) -> bool:
    """Raise the first amount of a bundled row's state by one minor unit, whichever form
    it is stored in (JSON text; a compact Avro state re-encoded under its schema, so that
    it still decodes; or such states inside a packed row, packed again); False when the
    row holds no amount."""
    if AMOUNT.search(event.get("state", "")):
        event["state"] = AMOUNT.sub(lambda m: f'"amount":{int(m.group(1)) + 1}', event["state"], 1)
        return True
    if "state_b64" not in event:
        return False
    stored = base64.b64decode(event["state_b64"])
    if is_packed(str(event["topic"])):
        inside = [
            (topic, state)
            for _, topic, state in unpack(event["originator_id"], event["version"], stored)
        ]
        for n, (topic, state) in enumerate(inside):
            forged = _compact_amount_raised(state, kind)
            if forged is not None:
                inside[n] = (topic, forged)
                event["state_b64"] = base64.b64encode(pack_events(inside)).decode()
                return True
        return False
    forged = _compact_amount_raised(stored, kind)
    if forged is None:
        return False
    event["state_b64"] = base64.b64encode(forged).decode()
    return True


def _compact_amount_raised(state: bytes, kind: str) -> bytes | None:
    """A compact state with its amount one minor unit more (None: not compact, or no amount)."""
    if not compact.is_compact(state):
        return None
    recorded_at, record = compact.decode(state)
    if not isinstance(record.get("amount"), int):
        return None
    forged = compact.encode(kind, recorded_at, {**record, "amount": record["amount"] + 1})
    assert forged is not None
    return forged


def _tampered_is_refused(saved: Path, store: BrowserStore, folder: Path) -> None:
    """One amount changed in the downloaded bundle: ``verify-evidence`` exits 1."""
    bundle = json.loads(saved.read_text(encoding="utf-8"))
    kind = bundle["subject"]["kind"]
    assert any(_amount_raised(event, kind) for event in bundle["events"])
    forged = folder / f"forged-{saved.name}"
    forged.write_text(json.dumps(bundle), encoding="utf-8")
    result = _verify_evidence(forged, store.public_key, folder)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "NOT PROVEN" in result.stdout


def _verify_evidence(bundle: Path, public_key: Path, folder: Path) -> Any:
    """``casino-audit verify-evidence`` in a subprocess with no store configured (no
    ``--store``, no ``CASINO_AUDIT_STORE``, an empty working directory)."""
    cwd = folder / "offline"
    cwd.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASINO_AUDIT_")}
    script = Path(sys.executable).with_name("casino-audit")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "cli"]
    result = subprocess.run(
        [*command, "verify-evidence", str(bundle), "--public-key", str(public_key)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert list(cwd.iterdir()) == []  # it made no store (nor anything else)
    return result


def _screenshot(page: Any) -> None:
    """The findings page, whole, for docs/console.md (only with CASINO_AUDIT_SCREENSHOT=1)."""
    page.goto("/findings?limit=20")
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)


def test_the_console_in_a_real_browser(store_url: str, tmp_path: Path) -> None:
    chromium_path()
    playwright_api = sync_api()
    from audit.store.signing import load_public_key
    from console.app import create_app

    store = build_store(store_url, tmp_path)
    app = create_app(
        store.url,
        public_key=load_public_key(store.public_key),
        reports_dir=tmp_path / "out",
    )
    with serving(app) as base, playwright_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            _inspector(browser, base, store, tmp_path)
            if store_url.startswith("sqlite") and os.environ.get(SCREENSHOT_ENV) == "1":
                page = sign_in(browser, base, store.users["admin"], "/")
                _screenshot(page)
                page.context.close()
        finally:
            browser.close()


def _inspector(browser: Any, base: str, store: BrowserStore, folder: Path) -> None:
    page = sign_in(browser, base, store.users["inspector"])
    assert page.locator("table.findings tr[data-finding]").count() > 0

    # a poker finding: what the player is owed, in currency; its evidence, checked offline
    hand, poker_finding = _subject_of_kind(page, "mispaid_pot")
    _open_subject(page, hand, "mispaid_pot")
    owed = page.locator("ul.owed li").all_inner_texts()
    assert owed and all(OWED.match(line) for line in owed), owed
    assert page.locator("pre.explain").count() == 1  # the hand's findings and history
    assert page.locator("div.hand table.actions").count() >= 1  # the hand step by step
    bundle = _download_and_verify(page, store, folder, "poker")
    _tampered_is_refused(bundle, store, folder)

    # a slot finding: the machine's meters, its evidence checked offline too
    machine, _ = _subject_of_kind(page, "meter_discrepancy")
    _open_subject(page, machine, "meter_discrepancy")
    slot = page.locator("section.part", has=page.locator("h3", has_text="SLOT MACHINE"))
    assert slot.count() == 1 and slot.locator("pre.explain").count() == 1
    _download_and_verify(page, store, folder, "slots")

    # an inspector reads but does not decide: no form, and a crafted POST is refused
    page.goto(f"/subjects/{hand}")
    assert page.locator("article.finding").count() >= 1
    assert page.locator("form.signoff").count() == 0
    token = page.locator("form.logout input[name=csrf_token]").get_attribute("value")
    assert token
    target = f"{base}/findings/{poker_finding}/sign-off"
    form = {"decision": "accepted", "note": "crafted by an inspector"}
    crafted = page.request.post(target, form={**form, "csrf_token": token}, max_redirects=0)
    assert crafted.status == 403
    no_token = page.request.post(target, form=form, max_redirects=0)
    assert no_token.status == 403
    page.reload()
    assert page.locator("table.signoffs").count() == 0  # nothing was recorded

    # nor administers: 403 on the admin pages, and no link to them
    for path in ("/admin/users", "/admin/access"):
        response = page.goto(path)
        assert response is not None and response.status == 403, path
    assert page.locator("nav a[href='/admin/users']").count() == 0
    page.context.close()

    # an investigator signs the same finding off with the form
    page = sign_in(browser, base, store.users["investigator"], f"/subjects/{hand}")
    form_of = page.locator(f"article#finding-{poker_finding} form.signoff")
    form_of.locator("select[name=decision]").select_option("disputed")
    form_of.locator("input[name=note]").fill("pot recounted on the table camera")
    form_of.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"#finding-"))
    signed = page.locator(f"article#finding-{poker_finding} table.signoffs").inner_text()
    assert "disputed" in signed and store.users["investigator"] in signed
    page.context.close()

    # the admin sees the accounts and who looked at the hand
    page = sign_in(browser, base, store.users["admin"], "/admin/users")
    users = page.locator("main").inner_text()
    assert all(name in users for name in store.users.values())
    page.goto(f"/admin/access?subject={hand}")
    assert store.users["inspector"] in page.locator("main table").inner_text()
    page.context.close()
