"""The console's pages built for reading, in a real browser (Debian's Chromium through
Playwright), on SQLite and PostgreSQL, over the store of ``tests/browser_harness.py``
plus one incident at a poker table:

* **search** pages through every hand a player sat in, with the count said first
  ("38 poker hands"), most findings first; the oracle is the night's Avro input files
  read with fastavro (the hands whose ``HandStarted`` seats name the player);
* **kinds** read in plain words (``audit.wording.KIND_LABELS``), the identifier beside;
* **raw events collapsed**: a slot machine's page is short with its stored events
  folded (``<details>`` closed), and grows when they are opened;
* **lines wrap**: no page scrolls sideways (``scrollWidth <= clientWidth`` for the page
  and every ``pre``), stored events opened, with a 400-character unbroken word in the
  incident's description, in a 900 px wide window;
* **links**: a hand's page leads to its table's declared terms, each of its players'
  findings, its night and the incident at its table;
* **a hand is a view of the hand**, rendered from ``show``'s typed explanation
  (``audit.show.model``): a hand with a mispaid pot has its seats with the players'
  names and stacks, one row per action, the settlement the rules give beside the one
  recorded, and its first divergence marked; the oracle is the stored events and the
  replayer's verdict on them (``audit.judging.judge_stored``);
* **the incident page** is judged as of the end of the incident's window by default,
  investigated once per (incident, as of) however often it is viewed, and again once
  the incident is amended (counted by wrapping ``Runtime.investigations.judge``);
* **sign-in**: one person's five typos lock their own name (docs/console.md's 5), and a
  colleague signs in from the same address at once.

Skipped, with the reason, when ``/usr/bin/chromium`` is missing outside CI; in CI that is
a failure.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import fastavro

from audit.incidents.record import amend_incident, record_incident
from audit.judging import current_findings, judge_stored
from audit.notation.money import format_money
from audit.store import AuditStore
from audit.wording import KIND_LABELS
from tests.browser_harness import (
    DAY,
    PASSWORD,
    TIMEOUT_MS,
    BrowserStore,
    build_store,
    chromium_path,
    launch,
    serving,
    sign_in,
    sync_api,
)

INCIDENT = "inc-reading"
LONG_WORD = "Z" * 400
WINDOW = (datetime(2025, 3, 1, 20, tzinfo=UTC), datetime(2025, 3, 1, 21, tzinfo=UTC))
PAGE_SIZE = 10
VIEWPORT = {"width": 900, "height": 800}
NO_SIDEWAYS = """() => {
  const wide = [document.documentElement, ...document.querySelectorAll('pre')]
    .filter(e => e.scrollWidth > e.clientWidth + 1);
  return wide.map(e => e.tagName + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth);
}"""
HEIGHT = "() => document.documentElement.scrollHeight"
SHORT_PAGE = 8
"""A subject's page with its events folded is at most this many windows tall."""


def _hands_by_player(inputs: Path) -> dict[str, set[str]]:
    """Player -> the hands whose ``HandStarted`` seats name them, from the Avro files."""
    found: dict[str, set[str]] = {}
    for path in sorted(inputs.rglob("poker-*.avro")):
        with path.open("rb") as handle:
            for record in fastavro.reader(handle):
                body = record.get("body")
                if isinstance(body, dict) and body.get("seats"):
                    for seat in body["seats"]:
                        found.setdefault(seat["player_id"], set()).add(record["hand_id"])
    return found


def _table_of_a_mispaid_hand(url: str) -> tuple[str, str]:
    """(hand, table) of a ``mispaid_pot`` finding, to put an incident at that table."""
    store = AuditStore(url)
    try:
        row = next(r for r in current_findings(store) if r["kind"] == "mispaid_pot")
        return str(row["subject"]), str(row["table"])
    finally:
        store.close()


def _record_incident(url: str, table: str) -> None:
    store = AuditStore(url)
    try:
        record_incident(
            store,
            INCIDENT,
            kind="server_failure",
            window_start=WINDOW[0],
            window_end=WINDOW[1],
            recorded_at=WINDOW[1] + timedelta(hours=1),
            description=f"table server restarted; log {LONG_WORD}",
            reported_by="floor",
            tables=[table],
        )
    finally:
        store.close()


def _amend_incident(url: str, table: str, end: datetime) -> None:
    store = AuditStore(url)
    try:
        amend_incident(
            store,
            INCIDENT,
            window_start=WINDOW[0],
            window_end=end,
            reason="the restart took longer",
            recorded_at=end + timedelta(hours=1),
            tables=[table],
        )
    finally:
        store.close()


def _readable(page: Any, what: str) -> None:
    """No sideways scrolling on the page, stored events opened too."""
    page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
    assert page.evaluate(NO_SIDEWAYS) == [], what


def test_console_pages_are_built_for_reading(store_url: str, tmp_path: Path) -> None:
    chromium_path()
    playwright_api = sync_api()
    from audit.store.signing import load_public_key
    from console.app import create_app

    store = build_store(store_url, tmp_path)
    hand, table = _table_of_a_mispaid_hand(store.url)
    _record_incident(store.url, table)
    app = create_app(
        store.url, public_key=load_public_key(store.public_key), reports_dir=tmp_path / "out"
    )
    investigations = app.state.runtime.investigations
    judged: list[tuple[str, str]] = []
    real_judge = investigations.judge

    def counting(store: Any, incident_id: str, *, as_of: datetime) -> Any:
        judged.append((incident_id, as_of.isoformat()))
        return real_judge(store, incident_id, as_of=as_of)

    investigations.judge = counting
    with serving(app) as base, playwright_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = sign_in(browser, base, store.users["inspector"])
            page.set_viewport_size(VIEWPORT)
            _kinds_in_words(page)
            _search_pages_through_every_hand(page, store)
            _slot_page_folds_its_events(page)
            _hand_links(page, hand, table)
            _hand_view(page, store, hand)
            _incident_page(page, store, table, judged)
            page.context.close()
            _typos_lock_only_their_name(browser, base, store)
        finally:
            browser.close()


def _kinds_in_words(page: Any) -> None:
    page.goto("/findings?limit=100")
    cells = page.locator("table.findings td[data-kind]")
    assert cells.count() > 0
    for kind, label, shown_id in cells.evaluate_all(
        "cs => cs.map(c => [c.dataset.kind, c.querySelector('.kind-label').innerText,"
        " c.querySelector('.kind-id').innerText])"
    ):
        assert label == KIND_LABELS[kind] and shown_id == kind
        assert "_" not in label and label[0].isupper()
    options = page.locator("form.filters select[name=kind] option").all_inner_texts()
    assert any(text.startswith("Pot paid wrongly") for text in options), options
    _readable(page, "findings")


def _search_pages_through_every_hand(page: Any, store: BrowserStore) -> None:
    hands = _hands_by_player(store.base / "in" / DAY.isoformat())
    player, theirs = max(hands.items(), key=lambda item: (len(item[1]), item[0]))
    assert len(theirs) > 2 * PAGE_SIZE  # so that there are pages to go through
    page.goto(f"/search?q={quote(player)}&limit={PAGE_SIZE}")
    count = page.locator("p.count")
    assert count.get_attribute("data-total") == str(len(theirs))
    assert f"{len(theirs)} poker hands" in count.inner_text()
    seen: list[str] = []
    findings: list[int] = []
    pages = 0
    while True:
        rows = page.locator("table.search tr[data-subject]")
        assert 0 < rows.count() <= PAGE_SIZE
        seen += rows.evaluate_all("rs => rs.map(r => r.dataset.subject)")
        findings += [int(n) for n in rows.evaluate_all("rs => rs.map(r => r.cells[4].innerText)")]
        pages += 1
        _readable(page, "search")
        following = page.locator("a[rel=next]")
        if following.count() == 0:
            break
        following.click()
        page.wait_for_url(re.compile(r"cursor="))
    assert Counter(seen) == Counter(theirs)  # every hand once
    assert pages == -(-len(theirs) // PAGE_SIZE)
    assert findings == sorted(findings, reverse=True) and findings[0] > 0  # most first


def _slot_page_folds_its_events(page: Any) -> None:
    page.goto("/findings?kind=meter_discrepancy")
    page.locator("table.findings tr[data-finding] td:nth-child(2) a").first.click()
    page.wait_for_url(re.compile(r"/subjects/"))
    folded = page.locator("details.events")
    assert folded.count() > 0
    assert folded.evaluate_all("ds => ds.every(d => !d.open)")
    short = page.evaluate(HEIGHT)
    assert short <= SHORT_PAGE * VIEWPORT["height"], short
    _readable(page, "slot machine")  # opens the events
    assert page.evaluate(HEIGHT) > short + VIEWPORT["height"]  # they were long, and folded


def _hand_links(page: Any, hand: str, table: str) -> None:
    subject = f"/subjects/{quote(hand, safe='')}"
    page.goto(subject)
    _readable(page, "hand")
    links = page.locator("ul.links")
    assert links.locator("a.terms").get_attribute("href") == f"/subjects/{quote(table, safe='')}"
    assert links.locator("a.night").get_attribute("href") == f"/nights/{DAY.isoformat()}"
    players = links.locator("a.player")
    assert players.count() > 1
    names = players.all_inner_texts()
    assert links.locator("a.incident").all_inner_texts() == [INCIDENT]

    links.locator("a.terms").click()
    page.wait_for_url(re.compile(re.escape(f"/subjects/{quote(table, safe='')}") + "$"))
    assert page.locator("main h1").inner_text() == table

    page.goto(subject)
    page.locator("ul.links a.player").first.click()
    page.wait_for_url(re.compile(r"/findings\?"))
    assert parse_qs(urlsplit(page.url).query)["player"] == [names[0]]

    page.goto(subject)
    page.locator("ul.links a.night").click()
    page.wait_for_url(re.compile(r"/nights/"))
    assert DAY.isoformat() in page.locator("main h1").inner_text()
    _readable(page, "night")


def _hand_view(page: Any, store: BrowserStore, hand: str) -> None:
    """The hand's page against its stored events and the replayer's verdict on them."""
    reads = AuditStore(store.url)
    try:
        judged = judge_stored(reads, "poker", hand, with_steps=True)
    finally:
        reads.close()
    assert judged is not None
    inputs, verdict = judged
    started = next(e for e in inputs.events if e["type"] == "HandStarted")
    currency = started["currency"]
    page.goto(f"/subjects/{quote(hand, safe='')}")
    view = page.locator("div.hand")
    assert view.count() == 1

    seats = view.locator("table.seats tr[data-seat]")
    assert seats.evaluate_all("rs => rs.map(r => r.dataset.seat)") == [
        str(s["seat"]) for s in started["seats"]
    ]
    assert seats.locator("td.player").all_inner_texts() == [
        s["player_id"] for s in started["seats"]
    ]
    assert seats.locator("td.n").all_inner_texts() == [
        format_money(s["stack"], currency) for s in started["seats"]
    ]
    assert view.locator("table.seats span.card").count() >= 2 * len(started["seats"])

    actions = view.locator("table.actions tr.action")
    assert actions.evaluate_all("rs => rs.map(r => Number(r.dataset.sequence))") == [
        step.sequence for step in verdict.steps
    ]
    by_sequence = {e["sequence"]: e for e in inputs.events}
    folds = [s.sequence for s in verdict.steps if by_sequence[s.sequence].get("action") == "fold"]
    for sequence in folds:
        row = view.locator(f"table.actions tr.action[data-sequence='{sequence}']")
        assert row.locator("td").nth(4).inner_text() == "fold"

    first = min(step.sequence for step in verdict.steps if step.findings)
    marked = view.locator("table.actions tr.action.divergence")
    assert marked.count() == 1 and marked.get_attribute("data-sequence") == str(first)
    mark = view.locator("td.divergence")
    assert mark.count() == 1
    assert mark.inner_text().startswith(f">>> first divergence at #{first}: mispaid_pot")

    mispaid = [
        seat
        for seat, paid in verdict.recorded_payouts.items()
        if paid != verdict.expected_payouts.get(seat, 0)
    ]
    assert mispaid
    for seat in mispaid:
        row = view.locator(f"table.settlement tr[data-seat='{seat}']")
        assert "differs" in (row.get_attribute("class") or "")
        due = verdict.expected_payouts.get(seat, 0)
        paid = verdict.recorded_payouts[seat]
        assert row.locator("td.expected").inner_text() == format_money(due, currency)
        assert row.locator("td.recorded").inner_text() == format_money(paid, currency)
        assert row.locator("td.difference").inner_text() != ""
    assert view.locator("table.pots tr").count() == 1 + len(verdict.pots)
    _readable(page, "hand view")


def _incident_page(page: Any, store: BrowserStore, table: str, judged: list) -> None:
    page.goto(f"/incidents/{INCIDENT}")
    as_of = page.locator("form.filters input[name=as_of]").input_value()
    assert datetime.fromisoformat(as_of) == WINDOW[1]  # the window's end, not now
    assert "end of the incident's window" in page.locator("p.as-of").inner_text()
    _readable(page, "incident")
    page.reload()
    page.goto(f"/incidents/{INCIDENT}")
    assert judged == [(INCIDENT, WINDOW[1].isoformat())]  # three views, one investigation

    later = WINDOW[1] + timedelta(days=1)
    page.goto(f"/incidents/{INCIDENT}?as_of={quote(later.isoformat())}")
    page.goto(f"/incidents/{INCIDENT}?as_of={quote(later.isoformat())}")
    assert judged[1:] == [(INCIDENT, later.isoformat())]

    end = WINDOW[1] + timedelta(hours=2)
    _amend_incident(store.url, table, end)  # the store changed: judged again
    page.goto(f"/incidents/{INCIDENT}")
    assert (
        datetime.fromisoformat(page.locator("form.filters input[name=as_of]").input_value()) == end
    )
    page.goto(f"/incidents/{INCIDENT}")
    assert judged[2:] == [(INCIDENT, end.isoformat())]


def _typos_lock_only_their_name(browser: Any, base: str, store: BrowserStore) -> None:
    """Five typos of the inspector's password lock the inspector's name; the admin, in
    the same browser and from the same address, signs in."""
    context = browser.new_context(base_url=base, viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    name = store.users["inspector"]
    for n in range(5):
        page.goto("/login")
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", f"typo number {n}")
        page.click("form.login button[type=submit]")
        assert "Wrong user name or password" in page.locator("main").inner_text()
    page.goto("/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.login button[type=submit]")
    text = page.locator("main").inner_text()
    assert "for this user name" in text and "from this address" not in text
    assert urlsplit(page.url).path == "/login"
    context.close()
    admin = sign_in(browser, base, store.users["admin"], "/")
    assert admin.locator("header .who").inner_text().startswith(store.users["admin"])
    admin.context.close()
