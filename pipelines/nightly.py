"""The nightly reconciliation: a day's shards in, findings in the store, a report out.

Plain functions, called in order by ``run_nightly`` (one process: the CLI, tests) or
one task each by the Airflow DAG (``pipelines/dags/nightly_reconciliation.py``):

1. ``prepare_night(store_url, input_dir, day)``: the day's Avro files (layout in
   ``pipelines.shards``: ``<input_dir>/<YYYY-MM-DD>/**/*.avro``; none is ``NoInput``),
   the day's table declarations stored first (3a);
2. ``validate_shard(path, docs_dir)``: Great Expectations suites, before replay
   (``pipelines.quality``); data-quality findings, Data Docs;
3. ``ingest_shard(store_url, path)``: the shard into the store (quarantines bad records);
4. ``replay_day(store_url, day, path)``: the replayer's verdict on every subject of the
   shard, stored as adjudications, and the shard's ledger of verdicts (for poker, also
   the collusion detector's state over the shard's hands);
5. ``run_detectors(store_url, day)``: fleet-wide detectors over the day's subjects;
6. ``append_findings(store_url, day, quality, detections)``: those findings into the store;
7. ``write_report(store_url, day, out_dir)``: HTML report, plots, CSV and JSONL exports.

Every step is idempotent: the store keeps one copy of a record, verdicts and findings
are units with content-derived ids (``pipelines.night_units``), files are rewritten whole.
Rerunning a date gives the same findings and stores nothing new.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path

from audit.ingest.pipeline import ingest
from audit.judging import Inputs, TermsBook, gather, judge, verdict_unit
from audit.store import MAIN_SHARD, AuditStore, SubjectRecords
from pipelines.detectors import Detection, detect
from pipelines.detectors.banker_runs import banker_run_units, night_tables
from pipelines.detectors.collusion import CollusionDetector
from pipelines.night_units import COLLUSION_STATE, LEDGER, QUALITY, unit
from pipelines.quality import QualityResult, validate_shard
from pipelines.report import ReportPaths, write_report
from pipelines.shards import (
    ShardEvents,
    chain_shard_of,
    declaration_shards,
    discover_shards,
    read_shard,
    shard_name,
    subject_ids,
)
from replayer.findings import tally_kinds

BATCH = 2000

__all__ = [
    "NightlySummary",
    "NoInput",
    "ShardIngest",
    "ShardNight",
    "ShardReplay",
    "append_findings",
    "default_workers",
    "discover_shards",
    "ingest_shard",
    "prepare_night",
    "prepare_store",
    "process_shard",
    "replay_day",
    "run_detectors",
    "run_nightly",
    "validate_shard",
    "write_report",
]


@contextmanager
def open_store(store_url: str, chain_shard: str = MAIN_SHARD) -> Iterator[AuditStore]:
    """The store for one step, closed afterwards (each DAG task opens its own), appending
    to ``chain_shard``'s hash chain."""
    store = AuditStore(store_url, chain_shard=chain_shard)
    try:
        yield store
    finally:
        store.close()


class NoInput(Exception):
    """The day has no shards: nothing to reconcile (the CLI and the DAG both fail)."""


def prepare_night(store_url: str, input_dir: Path, day: date) -> list[Path]:
    """Steps 1 and 3a: the day's shards, after the store is set up and the day's table
    declarations (``TableTermsDeclared`` shards) are stored, so that every hand of the
    night is judged under the terms in force (ingesting them again later stores nothing).

    Raises ``NoInput`` when the day has no shards.
    """
    shards = discover_shards(Path(input_dir), day)
    if not shards:
        raise NoInput(f"no Avro shards for {day} under {Path(input_dir) / day.isoformat()}/")
    prepare_store(store_url)
    for path in declaration_shards(shards):
        ingest_shard(store_url, path)
    return shards


def prepare_store(store_url: str) -> None:
    """Create the store's schema and tables once, before shards are processed side by
    side: concurrent ``CREATE ... IF NOT EXISTS`` of the same objects can fail on
    PostgreSQL."""
    with open_store(store_url):
        pass


@dataclass
class ShardIngest:
    """What ingesting one shard did."""

    shard: str
    subjects_stored: int
    subjects_already_stored: int
    events_stored: int
    quarantined: int


def ingest_shard(store_url: str, path: Path) -> ShardIngest:
    """Store one shard's valid records, on its own chain shard (``chain_shard_of``);
    quarantine the others (idempotent)."""
    with open_store(store_url, chain_shard_of(path)) as store:
        summary = ingest(store, [Path(path)])
    return ShardIngest(
        shard_name(path),
        summary.subjects_stored,
        summary.subjects_already_stored,
        summary.events_stored,
        summary.quarantined,
    )


@dataclass
class ShardReplay:
    """What replaying one shard's subjects did."""

    shard: str
    kind: str | None
    subjects: int = 0
    with_findings: int = 0
    findings: dict[str, int] = field(default_factory=dict)
    verdicts_stored: int = 0
    skipped: str = ""
    """Why the shard was not judged ('' when it was)."""


def replay_day(
    store_url: str, day: date, path: Path, shard: ShardEvents | None = None
) -> ShardReplay:
    """Judge every stored subject of one of the day's shards; store verdicts and ledger.

    Subjects are those the shard names (what ingest kept of them is judged), each through
    the one judging path (``audit.judging``: its stored events, the table terms in force
    at its start, a satellite's stored target), so the night's verdict is the one
    ``replay`` and ``show`` give. ``shard``: its events when the caller has read them.
    """
    shard = shard if shard is not None else read_shard(Path(path))
    result = ShardReplay(shard_name(path), shard.family)
    if shard.family is None:
        result.skipped = shard.error or "unknown family"
        return result
    ledger: dict[str, dict[str, str]] = {}
    pending: list[SubjectRecords] = []
    watcher = CollusionDetector(as_of=day) if shard.family == "poker" else None
    with open_store(store_url, chain_shard_of(path)) as store:
        terms_book = TermsBook(store)
        for subjects in store.iter_record_batches(shard.family, subject_ids(shard), BATCH):
            terms_book.prefetch(shard.family, subjects)
            for subject, records in subjects:
                if not records:
                    continue
                inputs = gather(store, shard.family, subject, records, terms_book)
                pending.append(_judged(result, ledger, inputs))
                if watcher is not None:
                    watcher.observe(records)
            if len(pending) >= BATCH:
                result.verdicts_stored += store.append(pending).stored
                pending.clear()
        result.verdicts_stored += store.append(pending).stored if pending else 0
        scope = f"{day.isoformat()}/{result.shard}"
        facts = [unit(LEDGER, scope, [], family=shard.family, ledger=ledger)]
        if watcher is not None:
            facts.append(unit(COLLUSION_STATE, scope, [], state=watcher.state()))
        store.append(facts)
        store.checkpoint()
    return result


def _judged(
    result: ShardReplay, ledger: dict[str, dict[str, str]], inputs: Inputs
) -> SubjectRecords:
    """Judge one subject; count its findings and enter it in the shard's ledger."""
    verdict = judge(inputs)
    stored = verdict_unit(inputs, verdict)
    ledger[inputs.subject] = {
        "verdict": stored.subject_id,
        "table": str(inputs.events[0].get("table_id") or inputs.subject),
    }
    result.subjects += 1
    result.with_findings += bool(verdict.findings)
    tally_kinds(verdict.findings, result.findings)
    return stored


def run_detectors(store_url: str, day: date) -> list[Detection]:
    """Fleet-wide detectors over the day's judged subjects (``pipelines.detectors``),
    after the night's chemin de fer banker runs are judged and stored, table by table, as
    ``replay`` judges them (``pipelines.detectors.banker_runs``)."""
    with open_store(store_url) as store:
        runs = banker_run_units(store, day, night_tables(store, day))
        if runs:
            store.append(runs)
            store.checkpoint()
        return detect(store, day)


def append_findings(
    store_url: str,
    day: date,
    quality: Sequence[QualityResult],
    detections: Sequence[Detection],
) -> int:
    """Store data-quality and detector findings as adjudication units; how many were new."""
    units = [
        unit(
            QUALITY,
            f"{day.isoformat()}/{q.shard}",
            q.findings,
            checks=[asdict(c) for c in q.checks],
            profile=q.profile,
            events_judged=q.events,
        )
        for q in quality
    ] + [unit(d.name, day.isoformat(), d.findings, figures=d.figures) for d in detections]
    if not units:
        return 0
    with open_store(store_url) as store:
        stored = store.append(units).stored
        store.checkpoint()
    return stored


@dataclass
class NightlySummary:
    """What a night's run did, for the command line and the DAG's last task."""

    day: date
    shards: int = 0
    events: int = 0
    ingested: list[ShardIngest] = field(default_factory=list)
    replayed: list[ShardReplay] = field(default_factory=list)
    quality_findings: int = 0
    detector_findings: dict[str, int] = field(default_factory=dict)
    units_stored: int = 0
    report: ReportPaths | None = None

    @property
    def quarantined(self) -> int:
        return sum(i.quarantined for i in self.ingested)

    @property
    def findings(self) -> dict[str, int]:
        """Replayer findings by kind, plus data_quality and the detectors' kinds."""
        totals: dict[str, int] = {}
        for replayed in self.replayed:
            for kind, count in replayed.findings.items():
                totals[kind] = totals.get(kind, 0) + count
        if self.quality_findings:
            totals["data_quality"] = totals.get("data_quality", 0) + self.quality_findings
        for kind, count in self.detector_findings.items():
            totals[kind] = totals.get(kind, 0) + count
        return dict(sorted(totals.items()))


@dataclass
class ShardNight:
    """What one shard's part of the night did: validated, ingested, replayed."""

    quality: QualityResult
    ingested: ShardIngest
    replayed: ShardReplay


def process_shard(store_url: str, day: date, path: Path, docs_dir: Path) -> ShardNight:
    """Validate one shard, then ingest it, then replay its subjects (steps 2-4), reading
    its events once for validation and replay (ingest reads it record by record, keeping
    what fails in quarantine)."""
    shard = read_shard(Path(path))
    quality = validate_shard(path, docs_dir, shard)
    ingested = ingest_shard(store_url, path)
    return ShardNight(quality, ingested, replay_day(store_url, day, path, shard))


def default_workers() -> int:
    """Worker processes for ``run_nightly``: one per CPU this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_nightly(
    store_url: str, input_dir: Path, day: date, out_dir: Path, *, workers: int = 1
) -> NightlySummary:
    """The whole night without a scheduler: every step above, in order.

    Steps 2-4 run per shard in ``workers`` processes (1: in this process), as the DAG's
    mapped tasks would on several workers; the store serialises their writes (SQLite's
    write lock, PostgreSQL's table lock) and every result is content-addressed, so the
    findings, the report and the summary do not depend on ``workers``.
    """
    summary = NightlySummary(day)
    docs_dir = Path(out_dir) / day.isoformat() / "data-docs"
    shards = prepare_night(store_url, input_dir, day)
    summary.shards = len(shards)
    nights = _per_shard(store_url, day, shards, docs_dir, min(workers, len(shards)))
    quality = [night.quality for night in nights]
    summary.events = sum(q.events for q in quality)
    summary.quality_findings = sum(len(q.findings) for q in quality)
    summary.ingested = [night.ingested for night in nights]
    summary.replayed = [night.replayed for night in nights]
    detections = run_detectors(store_url, day)
    for detection in detections:
        tally_kinds(detection.findings, summary.detector_findings)
    summary.units_stored = append_findings(store_url, day, quality, detections)
    summary.report = write_report(store_url, day, Path(out_dir))
    return summary


def _per_shard(
    store_url: str, day: date, shards: Sequence[Path], docs_dir: Path, workers: int
) -> list[ShardNight]:
    """``process_shard`` over every shard, in shard order, in ``workers`` processes."""
    if workers <= 1:
        return [process_shard(store_url, day, path, docs_dir) for path in shards]
    # spawn: a clean interpreter per worker, no inherited store connections or locks.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        jobs = [pool.submit(process_shard, store_url, day, path, docs_dir) for path in shards]
        return [job.result() for job in jobs]
