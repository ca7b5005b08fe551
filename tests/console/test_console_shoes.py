"""A night's shoes in the console: each has a page (its rounds, its verdict history) and an
evidence bundle that ``verify-evidence`` judges again without the store."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from audit.evidence.check import verify_bundle
from audit.store import AuditStore
from audit.store.signing import load_public_key
from console.readmodel.model import ReadModel
from tests.console_store import ConsoleStore, console_store, make_client

__all__ = ["console_store", "make_client"]  # fixtures used here


def _shoes(store_url: str) -> list[str]:
    store = AuditStore(store_url)
    try:
        with ReadModel(store).reading() as db:
            rows = db.execute("SELECT subject FROM units WHERE kind = 'shoe' ORDER BY subject")
            return [row[0] for row in rows.fetchall()]
    finally:
        store.close()


def test_each_shoe_of_the_night_has_a_page_and_a_bundle(
    console_store: ConsoleStore, make_client: Any
) -> None:
    shoes = _shoes(console_store.url)
    assert shoes  # the floor's tables end every shoe within the day: the night judged each
    client = make_client("inspector")
    subject = shoes[0]
    page = client.get("/subjects/" + quote(subject, safe=""))
    assert page.status_code == 200, page.text[:300]
    assert "ROUNDS IN PLAY ORDER" in page.text and "Verdict history" in page.text
    response = client.get("/subjects/" + quote(subject, safe="") + "/evidence")
    assert response.status_code == 200, response.text[:300]
    bundle = json.loads(response.content)
    assert bundle["subject"] == {"kind": "shoe", "id": subject}
    report = verify_bundle(bundle, load_public_key(console_store.public_key))
    assert report.ok, report.problems
    assert "recomputed" in report.proven[1]
