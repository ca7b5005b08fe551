"""The batched judging loop that ``replay`` and the nightly share.

``judged_batches`` takes stored subjects batch by batch (as the store reads them: one
query per batch), fetches the batch's table terms at once, and judges each subject
through the one judging path (``audit.judging.path``: ``gather`` then ``judge``);
``VerdictWriter`` appends the verdict units in batches, one transaction per batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from audit.judging.inputs import Inputs
from audit.judging.path import TermsBook, gather, judge
from audit.store import AuditStore, RecordReads, Records, SubjectRecords, collector_paused
from replayer.verdict import Verdict

Judged = tuple[Inputs, Verdict]
"""A subject's inputs and its verdict."""


def judged_batches(
    store: RecordReads,
    kind: str,
    batches: Iterable[Sequence[tuple[str, Records]]],
    terms_book: TermsBook,
    keep: Callable[[Records], bool] | None = None,
) -> Iterator[list[Judged]]:
    """Each batch of ``(subject, records)`` of ``kind`` judged, in order; a subject whose
    records ``keep`` refuses is left out (unjudged)."""
    for subjects in batches:
        judged: list[Judged] = []
        with collector_paused():
            terms_book.prefetch(kind, subjects)
            for subject, records in subjects:
                if keep is None or keep(records):
                    inputs = gather(store, kind, subject, records, terms_book)
                    judged.append((inputs, judge(inputs)))
        yield judged


class VerdictWriter:
    """Stored units appended ``batch`` at a time; ``stored`` counts the new ones."""

    def __init__(self, store: AuditStore, batch: int) -> None:
        self.store = store
        self.batch = batch
        self.pending: list[SubjectRecords] = []
        self.stored = 0

    def add(self, unit: SubjectRecords) -> None:
        """Queue ``unit``; append the queue once it holds a batch."""
        self.pending.append(unit)
        if len(self.pending) >= self.batch:
            self.flush()

    def flush(self) -> None:
        """Append what is queued."""
        if self.pending:
            self.stored += self.store.append(self.pending).stored
            self.pending.clear()
