"""Ingest benchmark: events/s into SQLite and PostgreSQL beside raw COPY on the same server.

    .ci/with-postgres .venv/bin/python benchmarks/ingest.py [--events 1000000]

1. Writes a synthetic Avro file of poker events (hands of 20 events).
2. Ingests it end to end (Avro decode, invariants, eventsourcing mapper, hash chain,
   batched transactions) into a fresh SQLite file and a fresh PostgreSQL schema, each
   in a child process so its peak RSS is its own, and its CPU time (the ingesting
   process's, the server's not counted) is the ingest's; a second, smaller run shows whether
   peak memory grows with input size.
3. Dumps the rows the store wrote on PostgreSQL and COPYs the same rows with raw psycopg
   into a plain table (no keys, no indexes) on the same server, in the same run; the
   ratio is the COPY's time over the ingest's, for the same events (rows are packed, a
   hand's events in one row, so rows/s and events/s are no longer the same count).
4. Ingests the same number of events split into N files, by N writer processes at once
   (``--writers``, default 1,2,4), each on its own chain shard, into a fresh PostgreSQL
   schema, and two writers on one chain shard: the throughput of N writers beside one
   (wall time from the first start to the last end).
5. Profiles one ingest into PostgreSQL (cProfile, the top functions by own time).
6. Prints events/s, the ratios and peak memory. No assertion: a benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg

EVENTS_PER_HAND = 20


def _event(hand_id: str, at: datetime, seq: int, kind: str, body: dict) -> dict:
    return {
        "event_id": f"{hand_id}#{seq}",
        "hand_id": hand_id,
        "sequence": seq,
        "occurred_at": at,
        "type": kind,
        **body,
    }


def synthetic_events(n_events: int, first_hand: int = 0):
    """Flat poker events: HandStarted, a blind, 17 actions, one award (20 per hand)."""
    start = datetime(2025, 3, 1, tzinfo=UTC)
    seats = [{"seat": s, "player_id": f"player-{s}", "stack": 1_000_000} for s in range(1, 7)]
    for h in range(first_hand, first_hand + n_events // EVENTS_PER_HAND):
        hand_id, at = f"bench-table-{h % 50}/{h}", start + timedelta(seconds=h)
        yield _event(
            hand_id,
            at,
            0,
            "HandStarted",
            {
                "rulebook": "gg-2022-cash-holdem",
                "table_id": f"bench-table-{h % 50}",
                "variant": "NT",
                "currency": "EUR",
                "smallest_chip": 1,
                "small_blind": 50,
                "big_blind": 100,
                "ante": 0,
                "min_bet": 100,
                "button": 6,
                "seats": seats,
                "shuffle_commitment": None,
                "source": None,
            },
        )
        yield _event(
            hand_id, at, 1, "BlindPosted", {"seat": 1, "kind": "small_blind", "amount": 50}
        )
        for seq in range(2, EVENTS_PER_HAND - 1):
            yield _event(
                hand_id,
                at,
                seq,
                "ActionTaken",
                {"seat": seq % 6 + 1, "action": "call", "amount": 100},
            )
        yield _event(
            hand_id,
            at,
            EVENTS_PER_HAND - 1,
            "PotAwarded",
            {"seat": 2, "amount": 1750, "pot_index": None},
        )


def write_input(path: Path, n_events: int, first_hand: int = 0) -> None:
    from audit.families import family_named
    from audit.ingest.avro_files import write_events

    write_events(path, family_named("poker"), synthetic_events(n_events, first_hand))


def child_ingest(url: str, avro: str, chain_shard: str, profile: bool) -> None:
    """Run in a child process: ingest (into ``chain_shard``'s chain) and report its start and
    end (epoch seconds), events and peak RSS as JSON; with ``profile``, print the top of
    the cProfile of the ingest first."""
    import cProfile
    import pstats

    from audit.ingest.pipeline import ingest
    from audit.store import AuditStore

    store = AuditStore(url, chain_shard=chain_shard)
    recorder: Any = store.recorder
    insert, locked = recorder.insert_events, [0.0]

    def timed_insert(*args: Any, **kwargs: Any) -> Any:  # the time under the chain shard's lock
        began = time.perf_counter()
        try:
            return insert(*args, **kwargs)
        finally:
            locked[0] += time.perf_counter() - began

    recorder.insert_events = timed_insert
    profiler = cProfile.Profile() if profile else None
    began, cpu_began = time.time(), time.process_time()
    if profiler is not None:
        profiler.enable()
    summary = ingest(store, [Path(avro)])
    if profiler is not None:
        profiler.disable()
    ended, cpu = time.time(), time.process_time() - cpu_began
    if profiler is not None:
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(18)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "seconds": ended - began,
                "cpu": cpu,
                "began": began,
                "ended": ended,
                "events": summary.events_stored,
                "locked": locked[0],
                "peak_mib": peak_kib / 1024,
            }
        )
    )


def _child_command(url: str, avro: Path, chain_shard: str = "", profile: bool = False) -> list[str]:
    return [sys.executable, __file__, "--child", url, str(avro), chain_shard, str(int(profile))]


def run_child(url: str, avro: Path, profile: bool = False) -> dict:
    out = subprocess.run(
        _child_command(url, avro, profile=profile), check=True, capture_output=True, text=True
    )
    if profile:
        print(out.stdout.strip().rsplit("\n", 1)[0])
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_writers(url: str, avros: list[Path], *, one_chain_shard: bool = False) -> dict:
    """Ingest each file in its own writer process, all at once, each on its own chain
    shard (``one_chain_shard``: all on one, whose lock then lets one writer in at a time):
    events and the wall time from the first writer's start to the last one's end."""
    children = [
        subprocess.Popen(
            _child_command(url, avro, "bench/one" if one_chain_shard else f"bench/writer-{i}"),
            stdout=subprocess.PIPE,
            text=True,
        )
        for i, avro in enumerate(avros)
    ]
    outs = []
    for child in children:
        stdout, _ = child.communicate()
        if child.returncode:
            sys.exit(f"a writer failed (exit {child.returncode})")
        outs.append(json.loads(stdout.strip().splitlines()[-1]))
    wall = max(o["ended"] for o in outs) - min(o["began"] for o in outs)
    return {"events": sum(o["events"] for o in outs), "seconds": wall}


def copy_baseline(pg_base: str, schema: str) -> tuple[float, int]:
    """COPY the rows our store wrote into a plain table, timed; (seconds, rows)."""
    table = f"{schema}.casinoaudit_events"
    with (
        psycopg.connect(pg_base, autocommit=True) as conn,
        tempfile.TemporaryFile() as dump,
        conn.cursor() as cur,
    ):
        columns = "originator_id, originator_version, topic, state, chain_prev, chain_hash"
        with cur.copy(f"COPY (SELECT {columns} FROM {table}) TO STDOUT") as copy:
            for block in copy:
                dump.write(block)
        cur.execute(
            f"CREATE TABLE {schema}.copy_baseline (originator_id uuid, "
            "originator_version bigint, topic text, state bytea, chain_prev bytea, "
            "chain_hash bytea)"
        )
        dump.seek(0)
        began = time.perf_counter()
        with conn.transaction(), cur.copy(f"COPY {schema}.copy_baseline FROM STDIN") as copy:
            while block := dump.read(1 << 20):
                copy.write(block)
        seconds = time.perf_counter() - began
        cur.execute(f"SELECT count(*) FROM {schema}.copy_baseline")
        rows = cur.fetchone()[0]
    return seconds, rows


def store_size(pg_base: str, schema: str) -> int:
    """Bytes of the store's tables and their indexes in ``schema``."""
    with psycopg.connect(pg_base, autocommit=True) as conn:
        row = conn.execute(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relkind = 'r' AND c.relname <> 'copy_baseline'",
            (schema,),
        ).fetchone()
    return int(row[0] or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument(
        "--writers", default="1,2,4", help="writer process counts to measure, e.g. 1,2,4"
    )
    parser.add_argument("--child", nargs=4, metavar=("URL", "AVRO", "CHAIN_SHARD", "PROFILE"))
    args = parser.parse_args()
    if args.child:
        url, avro, chain_shard, profile = args.child
        child_ingest(url, avro, chain_shard, profile == "1")
        return
    pg_base = os.environ.get("CASINO_AUDIT_TEST_PG_URL")
    if not pg_base:
        sys.exit("run through .ci/with-postgres (CASINO_AUDIT_TEST_PG_URL is not set)")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        sizes = [args.events // 4, args.events]
        results: dict[tuple[str, int], dict] = {}
        for n in sizes:
            avro = tmp / f"events-{n}.avro"
            write_input(avro, n)
            results["sqlite", n] = run_child(f"sqlite:///{tmp / f'bench-{n}.db'}", avro)
            schema = f"bench_{uuid.uuid4().hex[:8]}"
            results["postgresql", n] = run_child(f"{pg_base}?schema={schema}", avro)
            if n == args.events:
                copy_seconds, copy_rows = copy_baseline(pg_base, schema)
        hands = args.events // EVENTS_PER_HAND
        writers: dict[int, dict] = {}
        for count in sorted({int(n) for n in args.writers.split(",")} | {2}):
            parts = [tmp / f"writers-{count}-{i}.avro" for i in range(count)]
            for i, part in enumerate(parts):
                write_input(part, args.events // count, first_hand=i * (hands // count))
            writers[count] = run_writers(f"{pg_base}?schema=bench_{uuid.uuid4().hex[:8]}", parts)
        halves = [tmp / "writers-2-0.avro", tmp / "writers-2-1.avro"]
        queued = run_writers(
            f"{pg_base}?schema=bench_{uuid.uuid4().hex[:8]}", halves, one_chain_shard=True
        )
        size = store_size(pg_base, schema)
        print(f"profile: one ingest of {sizes[0]:,} events into PostgreSQL, by own time")
        run_child(
            f"{pg_base}?schema=bench_{uuid.uuid4().hex[:8]}",
            tmp / f"events-{sizes[0]}.avro",
            profile=True,
        )
    print(
        f"ingest benchmark: {args.events:,} events (+ one 'opened' event per hand), "
        f"hands of {EVENTS_PER_HAND} events, hash chain on"
    )
    for backend in ("sqlite", "postgresql"):
        for n in sizes:
            r = results[backend, n]
            print(
                f"  {backend:10} {r['events']:>10,} events  {r['events'] / r['seconds']:>9,.0f} "
                f"events/s  {r['cpu'] / r['events'] * 1e6:5.1f} µs CPU/event  "
                f"peak RSS {r['peak_mib']:,.0f} MiB"
            )
    copy_rate = copy_rows / copy_seconds
    ours = results["postgresql", args.events]
    ours_rate = ours["events"] / ours["seconds"]
    print(
        f"  raw COPY   {copy_rows:>10,} rows    {copy_rate:>9,.0f} rows/s   (plain table, "
        f"same rows, same server: the {ours['events']:,} events in {copy_seconds:.2f} s, "
        f"{ours['events'] / copy_seconds:,.0f} events/s)"
    )
    one_writer = writers[1]["events"] / writers[1]["seconds"] if 1 in writers else ours_rate
    for count, run in sorted(writers.items()):
        rate = run["events"] / run["seconds"]
        print(
            f"  {count} writer{'s' if count > 1 else ' '} {run['events']:>10,} events  "
            f"{rate:>9,.0f} events/s  (PostgreSQL, {count} process(es) at once, one chain "
            f"shard each; {rate / one_writer:.2f}x one writer)"
        )
    queued_rate = queued["events"] / queued["seconds"]
    print(
        f"  2 writers  {queued['events']:>10,} events  {queued_rate:>9,.0f} events/s  (the same, "
        "both on one chain shard)"
    )
    print(
        f"  PostgreSQL store size: {size / ours['events']:,.0f} bytes per event "
        f"({size / 2**20:,.0f} MiB for {ours['events']:,} events, tables and indexes)"
    )
    print(
        f"  one PostgreSQL writer spends {ours['locked'] / ours['seconds']:.0%} of its time "
        "inserting (under its chain shard's lock)"
    )
    print(
        "  ratio PostgreSQL ingest / raw COPY of the rows it stored (the COPY's time over "
        f"the ingest's: the same events either way) = {copy_seconds / ours['seconds']:.3f}"
    )
    print(f"  ratio 2 writers on one chain shard / 1 writer = {queued_rate / one_writer:.2f}")
    print(f"  CPUs this process may use: {len(os.sched_getaffinity(0))}")


if __name__ == "__main__":
    main()
