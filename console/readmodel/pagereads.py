"""The store as one page reads it: what the page and ``audit.explain.explanation`` both ask
for is read once per request.

A subject's page explains it (``explanation``, which looks the subject id up under every
judged kind and reads its verdict units) and shows its stored records and verdict
history: the same reads twice, each a round trip to the database. ``PageReads`` reads the
subject under every kind in one query (``AuditStore.records_by_kind``) and keeps, for the
request only, each subject's records and each batch of records it was asked for; it is
made per request and dropped with it, so nothing it keeps outlives what the page shows.
Everything else it reads (``StoreReads``) comes from the store itself; it writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from audit.store import AuditStore

Records = list[dict[str, Any]]


class PageReads:
    """A read-once view of ``store`` for one request about ``subject`` (see the module
    docstring): the ``StoreReads`` that ``audit.show`` and the page are given."""

    def __init__(self, store: AuditStore, subject: str, kinds: Sequence[str]):
        self._store = store
        found = store.records_by_kind(subject, kinds)
        self._records: dict[tuple[str, str], Records] = {
            (kind, subject): records for kind, records in found.items()
        }
        self._batches: dict[tuple[str, tuple[str, ...]], list[tuple[str, Records]]] = {}

    def records_of(self, kind: str, subject_id: str) -> Records:
        """``AuditStore.records_of``, read once per request."""
        key = (kind, subject_id)
        if key not in self._records:
            self._records[key] = self._store.records_of(kind, subject_id)
        return self._records[key]

    def iter_records(
        self, kind: str, subject_ids: Iterable[str], batch: int = 2000
    ) -> Iterator[tuple[str, Records]]:
        """``AuditStore.iter_records``, the same ids read once per request."""
        key = (kind, tuple(subject_ids))
        if key not in self._batches:
            self._batches[key] = list(self._store.iter_records(kind, key[1], batch))
        return iter(self._batches[key])

    def records_of_many(self, kind: str, subject_ids: Sequence[str]) -> dict[str, Records]:
        """``AuditStore.records_of_many``, from the store."""
        return self._store.records_of_many(kind, subject_ids)

    def iter_subject_ids(self, kind: str, batch: int = 2000) -> Iterator[str]:
        """``AuditStore.iter_subject_ids``, from the store."""
        return self._store.iter_subject_ids(kind, batch)

    def iter_subjects(self, kind: str) -> Iterator[tuple[str, Records]]:
        """``AuditStore.iter_subjects``, from the store."""
        return self._store.iter_subjects(kind)
