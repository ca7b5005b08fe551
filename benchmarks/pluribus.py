"""The 10,000 Pluribus hands: ingest and replay speed beside PokerKit on the same files.

    .ci/with-postgres .venv/bin/python benchmarks/pluribus.py [--profile] [--in-memory] [PHH_FOLDER]

PHH_FOLDER defaults to the Pluribus archive of ../shared/data/phh, unpacked to a
temporary folder. One process, one core. Prints hands/s for:

* ingest: PHH files -> validated events -> the store (hash chain, batches), on SQLite
  and, when ``CASINO_AUDIT_TEST_PG_URL`` names a server (``.ci/with-postgres``), on a
  fresh PostgreSQL schema;
* replay from the store: read every hand back, judge it, store the verdicts
  (``casino-audit replay``), on each store; with ``--profile``, the top of its cProfile
  (profiling slows it: take the rates from a run without);
* replay in memory: ``adjudicate_hand`` over the converted events (no I/O, no steps);
* PokerKit: iterating every state of the same files' ``HandHistory`` (PokerKit's own
  replay of PHH, with its showdown and chip pushing), parsed beforehand like ours;
* reading the files into events alone (parsing the PHH, building the events: the first
  step of ingest, with no store, every hand's events kept), CPU per hand, with Python's
  default collector thresholds and with ingest's (``fewer_collections``);

and the ratios of replay from each store to replay in memory, and of our in-memory
replay to PokerKit's, all from the same run, by the clock and by CPU time; and what
each store holds on disk, tables and indexes included, per hand and per event, after
the ingest (the hands' events alone) and after the replay (with the verdicts), beside
the bytes of the events' states alone. ``--in-memory`` skips the stores (the
in-memory and PokerKit figures only); with ``--profile`` it prints the in-memory
replay's cProfile instead. The replayer's modules loaded (compiled by mypyc, or pure
Python) are printed first.
No assertion: a benchmark.
"""

from __future__ import annotations

import cProfile
import gc
import os
import pstats
import sqlite3
import sys
import tarfile
import tempfile
import time
import uuid
from collections.abc import Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg
from pokerkit import HandHistory

from audit.collector import fewer_collections
from audit.config import parse_store_url
from audit.ingest.phh import hand_events, iter_phh_records
from audit.ingest.pipeline import ingest
from audit.judging import replay
from audit.store import AuditStore
from audit.store.packing import HEADER_SQL, covered_versions
from replayer.compiled import build_description
from replayer.poker import adjudicate_hand
from replayer.poker.evaluator import rank_five

ARCHIVE = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh" / "pluribus-2019.tar.gz"
RULEBOOK = "gg-2022-cash-holdem"


def rate(count: int, seconds: float) -> str:
    return f"{count:>6,} hands in {seconds:7.2f} s = {count / seconds:>9,.0f} hands/s"


@dataclass(frozen=True)
class Size:
    """What a store holds: its bytes on disk (tables and indexes), its rows, the events
    in them (a packed row holds several, ``audit.store.packing``), and the bytes of the
    rows' states as stored (compressed in a packed row)."""

    disk: int
    rows: int
    events: int
    states: int

    def line(self, hands: int) -> str:
        return (
            f"{self.disk / hands:>8,.0f} B/hand {self.disk / self.events:>6,.0f} B/event "
            f"({self.events / hands:.1f} events/hand in {self.rows / hands:.1f} rows/hand; "
            f"states as stored {self.states / self.events:,.0f} B/event; "
            f"{self.disk / 2**20:,.1f} MiB)"
        )


def _counted(rows: Iterable[Sequence[Any]]) -> tuple[int, int, int]:
    """(rows, events, state bytes) of (originator, version, topic, state header, state
    length) rows."""
    n = events = states = 0
    for originator, version, topic, head, length in rows:
        n += 1
        events += len(covered_versions(originator, version, topic, bytes(head)))
        states += length
    return n, events, states


def stored_size(url: str) -> Size:
    """The size of the store at ``url``: SQLite, the database file's pages in use;
    PostgreSQL, every table of its schema with its indexes and TOAST
    (``pg_total_relation_size``)."""
    where = parse_store_url(url)
    count = "SELECT originator_id, originator_version, topic, {head}, length(state) FROM {table}"
    if where.kind == "sqlite":
        with closing(sqlite3.connect(where.sqlite_path)) as conn:
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            free = conn.execute("PRAGMA freelist_count").fetchone()[0]
            disk = (pages - free) * conn.execute("PRAGMA page_size").fetchone()[0]
            query = count.format(head=HEADER_SQL["sqlite"], table="stored_events")
            counted = _counted(conn.execute(query))
        return Size(disk, *counted)
    with psycopg.connect(url.split("?")[0], autocommit=True) as conn:
        row = conn.execute(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r'",
            (where.schema,),
        ).fetchone()
        assert row is not None
        query = count.format(
            head=HEADER_SQL["postgresql"], table=f"{where.schema}.casinoaudit_events"
        )
        counted = _counted(conn.execute(query))  # type: ignore[arg-type]
    return Size(int(row[0]), *counted)


def store_run(url: str, folder: Path, profile: bool) -> tuple[int, float, int, float, Size, Size]:
    """(hands ingested, seconds, hands replayed, seconds, size after the ingest, size
    after the replay) into the store at ``url``."""
    store = AuditStore(url)
    began, began_cpu = time.perf_counter(), time.process_time()
    summary = ingest(store, [folder], rulebooks=[RULEBOOK])
    ingest_s, ingest_cpu = time.perf_counter() - began, time.process_time() - began_cpu
    ingested = stored_size(url)
    profiler = cProfile.Profile() if profile else None
    began, began_cpu = time.perf_counter(), time.process_time()
    if profiler is not None:
        profiler.enable()
    replayed = replay(store, kinds=["poker"])
    if profiler is not None:
        profiler.disable()
    replay_s, replay_cpu = time.perf_counter() - began, time.process_time() - began_cpu
    replayed_size = stored_size(url)
    hands_in = max(summary.subjects_stored, 1)
    print(
        f"  CPU time of this process, {url.split(':', 1)[0]}: ingest "
        f"{ingest_cpu / hands_in * 1e6:,.0f} µs/hand, replay from the store "
        f"{replay_cpu / max(replayed.subjects['poker'], 1) * 1e6:,.0f} µs/hand"
    )
    store.close()
    if profiler is not None:
        print(f"profile: replay from {url.split(':', 1)[0]}, by own time")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)
    hands, judged = summary.subjects_stored, replayed.subjects["poker"]
    return hands, ingest_s, judged, replay_s, ingested, replayed_size


def read_hands(files: Sequence[Path]) -> tuple[list[list[dict[str, Any]]], float]:
    """Every hand of ``files`` as events (PHH parsed, events built, all kept), and the CPU
    seconds it took."""
    began_cpu = time.process_time()
    hands = [
        hand_events(record, default_rulebook=RULEBOOK)
        for path in files
        for record in iter_phh_records(path)
    ]
    return hands, time.process_time() - began_cpu


def main(folder: Path, work: Path, profile: bool, in_memory: bool) -> None:
    files = sorted(folder.rglob("*.phh"))
    stores = {} if in_memory else {"SQLite": f"sqlite:///{work / 'pluribus.db'}"}
    pg_base = os.environ.get("CASINO_AUDIT_TEST_PG_URL")
    if pg_base and not in_memory:
        stores["PostgreSQL"] = f"{pg_base}?schema=pluribus_{uuid.uuid4().hex[:8]}"
    hands, reading_cpu = read_hands(files)
    with fewer_collections():
        _, reading_as_ingest_cpu = read_hands(files)
    rank_five(["As", "Ks", "Qs", "Js", "Ts"])  # the evaluator's tables, built before timing
    runs = {name: store_run(url, folder, profile) for name, url in stores.items()}

    gc.collect()
    gc.freeze()
    profiler = cProfile.Profile() if profile and in_memory else None
    began, began_cpu = time.perf_counter(), time.process_time()
    if profiler is not None:
        profiler.enable()
    with_findings = sum(bool(adjudicate_hand(h, with_steps=False).findings) for h in hands)
    if profiler is not None:
        profiler.disable()
        print("profile: replay in memory, by own time")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(25)
    memory_s, memory_cpu = time.perf_counter() - began, time.process_time() - began_cpu

    began = time.perf_counter()
    histories = []
    for path in files:
        with path.open("rb") as stream:
            histories.append(HandHistory.load(stream))
    parse_s = time.perf_counter() - began
    began, began_cpu = time.perf_counter(), time.process_time()
    for history in histories:
        for _ in history:
            pass
    pokerkit_s, pokerkit_cpu = time.perf_counter() - began, time.process_time() - began_cpu

    print(f"Pluribus hands: {len(files):,} files; replayer {build_description()}")
    print(
        f"  reading the files into events (PHH parsed, events built; ingest's first step): "
        f"{reading_cpu / len(hands) * 1e6:,.0f} µs of CPU per hand; "
        f"{reading_as_ingest_cpu / len(hands) * 1e6:,.0f} µs with ingest's collector "
        f"setting (audit.collector.fewer_collections)"
    )
    for name, (ingested, ingest_s, *_) in runs.items():
        print(f"  ingest into {name:<14}{rate(ingested, ingest_s)}")
    for name, (_, _, replayed, replay_s, *_) in runs.items():
        print(f"  replay from {name:<14}{rate(replayed, replay_s)}")
    print(
        f"  replay in memory          {rate(len(hands), memory_s)}  ({with_findings} with findings)"
    )
    print(f"  PokerKit replay           {rate(len(files), pokerkit_s)}  (parsed beforehand)")
    print(f"  PokerKit parse + replay   {rate(len(files), parse_s + pokerkit_s)}")
    memory_rate = len(hands) / memory_s
    for name, (_, _, replayed, replay_s, *_) in runs.items():
        print(f"  replay from {name} / in memory = {replayed / replay_s / memory_rate:.2f}")
    print(f"  in-memory replay / PokerKit replay = {pokerkit_s / memory_s:.1f}x")
    for name, (ingested, _, _, _, events_only, with_verdicts) in runs.items():
        print(f"  {name} size, events:        {events_only.line(ingested)}")
        print(f"  {name} size, with verdicts: {with_verdicts.line(ingested)}")
    print(
        f"  CPU time (steadier on a shared machine): in memory "
        f"{memory_cpu / len(hands) * 1e6:.0f} µs/hand, PokerKit "
        f"{pokerkit_cpu / len(files) * 1e6:.0f} µs/hand = {pokerkit_cpu / memory_cpu:.1f}x"
    )


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a not in ("--profile", "--in-memory")]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        if arguments:
            source = Path(arguments[0])
        else:
            with tarfile.open(ARCHIVE) as tar:
                tar.extractall(tmp, filter="data")
            source = tmp / "pluribus"
        main(source, tmp, "--profile" in sys.argv[1:], "--in-memory" in sys.argv[1:])
