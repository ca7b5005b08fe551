"""Day partitions of the product's store on PostgreSQL: what they need, what they cost,
and whether a day detached and archived still verifies against its checkpoint.

    .ci/with-postgres .venv/bin/python benchmarks/store_partitions.py \\
        [--days 3] [--hands-per-day 1000] [--batches 2] [--idle-partitions 362] [PHH_FOLDER]

PHH_FOLDER defaults to the Pluribus archive of ../shared/data/phh, unpacked to a
temporary folder; a folder or archive that is absent, or no server in
``CASINO_AUDIT_TEST_PG_URL`` (``.ci/with-postgres`` sets it; 127.0.0.1 only), prints why
and exits 0. Issue #24 item 4 asks for "declarative partitioning by day where it helps
retention (a day detached and archived with its checkpoint still verifies)". The run:

1. **Two stores, the same days.** ``--days`` days of ``--hands-per-day`` Pluribus hands
   each, every day ingested in ``--batches`` batches through the product's own ingest
   (``audit.ingest``, signed checkpoints after each: a key is made for the run), the
   first batch on the main chain and the others each on a chain shard of its own
   (``night/day<d>/batch<b>``, as the nightly names its shards): once into the product's
   store as it is (one table), once into the same store whose events table was created
   beforehand as a **partitioned table by range of notification id**, one partition per
   day, which the product then opens and writes as it is (its ``CREATE TABLE IF NOT
   EXISTS`` finds the table; its indexes and triggers are created on the parent and
   cloned to each partition). Days alternate between the two stores, back to back.
2. **Day boundaries at a checkpoint.** Partition *d* holds notification ids ``[d·S + 1,
   (d+1)·S + 1)`` (``S`` = 10¹²). After a day's last ingest (whose checkpoint is its last
   event), the run moves the events table's sequence to the next day's first id
   (``setval``): every partition then ends at a checkpoint. Notification ids already
   have gaps (a rolled-back batch leaves one); nothing in the product reads them as
   contiguous.
3. **The key.** PostgreSQL requires the partition key in every unique constraint of a
   partitioned table, so the primary key is ``(originator_id, originator_version,
   notification_id)``: the run inserts the same event a second time, under a new
   notification id, into each store (then rolls back): the single table refuses it,
   the partitioned one takes it. Likewise the append-only triggers: ``TRUNCATE`` and
   ``DELETE`` through the partitioned table and on a partition directly, and ``DELETE``
   on a day once detached (each in a transaction rolled back).
4. **Cost.** Per day and store: the ingest's client CPU (``time.process_time``), the
   cluster's CPU (every server process of the throwaway cluster, from ``/proc``), WAL
   (``pg_current_wal_insert_lsn``; ``pg_waldump --stats`` splits out full-page
   images), then each index's bytes per partition against the single table's. The
   product's lookup of stored events by subject (``existing_versions``, what makes
   ingest idempotent: the primary key probed per subject) on both stores, then again
   after ``--idle-partitions`` more (empty) partitions are attached: without the
   partition key in the query, every partition's index is probed.
5. **Retention.** The oldest day, then the next, is detached (``DETACH PARTITION
   CONCURRENTLY``, then plain ``DETACH PARTITION``; timed), archived with ``pg_dump
   --table`` (and its size beside a binary ``COPY``), dropped, restored from the archive
   alone with ``pg_restore`` and **verified alone**: its rows against the checkpoints
   inside its range, starting from the previous day's last checkpoint (each shard's head
   from the checkpoints up to it, the Merkle tree from its frontier, checked against its
   signed root), with the product's own ``audit.store.chain.verify_rows(start=…)``
   (which the product's ``verify`` uses after a retention record); a byte
   of one archived state changed must fail it. Then the store left behind: the
   product's ``AuditStore.verify`` (which starts at genesis), and the same seeded
   verification from the last detached day's last checkpoint, with every checkpoint's
   signature (``require_signed``). Last, the oldest day's last batch is ingested again,
   on its own chain shard, into the store left behind: how many hands are stored anew,
   and whether the seeded verification still holds (the shard's events all left with
   the partition).

Rates are one run on a shared machine: the load average is printed before and after.
No assertion: a benchmark.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg
from psycopg import sql

from audit.ingest.pipeline import ingest
from audit.store import (
    MAIN_SHARD,
    SIGNING_KEY_ENV,
    AuditStore,
    ChainReport,
    ChainRow,
    Checkpoint,
    generate_keypair,
    load_public_key,
    partitions,
    require_signed,
)
from audit.store import chain as product_chain
from audit.store.signing import signature_valid
from benchmarks.store_layouts import EVENTS_TABLE, RULEBOOK, Wal, WalMeter, on_pluribus

# The product's partitioned events table (``audit.store.partitions``): range of
# notification id, the primary key holding the partition key; a day is one partition here.
STRIDE = partitions.STRIDE


def partition_name(day: int) -> str:
    return f"{EVENTS_TABLE}_day{day}"


def add_partition(conn: psycopg.Connection[Any], schema: str, day: int) -> None:
    conn.execute(
        sql.SQL("CREATE TABLE {part} PARTITION OF {table} FOR VALUES FROM ({lo}) TO ({hi})").format(
            part=sql.Identifier(schema, partition_name(day)),
            table=sql.Identifier(schema, EVENTS_TABLE),
            lo=sql.Literal(day * STRIDE + 1),
            hi=sql.Literal((day + 1) * STRIDE + 1),
        )
    )


def create_partitioned(
    conn: psycopg.Connection[Any], base_url: str, schema: str, days: int
) -> None:
    """A new store made by the product, its (empty) events table then replaced by the
    same table partitioned by day; the product, opening it again, adds its indexes and
    triggers to the partitioned table."""
    AuditStore(f"{base_url}?schema={schema}").close()
    table = sql.Identifier(schema, EVENTS_TABLE)
    conn.execute(sql.SQL("DROP TABLE {}").format(table))
    conn.execute(sql.SQL(partitions.PARTITIONED_EVENTS_DDL).format(table=table))
    for day in range(days):
        add_partition(conn, schema, day)


def cut_day(conn: psycopg.Connection[Any], schema: str, day: int) -> None:
    """Move the events' sequence to the first id of the next day's partition."""
    conn.execute(
        "SELECT setval(pg_get_serial_sequence(%s, 'notification_id'), %s)",
        (f"{schema}.{EVENTS_TABLE}", (day + 1) * STRIDE),
    )


# --- measuring -----------------------------------------------------------------------


class ClusterCpu:
    """CPU seconds of every process of the throwaway cluster so far: the postmaster's own
    and its reaped children's (``/proc/<pid>/stat``), plus its live children's."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        got = conn.execute("SHOW data_directory").fetchone()
        assert got is not None
        pid_file = Path(str(got[0])) / "postmaster.pid"
        self.pid = int(pid_file.read_text().split()[0]) if pid_file.is_file() else 0
        self.ticks = os.sysconf("SC_CLK_TCK")

    def _fields(self, pid: int | str) -> list[str]:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()

    def seconds(self) -> float | None:
        if not self.pid:
            return None
        try:
            own = self._fields(self.pid)
            total = sum(int(x) for x in own[11:15])  # utime stime cutime cstime
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit():
                    try:
                        child = self._fields(entry.name)
                    except OSError:
                        continue
                    if int(child[1]) == self.pid:  # ppid
                        total += int(child[11]) + int(child[12])
        except OSError:
            return None
        return total / self.ticks


@dataclass
class DayRun:
    """One day ingested into one store."""

    hands: int = 0
    events: int = 0
    client_cpu: float = 0.0
    server_cpu: float | None = 0.0
    seconds: float = 0.0
    wal: list[Wal] = field(default_factory=list)


def _events(conn: psycopg.Connection[Any], schema: str) -> int:
    """The store's events (0 before the product has made its table)."""
    if conn.execute("SELECT to_regclass(%s)", (f"{schema}.{EVENTS_TABLE}",)).fetchone() == (None,):
        return 0
    got = conn.execute(
        sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(schema, EVENTS_TABLE))
    ).fetchone()
    assert got is not None
    return int(got[0])


def ingest_day(
    base_url: str, schema: str, day: int, batches: Sequence[Path], meter: WalMeter,
    cpu: ClusterCpu,
) -> DayRun:  # fmt: skip
    """The day's batches through the product's ingest, each on its own chain shard (the
    first on the main chain); each ingest writes its signed checkpoint."""
    run = DayRun()
    before = _events(meter.conn, schema)
    for batch, folder in enumerate(batches):
        shard = MAIN_SHARD if batch == 0 else f"night/day{day}/batch{batch}"
        start, server = meter.lsn(), cpu.seconds()
        began, began_cpu = time.perf_counter(), time.process_time()
        store = AuditStore(f"{base_url}?schema={schema}", chain_shard=shard)
        run.hands += ingest(store, [folder], rulebooks=[RULEBOOK]).subjects_stored
        store.close()
        run.seconds += time.perf_counter() - began
        run.client_cpu += time.process_time() - began_cpu
        after = cpu.seconds()
        if server is None or after is None or run.server_cpu is None:
            run.server_cpu = None
        else:
            run.server_cpu += after - server
        run.wal.append(meter.span(start))
    run.events = _events(meter.conn, schema) - before
    return run


@dataclass(frozen=True)
class IndexSize:
    table: str
    index: str
    bytes: int
    rows: int


def index_sizes(conn: psycopg.Connection[Any], schema: str) -> list[IndexSize]:
    """Every index of every plain table of the schema (the partitions, or the one table),
    with its table's rows, after ``VACUUM ANALYZE``."""
    conn.execute(
        sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(schema, EVENTS_TABLE)), prepare=False
    )
    rows = conn.execute(
        "SELECT t.relname, i.relname, pg_relation_size(i.oid), t.reltuples::bigint "
        "FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
        "JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace "
        "WHERE n.nspname = %s AND t.relkind = 'r' AND t.relname LIKE %s "
        "AND t.relname NOT LIKE %s ORDER BY 1, 2",
        (schema, f"{EVENTS_TABLE}%", "%checkpoints"),
    ).fetchall()
    return [IndexSize(str(t), str(i), int(b), int(r)) for t, i, b, r in rows]


def attempt(conn: psycopg.Connection[Any], statement: sql.Composed) -> str:
    """Run a statement in a transaction rolled back whatever happens: what the database
    said."""
    try:
        with conn.transaction(force_rollback=True):
            conn.execute(statement)
    except psycopg.Error as error:
        return f"refused ({str(error).splitlines()[0]})"
    return "went through (rolled back)"


def duplicate_insert(schema: str) -> sql.Composed:
    """Insert the last stored event again under a new notification id (as a writer
    racing another with the same batch would)."""
    return sql.SQL(
        "INSERT INTO {t} (originator_id, originator_version, topic, state, "
        "chain_prev, chain_hash, chain_shard, chain_form) SELECT originator_id, "
        "originator_version, topic, state, chain_prev, chain_hash, chain_shard, "
        "chain_form FROM {t} ORDER BY notification_id DESC LIMIT 1"
    ).format(t=sql.Identifier(schema, EVENTS_TABLE))


def append_only(schema: str, day: int) -> dict[str, sql.Composed]:
    """What the append-only triggers must refuse, on the partitioned table and on one of
    its partitions directly."""
    parent, part = sql.Identifier(schema, EVENTS_TABLE), sql.Identifier(schema, partition_name(day))
    delete = "DELETE FROM {} WHERE notification_id = (SELECT max(notification_id) FROM {})"
    return {
        "TRUNCATE of the partitioned table": sql.SQL("TRUNCATE {}").format(parent),
        f"TRUNCATE of partition day{day}": sql.SQL("TRUNCATE {}").format(part),
        "DELETE through the partitioned table": sql.SQL(delete).format(parent, parent),
        f"DELETE from partition day{day}": sql.SQL(delete).format(part, part),
    }


def lookup_seconds(
    base_url: str, schema: str, originators: Sequence[str], repeat: int = 5
) -> tuple[float, float]:
    """(clock, client CPU) seconds of the product's ``existing_versions`` over the
    originators, best of ``repeat``."""
    store = AuditStore(f"{base_url}?schema={schema}", create=False)
    best = (float("inf"), float("inf"))
    try:
        for _ in range(repeat):
            began, began_cpu = time.perf_counter(), time.process_time()
            store.chained.existing_versions(originators)
            took = (time.perf_counter() - began, time.process_time() - began_cpu)
            best = min(best, took)
    finally:
        store.close()
    return best


# --- verifying from a checkpoint -----------------------------------------------------


def verify_from(
    rows: Iterable[ChainRow],
    checkpoints: Sequence[Checkpoint],
    start: Checkpoint | None,
    public_key: Any,
) -> ChainReport:
    """The product's ``verify_rows`` over the rows after ``start`` (None: genesis), started
    at ``start`` (``verify_rows(start=…)``: each shard's head from the checkpoints up to
    it, its count and hash, the Merkle tree from its frontier, which must fold to its
    root), ``start``'s own signature first, then every signature (``require_signed``)."""
    if start is not None and not signature_valid(start, public_key):
        return ChainReport(
            0,
            b"",
            0,
            broken_at=start.notification_id,
            problem="the starting checkpoint's signature does not verify",
        )
    report = product_chain.verify_rows(rows, checkpoints, start)
    if not report.ok:
        return report
    return require_signed(report, list(checkpoints), public_key)


def tampered(rows: Iterable[ChainRow], at: int) -> Iterable[ChainRow]:
    """The rows with one byte of the ``at``-th row's state changed."""
    for n, row in enumerate(rows):
        if n == at:
            state = bytes([row.state[0] ^ 1]) + row.state[1:]
            row = replace(row, state=state)
        yield row


# --- retention -----------------------------------------------------------------------


@dataclass
class Retired:
    """One day detached, archived, dropped, restored and verified."""

    day: int
    how: str
    detach_seconds: float = 0.0
    rows: int = 0
    dump_bytes: int = 0
    dump_seconds: float = 0.0
    copy_bytes: int = 0
    partition_bytes: int = 0
    restore_seconds: float = 0.0
    verified: str = ""
    tamper: str = ""
    delete_detached: str = ""
    checkpoints_inside: int = 0


def _pg_tool(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    return str(found[-1]) if found else name


def _report_line(report: ChainReport) -> str:
    if report.ok:
        return (
            f"ok: {report.events_checked:,} events counted, {report.checkpoints_checked} "
            f"checkpoints checked, {report.signatures_checked} signatures"
        )
    return f"FAILS at {report.broken_at}: {report.problem}"


def chain_rows_of(conn: psycopg.Connection[Any], schema: str, table: str) -> list[ChainRow]:
    """A table's rows as ``verify`` reads them, in notification order."""
    return [
        product_chain.chain_row(*r)
        for r in conn.execute(
            sql.SQL(
                "SELECT notification_id, originator_id, originator_version, topic, state, "
                "chain_prev, chain_hash, chain_shard, chain_form FROM {} ORDER BY notification_id"
            ).format(sql.Identifier(schema, table))
        )
    ]


def retire(
    conn: psycopg.Connection[Any], base_url: str, schema: str, day: int, folder: Path,
    checkpoints: Sequence[Checkpoint], frontier_of: Callable[[int], Checkpoint | None],
    public_key: Any, *, concurrently: bool,
) -> Retired:  # fmt: skip
    """Detach the day's partition, archive it, drop it, restore it from the archive and
    verify it alone from the previous day's last checkpoint."""
    part = partition_name(day)
    qualified = sql.Identifier(schema, part)
    retired = Retired(day, "DETACH PARTITION CONCURRENTLY" if concurrently else "DETACH PARTITION")
    got = conn.execute("SELECT pg_total_relation_size(%s::regclass)", (f"{schema}.{part}",))
    retired.partition_bytes = int((got.fetchone() or (0,))[0])
    began = time.perf_counter()
    conn.execute(
        sql.SQL("ALTER TABLE {t} DETACH PARTITION {p}{c}").format(
            t=sql.Identifier(schema, EVENTS_TABLE),
            p=qualified,
            c=sql.SQL(" CONCURRENTLY" if concurrently else ""),
        )
    )
    retired.detach_seconds = time.perf_counter() - began
    delete = sql.SQL(
        "DELETE FROM {t} WHERE notification_id = (SELECT max(notification_id) FROM {t})"
    )
    retired.delete_detached = attempt(conn, delete.format(t=qualified))
    dump = folder / f"{part}.dump"
    began = time.perf_counter()
    subprocess.run(
        [
            _pg_tool("pg_dump"),
            "--format=custom",
            f"--table={schema}.{part}",
            f"--file={dump}",
            base_url,
        ],
        check=True,
    )
    retired.dump_seconds = time.perf_counter() - began
    retired.dump_bytes = dump.stat().st_size
    copied = folder / f"{part}.copy"
    with conn.cursor() as cur, copied.open("wb") as out:
        statement = sql.SQL(
            "COPY (SELECT * FROM {} ORDER BY notification_id) TO STDOUT (FORMAT binary)"
        )
        with cur.copy(statement.format(qualified)) as copy:
            for data in copy:
                out.write(data)
    retired.copy_bytes = copied.stat().st_size
    conn.execute(sql.SQL("DROP TABLE {}").format(qualified))
    began = time.perf_counter()
    subprocess.run(
        [_pg_tool("pg_restore"), "--dbname", base_url, "--no-owner", str(dump)], check=True
    )
    retired.restore_seconds = time.perf_counter() - began
    rows = chain_rows_of(conn, schema, part)
    retired.rows = len(rows)
    lo, hi = day * STRIDE + 1, (day + 1) * STRIDE
    inside = [c for c in checkpoints if lo <= c.notification_id <= hi]
    before = [c for c in checkpoints if c.notification_id < lo]
    start = frontier_of(max(c.notification_id for c in before)) if before else None
    retired.checkpoints_inside = len(inside)
    # The day alone: checkpoints up to its last one (those after it name later events).
    upto = [c for c in checkpoints if c.notification_id <= hi]
    retired.verified = _report_line(verify_from(rows, upto, start, public_key))
    retired.tamper = _report_line(
        verify_from(tampered(rows, len(rows) // 2), upto, start, public_key)
    )
    return retired


# --- report --------------------------------------------------------------------------


def _cpu(value: float | None, events: int) -> str:
    return "n/a" if value is None else f"{value / events * 1e6:.0f}"


def _wal(wals: Sequence[Wal], hands: int) -> str:
    total = sum(w.bytes for w in wals)
    images = sum(w.fpi or 0 for w in wals)
    return f"{total / hands:,.0f} ({images / hands:,.0f})"


def report_days(runs: dict[str, list[DayRun]]) -> None:
    print("\n| store | day | hands | events | client CPU µs/event | cluster CPU µs/event "
          "| clock s | WAL B/hand (of which page images) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for name, days in runs.items():
        for day, run in enumerate(days):
            print(
                f"| {name} | {day} | {run.hands:,} | {run.events:,} "
                f"| {_cpu(run.client_cpu, run.events)} | {_cpu(run.server_cpu, run.events)} "
                f"| {run.seconds:.1f} | {_wal(run.wal, run.hands)} |"
            )


def report_indexes(sizes: dict[str, list[IndexSize]]) -> None:
    print("\n| store | table | index | bytes | rows | B/event |")
    print("|---|---|---|---|---|---|")
    for name, found in sizes.items():
        for s in found:
            per = f"{s.bytes / s.rows:.1f}" if s.rows else "-"
            print(f"| {name} | {s.table} | {s.index} | {s.bytes:,} | {s.rows:,} | {per} |")


def report_retired(retired: Sequence[Retired]) -> None:
    print(
        "\n| day | how | detach s | rows | partition B | pg_dump B | pg_dump s | binary COPY B "
        "| restore s "
        "| checkpoints inside | verified alone | one state byte changed |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in retired:
        print(
            f"| {r.day} | {r.how} | {r.detach_seconds:.3f} | {r.rows:,} | {r.partition_bytes:,} "
            f"| {r.dump_bytes:,} | {r.dump_seconds:.2f} | {r.copy_bytes:,} "
            f"| {r.restore_seconds:.2f} | {r.checkpoints_inside} | {r.verified} | {r.tamper} |"
        )


# --- the run -------------------------------------------------------------------------


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def day_folders(files: Sequence[Path], root: Path, tmp: Path, days: int, per_day: int,
                batches: int) -> list[list[Path]]:  # fmt: skip
    """Each day's batches as folders of links to its hands."""
    folders: list[list[Path]] = []
    for day in range(days):
        hands = files[day * per_day : (day + 1) * per_day]
        size = -(-len(hands) // batches)
        day_batches = []
        for batch in range(batches):
            folder = tmp / f"day{day}" / f"batch{batch}"
            for path in hands[batch * size : (batch + 1) * size]:
                link = folder / path.relative_to(root)
                link.parent.mkdir(parents=True, exist_ok=True)
                link.symlink_to(path.resolve())
            day_batches.append(folder)
        folders.append(day_batches)
    return folders


def main(folder: Path, base_url: str, days: int, per_day: int, batches: int, idle: int) -> None:
    print(f"command: {' '.join(sys.argv)}")
    print(f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average before: {_load()}")
    tag = uuid.uuid4().hex[:8]
    single, parted = f"one_{tag}", f"days_{tag}"
    stores = {"one table": single, "by day": parted}
    with (
        tempfile.TemporaryDirectory() as tmp_name,
        psycopg.connect(base_url, autocommit=True) as conn,
    ):
        tmp = Path(tmp_name)
        os.chmod(tmp, 0o755)  # pg_dump's file, written as this user, read back by it
        private, public = generate_keypair(tmp)
        os.environ[SIGNING_KEY_ENV] = str(private)
        public_key = load_public_key(public)
        files = sorted(folder.rglob("*.phh"))[: days * per_day]
        folders = day_folders(files, folder, tmp, days, per_day, batches)
        version = conn.execute("SHOW server_version").fetchone()
        print(f"PostgreSQL {version[0] if version else '?'}; {len(files):,} hands, {days} days")
        create_partitioned(conn, base_url, parted, days)
        AuditStore(f"{base_url}?schema={parted}").close()
        meter, cpu = WalMeter(conn), ClusterCpu(conn)
        runs: dict[str, list[DayRun]] = {name: [] for name in stores}
        for day in range(days):
            for name, schema in stores.items():
                runs[name].append(ingest_day(base_url, schema, day, folders[day], meter, cpu))
            if day < days - 1:
                cut_day(conn, parted, day)
        report_days(runs)
        print("\nOne stored event inserted again under a new notification id:")
        for name, schema in stores.items():
            print(f"* {name}: {attempt(conn, duplicate_insert(schema))}")
        print("\nAppend-only, by day:")
        for what, statement in append_only(parted, days - 1).items():
            print(f"* {what}: {attempt(conn, statement)}")
        report_indexes({name: index_sizes(conn, schema) for name, schema in stores.items()})
        last_day = conn.execute(
            sql.SQL(
                "SELECT DISTINCT originator_id::text FROM {} WHERE notification_id > %s"
            ).format(sql.Identifier(parted, EVENTS_TABLE)),
            ((days - 1) * STRIDE,),
        )
        originators = [uuid.UUID(str(o)).hex for (o,) in last_day]
        print(f"\nexisting_versions over the last day's {len(originators):,} subjects, best of 5:")
        for name, schema in stores.items():
            clock, client = lookup_seconds(base_url, schema, originators)
            print(f"* {name} ({days} partitions)" if schema == parted else f"* {name}", end="")
            print(f": {clock * 1e3:.1f} ms by the clock, {client * 1e3:.1f} ms client CPU")
        for extra in range(days, days + idle):
            add_partition(conn, parted, extra)
        clock, client = lookup_seconds(base_url, parted, originators)
        print(
            f"* by day, {days + idle} partitions ({idle} empty): {clock * 1e3:.1f} ms by the "
            f"clock, {client * 1e3:.1f} ms client CPU"
        )
        store = AuditStore(f"{base_url}?schema={parted}", create=False)
        checkpoints = store.chained.checkpoints()
        frontier_of = store.chained.checkpoint_at
        retired = [
            retire(
                conn,
                base_url,
                parted,
                day,
                tmp,
                checkpoints,
                frontier_of,
                public_key,
                concurrently=day == 0,
            )
            for day in range(min(2, days - 1))
        ]
        report_retired(retired)
        for r in retired:
            print(f"* DELETE from day{r.day} once detached: {r.delete_detached}")
        print(f"\nThe store left behind ({days - len(retired)} day(s) attached):")
        print(f"* AuditStore.verify (from genesis): {_report_line(store.verify(public_key))}")
        start = frontier_of(max(c.notification_id for c in checkpoints
                                if c.notification_id <= len(retired) * STRIDE))  # fmt: skip
        rows = store.chained.iter_chain_rows(store.chained.settled_head())
        report = verify_from(rows, checkpoints, start, public_key)
        print(f"* seeded from the last retired day's last checkpoint: {_report_line(report)}")
        store.close()
        again = AuditStore(f"{base_url}?schema={parted}", chain_shard="night/day0/batch1")
        stored = ingest(again, [folders[0][-1]], rulebooks=[RULEBOOK]).subjects_stored
        rows = again.chained.iter_chain_rows(again.chained.settled_head())
        report = verify_from(rows, again.chained.checkpoints(), start, public_key)
        again.close()
        print(
            f"* day 0's last batch ingested again, on its shard: {stored:,} hands stored anew; "
            f"then seeded as above: {_report_line(report)}"
        )
        for schema in stores.values():
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
    print(f"load average after: {_load()}")


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", nargs="?", type=Path, help="a folder of PHH files")
    parser.add_argument("--days", type=int, default=3, help="days (partitions) ingested")
    parser.add_argument("--hands-per-day", type=int, default=1000, help="hands per day")
    parser.add_argument("--batches", type=int, default=2, help="ingests (checkpoints) per day")
    parser.add_argument(
        "--idle-partitions", type=int, default=362, help="empty partitions added for the lookup"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = _arguments(sys.argv[1:])
    url = os.environ.get("CASINO_AUDIT_TEST_PG_URL")
    settings = (args.days, args.hands_per_day, args.batches, args.idle_partitions)
    on_pluribus(
        "store_partitions",
        args.folder,
        url,
        lambda folder, base_url: main(folder, base_url, *settings),
    )
