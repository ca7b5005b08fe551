"""Ingest: files in, validated events stored in batches, rejections quarantined.

The event is the unit: an event is the record a subject holds at one ``sequence``
(``audit.store.versions``). Two passes, in bounded memory:

1. **Read.** Every file is read once, in order. Each unit (a PHH hand, a run of one
   subject's Avro records) is validated and written, pickled (or held in memory: see
   below), to a temporary SQLite spill file (``audit.ingest.spill``) with its subject,
   file and position, and each of its events' (subject, sequence, content digest); each
   rejection is spilled too. Nothing is stored yet: a
   disagreeing event may come in the last file.
2. **Store.** The spill is read back in input order. Per event:

   * the same event in several units of this ingest (a resend, two overlapping
     exports) is stored once, from the first; the others are "already stored";
   * events at one (subject, sequence) that *differ* within this ingest are disputed:
     every version is quarantined, naming the files that disagree, and none is stored;
     the events the files agree on still go in;
   * the others go to ``AuditStore.append(partial=True)`` in batches of
     ``batch_events`` events: an identical stored event is "already stored", a new
     sequence is appended (after, before or between the stored ones: a subject may
     arrive in any number of files, ingests and days, in any order), and a different
     event at a stored (subject, sequence) is a conflict: quarantined with both
     versions shown, the stored one untouched.

   Every disputed event is also kept as a ``conflict`` fact of its subject
   (``audit.ingest.conflicts``), so the subject's verdict reports that the operator sent
   two stories (``audit.judging``); a subject with sequences missing is judged
   incomplete until they arrive.

Memory holds one batch and one unit (units are bounded by ``audit.ingest.limits``), and
the first ``HELD_EVENTS`` events an ingest reads: their units are held as read, not
pickled to the spill and loaded back (a night's input file, read whole, is held whole:
pickling it there and back was about a sixth of its ingest's CPU). The spill is on disk
under ``TMPDIR`` (about the rest of the input's decoded size, pickled) and deleted at
the end. Identity never depends on the path a file was given by: stored
events and quarantine records name a file by ``file_identity``; the path as given is
only in what the summary prints.

No input stops an ingest or takes other records with it (each file is read into units
by ``audit.ingest.file_units``): a unit whose conversion raises
anything is quarantined alone with the error; a file whose reader fails is quarantined
from that point on; a batch the store refuses is retried unit by unit and the unit that
fails (an integer the driver cannot bind, say) is quarantined. Only an infrastructure
failure (the database unreachable) still stops the ingest. Every unit read ends one
way: ``units_read == subjects_stored + subjects_already_stored + units_quarantined``
(a unit with new events and disputed ones is stored, and its disputed events are one
more quarantine record).
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.collector import fewer_collections
from audit.ingest.conflicts import ConflictLog
from audit.ingest.errors import RecordRejected, cap
from audit.ingest.file_names import file_identity
from audit.ingest.file_units import internal_error, safe_units, units_of
from audit.ingest.limits import Limits
from audit.ingest.manifest_check import ManifestCheck
from audit.ingest.quarantine import RAW_LIMIT, as_subject
from audit.ingest.room_text.schedule import RakeSchedule
from audit.ingest.rulebook_choice import check_rulebook_ids
from audit.ingest.sources import discover
from audit.ingest.spill import Spill, SpillRow
from audit.store import (
    DUPLICATE,
    RETIRED,
    STORED,
    AuditStore,
    EventConflict,
    SubjectRecords,
    canonical,
    sequence_conflict,
)

DEFAULT_BATCH_EVENTS = 10_000
#: Events of the units an ingest reads first that are held in memory, not pickled to disk.
HELD_EVENTS = 100_000
#: A batch is also flushed when the records it holds weigh this much (pickled).
BATCH_BYTES = 64 << 20
#: Rejections kept in ``IngestSummary.rejected`` (all are counted and quarantined).
MAX_LISTED_REJECTIONS = 10_000
#: A quarantined record's text when the store refused the record with it.
_UNSTORABLE_RAW = "(the record's text could not be stored)"


@dataclass
class IngestSummary:
    """What an ingest did, for the command line and for the nightly job.

    ``rejected`` lists the first ``MAX_LISTED_REJECTIONS`` rejections (without their
    record text, which is in the quarantine); ``quarantined`` counts them all.
    """

    files: int = 0
    subjects_stored: int = 0
    subjects_already_stored: int = 0
    events_stored: int = 0
    events_already_stored: int = 0
    events_quarantined: int = 0
    rejected: list[RecordRejected] = field(default_factory=list)
    quarantined: int = 0
    """Quarantine records written (rejections, and each unit's disputed events)."""
    units_read: int = 0
    units_quarantined: int = 0
    """Units (and rejections) none of whose events were stored or already stored."""

    @property
    def not_listed(self) -> int:
        """Quarantined records beyond those listed in ``rejected``."""
        return self.quarantined - len(self.rejected)

    def reject(self, rejected: RecordRejected) -> None:
        self.quarantined += 1
        if len(self.rejected) < MAX_LISTED_REJECTIONS:
            self.rejected.append(rejected.without_raw())


# -- the ingest ---------------------------------------------------------------------------


def _infrastructure_errors() -> tuple[type[BaseException], ...]:
    """Errors that mean the store cannot be written at all, not that a unit is bad."""
    from eventsourcing.persistence import InterfaceError, OperationalError

    errors: list[type[BaseException]] = [OperationalError, InterfaceError, sqlite3.OperationalError]
    try:
        import psycopg

        errors += [psycopg.OperationalError, psycopg.InterfaceError]
    except ImportError:  # pragma: no cover - psycopg is a dependency
        pass
    return tuple(errors)


@dataclass
class _Pending:
    """A unit on its way to the store: what goes in, and what this ingest already decided
    about its other events."""

    unit: SubjectRecords
    to_store: SubjectRecords
    read_before: int = 0
    disputed: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    """Events quarantined without asking the store, with why."""


class _Writer:
    """Pass two: batches to the store, every unit and event accounted for."""

    def __init__(
        self, store: AuditStore, summary: IngestSummary, files: list[Path], batch_events: int
    ) -> None:
        self.store = store
        self.summary = summary
        self.files = files
        self.batch_events = batch_events
        self.units: list[_Pending] = []
        self.quarantine: list[SubjectRecords] = []
        self.conflicts = ConflictLog(store)
        self.events = self.bytes = 0
        self.infrastructure = _infrastructure_errors()

    def add(self, pending: _Pending, size: int) -> None:
        if not pending.to_store.records:
            self._settle(pending, DUPLICATE, [])
            return
        self.units.append(pending)
        self._grow(len(pending.to_store.records) + 1, size)

    def reject(self, rejected: RecordRejected, *, unit: bool = True) -> None:
        """Quarantine ``rejected``; ``unit``: it is a unit's (or a record's) whole outcome."""
        self.summary.reject(rejected)
        self.summary.units_quarantined += unit
        self.quarantine.append(as_subject(rejected))
        self._grow(2, min(len(rejected.raw), RAW_LIMIT))

    def _grow(self, events: int, size: int) -> None:
        self.events += events
        self.bytes += size
        if self.events >= self.batch_events or self.bytes >= BATCH_BYTES:
            self.flush()

    def flush(self) -> None:
        units, self.units = self.units, []
        self.events = self.bytes = 0
        if units:
            self._store(units)
        quarantine, self.quarantine = self.quarantine, []
        if quarantine:
            self._store_quarantine(quarantine)
        self.conflicts.flush()

    def _store(self, units: list[_Pending]) -> None:
        try:
            result = self.store.append([p.to_store for p in units], partial=True)
        except self.infrastructure:
            raise
        except Exception as error:
            if len(units) > 1:  # find the unit the store refuses; the others go in
                for pending in units:
                    self._store([pending])
                return
            unit = units[0].unit
            self.reject(
                RecordRejected(
                    unit.source,
                    unit.position or f"{unit.kind} {unit.subject_id}",
                    "(store)",
                    f"{unit.kind} subject {unit.subject_id!r} could not be stored: "
                    f"{type(error).__name__}: {cap(str(error), 500)}",
                    _unit_text(unit),
                )
            )
            return
        self.summary.events_stored += result.events_stored
        self.summary.events_already_stored += result.events_already_stored
        clashes: dict[int, list[EventConflict]] = {}
        for conflict in result.event_conflicts:
            clashes.setdefault(id(conflict.unit), []).append(conflict)
        reasons = {id(unit): why for unit, why in result.conflicts}
        for pending, outcome in zip(units, result.outcomes, strict=True):
            if outcome == RETIRED:
                self._refuse_retired(pending.unit, reasons[id(pending.to_store)])
            else:
                self._settle(pending, outcome, clashes.get(id(pending.to_store), []))

    def _refuse_retired(self, unit: SubjectRecords, why: str) -> None:
        """A unit of a subject a retention retired (``audit.store.retention``): every
        event of it quarantined as one record, nothing of it stored (no conflict fact
        either: the subject is no longer in the store)."""
        self.summary.events_quarantined += len(unit.records)
        self.reject(
            RecordRejected(
                unit.source,
                unit.position or f"{unit.kind} {unit.subject_id}",
                "(subject)",
                why,
                _unit_text(unit),
            )
        )

    def _settle(self, pending: _Pending, outcome: str, clashes: list[EventConflict]) -> None:
        """Count the unit's outcome (stored: at least one new event; already stored: every
        event was; else quarantined); quarantine its disputed events as one record and
        keep each as a conflict fact of its subject."""
        unit = pending.unit
        self.summary.events_already_stored += pending.read_before
        for record, _ in pending.disputed:
            self.conflicts.add(unit, record, None)
        disputed = list(pending.disputed)
        for clash in clashes:
            disputed.append((clash.received, sequence_conflict(unit, clash.stored)))
            self.conflicts.add(unit, clash.received, clash.stored)
        stored = outcome == STORED
        already = outcome == DUPLICATE and not disputed
        self.summary.subjects_stored += stored
        self.summary.subjects_already_stored += already
        if not disputed:
            return
        self.summary.events_quarantined += len(disputed)
        records = [record for record, _ in disputed]
        shown = ", ".join(str(r["sequence"]) for r in records[:20])
        shown += f" and {len(records) - 20} more" if len(records) > 20 else ""
        rest = len(unit.records) - len(records)
        kept = f"; its other {rest} event(s) are stored or already stored" if rest else ""
        self.reject(
            RecordRejected(
                unit.source,
                unit.position or f"{unit.kind} {unit.subject_id}",
                "(event)",
                f"{len(records)} event(s) (sequence {shown}) quarantined: {disputed[0][1]}{kept}",
                "\n".join(_record_text(r) for r in records),
            ),
            unit=not (stored or already),
        )

    def _store_quarantine(self, units: list[SubjectRecords]) -> None:
        try:
            self.store.append(units)  # a rejection kept before is kept once
        except self.infrastructure:
            raise
        except Exception:
            if len(units) > 1:
                for unit in units:
                    self._store_quarantine([unit])
                return
            record = dict(units[0].records[0])
            if record.get("raw") in (None, "", _UNSTORABLE_RAW):  # refused without its text too
                raise
            record["raw"] = _UNSTORABLE_RAW
            self._store_quarantine([SubjectRecords(units[0].kind, units[0].subject_id, [record])])

    def disagreement(self, row: SpillRow, spill: Spill, unit: SubjectRecords, sequence: int) -> str:
        """Why an event of ``unit`` at ``sequence`` is disputed within this ingest."""
        where = "; ".join(
            f"{file_identity(self.files[file])}, {position}"
            for file, position in spill.versions(row, sequence)
        )
        return (
            f"{unit.kind} subject {unit.subject_id!r} sequence {sequence}: this ingest's "
            f"files disagree about this event (another version is in {where}); no "
            "version of it is stored: ingest the right one alone"
        )


def ingest(
    store: AuditStore,
    paths: Sequence[Path],
    *,
    rulebooks: Sequence[str] = (),
    batch_events: int = DEFAULT_BATCH_EVENTS,
    on_file: Callable[[Path], None] | None = None,
    on_unit: Callable[[SubjectRecords | RecordRejected], None] | None = None,
    limits: Limits | None = None,
    spill_dir: str | Path | None = None,
    rake_schedule: RakeSchedule | None = None,
    manifest_key: Ed25519PublicKey | None = None,
    header_zone: str | None = None,
) -> IngestSummary:
    """Ingest files and folders into the store; return what happened.

    ``rulebooks`` are given to hands and rounds that name none
    (``audit.ingest.rulebook_choice``); ``limits`` default to ``Limits.from_env()``;
    the spill goes to a temporary folder under ``spill_dir`` (default ``TMPDIR``);
    ``rake_schedule`` declares the terms of the room tables met (``room_text.schedule``);
    ``header_zone`` is the zone the operator declares for room text headers that give
    none (GGPoker's): without it such a hand is quarantined, never read as UTC by guess.
    A file covered by a ``SHA256SUMS`` manifest is read only when its digest matches
    (``audit.ingest.manifest_check``; ``manifest_key`` asks for signed manifests).
    ``on_unit`` is called with each unit and each rejection as read, in input order,
    before anything is stored (the nightly learns a file's subjects from it).
    Raises audit.ingest.sources.MissingInput, UnknownRulebook,
    audit.ingest.limits.BadLimit or manifest_check.UnusableManifest before reading
    anything; never raises for the content of the input.
    """
    check_rulebook_ids(rulebooks)
    limits = limits or Limits.from_env()
    files = list(discover(paths))
    summary = IngestSummary(files=len(files))
    manifests = ManifestCheck(paths, files, manifest_key)
    files += manifests.missing  # listed in a manifest but not there: quarantined below
    with (
        tempfile.TemporaryDirectory(prefix="casino-audit-ingest-", dir=spill_dir) as folder,
        fewer_collections(),
    ):
        spill = Spill(folder, HELD_EVENTS)
        try:
            for number, path in enumerate(files):
                rejected = manifests.rejection(path)
                if rejected is None:
                    _read(
                        path,
                        number,
                        rulebooks,
                        limits,
                        spill,
                        summary,
                        rake_schedule,
                        header_zone,
                        on_unit,
                    )
                else:  # the whole file, unread
                    summary.units_read += 1
                    spill.add_rejection(number, rejected)
                    if on_unit:
                        on_unit(rejected)
                if on_file:
                    on_file(path)
            spill.finish()
            _write(store, spill, files, summary, batch_events)
        finally:
            spill.close()
    store.checkpoint()
    return summary


def _read(
    path: Path,
    number: int,
    rulebooks: Sequence[str],
    limits: Limits,
    spill: Spill,
    summary: IngestSummary,
    schedule: RakeSchedule | None,
    header_zone: str | None,
    on_unit: Callable[[SubjectRecords | RecordRejected], None] | None,
) -> None:
    """Pass one for a file: validate, digest and spill its units."""
    items = safe_units(path, rulebooks, limits, header_zone)
    for item in schedule.with_terms(items) if schedule else items:
        summary.units_read += 1
        if on_unit:
            on_unit(item)
        if isinstance(item, RecordRejected):
            spill.add_rejection(number, item)
            continue
        try:
            spill.add_unit(number, item)
        except Exception as error:  # a record orjson or pickle refuses
            spill.add_rejection(
                number,
                internal_error(path, item.position or item.subject_id, error, _unit_text(item)),
            )


def _write(
    store: AuditStore,
    spill: Spill,
    files: list[Path],
    summary: IngestSummary,
    batch_events: int,
) -> None:
    """Pass two: store each unit's undisputed new events, quarantine the rest, in input
    order (see the module docstring)."""
    writer = _Writer(store, summary, files, batch_events)
    for row in spill.rows():
        path = files[row.file]
        if row.kind is None:
            position, field_name, reason, raw = row.content()
            writer.reject(RecordRejected(path, position, field_name, reason, raw))
            continue
        records = row.content()
        unit = SubjectRecords(row.kind, row.subject or "", records, str(path), row.position)
        pending = _Pending(unit, unit)
        if row.flagged:
            disputed, before = spill.disputed(row), spill.read_before(row)
            keep = []
            for record in records:
                sequence = record["sequence"]
                if sequence in disputed:
                    reason = writer.disagreement(row, spill, unit, sequence)
                    pending.disputed.append((record, reason))
                elif sequence in before:
                    pending.read_before += 1
                else:
                    keep.append(record)
            pending.to_store = SubjectRecords(
                unit.kind, unit.subject_id, keep, unit.source, unit.position
            )
        writer.add(pending, row.size)
    writer.flush()


def _record_text(record: dict[str, Any]) -> str:
    try:
        return canonical(record)
    except Exception:  # an integer past 64 bits, a lone surrogate
        return cap(repr(record), 1 << 16)


def _unit_text(unit: SubjectRecords) -> str:
    try:
        return "\n".join(canonical(r) for r in unit.records)
    except Exception:  # an integer past 64 bits, a lone surrogate
        return cap(repr(unit.records), 1 << 20)


__all__ = ["IngestSummary", "ingest", "units_of"]
