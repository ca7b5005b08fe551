"""Every subject of a kind with its records, a page at a time, each row inflated once
(``audit.store.subject_batches``): the same subjects, records and order as listing the
subjects and reading each one's records, whatever rows the subjects are stored in."""

from __future__ import annotations

from typing import Any

import pytest

import audit.store.packing as packing
import audit.store.subject_batches as subject_batches
from audit.store import AuditStore, SubjectRecords
from tests.audit.store.test_store import hand
from tests.store_tamper import written_per_event


def _mixed_store(store: AuditStore) -> list[str]:
    """Hands in every kind of row: packed whole, extended by a later append, with a
    gap in their sequences, a row per event (an old store), and a table (another kind);
    returns the hands in the order first stored."""
    store.append([hand("t/1"), hand("t/2", 6)])
    with written_per_event():
        store.append([hand("old/1", 4)])
    store.append([SubjectRecords("poker", "t/1", hand("t/1", 5).records[4:])])
    gap = hand("gap/1", 7).records
    store.append([SubjectRecords("poker", "gap/1", gap[:3])])
    store.append([SubjectRecords("poker", "gap/1", gap[5:])])
    store.append([SubjectRecords("poker", "gap/1", gap[3:5])])
    with written_per_event():
        store.append([SubjectRecords("poker", "t/2", hand("t/2", 8).records[7:])])
    table = {"type": "TableTermsDeclared", "sequence": 0, "table_id": "T"}
    store.append([SubjectRecords("table", "T", [table])])
    store.append([hand(f"n/{n}", n) for n in range(1, 6)])
    return ["t/1", "t/2", "old/1", "gap/1", *(f"n/{n}" for n in range(1, 6))]


@pytest.mark.parametrize("batch", [1, 2, 4, 2000])
def test_pages_hold_each_subject_with_its_records_in_the_order_first_stored(
    store: AuditStore, batch: int
) -> None:
    order = _mixed_store(store)
    pages = list(store.iter_subject_batches("poker", batch))
    assert [len(page) for page in pages[:-1]] == [batch] * (len(pages) - 1)
    assert [item for page in pages for item in page] == [
        (subject, store.records_of("poker", subject)) for subject in order
    ]
    assert store.records_of("poker", "t/1") == hand("t/1", 5).records
    assert store.records_of("poker", "gap/1") == hand("gap/1", 7).records
    assert pages == list(store.iter_record_batches("poker", store.iter_subject_ids("poker"), batch))
    assert [s for page in store.iter_subject_batches("table", batch) for s, _ in page] == ["T"]


def test_each_packed_row_is_inflated_once(
    store: AuditStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _mixed_store(store)
    inflated: list[tuple[Any, int]] = []
    unpack = packing.unpack

    def counted(originator: Any, version: int, state: bytes, limit: int | None = None) -> Any:
        inflated.append((originator, version))
        return unpack(originator, version, state, limit)

    monkeypatch.setattr(packing, "unpack", counted)
    monkeypatch.setattr(subject_batches, "unpack", counted)
    pages = list(store.iter_subject_batches("poker", 3))
    assert sum(len(page) for page in pages) == 9
    packed_poker_rows = [
        (r.originator_id, r.originator_version)
        for r in store.chained.iter_chain_rows()
        if r.topic.startswith("pack:poker")
    ]
    assert len(inflated) == len(set(inflated)) == len(packed_poker_rows)
