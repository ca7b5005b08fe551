"""Issue 40 item 3: a tournament's page and a chemin de fer table's banker-run page find
their hands and coups through the read model's index (``audit.grouping.subject_index``), not by
reading every stored hand or round, and say what the scan says.

The test counts the store's scans of the poker and banked families while each kind's
page is served (no timing: the cost that made these pages take seconds was one full
scan of the hands, twice, or of the rounds, per request)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from audit.explain import explanation
from audit.show.text import explanation_lines
from audit.store import AuditStore
from console.readmodel import queries
from console.readmodel.model import ReadModel
from tests.console_store import ConsoleStore, console_store, make_client

__all__ = ["console_store", "make_client"]  # fixtures used here


def _subjects(model: ReadModel, kind: str) -> list[str]:
    with model.reading() as db:
        found = db.execute("SELECT subject FROM units WHERE kind = ? ORDER BY subject", (kind,))
        return [str(r[0]) for r in found]


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds every ``AuditStore.iter_subjects`` call scans, as they happen."""
    seen: list[str] = []
    original = AuditStore.iter_subjects

    def counted(self: AuditStore, kind: str) -> Iterator[tuple[str, Any]]:
        seen.append(kind)
        return original(self, kind)

    monkeypatch.setattr(AuditStore, "iter_subjects", counted)
    return seen


@pytest.mark.parametrize("kind", ["tournament", "banker_run"])
def test_the_page_reads_no_family_whole(
    console_store: ConsoleStore, make_client: Any, scans: list[str], kind: str
) -> None:
    client = make_client("inspector")
    subjects = _subjects(client.app.state.runtime.model, kind)
    assert subjects, f"the console's store holds no {kind} verdict"
    scans.clear()
    for subject in subjects:
        page = client.get(f"/subjects/{subject}")
        assert page.status_code == 200, (subject, page.text[:300])
    assert not {"poker", "banked"} & set(scans), scans


@pytest.mark.parametrize("kind", ["tournament", "banker_run"])
def test_through_the_index_the_page_says_what_the_scan_says(
    console_store: ConsoleStore, kind: str
) -> None:
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        index = queries.ModelVerdicts(model)
        for subject in _subjects(model, kind):
            indexed = explanation(store, subject, index, index)
            scanned = explanation(store, subject)
            assert indexed is not None and scanned is not None
            assert explanation_lines(indexed) == explanation_lines(scanned), subject
    finally:
        store.close()
