"""Ingest: files in, validated subjects stored in batches, rejections quarantined.

Streams: a batch holds at most ``batch_events`` events, so memory does not grow with
the input. Idempotent: the store skips records it already holds. One bad record never
blocks the rest of its file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from audit.ingest.avro_files import iter_avro_units
from audit.ingest.errors import RecordRejected
from audit.ingest.phh import hand_events, iter_phh_records
from audit.ingest.rulebook_choice import check_rulebook_ids, rulebook_for
from audit.ingest.sources import AVRO_SUFFIXES, PHH_SUFFIXES, discover
from audit.quarantine import as_subject
from audit.store.application import AppendResult, AuditStore, SubjectRecords, canonical

DEFAULT_BATCH_EVENTS = 10_000


@dataclass
class IngestSummary:
    """What an ingest did, for the command line and for the nightly job."""

    files: int = 0
    subjects_stored: int = 0
    subjects_already_stored: int = 0
    events_stored: int = 0
    rejected: list[RecordRejected] = field(default_factory=list)

    @property
    def quarantined(self) -> int:
        return len(self.rejected)

    def add(self, result: AppendResult) -> None:
        self.subjects_stored += result.stored
        self.subjects_already_stored += result.duplicates
        self.events_stored += result.events_stored


def _phh_units(path: Path, rulebooks: Sequence[str]) -> Iterator[SubjectRecords | RecordRejected]:
    for item in iter_phh_records(path):
        if isinstance(item, RecordRejected):
            yield item
            continue
        try:
            default = rulebook_for(rulebooks, str(item.fields.get("variant")))
            events = hand_events(item, default_rulebook=default)
        except RecordRejected as rejected:
            yield rejected
            continue
        yield SubjectRecords(
            "poker", events[0]["hand_id"], events, source=f"{item.source} {item.position}"
        )


def units_of(
    path: Path, rulebooks: Sequence[str] = ()
) -> Iterator[SubjectRecords | RecordRejected]:
    """Every unit or rejection one file yields."""
    if path.suffix in PHH_SUFFIXES:
        yield from _phh_units(path, rulebooks)
    elif path.suffix in AVRO_SUFFIXES:
        yield from iter_avro_units(path, rulebooks=rulebooks)
    else:
        yield RecordRejected(
            path,
            "file",
            "(name)",
            f"unsupported file type {path.suffix or '(none)'}: expected .avro, .phh or .phhs",
            "",
        )


def ingest(
    store: AuditStore,
    paths: Sequence[Path],
    *,
    rulebooks: Sequence[str] = (),
    batch_events: int = DEFAULT_BATCH_EVENTS,
    on_file: Callable[[Path], None] | None = None,
) -> IngestSummary:
    """Ingest files and folders into the store; return what happened.

    ``rulebooks`` are given to hands and rounds that name none
    (``audit.ingest.rulebook_choice``). Raises audit.ingest.sources.MissingInput or
    UnknownRulebook before reading anything.
    """
    check_rulebook_ids(rulebooks)
    files = list(discover(paths))
    summary = IngestSummary(files=len(files))
    pending: list[SubjectRecords] = []
    quarantine: list[SubjectRecords] = []
    pending_events = 0

    def flush() -> None:
        nonlocal pending, pending_events
        result = store.append(pending)
        summary.add(result)
        for unit, reason in result.conflicts:
            rejected = RecordRejected(
                unit.source,
                f"{unit.kind} {unit.subject_id}",
                "(subject)",
                reason,
                _unit_text(unit),
            )
            summary.rejected.append(rejected)
            quarantine.append(as_subject(rejected))
        store.append(quarantine)
        pending, pending_events = [], 0
        quarantine.clear()

    for path in files:
        for item in units_of(path, rulebooks):
            if isinstance(item, RecordRejected):
                summary.rejected.append(item)
                quarantine.append(as_subject(item))
                pending_events += 2
            else:
                pending.append(item)
                pending_events += len(item.records) + 1
            if pending_events >= batch_events:
                flush()
        if on_file:
            on_file(path)
    flush()
    store.checkpoint()
    return summary


def _unit_text(unit: SubjectRecords) -> str:
    return "\n".join(canonical(r) for r in unit.records)
