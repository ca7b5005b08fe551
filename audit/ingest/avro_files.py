"""Reading and writing the project's Avro container files (``schemas/*.avsc``).

A file's family is known from the envelope name in its header; it is read with the
family's *current* schema as reader schema, so a file written with an older schema
version reads with the newer one (Avro schema resolution; new fields need defaults).
Records are grouped into runs of one subject (a hand's events are contiguous in an
operator's export) and checked (``audit.ingest.invariants``); a bad record is rejected
alone, the rest of its subject and file still go in; a corrupt or truncated file keeps
everything read before the damage and rejects the rest of the file as one record.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import fastavro

from audit.families import Family, family_of_schema
from audit.ingest.avro_shape import from_avro, to_avro
from audit.ingest.errors import FieldError, RecordRejected
from audit.ingest.invariants import UnitChecker, check_record
from audit.ingest.rulebook_choice import rulebook_for
from audit.store.application import SubjectRecords, canonical

RAW_FILE_LIMIT = 1 << 20  # a damaged file up to 1 MiB is kept whole in quarantine


def write_events(
    path: Path, family: Family, events: Iterable[dict[str, Any]], codec: str = "deflate"
) -> None:
    """Write flat events as one Avro container file of ``family``."""
    with path.open("wb") as out:
        fastavro.writer(
            out,
            family.parsed_schema,
            (to_avro(e, namespace=family.namespace) for e in events),
            codec=codec,
        )


def _raw_file(path: Path) -> str:
    size = path.stat().st_size
    if size > RAW_FILE_LIMIT:
        return f"(file of {size} bytes left in place; too large to copy into quarantine)"
    return "base64:" + base64.b64encode(path.read_bytes()).decode()


def _open_reader(path: Path, stream: BinaryIO) -> tuple[Family, Any]:
    try:
        header = fastavro.reader(stream)
    except Exception as error:  # fastavro raises several types for a bad header
        raise RecordRejected(
            path, "file", "(header)", f"not an Avro container file: {error}", _raw_file(path)
        ) from None
    name = header.writer_schema.get("name", "") if isinstance(header.writer_schema, dict) else ""
    family = family_of_schema(name)
    if family is None:
        raise RecordRejected(
            path, "file", "(schema)", f"unknown event family {name!r}", _raw_file(path)
        )
    stream.seek(0)
    try:
        return family, fastavro.reader(
            stream, reader_schema=family.parsed_schema, return_record_name=True
        )
    except Exception as error:
        raise RecordRejected(
            path,
            "file",
            "(schema)",
            f"written with a schema that does not resolve to the current "
            f"{family.name} schema v{family.version}: {error}",
            _raw_file(path),
        ) from None


def iter_avro_units(
    path: Path, *, rulebooks: Sequence[str] = ()
) -> Iterator[SubjectRecords | RecordRejected]:
    """Runs of one subject's valid records, and a RecordRejected for each bad record."""
    with path.open("rb") as stream:
        try:
            family, reader = _open_reader(path, stream)
        except RecordRejected as rejected:
            yield rejected
            return
        unit: SubjectRecords | None = None
        checker = UnitChecker(family.name)
        index = -1
        records = iter(reader)
        while True:
            try:
                raw = next(records)
            except StopIteration:
                break
            except Exception as error:  # truncated block, bad sync marker, bad codec data
                yield RecordRejected(
                    path,
                    f"after record {index}",
                    "(file)",
                    f"file is corrupt or truncated: {error}",
                    _raw_file(path),
                )
                break
            index += 1
            flat = from_avro(raw)
            subject = flat[family.subject_key]
            if unit is None or unit.subject_id != subject:
                if unit is not None and unit.records:
                    yield unit
                unit = SubjectRecords(family.name, subject, [], source=f"{path}")
                checker = UnitChecker(family.name)
            try:
                check_record(flat)
                checker.check(flat)
            except FieldError as error:
                yield RecordRejected(
                    path,
                    f"record {index} ({family.subject_key} {subject})",
                    error.field,
                    error.reason,
                    canonical(flat),
                )
                continue
            if rulebooks and flat.get("rulebook", "") is None:
                flat["rulebook"] = rulebook_for(rulebooks, flat.get("variant") or flat.get("game"))
            unit.records.append(flat)
        if unit is not None and unit.records:
            yield unit


def read_events(path: Path) -> list[dict[str, Any]]:
    """All flat events of a file (tests, tools); no validation."""
    with path.open("rb") as stream:
        return [from_avro(r) for r in fastavro.reader(stream, return_record_name=True)]


__all__ = ["iter_avro_units", "read_events", "write_events"]
