"""The ingest's first pass, kept: every unit and rejection read, in input order, on disk.

``Spill`` is a temporary SQLite file under ``TMPDIR`` holding each unit (pickled, with
its subject, file and position) and each rejection, and an index of every event by
(subject, sequence, content digest). The records of the units holding an ingest's first
``held_events`` events stay in memory instead (``Spill.held``): a night's input file,
read whole, is held whole. ``finish`` finds, within the ingest, the (subject, sequence)s
whose versions differ (disputed), the events read more than once (repeated) and the
subjects with either (flagged); the second pass (``audit.ingest.pipeline``) reads the
units back in input order (``rows``) and asks those questions of each.
"""

from __future__ import annotations

import pickle
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit.ingest.errors import RecordRejected
from audit.store import SubjectRecords, event_digest


@dataclass
class SpillRow:
    id: int
    file: int
    kind: str | None
    subject: str | None
    position: str
    size: int
    """Bytes pass two loads from disk for the row (0 for a held unit: already in memory)."""
    data: bytes
    flagged: bool
    held: Any = None
    """A held unit's records, as read (``Spill.held``); None: pickled in ``data``."""

    def content(self) -> Any:
        """The unit's records, or the rejection's (position, field, reason, raw)."""
        return self.held if self.held is not None else pickle.loads(self.data)  # our spill


class Spill:
    """Pass one's output: every unit and rejection, in input order, on disk, with an
    index of their events by (subject, sequence, content); the records of the units
    holding the first ``held_events`` events kept in memory instead (``held``)."""

    FLUSH_ROWS, FLUSH_BYTES = 500, 16 << 20

    def __init__(self, directory: str, held_events: int) -> None:
        self.held: dict[int, list[dict[str, Any]]] = {}
        self.room = held_events
        self.db = sqlite3.connect(Path(directory) / "spill.sqlite", isolation_level=None)
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "cache_size = -16000"):
            self.db.execute(f"PRAGMA {pragma}")
        self.db.execute(
            "CREATE TABLE unit (id INTEGER PRIMARY KEY, file INTEGER NOT NULL, kind TEXT, "
            "subject TEXT, position TEXT NOT NULL, size INTEGER NOT NULL, data BLOB NOT NULL)"
        )
        self.db.execute(
            "CREATE TABLE event (unit INTEGER NOT NULL, kind TEXT NOT NULL, subject TEXT NOT "
            "NULL, sequence INTEGER NOT NULL, digest BLOB NOT NULL)"
        )
        self.db.execute("BEGIN")
        self.units: list[tuple[Any, ...]] = []
        self.events: list[tuple[Any, ...]] = []
        self.buffered = 0
        self.next_id = 1

    def _add(self, row: tuple[Any, ...], size: int) -> int:
        unit_id = self.next_id
        self.next_id += 1
        self.units.append((unit_id, *row))
        self.buffered += size
        if len(self.units) >= self.FLUSH_ROWS or self.buffered >= self.FLUSH_BYTES:
            self._flush()
        return unit_id

    def _flush(self) -> None:
        self.db.executemany(
            "INSERT INTO unit (id, file, kind, subject, position, size, data) "
            "VALUES (?,?,?,?,?,?,?)",
            self.units,
        )
        self.db.executemany("INSERT INTO event VALUES (?,?,?,?,?)", self.events)
        self.units, self.events, self.buffered = [], [], 0

    def add_unit(self, file: int, unit: SubjectRecords) -> None:
        digests = [(r["sequence"], event_digest(r)) for r in unit.records]
        if len(digests) <= self.room:  # held as read: nothing pickled, nothing loaded
            self.room -= len(digests)
            row = (file, unit.kind, unit.subject_id, unit.position, 0, b"")
            unit_id = self._add(row, 0)
            self.held[unit_id] = unit.records
        else:
            data = pickle.dumps(unit.records, protocol=pickle.HIGHEST_PROTOCOL)
            row = (file, unit.kind, unit.subject_id, unit.position, len(data), data)
            unit_id = self._add(row, len(data))
        self.events.extend((unit_id, unit.kind, unit.subject_id, q, d) for q, d in digests)

    def add_rejection(self, file: int, rejected: RecordRejected) -> None:
        text = (rejected.position, rejected.field, rejected.reason, rejected.raw)
        data = pickle.dumps(text, protocol=pickle.HIGHEST_PROTOCOL)
        self._add((file, None, None, rejected.position, len(data), data), len(data))

    def finish(self) -> None:
        """Index the events: the (subject, sequence)s whose versions differ within this
        ingest (``disputed``), the events read more than once (``repeated``, with the
        first unit holding each), and the subjects with either (``flagged``)."""
        self._flush()
        self.db.execute("COMMIT")
        self.db.execute("CREATE INDEX event_at ON event (kind, subject, sequence, digest)")
        self.db.execute(
            "CREATE TABLE disputed AS SELECT kind, subject, sequence FROM event "
            "GROUP BY kind, subject, sequence HAVING COUNT(DISTINCT digest) > 1"
        )
        self.db.execute(
            "CREATE TABLE repeated AS SELECT kind, subject, sequence, digest, MIN(unit) AS "
            "first FROM event GROUP BY kind, subject, sequence, digest HAVING COUNT(*) > 1"
        )
        self.db.execute(
            "CREATE TABLE flagged AS SELECT DISTINCT kind, subject FROM "
            "(SELECT kind, subject FROM disputed UNION SELECT kind, subject FROM repeated)"
        )
        for table, columns in (
            ("disputed", "kind, subject, sequence"),
            ("repeated", "kind, subject, sequence, digest"),
            ("flagged", "kind, subject"),
        ):
            self.db.execute(f"CREATE UNIQUE INDEX {table}_at ON {table} ({columns})")

    def rows(self) -> Iterator[SpillRow]:
        cursor = self.db.execute(
            "SELECT u.id, u.file, u.kind, u.subject, u.position, u.size, u.data, "
            "f.kind IS NOT NULL FROM unit u LEFT JOIN flagged f "
            "ON f.kind = u.kind AND f.subject = u.subject ORDER BY u.id"
        )
        for unit_id, file, kind, subject, position, size, data, flagged in cursor:
            held = self.held.pop(unit_id, None)
            yield SpillRow(unit_id, file, kind, subject, position, size, data, flagged, held)

    def disputed(self, row: SpillRow) -> set[int]:
        """Sequences of ``row``'s subject whose versions differ within this ingest."""
        return {
            sequence
            for (sequence,) in self.db.execute(
                "SELECT sequence FROM disputed WHERE kind = ? AND subject = ?",
                (row.kind, row.subject),
            )
        }

    def read_before(self, row: SpillRow) -> set[int]:
        """Sequences of ``row``'s events that an earlier unit of this ingest holds too."""
        return {
            sequence
            for (sequence,) in self.db.execute(
                "SELECT e.sequence FROM event e JOIN repeated r ON r.kind = e.kind AND "
                "r.subject = e.subject AND r.sequence = e.sequence AND r.digest = e.digest "
                "WHERE e.unit = ? AND r.first != e.unit",
                (row.id,),
            )
        }

    def versions(self, row: SpillRow, sequence: int, limit: int = 3) -> list[tuple[int, str]]:
        """(file, position) of the units holding other versions of ``row``'s event at
        ``sequence``, first of each version."""
        return self.db.execute(
            "SELECT u.file, u.position FROM event e JOIN unit u ON u.id = e.unit "
            "WHERE e.kind = ? AND e.subject = ? AND e.sequence = ? AND e.digest != "
            "(SELECT digest FROM event WHERE unit = ? AND sequence = ?) "
            "GROUP BY e.digest ORDER BY MIN(e.unit) LIMIT ?",
            (row.kind, row.subject, sequence, row.id, sequence, limit),
        ).fetchall()

    def close(self) -> None:
        self.db.close()
