"""Data quality of the night's stored events: Great Expectations over pandas frames.

``Validations.validate`` takes the stored events of whole subjects (a batch of one
partition of the night, ``pipelines.nightly.partitions``: whatever files brought them), builds
their frames (``pipelines.expectations.frames``), runs the family's suites
(``pipelines.expectations.suites``) and turns every failing row into a ``data_quality``
finding about its hand, round or machine (about the part of the night when the failure
has no row). ``readability`` is the one check of a file as a file: whether it could be
read in full. Nothing is raised for bad data: the job goes on. A ``Validations`` with a
Data Docs site writes GX Data Docs (HTML) of all its runs there when it closes: one site
per part of the night.

The suites run in one ephemeral GX context per process (``_session``), whose suites and
validation definitions are made once, on first use, and then run batch after batch: a
context, its suites and its docs templates cost about half a second to set up, which a
night of 16 partitions and four families would otherwise pay 60 times. Each run's
results are forgotten when its ``Validations`` closes, so memory does not grow with the
night. great_expectations is imported inside ``_session`` only: its import takes seconds.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Any

import pandas as pd

from pipelines.expectations.frames import FRAME_BUILDERS
from pipelines.expectations.suites import CITATION_PREFIX, SUITES, Check
from pipelines.input_files import (
    InputFileEvents,
    input_file_name,
    subject_ids,
    written_before_rename,
)
from pipelines.night_units import finding_of
from replayer.findings import Finding, FindingKind

MAX_VALUES_PER_FINDING = 10


@dataclass
class CheckOutcome:
    """How one expectation fared on one frame of a part of the night."""

    name: str
    frame: str
    expectation: str
    success: bool
    unexpected: int


@dataclass
class QualityResult:
    """The data-quality verdict on a file or a part of the night: checks run and
    findings."""

    part: str
    """The input file (``poker/0001.avro``) or part of the night (``poker/p03``) judged
    (``shard`` in a result written before issue #25: ``from_json`` reads both)."""
    family: str | None
    events: int
    subjects: int
    checks: list[CheckOutcome] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        """JSON-able form (XCom, files); ``from_json`` reads it back."""
        data = asdict(self)
        data["findings"] = [f.to_record() for f in self.findings]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QualityResult:
        data = written_before_rename(data, {"shard": "part"})
        findings = [finding_of(f) for f in data["findings"]]
        checks = [CheckOutcome(**c) for c in data["checks"]]
        return cls(**{**data, "findings": findings, "checks": checks})


def readability(path: Path, read: InputFileEvents) -> QualityResult:
    """An input file's own data quality, before anything of it is stored: a finding about
    the file when it cannot be read in full (what could not be read is quarantined).

    The finding keeps the words it had before issue #25 renamed the input sense of
    "shard" to "input file" (check ``shard.readable``, reason "shard cannot be read in
    full", detail key ``shard``): its id is a hash of that content, which stored units,
    sign-offs and reruns rely on, so renaming them would make every such finding anew."""
    name = input_file_name(path)
    result = QualityResult(name, read.family, len(read.events), len(subject_ids(read)))
    if read.error:
        result.findings.append(
            Finding(
                FindingKind.DATA_QUALITY,
                name,
                f"{CITATION_PREFIX}: shard.readable",
                f"shard cannot be read in full: {read.error}",
                detail={"shard": name, "events_read": len(read.events)},
            )
        )
    return result


class Validations:
    """The suites' runs over one part of the night (see the module docstring), as a
    context manager: with a ``docs_site``, the Data Docs of its runs are written there
    when it closes (replacing an earlier night's), unless it ran none; either way the
    context forgets its results then, so the next part's docs hold only its own."""

    def __init__(self, docs_site: Path | None = None) -> None:
        self.docs_site = docs_site
        self.runs = 0

    def __enter__(self) -> Validations:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if not self.runs:  # nothing validated: no GX context to make or to clear
            return
        session = _session()
        try:
            if kind is None and self.docs_site is not None:
                _build_docs(session, self.docs_site)
        finally:
            _forget_results(session.context)

    def validate(
        self, label: str, family: str, events: Sequence[dict[str, Any]], subjects: int
    ) -> QualityResult:
        """Run the family's suites over stored events of whole subjects, under ``label``
        (the part of the night they are: ``poker/p03``)."""
        result = QualityResult(label, family, len(events), subjects)
        if family not in SUITES or not events:
            return result
        frames = FRAME_BUILDERS[family](events)
        self.runs += 1
        for frame, check, outcome in _run_suites(label, family, frames):
            result.checks.append(
                CheckOutcome(
                    check.name,
                    frame,
                    check.expectation,
                    outcome["success"],
                    int(outcome.get("unexpected_count") or 0),
                )
            )
            if not outcome["success"]:
                result.findings.extend(_findings(label, frame, check, outcome))
        result.findings.sort(key=lambda f: (f.subject, f.citation, f.finding_id))
        return result


def validate_events(
    label: str, family: str, events: Sequence[dict[str, Any]], subjects: int
) -> QualityResult:
    """``Validations().validate(...)`` for one batch with no Data Docs."""
    with Validations() as validations:
        return validations.validate(label, family, events, subjects)


def merged(label: str, family: str, parts: Sequence[QualityResult]) -> QualityResult:
    """One result for several batches of one part of the night: counts add, a check
    succeeds when it succeeded on every batch, findings in (subject, citation) order."""
    events, subjects = sum(p.events for p in parts), sum(p.subjects for p in parts)
    result = QualityResult(label, family, events, subjects)
    checks: dict[tuple[str, str], CheckOutcome] = {}
    for part in parts:
        for check in part.checks:
            seen = checks.setdefault((check.frame, check.name), replace(check, unexpected=0))
            seen.success = seen.success and check.success
            seen.unexpected += check.unexpected
        result.findings.extend(part.findings)
    result.checks = list(checks.values())
    result.findings.sort(key=lambda f: (f.subject, f.citation, f.finding_id))
    return result


@dataclass(frozen=True)
class _Suite:
    """One frame's suite, made once per process: its GX validation definition and the
    check of each of its expectations (by expectation id)."""

    validation: Any
    checks: dict[str, Check]


@dataclass
class _Session:
    """This process's GX context with every family's suites, made once, and its Data
    Docs site builder, made on first use: building it compiles the docs' templates."""

    context: Any
    suites: dict[tuple[str, str], _Suite]
    _docs: tuple[Any, Path] | None = None

    def docs_builder(self) -> tuple[Any, Path]:
        """The site builder and the scratch folder it writes to."""
        if self._docs is None:
            from great_expectations.render.renderer.site_builder import SiteBuilder

            scratch = Path(tempfile.mkdtemp(prefix="casino-audit-data-docs-"))
            builder = SiteBuilder(
                data_context=self.context,
                store_backend={
                    "class_name": "TupleFilesystemStoreBackend",
                    "base_directory": str(scratch),
                },
                site_name="nightly",
                site_index_builder={"class_name": "DefaultSiteIndexBuilder"},
            )
            self._docs = (builder, scratch)
        return self._docs


@cache
def _session() -> _Session:
    """The process's ephemeral GX context and its suites (see the module docstring):
    every family's, so every site of Data Docs lists the same suites whatever the order
    of the parts this process judged."""
    import great_expectations as gx
    from great_expectations.data_context.types.base import ProgressBarsConfig

    context = gx.get_context(mode="ephemeral")
    context.variables.progress_bars = ProgressBarsConfig(globally=False)
    source = context.data_sources.add_pandas("night")
    suites: dict[tuple[str, str], _Suite] = {}
    for family, frames in SUITES.items():
        for frame, checks in frames.items():
            name = f"{family}.{frame}"
            suite = context.suites.add(gx.ExpectationSuite(name=name))
            by_id = {
                suite.add_expectation(getattr(gx.expectations, c.expectation)(**c.kwargs)).id: c
                for c in checks
            }
            batch = source.add_dataframe_asset(name).add_batch_definition_whole_dataframe("whole")
            validation = context.validation_definitions.add(
                gx.ValidationDefinition(name=name, data=batch, suite=suite)
            )
            suites[family, frame] = _Suite(validation, by_id)
    return _Session(context, suites)


def _run_suites(
    label: str, family: str, frames: dict[str, pd.DataFrame]
) -> list[tuple[str, Check, dict[str, Any]]]:
    """Validate each frame against its suite; (frame, check, GX result dict) per check,
    in the suites' order. The run is named for ``label`` in the Data Docs (``poker.p03``:
    GX's file store takes no ``/`` in a name)."""
    from great_expectations.core.run_identifier import RunIdentifier

    session = _session()
    suites = SUITES[family]
    outcomes: list[tuple[str, Check, dict[str, Any]]] = []
    for frame_name in suites:
        suite = session.suites[family, frame_name]
        run = suite.validation.run(
            batch_parameters={"dataframe": frames[frame_name]},
            result_format={
                "result_format": "COMPLETE",
                "unexpected_index_column_names": ["subject"],
            },
            run_id=RunIdentifier(run_name=label.replace("/", ".")),
        )
        for expectation_result in run.results:  # not in the suite's order: match by id
            outcome = dict(expectation_result.result)
            outcome["success"] = bool(expectation_result.success)
            config = expectation_result.expectation_config
            assert config is not None  # a run's result names the expectation it checked
            check = suite.checks[config.id]
            outcomes.append((frame_name, check, outcome))
    outcomes.sort(key=lambda o: (list(suites).index(o[0]), suites[o[0]].index(o[1])))
    return outcomes


def _forget_results(context: Any) -> None:
    """Drop every validation result the context holds (they are only kept for docs)."""
    store = context.validation_results_store
    for key in store.list_keys():
        store.remove_key(key)


def _build_docs(session: _Session, site: Path) -> None:
    """Write the Data Docs of the context's results to ``site`` (replacing an earlier
    night's): built by the process's one site builder into its scratch folder, then
    moved into place."""
    builder, scratch = session.docs_builder()
    shutil.rmtree(scratch, ignore_errors=True)
    builder.build()
    shutil.rmtree(site, ignore_errors=True)
    site.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(scratch, site)


def _plain(value: Any) -> Any:
    """numpy and pandas scalars as JSON-able Python values."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _findings(part: str, frame: str, check: Check, outcome: dict[str, Any]) -> list[Finding]:
    """One finding per subject with failing rows; one about the part of the night when no
    row is named. The detail names the part under the key ``shard``, as before issue #25
    (a finding's id is a hash of its content: see ``readability``)."""
    rows = outcome.get("unexpected_index_list") or []
    by_subject: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        if isinstance(row, dict) and "subject" in row:
            values = {k: _plain(v) for k, v in row.items() if k != "subject"}
            by_subject[str(row["subject"])].append(values)
    expected = {"expectation": check.expectation, **check.kwargs}
    if not by_subject:
        return [
            Finding(
                FindingKind.DATA_QUALITY,
                part,
                check.citation,
                check.reason,
                expected=expected,
                recorded=json.loads(json.dumps(outcome.get("observed_value"), default=str)),
                detail={"shard": part, "frame": frame},
            )
        ]
    return [
        Finding(
            FindingKind.DATA_QUALITY,
            subject,
            check.citation,
            check.reason,
            expected=expected,
            recorded=values[:MAX_VALUES_PER_FINDING],
            difference=len(values),
            detail={"shard": part, "frame": frame},
        )
        for subject, values in sorted(by_subject.items())
    ]
