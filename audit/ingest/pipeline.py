"""Ingest: files in, validated subjects stored in batches, rejections quarantined.

Two passes, in bounded memory:

1. **Read.** Every file is read once, in order. Each unit (a PHH hand, a run of one
   subject's Avro records) is validated, its version digest taken
   (``audit.store.versions``: its records in sequence order, provenance left out), and
   it is written, pickled, to a temporary SQLite spill file with its
   subject, digest, file and position; each rejection is spilled too. Nothing is
   stored yet: a conflicting version may come in the last file.
2. **Store.** The spill is read back in input order. A subject with more than one
   distinct digest in this ingest is *contested*: every one of its versions is
   quarantined, the reason naming the file and position of the others, and none is
   stored or merged. The other units go to ``AuditStore.append(whole=True)`` in batches
   of ``batch_events`` events: the same version again (the same file twice, the same
   hand in two files) is "already stored"; a version that differs from the stored
   one, one record or one event more or less, is quarantined and the stored one left
   as it is.

Memory holds one batch and one unit (units are bounded by ``audit.ingest.limits``); the
spill is on disk under ``TMPDIR`` (about the input's decoded size, pickled) and
deleted at the end. Identity never depends on the path a file was given by: stored
events and quarantine records name a file by ``file_identity``; the path as given is
only in what the summary prints.

No input stops an ingest or takes other records with it: a unit whose conversion raises
anything is quarantined alone with the error; a file whose reader fails is quarantined
from that point on; a batch the store refuses is retried unit by unit and the unit that
fails (an integer the driver cannot bind, say) is quarantined. Only an infrastructure
failure (the database unreachable) still stops the ingest. Every unit read is counted
once: ``units_read == subjects_stored + subjects_already_stored + quarantined``.
"""

from __future__ import annotations

import pickle
import sqlite3
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.ingest.avro_files import iter_avro_units
from audit.ingest.errors import FieldError, RecordRejected, cap
from audit.ingest.file_names import file_identity
from audit.ingest.invariants import check_widths
from audit.ingest.limits import Limits
from audit.ingest.manifest_check import ManifestCheck
from audit.ingest.phh import hand_events, iter_phh_records
from audit.ingest.quarantine import RAW_LIMIT, as_subject
from audit.ingest.room_text.reader import iter_text_units
from audit.ingest.room_text.schedule import RakeSchedule
from audit.ingest.rulebook_choice import check_rulebook_ids, rulebook_for
from audit.ingest.sources import AVRO_SUFFIXES, PHH_SUFFIXES, TEXT_SUFFIXES, discover
from audit.store import AppendResult, AuditStore, SubjectRecords, canonical
from audit.store.versions import version_digest

DEFAULT_BATCH_EVENTS = 10_000
#: A batch is also flushed when the records it holds weigh this much (pickled).
BATCH_BYTES = 64 << 20
#: Rejections kept in ``IngestSummary.rejected`` (all are counted and quarantined).
MAX_LISTED_REJECTIONS = 10_000


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
    rejected: list[RecordRejected] = field(default_factory=list)
    quarantined: int = 0
    units_read: int = 0

    @property
    def not_listed(self) -> int:
        """Quarantined records beyond those listed in ``rejected``."""
        return self.quarantined - len(self.rejected)

    def add(self, result: AppendResult) -> None:
        self.subjects_stored += result.stored
        self.subjects_already_stored += result.duplicates
        self.events_stored += result.events_stored

    def reject(self, rejected: RecordRejected) -> None:
        self.quarantined += 1
        if len(self.rejected) < MAX_LISTED_REJECTIONS:
            self.rejected.append(rejected.without_raw())


def _phh_units(
    path: Path, rulebooks: Sequence[str], limits: Limits
) -> Iterator[SubjectRecords | RecordRejected]:
    for item in iter_phh_records(path, limits):
        if isinstance(item, RecordRejected):
            yield item
            continue
        try:
            default = rulebook_for(rulebooks, str(item.fields.get("variant")))
            events = hand_events(item, default_rulebook=default, limits=limits)
            for event in events:  # the conversion checked the rest; widths are the schema's
                check_widths("poker", event)
        except RecordRejected as rejected:
            yield rejected
            continue
        except FieldError as error:  # an event out of range after conversion
            field_name = f"event {event['sequence']} ({event['type']}).{error.field}"
            yield RecordRejected(path, item.position, field_name, error.reason, item.raw)
            continue
        except Exception as error:  # whatever else this hand raises is its own problem
            yield _internal(path, item.position, error, item.raw)
            continue
        yield SubjectRecords(
            "poker", events[0]["hand_id"], events, source=str(path), position=item.position
        )


def _internal(path: Path | str, position: str, error: BaseException, raw: str) -> RecordRejected:
    return RecordRejected(
        path,
        position,
        "(record)",
        f"could not be converted: {type(error).__name__}: {cap(str(error), 500)}",
        raw,
    )


def units_of(
    path: Path, rulebooks: Sequence[str] = (), limits: Limits | None = None
) -> Iterator[SubjectRecords | RecordRejected]:
    """Every unit or rejection one file yields."""
    limits = limits or Limits.from_env()
    if path.suffix in PHH_SUFFIXES:
        yield from _phh_units(path, rulebooks, limits)
    elif path.suffix in AVRO_SUFFIXES:
        yield from iter_avro_units(path, rulebooks=rulebooks, limits=limits)
    elif path.suffix in TEXT_SUFFIXES:
        yield from iter_text_units(path, rulebooks, limits)
    else:
        yield RecordRejected(
            path,
            "file",
            "(name)",
            f"unsupported file type {path.suffix or '(none)'}: expected .avro/.phh/.phhs/.txt",
            "",
        )


def _safe_units(
    path: Path, rulebooks: Sequence[str], limits: Limits
) -> Iterator[SubjectRecords | RecordRejected]:
    """``units_of``, with a failure of the reader itself (an unreadable file, anything a
    reader did not catch) turned into one rejection for the rest of the file."""
    items = units_of(path, rulebooks, limits)
    read = 0
    while True:
        try:
            item = next(items)
        except StopIteration:
            return
        except Exception as error:
            where = "file" if not read else f"after unit {read} of the file"
            yield RecordRejected(
                path,
                where,
                "(file)",
                f"reading stopped: {type(error).__name__}: {cap(str(error), 500)}; the rest "
                "of the file is not read",
                "",
            )
            return
        read += 1
        yield item


# -- the spill ----------------------------------------------------------------------------


@dataclass
class _Row:
    file: int
    kind: str | None
    subject: str | None
    digest: bytes | None
    position: str
    events: int
    size: int
    data: bytes
    versions: int | None


class _Spill:
    """Pass one's output: every unit and rejection, in input order, on disk."""

    FLUSH_ROWS, FLUSH_BYTES = 500, 16 << 20

    def __init__(self, directory: str) -> None:
        self.db = sqlite3.connect(Path(directory) / "spill.sqlite", isolation_level=None)
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "cache_size = -16000"):
            self.db.execute(f"PRAGMA {pragma}")
        self.db.execute(
            "CREATE TABLE unit (id INTEGER PRIMARY KEY, file INTEGER NOT NULL, kind TEXT, "
            "subject TEXT, digest BLOB, position TEXT NOT NULL, events INTEGER NOT NULL, "
            "size INTEGER NOT NULL, data BLOB NOT NULL)"
        )
        self.db.execute("BEGIN")
        self.buffer: list[tuple[Any, ...]] = []
        self.buffered = 0

    def _add(self, row: tuple[Any, ...], size: int) -> None:
        self.buffer.append(row)
        self.buffered += size
        if len(self.buffer) >= self.FLUSH_ROWS or self.buffered >= self.FLUSH_BYTES:
            self._flush()

    def _flush(self) -> None:
        self.db.executemany(
            "INSERT INTO unit (file, kind, subject, digest, position, events, size, data) "
            "VALUES (?,?,?,?,?,?,?,?)",
            self.buffer,
        )
        self.buffer, self.buffered = [], 0

    def add_unit(self, file: int, unit: SubjectRecords, digest: bytes) -> None:
        data = pickle.dumps(unit.records, protocol=pickle.HIGHEST_PROTOCOL)
        row = (file, unit.kind, unit.subject_id, digest, unit.position, len(unit.records))
        self._add((*row, len(data), data), len(data))

    def add_rejection(self, file: int, rejected: RecordRejected) -> None:
        text = (rejected.position, rejected.field, rejected.reason, rejected.raw)
        data = pickle.dumps(text, protocol=pickle.HIGHEST_PROTOCOL)
        self._add((file, None, None, None, rejected.position, 0, len(data), data), len(data))

    def finish(self) -> None:
        """Index the units and find the contested subjects."""
        self._flush()
        self.db.execute("COMMIT")
        self.db.execute("CREATE INDEX unit_subject ON unit (kind, subject)")
        self.db.execute(
            "CREATE TABLE contested AS SELECT kind, subject, COUNT(DISTINCT digest) AS versions "
            "FROM unit WHERE kind IS NOT NULL GROUP BY kind, subject "
            "HAVING COUNT(DISTINCT digest) > 1"
        )
        self.db.execute("CREATE UNIQUE INDEX contested_subject ON contested (kind, subject)")

    def rows(self) -> Iterator[_Row]:
        cursor = self.db.execute(
            "SELECT u.file, u.kind, u.subject, u.digest, u.position, u.events, u.size, u.data, "
            "c.versions FROM unit u LEFT JOIN contested c "
            "ON c.kind = u.kind AND c.subject = u.subject ORDER BY u.id"
        )
        for row in cursor:
            yield _Row(*row)

    def others(self, row: _Row, limit: int = 3) -> list[tuple[int, str, int]]:
        """(file, position, events) of other versions of ``row``'s subject."""
        return self.db.execute(
            "SELECT file, position, events FROM unit WHERE kind = ? AND subject = ? "
            "AND digest != ? ORDER BY id LIMIT ?",
            (row.kind, row.subject, row.digest, limit),
        ).fetchall()

    def close(self) -> None:
        self.db.close()


def _load(data: bytes) -> Any:
    return pickle.loads(data)  # our own spill file, written above


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


class _Writer:
    """Pass two: batches to the store, every unit accounted for."""

    def __init__(
        self, store: AuditStore, summary: IngestSummary, files: list[Path], batch_events: int
    ) -> None:
        self.store = store
        self.summary = summary
        self.files = files
        self.batch_events = batch_events
        self.units: list[SubjectRecords] = []
        self.quarantine: list[SubjectRecords] = []
        self.events = self.bytes = 0
        self.infrastructure = _infrastructure_errors()

    def add(self, unit: SubjectRecords, size: int) -> None:
        self.units.append(unit)
        self._grow(len(unit.records) + 1, size)

    def reject(self, rejected: RecordRejected) -> None:
        self.summary.reject(rejected)
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

    def _store(self, units: list[SubjectRecords]) -> None:
        try:
            result = self.store.append(units, whole=True)
        except self.infrastructure:
            raise
        except Exception as error:
            if len(units) > 1:  # find the unit the store refuses; the others go in
                for unit in units:
                    self._store([unit])
                return
            self.reject(
                RecordRejected(
                    units[0].source,
                    units[0].position or f"{units[0].kind} {units[0].subject_id}",
                    "(store)",
                    f"{units[0].kind} subject {units[0].subject_id!r} could not be stored: "
                    f"{type(error).__name__}: {cap(str(error), 500)}",
                    _unit_text(units[0]),
                )
            )
            return
        self.summary.add(result)
        for unit, reason in result.conflicts:
            self.reject(
                RecordRejected(
                    unit.source,
                    unit.position or f"{unit.kind} {unit.subject_id}",
                    "(subject)",
                    reason,
                    _unit_text(unit),
                )
            )

    def _store_quarantine(self, units: list[SubjectRecords]) -> None:
        try:
            self.store.append(units, whole=True)  # a rejection kept before is kept once
        except self.infrastructure:
            raise
        except Exception:
            if len(units) > 1:
                for unit in units:
                    self._store_quarantine([unit])
                return
            record = dict(units[0].records[0])
            if not record.get("raw"):
                raise
            record["raw"] = "(the record's text could not be stored)"
            self._store_quarantine([SubjectRecords(units[0].kind, units[0].subject_id, [record])])

    def contested(self, row: _Row, spill: _Spill, unit: SubjectRecords) -> None:
        others = spill.others(row)
        where = "; ".join(
            f"{file_identity(self.files[file])}, {position} ({events} events)"
            for file, position, events in others
        )
        more = row.versions - 1 - len(others) if row.versions else 0
        where += f"; and {more} more" if more > 0 else ""
        self.reject(
            RecordRejected(
                unit.source,
                unit.position,
                "(subject)",
                f"{unit.kind} subject {unit.subject_id!r} has {row.versions} different "
                f"versions in this ingest; this one ({len(unit.records)} events) differs from "
                f"{where}. No version is stored or merged: ingest the right one alone",
                _unit_text(unit),
            )
        )


def ingest(
    store: AuditStore,
    paths: Sequence[Path],
    *,
    rulebooks: Sequence[str] = (),
    batch_events: int = DEFAULT_BATCH_EVENTS,
    on_file: Callable[[Path], None] | None = None,
    limits: Limits | None = None,
    spill_dir: str | Path | None = None,
    rake_schedule: RakeSchedule | None = None,
    manifest_key: Ed25519PublicKey | None = None,
) -> IngestSummary:
    """Ingest files and folders into the store; return what happened.

    ``rulebooks`` are given to hands and rounds that name none
    (``audit.ingest.rulebook_choice``); ``limits`` default to ``Limits.from_env()``;
    the spill goes to a temporary folder under ``spill_dir`` (default ``TMPDIR``);
    ``rake_schedule`` declares the terms of the room tables met (``room_text.schedule``).
    A file covered by a ``SHA256SUMS`` manifest is read only when its digest matches
    (``audit.ingest.manifest_check``; ``manifest_key`` asks for signed manifests).
    Raises audit.ingest.sources.MissingInput, UnknownRulebook or
    audit.ingest.limits.BadLimit before reading anything; never raises for the content
    of the input.
    """
    check_rulebook_ids(rulebooks)
    limits = limits or Limits.from_env()
    files = list(discover(paths))
    summary = IngestSummary(files=len(files))
    manifests = ManifestCheck(paths, files, manifest_key)
    files += manifests.missing  # listed in a manifest but not there: quarantined below
    with tempfile.TemporaryDirectory(prefix="casino-audit-ingest-", dir=spill_dir) as folder:
        spill = _Spill(folder)
        try:
            for number, path in enumerate(files):
                rejected = manifests.rejection(path)
                if rejected is None:
                    _read(path, number, rulebooks, limits, spill, summary, rake_schedule)
                else:  # the whole file, unread
                    summary.units_read += 1
                    spill.add_rejection(number, rejected)
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
    spill: _Spill,
    summary: IngestSummary,
    schedule: RakeSchedule | None = None,
) -> None:
    """Pass one for a file: validate, digest and spill its units."""
    items = _safe_units(path, rulebooks, limits)
    for item in schedule.with_terms(items) if schedule else items:
        summary.units_read += 1
        if isinstance(item, RecordRejected):
            spill.add_rejection(number, item)
            continue
        try:
            spill.add_unit(number, item, version_digest(item.records))
        except Exception as error:  # a record orjson or pickle refuses
            spill.add_rejection(
                number, _internal(path, item.position or item.subject_id, error, _unit_text(item))
            )


def _write(
    store: AuditStore,
    spill: _Spill,
    files: list[Path],
    summary: IngestSummary,
    batch_events: int,
) -> None:
    """Pass two: store what is uncontested, quarantine the rest, in input order."""
    writer = _Writer(store, summary, files, batch_events)
    for row in spill.rows():
        path = files[row.file]
        if row.kind is None:
            position, field_name, reason, raw = _load(row.data)
            writer.reject(RecordRejected(path, position, field_name, reason, raw))
            continue
        unit = SubjectRecords(row.kind, row.subject or "", _load(row.data), str(path), row.position)
        if row.versions:
            writer.contested(row, spill, unit)
        else:
            writer.add(unit, row.size)
    writer.flush()


def _unit_text(unit: SubjectRecords) -> str:
    try:
        return "\n".join(canonical(r) for r in unit.records)
    except Exception:  # an integer past 64 bits, a lone surrogate
        return cap(repr(unit.records), 1 << 20)


__all__ = ["IngestSummary", "ingest", "units_of"]
