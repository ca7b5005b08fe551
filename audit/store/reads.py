"""What reading subjects' records asks of a store, as Protocols.

``AuditStore`` has all of it. A reader that stands in for the store for one purpose
implements only what that purpose reads, and is typed by it: the records an evidence
bundle holds (``audit.evidence``) are ``RecordReads``; the console's read-once view of a
request (``console.readmodel.pagereads.PageReads``) is ``StoreReads``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

Records = list[dict[str, Any]]


class RecordReads(Protocol):
    """Records of subjects by kind and id: what judging a subject reads
    (``audit.judging.gather``)."""

    def records_of(self, kind: str, subject_id: str) -> Records:
        """The subject's records in sequence order ([] when unknown)."""
        ...

    def records_of_many(self, kind: str, subject_ids: Sequence[str]) -> dict[str, Records]:
        """Subject id -> records, for the stored subjects among ``subject_ids``."""
        ...


class StoreReads(RecordReads, Protocol):
    """Also the subjects of a kind: what explaining a subject reads (``audit.show``)."""

    def iter_subject_ids(self, kind: str, batch: int = 2000) -> Iterator[str]:
        """Every subject id of a kind, in the order first stored."""
        ...

    def iter_records(
        self, kind: str, subject_ids: Iterable[str], batch: int = 2000
    ) -> Iterator[tuple[str, Records]]:
        """(subject id, records) of each stored subject of ``subject_ids``, in order."""
        ...

    def iter_subjects(self, kind: str) -> Iterator[tuple[str, Records]]:
        """(subject id, records) of every subject of a kind."""
        ...
