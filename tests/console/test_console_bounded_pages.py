"""Issue 40: a subject page's work is bounded by what it shows, not by the store.

* A shoe's page finds its rounds through the read model's index of the table's rounds,
  from the shoe's first round, and reads no round of another table (the old page read
  every banked round in the store); a table's banker runs read the coups their verdict
  judged, a table session its hands in one read. What each explains is what the store
  scan explains (the oracle: ``explanation`` without an index).
* A subject's finding cards come a page at a time (``FINDINGS_SHOWN``), with previous and
  next links that together list every finding once; a sign-off returns to the page that
  shows the finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import quote

import pytest

from audit.explain import explanation
from audit.judging import BANKER_RUN, SHOE, TABLE_SESSION
from audit.show.text import explanation_lines
from audit.store import AuditStore
from console.readmodel.model import ReadModel
from console.readmodel.queries import ModelVerdicts
from console.routes import subjects
from tests.console_store import ConsoleStore, console_store, csrf_of, make_client

__all__ = ["console_store", "make_client"]  # fixtures used here
CARD = re.compile(r'<article class="finding" id="finding-([0-9a-f]+)"')
NEXT = re.compile(r'rel="next" href="([^"]+)"')


class CountingReads:
    """The store, counting the banked rounds read (``StoreReads``)."""

    def __init__(self, store: AuditStore):
        self.store = store
        self.rounds: list[str] = []

    def records_of(self, kind: str, subject_id: str) -> list[dict[str, Any]]:
        self._count(kind, [subject_id])
        return self.store.records_of(kind, subject_id)

    def records_of_many(self, kind: str, subject_ids: Any) -> dict[str, list[dict[str, Any]]]:
        self._count(kind, subject_ids)
        return self.store.records_of_many(kind, subject_ids)

    def iter_records(self, kind: str, subject_ids: Iterable[str], batch: int = 2000) -> Any:
        ids = list(subject_ids)
        self._count(kind, ids)
        return self.store.iter_records(kind, ids, batch)

    def iter_subject_ids(self, kind: str, batch: int = 2000) -> Iterator[str]:
        return self.store.iter_subject_ids(kind, batch)

    def iter_subjects(self, kind: str) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        for subject, records in self.store.iter_subjects(kind):
            self._count(kind, [subject])
            yield subject, records

    def _count(self, kind: str, ids: Iterable[str]) -> None:
        if kind == "banked":
            self.rounds += list(ids)


def _subjects(model: ReadModel, kind: str) -> list[str]:
    with model.reading() as db:
        found = db.execute("SELECT subject FROM units WHERE kind = ? ORDER BY subject", (kind,))
        return [row[0] for row in found]


@pytest.fixture()
def opened(console_store: ConsoleStore) -> Iterator[tuple[AuditStore, ModelVerdicts]]:
    store = AuditStore(console_store.url)
    try:
        yield store, ModelVerdicts(ReadModel(store))
    finally:
        store.close()


def test_across_pages_explain_what_the_store_scan_explains(
    opened: tuple[AuditStore, ModelVerdicts],
) -> None:
    store, index = opened
    checked = 0
    for kind in (SHOE, BANKER_RUN, TABLE_SESSION):
        for subject in _subjects(index.model, kind):
            fast = explanation(store, subject, index, index)
            assert fast is not None, subject
            assert explanation_lines(fast) == explanation_lines(explanation(store, subject))
            checked += 1
    assert checked >= 3


def test_a_shoe_page_reads_its_table_not_the_store(
    opened: tuple[AuditStore, ModelVerdicts],
) -> None:
    store, index = opened
    shoes = _subjects(index.model, SHOE)
    assert shoes
    every_round = set(store.iter_subject_ids("banked"))
    for shoe in shoes:
        reads = CountingReads(store)
        assert explanation(reads, shoe, index, index) is not None
        table = shoe.split(":")[1]
        at_table = set(index.subjects_at("banked", table))
        read = set(reads.rounds) - {shoe}  # (show asks every kind for the id itself)
        assert read and read <= at_table, shoe
        assert len(read) < len(every_round)
        scanned = CountingReads(store)
        explanation(scanned, shoe)  # without the index: every stored round
        assert set(scanned.rounds) - {shoe} == every_round


def _most_findings(console_store: ConsoleStore) -> tuple[str, int]:
    store = AuditStore(console_store.url)
    try:
        with ReadModel(store).reading() as db:
            row = db.execute(
                "SELECT subject, COUNT(*) AS n FROM findings GROUP BY subject "
                "ORDER BY n DESC, subject LIMIT 1"
            ).fetchone()
            return str(row[0]), int(row[1])
    finally:
        store.close()


def test_finding_cards_come_a_page_at_a_time(
    console_store: ConsoleStore, make_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    subject, total = _most_findings(console_store)
    assert total >= 2
    monkeypatch.setattr(subjects, "FINDINGS_SHOWN", 1)
    client = make_client("investigator")
    url: str | None = "/subjects/" + quote(subject, safe="")
    seen: list[str] = []
    while url is not None:
        page = client.get(url)
        assert page.status_code == 200
        assert f"Findings ({total})" in page.text
        cards = CARD.findall(page.text)
        assert len(cards) == 1
        seen += cards
        following = NEXT.search(page.text)
        url = following.group(1).replace("&amp;", "&") if following else None
    assert len(seen) == total == len(set(seen))
    last = client.get("/subjects/" + quote(subject, safe="") + f"?findings_from={total - 1}")
    response = client.post(
        f"/findings/{seen[-1]}/sign-off",
        data={"csrf_token": csrf_of(last.text), "decision": "accepted", "note": "seen"},
    )
    assert response.status_code == 303
    target = response.headers["location"]
    assert target.endswith(f"?findings_from={total - 1}#finding-{seen[-1]}")
    assert f'id="finding-{seen[-1]}"' in client.get(target.split("#")[0]).text
