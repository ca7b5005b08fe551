"""Stored bytes per Pluribus hand on PostgreSQL for three layouts, and PostgreSQL's limits.

    .ci/with-postgres .venv/bin/python benchmarks/store_layouts.py \\
        [--hands N] [--grow 10000,100000,1000000] [--probe 10000] [--probe-hands 200] \\
        [--wal-compression off|pglz|lz4|zstd] [PHH_FOLDER]

PHH_FOLDER defaults to the Pluribus archive of ../shared/data/phh, unpacked to a
temporary folder; a folder or archive that is absent, or no server in
``CASINO_AUDIT_TEST_PG_URL`` (``.ci/with-postgres`` sets it; 127.0.0.1 only), prints why
and exits 0. ``--hands`` takes the first N files (default all). Issue #24 asks for
≤ 2 KB per hand, tables and indexes, verdicts included; this measures what each layout
takes, after ``VACUUM ANALYZE``, with ``pg_total_relation_size`` (per table),
``pg_relation_size`` (per heap, TOAST and index) and ``pg_column_size`` (per column):

1. **product**: the product's own store, filled by its own ingest (``audit.ingest``)
   and replay (``audit.judging.replay``), the events alone and with the verdicts; the
   WAL both wrote (``pg_current_wal_lsn`` before and after; ``pg_waldump --stats``
   splits it into records and full-page images when the server's ``pg_waldump`` can
   read its ``pg_wal``). The last ``--probe-hands`` hands (default 200) are ingested
   apart, after a ``CHECKPOINT``: the store's WAL per hand when its first change to
   each page since the checkpoint logs the whole page.
2. **lean per event**: the same events' compact states, read from the product's store,
   in the leanest table a chained one-row-per-event design could have::

       originator_id uuid, originator_version int, topic smallint, state bytea,
       chain_hash bytea, PRIMARY KEY (originator_id, originator_version)

   * ``originator_id``: which subject (hand, verdict unit) the event belongs to; a
     uuid is 16 bytes, a text id longer;
   * ``originator_version``: its place in the subject, half of the key that makes
     ingest idempotent and reads of one subject ordered; ``int`` (4 bytes) is ample for
     the events of one subject (the product's ``bigint`` takes 8);
   * ``topic``: which event class decodes the state; a ``smallint`` code into a table
     of topics (the product stores the topic's text, 42 bytes);
   * ``state``: the compact state itself (Avro under a fingerprinted schema);
   * ``chain_hash``: the event's link in the hash chain (SHA-256, 32 bytes); without it
     a row is not tamper-evident by itself. ``chain_prev`` is the previous row's
     ``chain_hash`` and is left out.

   Left out too: the ``notification_id`` and its two indexes (global order, the shard's
   head) and ``chain_shard``/``chain_form``. That makes this a lower bound, not a
   design: the hash chain needs an order, which here is only the key's (a chain per
   subject in version order, the subjects' heads left to signed checkpoints), and a
   reader of "what is new" needs a notification id and its index, about 8 + 30 bytes
   more per event (the product's figures).
3. **one row per hand** (per subject and ingest batch): a subject's consecutive events
   of one batch (the ingest, or the replay's verdict unit) in one row::

       originator_id uuid, first_version int, events bytea, chain_hash bytea,
       PRIMARY KEY (originator_id, first_version)

   ``events`` is, per event, its topic code (1 byte), its state's length (a varint) and
   the state; event *k* of the row is version ``first_version + k``, so every event's
   identity is inside. One chain hash per row. Measured uncompressed, and with
   ``events`` compressed per row by zlib (levels 6 and 9), zstd (levels 3 and 19,
   through the system's ``libzstd`` when present), and zlib and zstd with a raw
   dictionary of 32 KiB made of 1 row in 100 of the same set (those rows are measured
   too: a bias of at most 1% of the rows in the dictionary's favour; the dictionary
   itself is stored once, not per row). PostgreSQL compresses a value itself (pglz)
   only when its row passes about 2 KB, so most rows stay as written; the report gives
   the mean ``octet_length`` beside ``pg_column_size``.
4. **growth**: the lean per-event table, the uncompressed per-hand table under random
   subject ids and the same under time-ordered ones (``synthetic``), each grown by
   ``COPY`` to each size of ``--grow`` (events) from the real rows under fresh uuids
   (the product's subject uuids are uuid5, as random in the key's order); per step its
   events/s by the clock, the client's and the server backend's CPU per event, the
   heap's and the primary key's bytes, WAL bytes per event; then, after a
   ``CHECKPOINT``, ``--probe`` events more: WAL per event when each insert may be the
   first change of its index page since the checkpoint, which PostgreSQL logs as a
   full page image (``full_page_writes``). ``--wal-compression`` sets
   ``wal_compression`` for every connection of the run (``PGOPTIONS``), the product's
   included.

``fsync=off`` (``.ci/with-postgres``) changes no WAL volume: WAL is written the same,
only not flushed; ``wal_level``, ``full_page_writes`` and ``wal_compression`` are
printed with the results. Rates are one run on a shared machine: the load average is
printed before and after. No assertion: a benchmark.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg
from psycopg import sql

from audit.ingest.pipeline import ingest
from audit.judging import replay
from audit.store import AuditStore

ARCHIVE = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh" / "pluribus-2019.tar.gz"
RULEBOOK = "gg-2022-cash-holdem"
EVENTS_TABLE = "casinoaudit_events"
DICTIONARY_BYTES = 32 * 1024
DICTIONARY_EVERY = 100
HANDS_PER_DAY = 48_000_000
DAYS_10_YEARS = 3652.5

Row = tuple[Any, ...]


# --- measuring -----------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """A table as measured: its bytes by part, its rows and the mean bytes per column."""

    name: str
    total: int
    parts: dict[str, int]
    rows: int
    columns: dict[str, float]
    octets: dict[str, float] = field(default_factory=dict)


def measure(conn: psycopg.Connection[Any], schema: str, table: str, name: str) -> Layout:
    """``VACUUM ANALYZE`` then the table's bytes: heap (main fork), free space and
    visibility maps, TOAST (with its index), each index; and per column the mean
    ``pg_column_size`` (and ``octet_length`` of bytea columns)."""
    qualified = sql.Identifier(schema, table)
    conn.execute(sql.SQL("VACUUM ANALYZE {}").format(qualified))
    oid = f"{schema}.{table}"
    one = conn.execute(
        "SELECT pg_total_relation_size(%s::regclass), pg_relation_size(%s::regclass), "
        "pg_relation_size(%s::regclass, 'fsm') + pg_relation_size(%s::regclass, 'vm'), "
        "coalesce((SELECT pg_total_relation_size(reltoastrelid) FROM pg_class "
        "WHERE oid = %s::regclass AND reltoastrelid <> 0), 0)",
        (oid,) * 5,
    ).fetchone()
    assert one is not None
    total, heap, maps, toast = (int(v) for v in one)
    parts = {"heap": heap, "fsm+vm": maps, "toast": toast}
    for index, size in conn.execute(
        "SELECT indexrelid::regclass::text, pg_relation_size(indexrelid) FROM pg_index "
        "WHERE indrelid = %s::regclass ORDER BY 1",
        (oid,),
    ):
        parts[f"index {index.split('.')[-1]}"] = int(size)
    columns = [
        (str(c), str(t))
        for c, t in conn.execute(
            "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = %s::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
            (oid,),
        )
    ]
    means = [sql.SQL("avg(pg_column_size({c}))").format(c=sql.Identifier(c)) for c, _ in columns]
    octet_columns = [c for c, t in columns if t == "bytea"]
    means += [sql.SQL("avg(octet_length({c}))").format(c=sql.Identifier(c)) for c in octet_columns]
    got = conn.execute(
        sql.SQL("SELECT count(*), {m} FROM {t}").format(m=sql.SQL(", ").join(means), t=qualified)
    ).fetchone()
    assert got is not None
    rows = int(got[0])
    column_means = {c: float(v or 0) for (c, _), v in zip(columns, got[1:], strict=False)}
    octets = {c: float(v or 0) for c, v in zip(octet_columns, got[1 + len(columns) :], strict=True)}
    return Layout(name, total, parts, rows, column_means, octets)


@dataclass(frozen=True)
class Wal:
    """WAL written between two LSNs: bytes, and from ``pg_waldump --stats`` (when it
    could read the segments) the records' bytes and the full-page images' bytes."""

    bytes: int
    records: int | None = None
    fpi: int | None = None

    @property
    def without_images(self) -> int:
        """The bytes less the full-page images (all of them when unknown)."""
        return self.bytes - (self.fpi or 0)


class WalMeter:
    """Reads the server's WAL position; splits a span with the server's ``pg_waldump``."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn
        data_dir = conn.execute("SHOW data_directory").fetchone()
        major = conn.execute("SHOW server_version_num").fetchone()
        assert data_dir is not None and major is not None
        self.wal_dir = Path(str(data_dir[0])) / "pg_wal"
        found = sorted(Path("/usr/lib/postgresql").glob(f"{int(major[0]) // 10000}/bin/pg_waldump"))
        self.waldump = str(found[0]) if found else shutil.which("pg_waldump")

    def lsn(self) -> str:
        got = self.conn.execute("SELECT pg_current_wal_insert_lsn()::text").fetchone()
        assert got is not None
        return str(got[0])

    def span(self, start: str) -> Wal:
        end = self.lsn()
        got = self.conn.execute("SELECT pg_wal_lsn_diff(%s, %s)", (end, start)).fetchone()
        assert got is not None
        wal = Wal(int(got[0]))
        if self.waldump is None or not self.wal_dir.is_dir():
            return wal
        self.conn.execute("SELECT pg_switch_wal()")  # the span's last segment, complete
        done = subprocess.run(
            [self.waldump, "-p", str(self.wal_dir), "-s", start, "-e", end, "--stats=record"],
            capture_output=True,
            text=True,
            check=False,
        )
        records = fpi = 0
        seen = False
        for line in done.stdout.splitlines():
            # "Heap/INSERT   N (%)   record size (%)   FPI size (%)   combined size (%)"
            numbers = re.findall(r"(\d+)\s+\(\s*[\d.]+\)", line)
            if len(numbers) == 4 and not line.lstrip().startswith("Total"):
                seen = True
                records += int(numbers[1])
                fpi += int(numbers[2])
        return Wal(wal.bytes, records, fpi) if seen else wal


def server_cpu(conn: psycopg.Connection[Any]) -> Callable[[], float | None]:
    """The CPU seconds (user + system) of this connection's server process so far, from
    ``/proc`` (None when it cannot be read: another machine, another user)."""
    got = conn.execute("SELECT pg_backend_pid()").fetchone()
    assert got is not None
    stat = Path(f"/proc/{int(got[0])}/stat")
    ticks = os.sysconf("SC_CLK_TCK")

    def seconds() -> float | None:
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / ticks

    return seconds


# --- the layouts ---------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """One stored event of the product's store, as the other layouts need it."""

    originator: uuid.UUID
    version: int
    topic: int
    state: bytes
    chain_hash: bytes
    batch: int
    """0: written by the ingest, 1: by the replay (the verdicts)."""


def product_events(
    conn: psycopg.Connection[Any], schema: str, ingest_last: int
) -> tuple[list[Event], list[str]]:
    """The product's events in notification order, topics coded by their sorted order."""
    table = sql.Identifier(schema, EVENTS_TABLE)
    topics = [
        str(t)
        for (t,) in conn.execute(sql.SQL("SELECT DISTINCT topic FROM {} ORDER BY 1").format(table))
    ]
    code = {t: i for i, t in enumerate(topics)}
    events = [
        Event(o, int(v), code[t], bytes(s), bytes(h), int(n > ingest_last))
        for o, v, t, s, h, n in conn.execute(
            sql.SQL(
                "SELECT originator_id, originator_version, topic, state, chain_hash, "
                "notification_id FROM {} ORDER BY notification_id"
            ).format(table)
        )
    ]
    return events, topics


def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


@dataclass(frozen=True)
class HandRow:
    """One subject's consecutive events of one batch: the per-hand layout's row."""

    originator: uuid.UUID
    first_version: int
    events: bytes


def hand_rows(events: Sequence[Event]) -> list[HandRow]:
    """The events grouped per subject and batch, in the order of each group's first
    event; a group whose versions are not consecutive is cut where they jump."""
    groups: dict[tuple[uuid.UUID, int], list[Event]] = {}
    for event in events:
        groups.setdefault((event.originator, event.batch), []).append(event)
    rows = []
    for group in groups.values():
        group.sort(key=lambda e: e.version)
        cuts = [i for i in range(1, len(group)) if group[i].version != group[i - 1].version + 1]
        for start, end in zip([0, *cuts], [*cuts, len(group)], strict=True):
            run = group[start:end]
            body = b"".join(bytes([e.topic]) + _varint(len(e.state)) + e.state for e in run)
            rows.append(HandRow(run[0].originator, run[0].version, body))
    return rows


class Zstd:
    """zstd through the system's libzstd (ctypes): no Python package needed."""

    def __init__(self, library: str) -> None:
        lib = ctypes.CDLL(library)
        size, data = ctypes.c_size_t, ctypes.c_char_p
        lib.ZSTD_compressBound.restype, lib.ZSTD_compressBound.argtypes = size, [size]
        lib.ZSTD_isError.restype, lib.ZSTD_isError.argtypes = ctypes.c_uint, [size]
        lib.ZSTD_createCCtx.restype = ctypes.c_void_p
        lib.ZSTD_compressCCtx.restype = size
        lib.ZSTD_compressCCtx.argtypes = [ctypes.c_void_p, data, size, data, size, ctypes.c_int]
        lib.ZSTD_createCDict.restype = ctypes.c_void_p
        lib.ZSTD_createCDict.argtypes = [data, size, ctypes.c_int]
        lib.ZSTD_compress_usingCDict.restype = size
        lib.ZSTD_compress_usingCDict.argtypes = [
            ctypes.c_void_p, data, size, data, size, ctypes.c_void_p,
        ]  # fmt: skip
        lib.ZSTD_versionString.restype = ctypes.c_char_p
        self.lib = lib
        self.context = lib.ZSTD_createCCtx()
        self.version = lib.ZSTD_versionString().decode()
        self.dictionaries: dict[tuple[bytes, int], int] = {}

    def compress(self, data: bytes, level: int, dictionary: bytes = b"") -> bytes:
        """``data`` compressed at ``level``, with ``dictionary`` as a raw content
        dictionary when given (prepared once per dictionary and level)."""
        bound = self.lib.ZSTD_compressBound(len(data))
        out = ctypes.create_string_buffer(bound)
        if dictionary:
            key = (dictionary, level)
            if key not in self.dictionaries:
                self.dictionaries[key] = self.lib.ZSTD_createCDict(
                    dictionary, len(dictionary), level
                )
            n = self.lib.ZSTD_compress_usingCDict(
                self.context, out, bound, data, len(data), self.dictionaries[key]
            )
        else:
            n = self.lib.ZSTD_compressCCtx(self.context, out, bound, data, len(data), level)
        if self.lib.ZSTD_isError(n):
            raise ValueError("zstd could not compress")
        return out.raw[:n]


def zstd() -> Zstd | None:
    """The system's zstd, or None."""
    library = ctypes.util.find_library("zstd")
    return Zstd(library) if library else None


def _zlib_with(dictionary: bytes, level: int) -> Callable[[bytes], bytes]:
    def compress(data: bytes) -> bytes:
        packer = zlib.compressobj(level, zlib.DEFLATED, -15, zdict=dictionary)
        return packer.compress(data) + packer.flush()

    return compress


def compressors(rows: Sequence[HandRow]) -> dict[str, Callable[[bytes], bytes]]:
    """Per-row compressions of the per-hand layout, by name (``none`` first)."""
    sample = b"".join(r.events for r in rows[::DICTIONARY_EVERY])[-DICTIONARY_BYTES:]
    found: dict[str, Callable[[bytes], bytes]] = {
        "none": lambda data: data,
        "zlib 6": lambda data: zlib.compress(data, 6),
        "zlib 9": lambda data: zlib.compress(data, 9),
        "zlib 9 + dict": _zlib_with(sample, 9),
    }
    packer = zstd()
    if packer is not None:
        found["zstd 3"] = lambda data: packer.compress(data, 3)
        found["zstd 19"] = lambda data: packer.compress(data, 19)
        found["zstd 19 + dict"] = lambda data: packer.compress(data, 19, sample)
    return found


LEAN_TABLE = (
    "CREATE TABLE {t} (originator_id uuid NOT NULL, originator_version int NOT NULL, "
    "topic smallint NOT NULL, state bytea NOT NULL, chain_hash bytea NOT NULL, "
    "PRIMARY KEY (originator_id, originator_version))"
)
LEAN_COLUMNS = "originator_id, originator_version, topic, state, chain_hash"
HAND_TABLE = (
    "CREATE TABLE {t} (originator_id uuid NOT NULL, first_version int NOT NULL, "
    "events bytea NOT NULL, chain_hash bytea NOT NULL, "
    "PRIMARY KEY (originator_id, first_version))"
)
HAND_COLUMNS = "originator_id, first_version, events, chain_hash"


def lean_rows(events: Sequence[Event]) -> Iterator[Row]:
    for e in events:
        yield (e.originator, e.version, e.topic, e.state, e.chain_hash)


def chained(rows: Sequence[HandRow], compress: Callable[[bytes], bytes]) -> Iterator[Row]:
    """Per-hand rows with a real hash chain over them (SHA-256 of the previous hash, the
    subject, the first version and the stored bytes)."""
    prev = bytes(32)
    for r in rows:
        stored = compress(r.events)
        prev = hashlib.sha256(
            prev + r.originator.bytes + r.first_version.to_bytes(4, "big") + stored
        ).digest()
        yield (r.originator, r.first_version, stored, prev)


@dataclass(frozen=True)
class Copied:
    """What one ``COPY`` of rows cost."""

    rows: int
    seconds: float
    client_cpu: float
    server_cpu: float | None
    wal: Wal


def copy_rows(
    conn: psycopg.Connection[Any], meter: WalMeter, table: sql.Composable, columns: str,
    rows: Iterator[Row],
) -> Copied:  # fmt: skip
    """COPY ``rows`` into ``table`` in one transaction; its time, CPU and WAL."""
    backend = server_cpu(conn)
    start, server_before = meter.lsn(), backend()
    began, began_cpu = time.perf_counter(), time.process_time()
    count = 0
    with conn.transaction(), conn.cursor() as cur:
        statement = sql.SQL("COPY {t} ({c}) FROM STDIN").format(t=table, c=sql.SQL(columns))
        with cur.copy(statement) as copy:
            for row in rows:
                copy.write_row(row)
                count += 1
    seconds, cpu = time.perf_counter() - began, time.process_time() - began_cpu
    server_after = backend()
    used = None if server_before is None or server_after is None else server_after - server_before
    return Copied(count, seconds, cpu, used, meter.span(start))


# --- runs ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    """WAL written by one part of the product's run, and the hands and events it wrote."""

    wal: Wal
    hands: int
    events: int


@dataclass
class Results:
    hands: int
    product_events: Layout | None = None
    product: Layout | None = None
    ingest: Span | None = None
    probe: Span | None = None
    replay: Span | None = None
    events: int = 0
    ingest_events: int = 0
    layouts: list[tuple[Layout, Copied]] = field(default_factory=list)
    growth: list[Step] = field(default_factory=list)


def _count(conn: psycopg.Connection[Any], schema: str) -> tuple[int, int]:
    """(the last notification id, the number of events) of the product's store."""
    table = sql.Identifier(schema, EVENTS_TABLE)
    last = conn.execute(sql.SQL("SELECT max(notification_id), count(*) FROM {}").format(table))
    got = last.fetchone()
    assert got is not None
    return int(got[0] or 0), int(got[1])


def product_run(
    base_url: str, folder: Path, probe_folder: Path | None, meter: WalMeter, schema: str
) -> tuple[Results, int]:
    """Ingest ``folder`` into a fresh schema of the product's store; then, after a
    ``CHECKPOINT``, ``probe_folder`` (its WAL measured apart: with the full-page images
    of a store's first writes after a checkpoint); then replay every hand (the
    verdicts). Returns the results so far and the last notification id of the ingest."""
    store = AuditStore(f"{base_url}?schema={schema}")
    conn = meter.conn
    start = meter.lsn()
    summary = ingest(store, [folder], rulebooks=[RULEBOOK])
    ingest_wal = meter.span(start)
    _, main_events = _count(conn, schema)
    ingested = Span(ingest_wal, summary.subjects_stored, main_events)
    hands, probe = summary.subjects_stored, None
    if probe_folder is not None:
        conn.execute("CHECKPOINT")
        start = meter.lsn()
        probed = ingest(store, [probe_folder], rulebooks=[RULEBOOK])
        probe_wal = meter.span(start)
        probe = Span(probe_wal, probed.subjects_stored, _count(conn, schema)[1] - main_events)
        hands += probed.subjects_stored
    ingest_last, ingest_events = _count(conn, schema)
    events_only = measure(conn, schema, EVENTS_TABLE, "product, events only")
    events_only = _whole_schema(conn, schema, events_only)
    start = meter.lsn()
    judged = replay(store, kinds=["poker"])
    replay_wal = meter.span(start)
    store.close()
    with_verdicts = _whole_schema(conn, schema, measure(conn, schema, EVENTS_TABLE, "product"))
    replayed = Span(replay_wal, judged.subjects["poker"], with_verdicts.rows - ingest_events)
    results = Results(
        hands,
        events_only,
        with_verdicts,
        ingested,
        probe,
        replayed,
        with_verdicts.rows,
        ingest_events,
    )
    return results, ingest_last


def _whole_schema(conn: psycopg.Connection[Any], schema: str, events: Layout) -> Layout:
    """The events table's layout with every other table of the store's schema added as
    one part (checkpoints, and whatever else the store keeps)."""
    got = conn.execute(
        "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s "
        "AND c.relkind = 'r' AND c.relname <> %s",
        (schema, EVENTS_TABLE),
    ).fetchone()
    assert got is not None
    others = int(got[0])
    parts = events.parts | {"other tables": others}
    return Layout(events.name, events.total + others, parts, events.rows, events.columns)


def build(
    conn: psycopg.Connection[Any], meter: WalMeter, schema: str, name: str, create: str,
    columns: str, rows: Iterator[Row], label: str,
) -> tuple[Layout, Copied]:  # fmt: skip
    """A fresh table of a layout, filled by one COPY, measured."""
    table = sql.Identifier(schema, name)
    conn.execute(sql.SQL(create).format(t=table))
    copied = copy_rows(conn, meter, table, columns, rows)
    return measure(conn, schema, name, label), copied


def synthetic(events: Sequence[Event], ordered: bool) -> Iterator[list[Event]]:
    """The real subjects' events (in a fixed shuffled order, so that any stretch holds
    hands and verdict units alike) over and over, each time under a fresh uuid: random
    (uuid4, as the product's uuid5 subject ids fall in the key's order), or ``ordered``:
    each greater than the last (a counter, then random bits, as a time-ordered uuid7)."""
    groups: dict[uuid.UUID, list[Event]] = {}
    for event in events:
        groups.setdefault(event.originator, []).append(event)
    mixed = list(groups.values())
    random.Random(24).shuffle(mixed)  # hands and verdict units mixed, as in a day's flow
    count = 0
    while True:
        for group in mixed:
            count += 1
            fresh = (
                uuid.UUID(int=(count << 64) | uuid.uuid4().int >> 64) if ordered else uuid.uuid4()
            )
            yield [Event(fresh, e.version, e.topic, e.state, e.chain_hash, e.batch) for e in group]


@dataclass(frozen=True)
class Step:
    """One growth step: the table's events after it, the COPY up to there (``events``
    of them in ``copied.rows`` rows), the heap's and primary key's bytes, then the probe
    after a CHECKPOINT (``probe_events`` events)."""

    table: str
    stored: int
    copied: Copied
    events: int
    heap: int
    key: int
    probed: Copied
    probe_events: int


def grow(
    conn: psycopg.Connection[Any], meter: WalMeter, schema: str, events: Sequence[Event],
    targets: Sequence[int], probe: int, per_hand: bool, ordered: bool = False,
) -> list[Step]:  # fmt: skip
    """Grow a lean (or per-hand) table to each target number of events; per step the
    COPY's cost, the heap's and primary key's bytes, then a probe after a CHECKPOINT.
    Subject ids are random, or ``ordered`` (see ``synthetic``)."""
    name = ("grow_hand" if per_hand else "grow_lean") + ("_ordered" if ordered else "")
    table = sql.Identifier(schema, name)
    conn.execute(sql.SQL(HAND_TABLE if per_hand else LEAN_TABLE).format(t=table))
    columns = HAND_COLUMNS if per_hand else LEAN_COLUMNS
    source = synthetic(events, ordered)
    stored = 0

    def batch(until: int) -> Iterator[Row]:
        nonlocal stored
        while stored < until:
            group = next(source)
            stored += len(group)
            if per_hand:
                yield from chained(hand_rows(group), lambda data: data)
            else:
                yield from lean_rows(group)

    out = []
    for target in targets:
        before = stored
        copied = copy_rows(conn, meter, table, columns, batch(target))
        got = conn.execute(
            "SELECT pg_relation_size(%s::regclass), pg_indexes_size(%s::regclass)",
            (f"{schema}.{name}",) * 2,
        ).fetchone()
        assert got is not None
        grown = stored
        conn.execute("CHECKPOINT")
        probed = copy_rows(conn, meter, table, columns, batch(stored + probe))
        step = Step(
            name, grown, copied, grown - before, int(got[0]), int(got[1]), probed, stored - grown
        )
        out.append(step)
    return out


# --- the report ----------------------------------------------------------------------


def _gb(n: float) -> str:
    return f"{n / 1e9:,.0f} GB" if n < 1e14 else f"{n / 1e15:,.2f} PB"


def _wal_line(label: str, wal: Wal, hands: int, events: int) -> str:
    split = (
        f"; records {wal.records / hands:,.0f} B/hand, full-page images {wal.fpi / hands:,.0f}"
        " B/hand"
        if wal.records is not None and wal.fpi is not None
        else "; pg_waldump could not split it"
    )
    return (
        f"  WAL, {label}: {wal.bytes:,} B = {wal.bytes / hands:,.0f} B/hand, "
        f"{wal.bytes / max(events, 1):,.0f} B/event{split}; "
        f"{wal.bytes / hands * HANDS_PER_DAY / 1e9:,.0f} GB/day at 48M hands"
    )


def report(results: Results, settings: dict[str, str]) -> None:
    hands = results.hands
    print(
        "settings: "
        + ", ".join(f"{k}={v}" for k, v in settings.items())
        + f"; {hands:,} hands, {results.events:,} events ({results.ingest_events:,} from the "
        f"ingest), {results.events / hands:.1f} per hand"
    )
    print()
    print(
        "| layout | rows | B/hand | B/event | heap | TOAST | indexes "
        "| WAL less page images, B/hand | 48M hands/day: per day | 10 years |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    measured: list[tuple[Layout, Wal | None]] = []
    if results.product_events is not None and results.product is not None:
        ingested, replayed = results.ingest, results.replay
        only = both = None
        if ingested is not None and replayed is not None:  # per hand of the whole run
            only = Wal(round(ingested.wal.without_images / ingested.hands * hands))
            both = Wal(only.bytes + round(replayed.wal.without_images / replayed.hands * hands))
        measured += [(results.product_events, only), (results.product, both)]
    measured += [(layout, copied.wal) for layout, copied in results.layouts]
    for layout, wal in measured:
        per_hand = layout.total / hands
        indexes = sum(v for k, v in layout.parts.items() if k.startswith("index"))
        events = results.ingest_events if layout is results.product_events else results.events
        logged = "" if wal is None else f"{wal.without_images / hands:,.0f}"
        print(
            f"| {layout.name} | {layout.rows:,} | {per_hand:,.0f} | {layout.total / events:,.0f} "
            f"| {layout.parts['heap'] / hands:,.0f} | {layout.parts['toast'] / hands:,.0f} "
            f"| {indexes / hands:,.0f} | {logged} "
            f"| {_gb(per_hand * HANDS_PER_DAY)} "
            f"| {_gb(per_hand * HANDS_PER_DAY * DAYS_10_YEARS)} |"
        )
    print()
    for layout, _ in measured:
        parts = ", ".join(f"{k} {v / hands:,.0f}" for k, v in layout.parts.items())
        columns = ", ".join(f"{k} {v:,.1f}" for k, v in layout.columns.items())
        octets = ", ".join(f"{k} {v:,.1f}" for k, v in layout.octets.items())
        print(f"  {layout.name}: B/hand by part: {parts}")
        print(f"    mean pg_column_size per row: {columns}; mean octet_length: {octets}")
    for label, span in (
        ("product ingest", results.ingest),
        ("product ingest right after a CHECKPOINT", results.probe),
        ("product replay (verdicts)", results.replay),
    ):
        if span is not None:
            print(_wal_line(f"{label}, {span.hands:,} hands", span.wal, span.hands, span.events))
    for layout, copied in results.layouts:
        print(
            _wal_line(f"COPY into {layout.name}", copied.wal, hands, results.events)
            + f"; {copied.rows / copied.seconds:,.0f} rows/s"
        )
    if results.growth:
        print()
        print(
            "| table | events | events/s | client CPU µs/event | server CPU µs/event | heap MB "
            "| primary key MB | key B/event | WAL B/event | probe after CHECKPOINT: events/s "
            "| WAL B/event | of which full-page images |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for step in results.growth:
        copied, probed, n, p = step.copied, step.probed, step.events, step.probe_events
        server = "" if copied.server_cpu is None else f"{copied.server_cpu / n * 1e6:.1f}"
        fpi = "?" if probed.wal.fpi is None else f"{probed.wal.fpi / p:,.0f}"
        print(
            f"| {step.table} | {step.stored:,} | {n / copied.seconds:,.0f} "
            f"| {copied.client_cpu / n * 1e6:.1f} | {server} | {step.heap / 1e6:,.1f} "
            f"| {step.key / 1e6:,.1f} | {step.key / step.stored:.1f} "
            f"| {copied.wal.bytes / n:,.0f} | {p / probed.seconds:,.0f} "
            f"| {probed.wal.bytes / p:,.0f} | {fpi} |"
        )


def _setting(conn: psycopg.Connection[Any], name: str) -> str:
    got = conn.execute(sql.SQL("SHOW {}").format(sql.Identifier(name))).fetchone()
    assert got is not None
    return str(got[0])


def main(
    folder: Path, base_url: str, hands: int | None, targets: Sequence[int], probe: int,
    probe_hands: int,
) -> None:  # fmt: skip
    print(f"command: {' '.join(sys.argv)}")
    print(
        f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average before: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    schema = f"layouts_{uuid.uuid4().hex[:8]}"
    with (
        tempfile.TemporaryDirectory() as tmp_name,
        psycopg.connect(base_url, autocommit=True) as conn,
    ):
        files = sorted(folder.rglob("*.phh"))[:hands]
        cut = len(files) - probe_hands if 0 < probe_hands < len(files) else len(files)
        subset, probe_set = Path(tmp_name) / "hands", Path(tmp_name) / "probe"
        for at, path in enumerate(files):
            link = (subset if at < cut else probe_set) / path.relative_to(folder)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(path.resolve())
        settings = {
            name: _setting(conn, name)
            for name in (
                "server_version", "fsync", "wal_level", "full_page_writes", "wal_compression",
                "shared_buffers", "checkpoint_timeout", "max_wal_size",
            )
        }  # fmt: skip
        meter = WalMeter(conn)
        probed = probe_set if cut < len(files) else None
        results, ingest_last = product_run(base_url, subset, probed, meter, schema)
        events, _topics = product_events(conn, schema, ingest_last)
        results.layouts.append(
            build(
                conn, meter, schema, "lean_events", LEAN_TABLE, LEAN_COLUMNS, lean_rows(events),
                "lean per event",
            )
        )  # fmt: skip
        rows = hand_rows(events)
        for name, compress in compressors(rows).items():
            table = "hands_" + re.sub(r"\W+", "_", name)
            results.layouts.append(
                build(
                    conn, meter, schema, table, HAND_TABLE, HAND_COLUMNS, chained(rows, compress),
                    f"per hand, {name}",
                )
            )  # fmt: skip
        if targets:
            results.growth += grow(conn, meter, schema, events, targets, probe, per_hand=False)
            results.growth += grow(conn, meter, schema, events, targets, probe, per_hand=True)
            results.growth += grow(
                conn, meter, schema, events, targets, probe, per_hand=True, ordered=True
            )
        conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
    report(results, settings)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def on_pluribus(
    name: str, folder: Path | None, url: str | None, run: Callable[[Path, str], None]
) -> None:
    """``run(folder, url)`` on ``folder``, or on the Pluribus archive unpacked to a
    temporary folder when it is None; why not (and nothing else) when there is no server
    in ``url``, no such folder or no archive."""
    if not url:
        print(f"{name}: no CASINO_AUDIT_TEST_PG_URL (run under .ci/with-postgres): skipped")
    elif folder is not None:
        if folder.is_dir():
            run(folder, url)
        else:
            print(f"{name}: {folder} is not a folder: skipped")
    elif not ARCHIVE.is_file():
        print(f"{name}: {ARCHIVE} is absent: skipped")
    else:
        with tempfile.TemporaryDirectory() as unpacked, tarfile.open(ARCHIVE) as tar:
            tar.extractall(unpacked, filter="data")
            run(Path(unpacked) / "pluribus", url)


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", nargs="?", type=Path, help="a folder of PHH files")
    parser.add_argument("--hands", type=int, default=None, help="the first N files only")
    parser.add_argument(
        "--grow", default="10000,100000,1000000", help="event counts to grow to ('' for none)"
    )
    parser.add_argument("--probe", type=int, default=10_000, help="rows after each CHECKPOINT")
    parser.add_argument(
        "--probe-hands",
        type=int,
        default=200,
        help="the last N hands ingested after a CHECKPOINT, their WAL apart (0: none)",
    )
    parser.add_argument(
        "--wal-compression", default=None, help="the session's wal_compression (pglz, lz4, zstd)"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = _arguments(sys.argv[1:])
    url = os.environ.get("CASINO_AUDIT_TEST_PG_URL")
    steps = [int(n) for n in args.grow.split(",") if n.strip()]
    if args.wal_compression:  # every connection of this process, the product's included
        os.environ["PGOPTIONS"] = f"-c wal_compression={args.wal_compression}"
    on_pluribus(
        "store_layouts",
        args.folder,
        url,
        lambda folder, base_url: main(
            folder, base_url, args.hands, steps, args.probe, args.probe_hands
        ),
    )
