"""Retention records: the owner's statement that the rows up to a checkpoint left the
store, into an archive, and the only thing that lets ``verify`` start after a prefix.

A retention record (a row of the events table's ``_retention`` table, PostgreSQL,
append-only like the checkpoints) names the checkpoint the retired rows end at, how many
rows the store held up to it (that checkpoint's ``event_count``), how many of them this
archive took, when (milliseconds since the epoch, UTC) and the archive file's SHA-256
(``audit.store.archive``). ``casino-audit retention archive`` writes it in the
transaction that detaches and drops the retired partitions (``audit.store.partitions``);
a writer or reader role may read it, never write it (``audit.store.roles``).

Without a record a missing prefix fails ``verify`` as it always did ("the shard was
dropped", "names an event that is no longer in the store"): deleting rows is not
retention. With one, ``verify`` starts at the latest record's checkpoint
(``chain.verify_rows(start=…)``), whose frontier must fold to its root, and prints the
record (``describe``) so that whoever verifies sees what was retired and can ask for the
archive with that digest.

Idempotency across retention: the same transaction writes the originator id of every
subject the retired rows held (the ``_retired`` table, one row per subject, the first
retention that took it; append-only, read-only for the writer and reader roles). An
append looks up there the subjects whose ``Opened`` event it does not find attached, and
refuses every one it finds (``refusal``): their events left with the archive, so storing
them again would hold a retired hand a second time. Dates play no part: a late hand of
a day still in the store goes in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

RETENTION_COLUMNS = "checkpoint_id, retired_rows, archived_rows, retired_at, archive_sha256"


@dataclass(frozen=True)
class RetentionRecord:
    """Rows up to ``checkpoint_id`` (``retired_rows`` of them in all) retired; this
    archive (``archive_sha256``) took ``archived_rows`` of them, at ``retired_at``;
    ``signature`` by the key ``key_id`` (``audit.store.retention_trust``; empty: an
    unsigned record, which does not count)."""

    checkpoint_id: int
    retired_rows: int
    archived_rows: int
    retired_at: int
    archive_sha256: str
    signature: bytes = b""
    key_id: str = ""

    def when(self, form: str) -> str:
        """``retired_at`` as a UTC time in ``form`` (``strftime``)."""
        return datetime.fromtimestamp(self.retired_at / 1000, UTC).strftime(form)

    def describe(self) -> str:
        """One line for ``verify``: what left the store, when, and in which archive."""
        when = self.when("%Y-%m-%d %H:%M UTC")
        first = self.retired_rows - self.archived_rows + 1
        signed = f"signed by key {self.key_id}" if self.signature else "unsigned"
        return (
            f"rows {first}..{self.retired_rows} retired at checkpoint {self.checkpoint_id} "
            f"on {when}, archive sha256 {self.archive_sha256} ({signed})"
        )


def refusal(kind: str, subject_id: str, record: RetentionRecord) -> str:
    """Why a unit of a retired subject is quarantined, not stored again."""
    return (
        f"{kind} subject {subject_id!r} was retired at checkpoint {record.checkpoint_id} "
        f"on {record.when('%Y-%m-%d')} (archive sha256 {record.archive_sha256[:12]}…): its "
        "events left the store with that archive and are not stored again"
    )


def latest(records: list[RetentionRecord]) -> RetentionRecord | None:
    """The record verification starts from: the one at the latest checkpoint."""
    return max(records, key=lambda r: r.checkpoint_id, default=None)
