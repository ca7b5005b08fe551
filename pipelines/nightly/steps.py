"""The nightly reconciliation: a day's input files in, findings in the store, a report out.

Plain functions, called in order by ``run_nightly`` (one process: the CLI, tests) or
one task each by the Airflow DAG (``pipelines/dags/nightly_reconciliation.py``):

1. ``prepare_night(store_url, input_dir, day)``: the day's Avro files (layout in
   ``pipelines.input_files``: ``<input_dir>/<YYYY-MM-DD>/**/*.avro``; none is ``NoInput``),
   the day's table declarations stored first (3a);
2. ``readability(path, read)``: whether the input file reads in full (``pipelines.quality``);
3. ``ingest_input_file(store_url, path, day)``: the input file into the store (quarantines bad
   records) and its intake, the subjects it names by partition (``pipelines.nightly.partitions``);
4. ``judge_partition(store_url, day, partition)``, once every input file is in: the
   replayer's verdict on every subject of the partition, over all its events whichever
   files brought them, stored as adjudications; the Great Expectations suites over the
   same stored events (data-quality findings, Data Docs); the partition's ledgers of
   verdicts (for poker, also the collusion detector's state and the rake profile);
5. ``run_detectors(store_url, day)``: fleet-wide detectors over the day's subjects;
6. ``append_findings(store_url, day, quality, detections)``: the files' and the
   detectors' findings into the store;
7. ``write_report(store_url, day, out_dir)``: HTML report, plots, CSV and JSONL exports.

Every step is idempotent: the store keeps one copy of a record, verdicts and findings
are units with content-derived ids (``pipelines.night_units``), files are rewritten whole.
Rerunning a date gives the same findings and stores nothing new.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

from audit.ingest.pipeline import ingest
from audit.judging import (
    Inputs,
    TermsBook,
    VerdictWriter,
    is_coup,
    judged_batches,
    verdict_unit,
)
from audit.store import MAIN_SHARD, AuditStore, SubjectRecords
from pipelines.detectors import Detection, collusion_detection, meters_detection
from pipelines.detectors.banker_runs import banker_run_units, coups_noted, night_tables
from pipelines.detectors.collusion import CollusionDetector
from pipelines.detectors.meters import day_figures, fleet_noted
from pipelines.detectors.shoes import dealt_from_a_shoe, night_shoes, shoe_units, shoes_noted
from pipelines.detectors.table_sessions import night_hands, table_session_units
from pipelines.expectations.profile import RakeProfile
from pipelines.input_files import (
    InputFileEvents,
    chain_shard_of,
    declaration_files,
    discover_input_files,
    input_file_name,
    read_input_file,
    subject_ids,
)
from pipelines.night_units import (
    COLLUSION_STATE,
    LEDGER,
    QUALITY,
    UnitLookup,
    stored_unit_ids,
    unit,
    unit_lookup,
)
from pipelines.night_window import (
    STANDING,
    NightWindow,
    outside_night,
    tolerance_from_env,
    with_window,
)
from pipelines.nightly.intake import (
    ReadByIngest,
    day_intakes,
    intake_units,
    night_subjects,
)
from pipelines.nightly.partitions import PARTITIONS, partition_name
from pipelines.quality import QualityResult, Validations, merged, readability
from pipelines.report import ReportPaths, write_report
from replayer.findings import Finding, tally_kinds
from replayer.rulebooks.poker import RakeTerms
from replayer.slots import MachineVerdict
from replayer.terms import declared_rake

BATCH = 2000
T = TypeVar("T")

__all__ = [
    "InputFileIngest",
    "InputFileIntake",
    "NightlySummary",
    "NoInput",
    "PartitionReplay",
    "append_findings",
    "default_workers",
    "detector_half",
    "detector_units",
    "discover_input_files",
    "ingest_input_file",
    "judge_partition",
    "prepare_night",
    "prepare_store",
    "run_detectors",
    "run_nightly",
    "take_in_input_file",
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
    """The day has no input files: nothing to reconcile (the CLI and the DAG both fail)."""


def prepare_night(store_url: str, input_dir: Path, day: date) -> list[Path]:
    """Steps 1 and 3a: the day's input files, after the store is set up and the day's
    table declarations (``TableTermsDeclared`` files) are stored, so that every hand of the
    night is judged under the terms in force (ingesting them again later stores nothing).

    Raises ``NoInput`` when the day has no input files.
    """
    input_files = discover_input_files(Path(input_dir), day)
    if not input_files:
        raise NoInput(f"no Avro input files for {day} under {Path(input_dir) / day.isoformat()}/")
    prepare_store(store_url)
    for path in declaration_files(input_files):
        ingest_input_file(store_url, path, day)
    return input_files


def prepare_store(store_url: str) -> None:
    """Create the store's schema and tables once, before input files are processed side by
    side: concurrent ``CREATE ... IF NOT EXISTS`` of the same objects can fail on
    PostgreSQL."""
    with open_store(store_url):
        pass


@dataclass
class InputFileIngest:
    """What ingesting one input file did."""

    input_file: str
    subjects_stored: int
    subjects_already_stored: int
    events_stored: int
    quarantined: int
    skipped: str = ""
    """Why the input file's subjects are not judged ('' when they are): it could not be read."""


def ingest_input_file(store_url: str, path: Path, day: date) -> InputFileIngest:
    """Step 3: store one input file's valid records, on the chain shard of its own
    (``chain_shard_of``: ``night/<day>/<input file name>``), quarantine the others, then
    store its intake: the subjects it names, filed by partition
    (``pipelines.nightly.partitions``), which step 4 judges once all the night's input
    files are in. Idempotent."""
    return _ingest_input_file(store_url, path, day)[0]


def _ingest_input_file(
    store_url: str, path: Path, day: date
) -> tuple[InputFileIngest, InputFileEvents]:
    """``ingest_input_file``, and the input file's events as read: from what ingest read
    when it read the file whole (``ReadByIngest``), else read again (``read_input_file``)."""
    seen = ReadByIngest()
    with open_store(store_url, chain_shard_of(path)) as store:
        summary = ingest(store, [Path(path)], on_unit=seen.add)
        read = seen.input_file(path) or read_input_file(Path(path))
        if read.family is not None:
            store.append(intake_units(day, input_file_name(path), read.family, subject_ids(read)))
    ingested = InputFileIngest(
        input_file_name(path),
        summary.subjects_stored,
        summary.subjects_already_stored,
        summary.events_stored,
        summary.quarantined,
        "" if read.family is not None else read.error or "unknown family",
    )
    return ingested, read


@dataclass
class PartitionReplay:
    """What judging one partition of the night's subjects did."""

    partition: str
    judged: dict[str, int] = field(default_factory=dict)
    """family -> subjects judged."""
    with_findings: int = 0
    findings: dict[str, int] = field(default_factory=dict)
    verdicts_stored: int = 0
    events_checked: int = 0
    quality_findings: int = 0


def judge_partition(
    store_url: str,
    day: date,
    partition: int,
    docs_dir: Path | None = None,
    intakes: Sequence[str] | None = None,
) -> PartitionReplay:
    """Step 4, after every input file of the night is ingested: judge each subject the day's
    intakes file under ``partition``, once, over all its stored events (whichever files
    brought them), and store the verdicts, then per family the partition's data quality
    (the Great Expectations suites over those stored events, ``pipelines.quality``; one
    Data Docs site of the partition under ``docs_dir``), its ledger of verdicts and, for
    poker, the collusion detector's state and the rake profile over its hands.

    Each subject goes through the one judging path (``audit.judging``: its stored
    events, the table terms in force at its start, a satellite's stored target), so the
    night's verdict is the one ``replay`` and ``show`` give. Subjects are judged in id
    order, so nothing here depends on the files' order or on how they split a subject.
    ``intakes``: the day's intake unit ids (``pipelines.nightly.intake.day_intakes``) when
    the caller found them once for every partition; None: found here.
    """
    name = partition_name(partition)
    result = PartitionReplay(name)
    docs_site = docs_dir / name if docs_dir else None
    with (
        open_store(store_url, f"night/{day.isoformat()}/{name}") as store,
        Validations(docs_site) as validations,
    ):
        terms_book = TermsBook(store)
        lookup = None if intakes is None else unit_lookup(intakes)
        for family, subjects in night_subjects(store, day, partition, lookup).items():
            units = _judge_family(store, terms_book, validations, result, day, family, subjects)
            store.append(units)
        store.checkpoint()
    return result


def _judge_family(
    store: AuditStore,
    terms_book: TermsBook,
    validations: Validations,
    result: PartitionReplay,
    day: date,
    family: str,
    subjects: Sequence[str],
) -> list[SubjectRecords]:
    """Judge and check one family's subjects of a partition batch by batch (verdicts
    stored and the family's suites run per batch, so a worker holds one batch's events,
    whatever the day's size); the partition's units of the family (quality, ledger,
    collusion state). The ledger
    notes which subjects' verdicts have findings (``with_findings``), so the report reads
    those verdicts alone, and, for banked rounds, which are chemin de fer coups
    (``coups_noted``), so the night's banker runs read those rounds alone, and which were
    dealt from a shoe (``shoes_noted``), for the night's shoes."""
    label = f"{family}/{result.partition}"
    ledger: dict[str, dict[str, str]] = {}
    coups: list[str] = []
    dealt: list[str] = []  # banked rounds dealt from a shoe
    flagged: list[str] = []  # subjects whose verdicts have findings
    fleet: dict[str, dict[str, Any]] = {}  # slot machine -> the day's figures
    writer = VerdictWriter(store, BATCH)
    checked: list[QualityResult] = []
    watcher = CollusionDetector(as_of=day) if family == "poker" else None
    rake = RakeProfile()
    window = NightWindow(day, tolerance_from_env())  # pipelines.night_window
    outside: list[Finding] = []
    batches = store.iter_record_batches(family, subjects, BATCH)
    for judged in judged_batches(store, family, batches, terms_book, keep=bool):
        events: list[dict[str, Any]] = []  # a subject with no records: all quarantined
        for inputs, verdict in judged:
            writer.add(_judged(result, ledger, inputs, verdict))
            if verdict.findings:
                flagged.append(inputs.subject)
            events.extend(inputs.events)
            late = (
                None if family in STANDING else outside_night(window, inputs.subject, inputs.events)
            )
            if late:
                outside.append(late)
            if family == "banked" and is_coup(inputs.events):
                coups.append(inputs.subject)
            if dealt_from_a_shoe(family, inputs.events):
                dealt.append(inputs.subject)
            if isinstance(verdict, MachineVerdict):
                fleet[inputs.subject] = day_figures(verdict, day)
            if watcher is not None:
                watcher.observe(inputs.events)
                rake.add_hand(inputs.events, _declared_rake(inputs.terms))
        batch_label = f"{label}/{len(checked)}" if checked else label
        checked.append(validations.validate(batch_label, family, events, len(judged)))
    writer.flush()
    result.verdicts_stored += writer.stored
    result.judged[family] = len(ledger)
    quality = with_window(merged(label, family, checked), outside)
    result.events_checked += quality.events
    result.quality_findings += len(quality.findings)
    scope = f"{day.isoformat()}/{label}"
    profile = {"rake": rake.to_json()} if watcher is not None else {}
    facts = [
        unit(
            QUALITY,
            scope,
            quality.findings,
            checks=[asdict(c) for c in quality.checks],
            profile=profile,
            events_judged=quality.events,
        ),
        unit(
            LEDGER,
            scope,
            [],
            family=family,
            ledger=ledger,
            with_findings=sorted(flagged),
            **coups_noted(family, coups),
            **shoes_noted(family, dealt),
            **fleet_noted(fleet),
        ),
    ]
    if watcher is not None:
        facts.append(unit(COLLUSION_STATE, scope, [], state=watcher.state()))
    return facts


def _declared_rake(terms: dict[str, Any] | None) -> RakeTerms | None:
    """The rake a table's terms in force declare (None: none, or a band out of range,
    which the verdict reports)."""
    try:
        return declared_rake(terms)
    except ValueError:
        return None


def _judged(
    result: PartitionReplay, ledger: dict[str, dict[str, str]], inputs: Inputs, verdict: Any
) -> SubjectRecords:
    """One subject's verdict unit; its findings counted, the subject entered in its
    family's ledger."""
    stored = verdict_unit(inputs, verdict)
    ledger[inputs.subject] = {
        "verdict": stored.subject_id,
        "table": str(inputs.events[0].get("table_id") or inputs.subject),
    }
    if (tournament := inputs.events[0].get("tournament_id")) is not None:
        ledger[inputs.subject]["tournament"] = str(tournament)  # its hands' sessions (issue 38)
    result.with_findings += bool(verdict.findings)
    tally_kinds(verdict.findings, result.findings)
    return stored


DETECTOR_KINDS = (COLLUSION_STATE, LEDGER)
"""The kinds of the units the detectors read: the collusion states over the window, the
ledgers (the slot fleet's, the chemin de fer tables')."""


def run_detectors(store_url: str, day: date) -> list[Detection]:
    """Fleet-wide detectors over the day's judged subjects (``pipelines.detectors``: the
    slot fleet, then collusion), with the night's chemin de fer banker runs judged and
    stored, table by table, as ``replay`` judges them (``pipelines.detectors.banker_runs``):
    ``detector_half``'s two halves one after the other (``run_nightly`` runs them side by
    side)."""
    units = detector_units(store_url)  # one scan for both halves
    return detector_half(store_url, day, False, units) + detector_half(store_url, day, True, units)


def detector_units(store_url: str) -> list[str]:
    """The ids of the stored units of ``DETECTOR_KINDS``, in the order stored (one scan):
    for both of ``detector_half``'s halves, once the night's judging is done."""
    with open_store(store_url) as store:
        return stored_unit_ids(store, DETECTOR_KINDS)


def detector_half(
    store_url: str, day: date, collusion: bool, units: Sequence[str] | None = None
) -> list[Detection]:
    """Half of ``run_detectors``, to run beside the other (neither reads what the other
    stores): the collusion detection over the window (its nights' collusion states), or
    the slot fleet's detection, the banker runs, the table sessions and the shoes stored
    (from the day's ledgers, found before their own ledgers are stored). ``units``: the ids of
    the stored units of ``DETECTOR_KINDS`` when the caller scanned once for both halves
    (``stored_unit_ids``, after the night's judging); None: scanned here."""
    with open_store(store_url) as store:
        kinds = (COLLUSION_STATE,) if collusion else (LEDGER,)
        found: UnitLookup = unit_lookup(stored_unit_ids(store, kinds) if units is None else units)
        if collusion:
            return [collusion_detection(store, day, found)]
        fleet = meters_detection(store, day, found)
        runs = banker_run_units(store, day, night_tables(store, day, found))
        runs += table_session_units(store, day, night_hands(store, day, found))
        runs += shoe_units(store, day, *night_shoes(store, day, found))
        if runs:
            store.append(runs)
            store.checkpoint()
        return [fleet]


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
            f"{day.isoformat()}/{q.part}",
            q.findings,
            checks=[asdict(c) for c in q.checks],
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
    input_files: int = 0
    events: int = 0
    ingested: list[InputFileIngest] = field(default_factory=list)
    replayed: list[PartitionReplay] = field(default_factory=list)
    quality_findings: int = 0
    detector_findings: dict[str, int] = field(default_factory=dict)
    units_stored: int = 0
    report: ReportPaths | None = None

    @property
    def quarantined(self) -> int:
        return sum(i.quarantined for i in self.ingested)

    @property
    def judged(self) -> dict[str, int]:
        """family -> subjects judged, over every partition."""
        totals: dict[str, int] = {}
        for replayed in self.replayed:
            for family, count in replayed.judged.items():
                totals[family] = totals.get(family, 0) + count
        return dict(sorted(totals.items()))

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
class InputFileIntake:
    """What one input file's part of the night's first phase did: read, ingested."""

    quality: QualityResult
    ingested: InputFileIngest


def take_in_input_file(store_url: str, day: date, path: Path) -> InputFileIntake:
    """Ingest one input file and check that it reads in full (steps 2-3): ingest reads it
    record by record, keeping what fails in quarantine; when it read every record, its
    units give the intake and the readability, else the file is read again as it stands
    (``_ingest_input_file``)."""
    ingested, read = _ingest_input_file(store_url, path, day)
    return InputFileIntake(readability(path, read), ingested)


def default_workers() -> int:
    """Worker processes for ``run_nightly``: one per CPU this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_nightly(
    store_url: str, input_dir: Path, day: date, out_dir: Path, *, workers: int = 1
) -> NightlySummary:
    """The whole night without a scheduler: every step above, in order.

    Steps 2-3 run per input file, then step 4 per partition, each in ``workers`` processes
    (1: in this process), as the DAG's mapped tasks would on several workers; the store
    serialises their writes (SQLite's write lock, PostgreSQL's table lock) and every
    result is content-addressed, so the findings, the report and the summary do not
    depend on ``workers``.
    """
    summary = NightlySummary(day)
    docs_dir = Path(out_dir) / day.isoformat() / "data-docs"
    input_files = prepare_night(store_url, input_dir, day)
    summary.input_files = len(input_files)
    with _Workers(workers) as pool:  # one set of processes for every phase
        intakes = pool.run(
            take_in_input_file,
            [(store_url, day, path) for path in input_files],
            cost=lambda call: call[2].stat().st_size,  # the largest files first
        )
        with open_store(store_url) as store:
            found = day_intakes(store, day)  # once for every partition
        summary.replayed = pool.run(
            judge_partition, [(store_url, day, p, docs_dir, found) for p in range(PARTITIONS)]
        )
        units = detector_units(store_url)  # one scan for both halves
        halves = pool.run(
            detector_half, [(store_url, day, False, units), (store_url, day, True, units)]
        )
    detections = [detection for half in halves for detection in half]
    quality = [intake.quality for intake in intakes if intake.quality.findings]
    summary.ingested = [intake.ingested for intake in intakes]
    summary.events = sum(r.events_checked for r in summary.replayed)
    summary.quality_findings = sum(len(q.findings) for q in quality) + sum(
        r.quality_findings for r in summary.replayed
    )
    for detection in detections:
        tally_kinds(detection.findings, summary.detector_findings)
    summary.units_stored = append_findings(store_url, day, quality, detections)
    summary.report = write_report(store_url, day, Path(out_dir))
    return summary


class _Workers:
    """``workers`` processes shared by the night's two phases, started when a phase first
    has more than one call (so the second phase does not start them again), as a context
    manager: once it closes without error the workers are left to exit while the night's
    serial steps go on (every result is in by then)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=kind is not None, cancel_futures=True)

    def run(
        self,
        step: Callable[..., T],
        calls: Sequence[tuple[Any, ...]],
        cost: Callable[[tuple[Any, ...]], float] | None = None,
    ) -> list[T]:
        """``step(*args)`` for each of ``calls``, results in call order, in the worker
        processes (1 worker or a single call: in this process). With ``cost`` (an
        estimate of each call's work), the costliest calls are handed out first, so no
        worker is left with a long call while the others idle at the phase's end."""
        if min(self.workers, len(calls)) <= 1:
            return [step(*args) for args in calls]
        if self.pool is None:
            # spawn: a clean interpreter per worker, no inherited store connections or locks.
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(self.workers, mp_context=context)
        order: Sequence[int] = range(len(calls))
        if cost is not None:  # a stable sort: equal costs keep the calls' order
            order = sorted(order, key=lambda i: cost(calls[i]), reverse=True)
        jobs = {i: self.pool.submit(step, *calls[i]) for i in order}
        return [jobs[i].result() for i in range(len(calls))]
