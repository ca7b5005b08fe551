"""Issue 40 items 4-7, read in a real browser (Debian's Chromium through Playwright) as an
inspector reads them, at 1366 x 768, on SQLite and PostgreSQL, over the console's test
store (``tests/console_store.py``: poker, banked rounds with chemin de fer, slot machines,
tournaments, hostile names, an incident):

* **each kind's page** (one subject with findings of every kind the store judged:
  generic over kinds, from the read model) shows on its first screen what is wrong (the
  first finding's card, its kind in words), the amount owed in money with its currency
  and the party by name, and the article that says so; each finding's sentence is
  printed once on the page. The oracles are the stored finding rows: who is owed what
  (``audit.wording.owed``, written by ``audit.notation.money.format_money``) and the citation's
  first article (``replayer.rulebooks.citations.resolve``);
* **the findings list** breaks no subject id and no time inside the token (each is one
  line box: ``getClientRects``), and the page does not scroll sideways.

Skipped, with the reason, when ``/usr/bin/chromium`` is missing outside CI.
"""

from __future__ import annotations

from typing import Any

import orjson

from audit.notation.money import format_money
from audit.store import AuditStore
from audit.wording import owed
from audit.wording.citing import NOT_WRITTEN, unwritten
from console.readmodel.model import ReadModel
from console.runtime import subject_url
from replayer.rulebooks.citations import resolve
from tests.browser_harness import chromium_path, launch, serving, sign_in, sync_api
from tests.console_store import ConsoleStore, console_store

__all__ = ["console_store"]  # fixture used here

WIDTH, HEIGHT = 1366, 768


def _pages(url: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """Kind -> (a subject of that kind with findings, its first finding's row)."""
    store = AuditStore(url)
    try:
        model = ReadModel(store)
        with model.reading() as db:
            found = db.execute(
                "SELECT subject_kind, subject, row FROM findings WHERE subject_kind != ''"
                " ORDER BY subject_kind, seq"
            ).fetchall()
    finally:
        store.close()
    pages: dict[str, tuple[str, dict[str, Any]]] = {}
    for kind, subject, row in found:
        pages.setdefault(str(kind), (str(subject), orjson.loads(row)))
    return pages


def test_each_kinds_page_says_what_is_wrong_first(console_store: ConsoleStore) -> None:
    chromium_path()
    playwright_api = sync_api()
    from audit.store.signing import load_public_key
    from console.app import create_app

    pages = _pages(console_store.url)
    assert {"poker", "banked"} <= set(pages), sorted(pages)
    app = create_app(
        console_store.url,
        public_key=load_public_key(console_store.public_key),
        reports_dir=console_store.reports,
    )
    with serving(app) as base, playwright_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = sign_in(browser, base, console_store.users["inspector"])
            page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
            for kind, (subject, row) in pages.items():
                _first_screen(page, kind, subject, row)
            _list_keeps_tokens_whole(page)
        finally:
            browser.close()


def _first_screen(page: Any, kind: str, subject: str, row: dict[str, Any]) -> None:
    page.goto(subject_url(subject))
    first = page.locator("article.finding").first
    seen = f"{kind} page {subject}"
    for part in ("h3", "ul.owed", "p.sentence", "p.rule"):  # owed and rule when it has them
        if part in ("h3", "p.sentence") or first.locator(part).count():
            box = first.locator(part).bounding_box()
            assert box is not None and box["y"] + box["height"] <= HEIGHT, (seen, part, box)
    card = page.locator(f"article.finding[id='finding-{row['finding_id']}']")
    text = card.inner_text()
    for item in owed(row):  # the money and the party, as the finding row says
        assert format_money(item.amount, item.currency) in text, (seen, text)
        assert item.party in text, (seen, text)
    if row.get("citation"):
        rule = card.locator("p.rule").inner_text()
        citation = str(row["citation"])
        if unwritten(citation):
            assert rule.startswith(NOT_WRITTEN), (seen, rule)
        else:
            assert resolve(citation)[0].key in rule, (seen, rule, citation)
    body = page.locator("main").inner_text()
    for sentence in page.locator("article.finding p.sentence").all_inner_texts():
        assert body.count(sentence[:80]) == 1, (seen, sentence)
    assert "none named" not in body or not row.get("citation"), seen
    for shown in ("RefundPaid", "BetPlaced", "started_not_in_the_money"):
        assert shown not in card.inner_text(), (seen, shown)


def _list_keeps_tokens_whole(page: Any) -> None:
    page.goto("/findings?limit=100")
    lines = page.locator("table.findings td.subject a, table.findings td.when").evaluate_all(
        "cs => cs.map(c => [c.innerText, (() => { const r = document.createRange();"
        " r.selectNodeContents(c); return r.getClientRects().length; })()])"
    )
    assert lines
    broken = [text for text, boxes in lines if text and boxes != 1]
    assert not broken, broken
    wide = page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )
    assert not wide, "the findings list scrolls sideways at 1366 px"
