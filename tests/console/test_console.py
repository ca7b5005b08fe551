"""The inspector console's pages over a small store (synthetic day + hostile names), on
SQLite and PostgreSQL: the read model mirrors the store's current findings; keyset pages
return every finding once; filters and the CSV export; every kind of subject explained;
access events for each look; sign-offs and notes as events; hostile names inert; no
outside address anywhere.
"""

from __future__ import annotations

import csv
import inspect
import io
import re
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

import console
from audit.judging import current_findings
from audit.store import AuditStore
from console.readmodel import queries
from console.readmodel.model import ReadModel
from console.readmodel.queries import FindingsQuery, findings_page
from tests.console_store import (
    DAY,
    FORMULA_PLAYER,
    HOSTILE_HAND,
    HOSTILE_PLAYER,
    HOSTILE_TABLE,
    INCIDENT,
    ConsoleStore,
    console_store,
    csrf_of,
    make_client,
)

__all__ = ["console_store", "make_client"]  # fixtures used here
SEQ = re.compile(r'data-seq="(\d+)"')
NEXT = re.compile(r'rel="next" href="([^"]+)"')


def _all_findings(store_url: str) -> Counter[tuple[str, str, str]]:
    store = AuditStore(store_url)
    try:
        return Counter(
            (r["subject_kind"], str(r["subject"]), str(r["finding_id"]))
            for r in current_findings(store)
        )
    finally:
        store.close()


def _model_findings(model: ReadModel) -> Counter[tuple[str, str, str]]:
    rows = queries.iter_findings(model, FindingsQuery())
    return Counter((r["subject_kind"], str(r["subject"]), str(r["finding_id"])) for r in rows)


def test_the_read_model_holds_the_current_findings(console_store: ConsoleStore) -> None:
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        assert _model_findings(model) == _all_findings(console_store.url)
        assert {"mispaid_pot", "mispaid_bet"} <= set(queries.counts_by_kind(model))
        assert queries.nights(model) == [DAY.isoformat()]
        assert INCIDENT in queries.incidents(model)
        assert not model.refresh()  # nothing new: one query for the head, no reading
    finally:
        store.close()


def _pages(client: Any, url: str) -> list[list[int]]:
    pages = []
    while url:
        page = client.get(url.replace("&amp;", "&"))
        assert page.status_code == 200, page.text[:500]
        pages.append([int(s) for s in SEQ.findall(page.text)])
        found = NEXT.search(page.text)
        url = found.group(1) if found else ""
    return pages


@pytest.mark.parametrize("sort", list(queries.SORTS))
def test_keyset_pages_return_every_finding_exactly_once(
    console_store: ConsoleStore, make_client: Any, sort: str
) -> None:
    client = make_client("inspector")
    pages = _pages(client, f"/findings?sort={sort}&limit=3")
    seen = [seq for page in pages for seq in page]
    assert len(seen) == len(set(seen)) == sum(_all_findings(console_store.url).values())
    assert all(len(page) == 3 for page in pages[:-1]) and len(pages) > 3
    assert "OFFSET" not in inspect.getsource(queries.findings_page).upper()


def test_pages_stay_whole_while_new_verdicts_arrive(console_store: ConsoleStore) -> None:
    from audit.judging import verdict_record
    from replayer.findings import Finding, FindingKind

    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        query = FindingsQuery({}, "kind")
        first, cursor = findings_page(model, query, None, 4)
        finding = Finding(FindingKind.WRONG_PLACE, "zz-late", "casino-audit test", "late")
        unit = verdict_record("poker", "zz-late", digest="late", events_judged=0,
                              findings=[finding.to_record()])  # fmt: skip
        store.append([unit])
        assert model.refresh()
        rest = list(first)
        while cursor:
            page, cursor = findings_page(model, query, cursor, 4)
            rest += page
        seqs = [r["_seq"] for r in rest]
        assert len(seqs) == len(set(seqs))
        assert {r["subject"] for r in rest} >= {"zz-late"}
    finally:
        store.close()


def _named(row: dict[str, Any]) -> set[str]:
    """The players a finding names: its verdict's seats, its detail's player(s)."""
    detail = row.get("detail") or {}
    return {*row["players"].values(), detail.get("player_id"), *(detail.get("players") or ())}


def test_filters_narrow_the_findings(console_store: ConsoleStore) -> None:
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        every = list(queries.iter_findings(model, FindingsQuery()))
        checks = {
            "kind": ("mispaid_pot", lambda r: r["kind"] == "mispaid_pot"),
            "currency": ("EUR", lambda r: r["currency"] == "EUR"),
            "table": (HOSTILE_TABLE, lambda r: r["table"] == HOSTILE_TABLE),
            "player": (HOSTILE_PLAYER, lambda r: HOSTILE_PLAYER in _named(r)),
            "rulebook": ("gg-2022-cash-holdem", lambda r: r["rulebook"] == "gg-2022-cash-holdem"),
            "since": (DAY.isoformat(), lambda r: True),
            "until": ("2025-02-28", lambda r: False),
        }
        for name, (value, keep) in checks.items():
            query = FindingsQuery.from_params({name: value})
            got = list(queries.iter_findings(model, query))
            want = [r for r in every if keep(r) and name not in ("since",)]
            if name == "since":
                assert got and all(r["_seq"] in {e["_seq"] for e in every} for r in got)
            else:
                assert sorted(r["_seq"] for r in got) == sorted(r["_seq"] for r in want), name
        operator = next(r["operator"] for r in every if r.get("operator"))
        got = list(queries.iter_findings(model, FindingsQuery.from_params({"operator": operator})))
        assert got and all(r["operator"] == operator for r in got)
        with pytest.raises(queries.BadQuery):
            FindingsQuery.from_params({"since": "yesterday"})
        with pytest.raises(queries.BadQuery):
            findings_page(model, FindingsQuery(), "not-a-cursor")
    finally:
        store.close()


def test_the_csv_export_is_the_filter_and_formula_safe(make_client: Any) -> None:
    client = make_client("inspector")
    response = client.get("/findings.csv?" + "player=" + quote(FORMULA_PLAYER))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert rows and {r["kind"] for r in rows} >= {"mispaid_pot"}
    hostile = next(r for r in rows if r["subject"].startswith("'="))
    # ESC is written as the visible \e (issue #26): a cell cannot drive a terminal
    assert hostile["subject"] == "'" + HOSTILE_HAND.replace("\x1b", "\\e")
    assert hostile["table"] == "'" + HOSTILE_TABLE.replace("\x1b", "\\e")
    for row in rows:
        for cell in row.values():
            assert "\x1b" not in (cell or "") and "\x07" not in (cell or ""), cell
            assert not re.match(r"\s*[=+@\t\r]", cell or ""), cell
            assert not re.match(r"-(?!\d+(\.\d+)?$)", cell or ""), cell


def _assert_inert(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text
    assert "<script" not in text.lower()
    assert "alert(" not in text or "&lt;script&gt;alert(" in text


def test_hostile_names_render_inert(console_store: ConsoleStore, make_client: Any) -> None:
    client = make_client("admin")
    pages = [
        client.get("/subjects/" + quote(HOSTILE_HAND, safe="")),
        client.get("/findings?player=" + quote(HOSTILE_PLAYER)),
        client.get("/search?q=" + quote(HOSTILE_TABLE)),
        client.get("/search?q=" + quote(HOSTILE_PLAYER)),
        client.get(f"/incidents/{INCIDENT}"),
        client.get(f"/nights/{DAY.isoformat()}"),
        client.get("/admin/access"),
        client.get("/subjects/" + quote("<script>alert(1)</script>", safe="")),
    ]
    for page in pages[:-1]:
        assert page.status_code == 200, page.text[:300]
        _assert_inert(page.text)
    assert pages[-1].status_code == 404
    _assert_inert(pages[-1].text)
    subject = pages[0].text
    assert "&lt;script&gt;alert(&#34;p&#34;)&lt;/script&gt;&#39;\\e[31mred" in subject
    assert "=1+2&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;\\e[2J" in subject


def test_a_subject_page_explains_it_step_by_step(make_client: Any) -> None:
    client = make_client("investigator")
    page = client.get("/subjects/" + quote(HOSTILE_HAND, safe=""))
    text = page.text
    assert '<td colspan="9" class="divergence">&gt;&gt;&gt; first divergence' in text
    assert '<span class="card suit-s">A♠</span>' in text
    assert '<span class="card suit-d">K♦</span>' in text
    assert "EUR 1.20" in text and "EUR 0.30" in text  # paid 1.20 of 1.50: 0.30 owed
    assert "<b>Rule:</b> GG-2022" in text and " — " in text  # the citation's summary line
    assert "HandStarted" in text and "PotAwarded" in text  # the stored events
    assert "Verdict history (newest first)" in text and ">current<" in text
    assert 'action="/findings/' in text and "sign-off" in text  # investigators sign off


def test_every_kind_of_subject_has_a_page(console_store: ConsoleStore, make_client: Any) -> None:
    client = make_client("inspector")
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        with model.reading() as db:
            kinds = {
                r[0]: r[1] for r in db.execute("SELECT kind, MIN(subject) FROM units GROUP BY kind")
            }
    finally:
        store.close()
    assert {"poker", "banked", "slots", "tournament", "table", "incident"} <= set(kinds)
    for kind, subject in kinds.items():
        if kind in ("data_quality", "banker_runs", "collusion", "meters"):
            continue
        page = client.get("/subjects/" + quote(subject, safe=""))
        assert page.status_code == 200, (kind, subject, page.text[:300])
        assert "Verdict history" in page.text


def _access(store_url: str) -> list[dict[str, Any]]:
    store = AuditStore(store_url)
    try:
        return [records[0] for _, records in store.iter_subjects("access")]
    finally:
        store.close()


def test_each_look_at_a_subject_is_an_access_event(
    console_store: ConsoleStore, make_client: Any
) -> None:
    client = make_client("inspector")
    name = console_store.users["inspector"]
    before = len(_access(console_store.url))
    client.get("/findings")
    client.get("/nights")
    assert len(_access(console_store.url)) == before  # lists show no subject's events
    client.get("/subjects/" + quote(HOSTILE_HAND, safe=""))
    client.get("/subjects/" + quote(HOSTILE_HAND, safe="") + "/evidence")
    client.get(f"/incidents/{INCIDENT}")
    looks = _access(console_store.url)[before:]
    assert [(r["user"], r["subject"], r["view"]) for r in looks] == [
        (name, HOSTILE_HAND, "subject"),
        (name, HOSTILE_HAND, "evidence"),
        (name, INCIDENT, "incident"),
    ]
    assert all(r["type"] == "SubjectViewed" and r["occurred_at"] for r in looks)
    admin = make_client("admin")
    trail = admin.get("/admin/access?subject=" + quote(HOSTILE_HAND)).text
    assert trail.count(f"<td>{name}</td>") >= 2


def test_sign_offs_and_incident_notes_are_stored_events(
    console_store: ConsoleStore, make_client: Any
) -> None:
    client = make_client("investigator")
    page = client.get("/subjects/" + quote(HOSTILE_HAND, safe=""))
    finding_id = re.search(r'id="finding-([0-9a-f]+)"', page.text).group(1)
    token = csrf_of(page.text)
    note = "paid short <b>by</b> the dealer"
    response = client.post(
        f"/findings/{finding_id}/sign-off",
        data={"csrf_token": token, "decision": "escalated", "note": note},
    )
    assert response.status_code == 303
    assert response.headers["location"].endswith(f"#finding-{finding_id}")
    shown = client.get(response.headers["location"].split("#")[0]).text
    assert "escalated" in shown and "paid short &lt;b&gt;by&lt;/b&gt; the dealer" in shown
    bad = client.post(f"/findings/{finding_id}/sign-off",
                      data={"csrf_token": token, "decision": "ignored", "note": "x"})  # fmt: skip
    assert bad.status_code == 400
    response = client.post(
        f"/incidents/{INCIDENT}/notes", data={"csrf_token": token, "note": "refunds checked"}
    )
    assert response.status_code == 303
    assert "refunds checked" in client.get(f"/incidents/{INCIDENT}").text
    store = AuditStore(console_store.url)
    try:
        signed = [r[0] for _, r in store.iter_subjects("sign_off")]
        notes = [r[0] for _, r in store.iter_subjects("incident_note")]
    finally:
        store.close()
    assert any(
        (s["user"], s["finding_id"], s["subject"], s["decision"], s["note"])
        == (console_store.users["investigator"], finding_id, HOSTILE_HAND, "escalated", note)
        for s in signed
    )
    assert any(n["incident_id"] == INCIDENT and n["note"] == "refunds checked" for n in notes)


def test_the_night_page_shows_checks_and_serves_plots(make_client: Any) -> None:
    client = make_client("inspector")
    page = client.get(f"/nights/{DAY.isoformat()}").text
    assert "Data quality (Great Expectations, before replay)" in page
    assert "ExpectColumnValuesToBeUnique" in page and ">passed<" in page
    assert re.search(r"<summary>poker/p\d\d: \d+ expectation\(s\), \d+ failed</summary>", page)
    assert "data-docs" not in page
    plots = re.findall(r'<img src="(/nights/[^"]+\.png)"', page)
    assert plots
    image = client.get(plots[0])
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert image.content.startswith(b"\x89PNG")
    for name in ("..%2F..%2Fstore.db", "..%2Freport.html", "x.png"):
        assert client.get(f"/nights/{DAY.isoformat()}/plots/{name}").status_code == 404
    assert client.get("/nights/1999-01-01").status_code == 404


def _verified(client: Any) -> str:
    """The overview once the background verification has caught up with the store."""
    assert client.app.state.runtime.chain.settled(timeout=300) is not None
    return client.get("/").text


def test_the_overview_shows_the_chain_nights_and_quarantine(make_client: Any) -> None:
    client = make_client("inspector")
    page = _verified(client)
    assert "intact:" in page and "its signature verifies with the public key" in page
    assert f'href="/nights/{DAY.isoformat()}"' in page
    assert "records quarantined" in page and "mispaid_pot" in page
    assert "EUR" in page  # owed totals by currency


def test_with_the_signing_key_the_console_signs_its_own_events(
    console_store: ConsoleStore, make_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from audit.store.signing import SIGNING_KEY_ENV

    monkeypatch.setenv(SIGNING_KEY_ENV, str(console_store.private_key))
    client = make_client("inspector")
    client.get("/subjects/" + quote(HOSTILE_HAND, safe=""))  # a look, then a signed head
    assert client.get("/?verify=1").status_code == 200  # asks for a verification
    page = _verified(client)
    assert "covering every event" in page and "await the next signed checkpoint" not in page


def test_search_finds_subjects_players_tables_and_incidents(make_client: Any) -> None:
    client = make_client("inspector")
    by_player = client.get("/search?q=" + quote(FORMULA_PLAYER)).text
    assert quote(HOSTILE_HAND, safe="") in by_player and ">player<" in by_player
    by_table = client.get("/search?q=" + quote(HOSTILE_TABLE)).text
    assert "table or machine" in by_table
    assert f'href="/incidents/{INCIDENT}"' in client.get("/search?q=inc-").text
    exact = client.get("/search?q=" + quote(HOSTILE_HAND)).text
    assert "Stored subject" in exact


def test_no_outside_address_no_script_and_strict_headers(make_client: Any) -> None:
    package = Path(console.__file__).parent
    for path in [*package.glob("templates/*.html"), *package.glob("static/*")]:
        text = path.read_text()
        assert not re.search(r"https?:|//[a-z0-9]", text, re.I), path
        assert "<script" not in text and "style=" not in text, path
    client = make_client("inspector")
    css = client.get("/static/console.css")
    assert css.status_code == 200 and "text/css" in css.headers["content-type"]
    for response in (css, client.get("/"), client.get("/login"), client.get("/nope")):
        assert response.headers["content-security-policy"].startswith("default-src 'self'")
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
    assert client.get("/docs").status_code == 404  # no API docs (they load a CDN)
