"""Reading and writing the project's Avro container files (``schemas/*.avsc``).

A file's family is known from the envelope name in its header; it is read with the
family's *current* schema as reader schema, so a file written with an older schema
version reads with the newer one (Avro schema resolution; new fields need defaults).
Records are grouped into runs of one subject (a hand's events are contiguous in an
operator's export) and checked (``audit.ingest.invariants``); a bad record is rejected
alone, the rest of its subject and file still go in; a corrupt or truncated file keeps
everything read before the damage and rejects the rest of the file as one record.

The container is framed here, not by fastavro's file reader, so that no input can make
ingest hold more than the limits allow (``audit.ingest.limits``): the header is read
with bounded lengths, each block is decompressed with a ceiling
(``max_avro_block_bytes``; a record never spans blocks, so this bounds any one record,
whatever array it holds), and its records are decoded one by one. A block that is too
large, does not decompress or holds a record that does not decode is one rejection
(the rest of that block); the next block is read again, since its position is known.
Only a broken frame (a wrong sync marker, the file cut short) ends the file. A subject
with more than ``max_events_per_subject`` events or ``max_values_per_subject`` values in
one run is rejected whole, and its further records are decoded and dropped, never held.
"""

from __future__ import annotations

import base64
import bz2
import io
import json
import lzma
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO

import fastavro
from fastavro.read import SchemaResolutionError

from audit.families import Family, family_of_schema
from audit.ingest.avro_shape import from_avro, to_avro
from audit.ingest.errors import FieldError, RecordRejected
from audit.ingest.invariants import UnitChecker, check_record, check_widths
from audit.ingest.limits import DEFAULT_LIMITS, Limits
from audit.ingest.rulebook_choice import rulebook_for
from audit.store import SubjectRecords, canonical

RAW_FILE_LIMIT = 1 << 20  # a damaged file up to 1 MiB is kept whole in quarantine
MAGIC = b"Obj\x01"
SYNC_SIZE = 16
#: Bounds on a container header (schema and metadata): far above any real one.
MAX_HEADER_BYTES = 1 << 20
MAX_HEADER_ENTRIES = 1000


def write_events(
    path: Path, family: Family, events: Iterable[dict[str, Any]], codec: str = "deflate"
) -> None:
    """Write flat events as one Avro container file of ``family``."""
    # ``map``, not a generator expression: compiled by mypyc, a generator expression that
    # fastavro's writer consumes kept every record it yielded alive (measured: 62 MiB more
    # for 100,000 events).
    with path.open("wb") as out:
        fastavro.writer(
            out,
            family.parsed_schema,
            map(partial(to_avro, namespace=family.namespace), events),
            codec=codec,
        )


def _raw_file(path: Path) -> str:
    size = path.stat().st_size
    if size > RAW_FILE_LIMIT:
        return f"(file of {size} bytes left in place; too large to copy into quarantine)"
    return "base64:" + base64.b64encode(path.read_bytes()).decode()


def _raw_bytes(data: bytes, what: str) -> str:
    if len(data) > RAW_FILE_LIMIT:
        return f"({what} of {len(data)} bytes left in the file; too large to copy into quarantine)"
    return "base64:" + base64.b64encode(data).decode()


class _Damaged(Exception):
    """The container's framing is broken: nothing after this point can be read."""


class _Unreadable(Exception):
    """The header cannot be used (not Avro, unknown family, unresolvable schema)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.reason = reason


def _read_exactly(stream: BinaryIO, size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise EOFError(f"file ends {size - len(data)} bytes early")
    return data


def _read_long(stream: BinaryIO) -> int:
    """One zig-zag varint (Avro ``long``); EOFError at the end of the file."""
    result = shift = 0
    for _ in range(10):
        byte = stream.read(1)
        if not byte:
            raise EOFError("file ends inside a number")
        value = byte[0]
        result |= (value & 0x7F) << shift
        if not value & 0x80:
            return (result >> 1) ^ -(result & 1)
        shift += 7
    raise _Damaged("a number longer than 64 bits")


def _read_header(stream: BinaryIO) -> tuple[dict[str, bytes], bytes]:
    if stream.read(4) != MAGIC:
        raise _Unreadable("(header)", "not an Avro container file: no 'Obj\\x01' magic")
    meta: dict[str, bytes] = {}
    total = 0
    try:
        while True:
            count = _read_long(stream)
            if count == 0:
                break
            if count < 0:
                count = -count
                _read_long(stream)  # the block's size in bytes
            if len(meta) + count > MAX_HEADER_ENTRIES:
                raise _Unreadable("(header)", "not an Avro container file: header too large")
            for _ in range(count):
                pair = []
                for _ in range(2):
                    size = _read_long(stream)
                    total += max(size, 0)
                    if size < 0 or total > MAX_HEADER_BYTES:
                        raise _Unreadable(
                            "(header)", "not an Avro container file: header too large"
                        )
                    pair.append(_read_exactly(stream, size))
                meta[pair[0].decode("utf-8", "replace")] = pair[1]
        sync = _read_exactly(stream, SYNC_SIZE)
    except (EOFError, _Damaged) as error:
        raise _Unreadable("(header)", f"not an Avro container file: {error}") from None
    return meta, sync


@dataclass
class _Container:
    family: Family
    writer: Any
    codec: str
    sync: bytes


def _open(stream: BinaryIO) -> _Container:
    meta, sync = _read_header(stream)
    try:
        schema = json.loads(meta.get("avro.schema", b"").decode("utf-8"))
        writer = fastavro.parse_schema(schema)
    except Exception as error:  # bad JSON, bad schema, absurd nesting
        raise _Unreadable(
            "(header)", f"not an Avro container file: unusable schema: {error}"
        ) from None
    name = writer.get("name", "") if isinstance(writer, dict) else ""
    family = family_of_schema(name)
    if family is None:
        raise _Unreadable("(schema)", f"unknown event family {name!r}")
    if _shape(writer) == _shape(family.parsed_schema):
        writer = family.parsed_schema  # the same schema: decode without resolution (4x faster)
    codec = meta.get("avro.codec", b"null").decode("utf-8", "replace")
    if codec not in _CODECS:
        raise _Unreadable(
            "(header)",
            f"compression codec {codec!r} is not supported: use null, deflate, bzip2 or xz",
        )
    return _Container(family, writer, codec, sync)


def _shape(schema: Any) -> Any:
    """A parsed schema without docs and fastavro's own keys, to compare two."""
    if isinstance(schema, dict):
        return {k: _shape(v) for k, v in schema.items() if k != "doc" and not k.startswith("__")}
    if isinstance(schema, list):
        return [_shape(item) for item in schema]
    return schema


def _inflate(data: bytes, limit: int) -> bytes | None:
    inflater = zlib.decompressobj(-15)
    out = inflater.decompress(data, limit + 1)
    return None if len(out) > limit or inflater.unconsumed_tail else out


def _bunzip(data: bytes, limit: int) -> bytes | None:
    decompressor = bz2.BZ2Decompressor()
    out = decompressor.decompress(data, max_length=limit + 1)
    return None if len(out) > limit or not decompressor.eof else out


def _unxz(data: bytes, limit: int) -> bytes | None:
    decompressor = lzma.LZMADecompressor()
    out = decompressor.decompress(data, max_length=limit + 1)
    return None if len(out) > limit or not decompressor.eof else out


#: codec -> decompress(data, limit): the block's bytes, or None when beyond ``limit``.
_CODECS = {
    "null": lambda data, limit: data if len(data) <= limit else None,
    "deflate": _inflate,
    "bzip2": _bunzip,
    "xz": _unxz,
}


@dataclass
class _Block:
    first: int  # index of its first record in the file
    count: int
    data: bytes


def _blocks(
    path: Path, stream: BinaryIO, container: _Container, limits: Limits
) -> Iterator[_Block | RecordRejected]:
    """Each block's records, decompressed, or a rejection for a block that cannot be;
    a rejection for the rest of the file when its framing breaks, and the end."""
    first = 0
    limit = limits.max_avro_block_bytes
    while True:
        offset = stream.tell()
        try:
            try:
                count = _read_long(stream)
            except EOFError:
                return  # the end, between blocks
            size = _read_long(stream)
            if count < 0 or size < 0:
                raise _Damaged(f"negative block count or size ({count}, {size})")
            if size > limit:
                raise _Damaged(
                    f"a block of {size:,} bytes, beyond {limits.describe('max_avro_block_bytes')}"
                )
            data = _read_exactly(stream, size)
            if _read_exactly(stream, SYNC_SIZE) != container.sync:
                raise _Damaged("sync marker does not match the header's")
        except (EOFError, _Damaged) as error:
            stream.seek(offset)
            rest = stream.read(RAW_FILE_LIMIT + 1)
            yield RecordRejected(
                path,
                f"after record {first - 1}",
                "(file)",
                f"file is corrupt or truncated at byte {offset:,}: {error}; the rest of the "
                "file is not read",
                _raw_bytes(rest, "rest of the file"),
            )
            return
        try:
            block = _CODECS[container.codec](data, limit)
            problem = (
                f"decompresses to more than {limit:,} bytes, beyond "
                f"{limits.describe('max_avro_block_bytes')}"
            )
        except Exception as error:  # zlib.error, OSError, LZMAError, EOFError
            block, problem = None, f"does not decompress: {error}"
        if block is not None and count > len(block):
            problem = f"claims {count:,} records in {len(block):,} bytes"
            block = None
        if block is None:
            yield RecordRejected(
                path,
                f"block at byte {offset:,} (records {first}..{first + count - 1})",
                "(block)",
                f"block {problem}; its records are not read, the next block is",
                _raw_bytes(data, "block"),
            )
        else:
            yield _Block(first, count, block)
        first += count


@dataclass
class _Run:
    """The subject whose records are being gathered, and what they weigh."""

    unit: SubjectRecords
    checker: UnitChecker
    first: int
    last: int = 0
    values: int = 0


def iter_avro_units(
    path: Path, *, rulebooks: Sequence[str] = (), limits: Limits = DEFAULT_LIMITS
) -> Iterator[SubjectRecords | RecordRejected]:
    """Runs of one subject's valid records, and a RecordRejected for each bad record."""
    with path.open("rb") as stream:
        try:
            container = _open(stream)
        except _Unreadable as error:
            yield RecordRejected(path, "file", error.field, error.reason, _raw_file(path))
            return
        yield from _units(path, stream, container, rulebooks, limits)


def _units(
    path: Path,
    stream: BinaryIO,
    container: _Container,
    rulebooks: Sequence[str],
    limits: Limits,
) -> Iterator[SubjectRecords | RecordRejected]:
    family = container.family
    key = family.subject_key
    reader = family.parsed_schema
    run: _Run | None = None
    dropping: str | None = None  # a subject over the limits: its records are dropped

    def finish() -> Iterator[SubjectRecords]:
        if run is not None and run.unit.records:
            run.unit.position = f"records {run.first}..{run.last} ({key} {run.unit.subject_id})"
            yield run.unit

    for block in _blocks(path, stream, container, limits):
        if isinstance(block, RecordRejected):
            yield block
            continue
        data = io.BytesIO(block.data)
        for index in range(block.first, block.first + block.count):
            start = data.tell()
            try:
                raw = fastavro.schemaless_reader(
                    data,
                    container.writer,
                    None if container.writer is reader else reader,
                    return_record_name=True,
                )
            except SchemaResolutionError as error:
                yield from finish()
                yield RecordRejected(
                    path,
                    "file",
                    "(schema)",
                    f"written with a schema that does not resolve to the current "
                    f"{family.name} schema v{family.version}: {error}",
                    _raw_file(path),
                )
                return
            except Exception as error:  # a value that does not decode: lose the block's rest
                last = block.first + block.count - 1
                yield RecordRejected(
                    path,
                    f"records {index}..{last} (block)",
                    "(block)",
                    f"record {index} does not decode ({type(error).__name__}: {error}); the "
                    "rest of its block is not read, the next block is",
                    _raw_bytes(block.data[start:], "rest of the block"),
                )
                break
            subject = raw.get(key) if isinstance(raw, dict) else None
            if dropping is not None and subject == dropping:
                continue
            dropping = None
            try:
                if not isinstance(raw, dict) or not isinstance(subject, str):
                    raise TypeError(f"not a record with a string {key}")
                flat = family.without_unset_additions(from_avro(raw))
            except Exception as error:  # not the shape fastavro gives: cannot happen, kept safe
                yield RecordRejected(path, f"record {index}", "body", str(error), repr(raw))
                continue
            if run is None or run.unit.subject_id != subject:
                yield from finish()
                unit = SubjectRecords(family.name, subject, [], source=f"{path}")
                run = _Run(unit, UnitChecker(family.name), index)
            try:
                check_widths(family.name, flat)
                values = check_record(flat)
                run.checker.check(flat)
            except FieldError as error:
                yield RecordRejected(
                    path,
                    f"record {index} ({key} {subject})",
                    error.field,
                    error.reason,
                    _record_text(flat),
                )
                continue
            except Exception as error:  # a value no check expected: this record alone
                yield RecordRejected(
                    path,
                    f"record {index} ({key} {subject})",
                    "(record)",
                    f"could not be checked: {type(error).__name__}: {error}",
                    _record_text(flat),
                )
                continue
            run.values += values
            if (
                len(run.unit.records) >= limits.max_events_per_subject
                or run.values > limits.max_values_per_subject
            ):
                yield RecordRejected(
                    path,
                    f"records {run.first}.. ({key} {subject})",
                    "(subject)",
                    f"{family.name} subject {subject!r} has more than "
                    f"{len(run.unit.records):,} events ({run.values:,} values) in one run, "
                    f"beyond {limits.describe('max_events_per_subject')} or "
                    f"{limits.describe('max_values_per_subject')}: none of its records in "
                    "this file is stored",
                    "",
                )
                run, dropping = None, subject
                continue
            if rulebooks and flat.get("rulebook", "") is None:
                flat["rulebook"] = rulebook_for(
                    rulebooks,
                    flat.get("variant") or flat.get("game"),
                    tournament=flat.get("tournament_id") is not None,
                )
            run.unit.records.append(flat)
            run.last = index
    yield from finish()


def _record_text(flat: dict[str, Any]) -> str:
    try:
        return canonical(flat)
    except Exception:  # an integer past 64 bits, a string orjson refuses
        return repr(flat)


def read_events(path: Path) -> list[dict[str, Any]]:
    """All flat events of a file (tests, tools); no validation."""
    events = []
    with path.open("rb") as stream:
        for record in fastavro.reader(stream, return_record_name=True):
            if not isinstance(record, dict):
                raise ValueError(f"{path}: holds a {type(record).__name__}, not records")
            events.append(from_avro(record))
    return events


__all__ = ["iter_avro_units", "read_events", "write_events"]
