"""Data quality of the night's stored events: Great Expectations over pandas frames.

``validate_events`` takes the stored events of whole subjects (a batch of one partition
of the night, ``pipelines.partitions``: whatever files brought them), builds their
frames (``pipelines.expectations.frames``), runs the family's suites
(``pipelines.expectations.suites``) in an ephemeral GX context, and turns every failing
row into a ``data_quality`` finding about its hand, round or machine (about the part of
the night when the failure has no row). ``readability`` is the one check of a file as
a file: whether it could be read in full. Nothing is raised for bad data: the job goes on. With a
``docs_dir``, GX Data Docs (HTML) of the run are written there.

great_expectations is imported inside ``_run_suites`` only: its import takes seconds.
"""

from __future__ import annotations

import json
import math
import shutil
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from pipelines.expectations.frames import FRAME_BUILDERS
from pipelines.expectations.suites import CITATION_PREFIX, SUITES, Check
from pipelines.night_units import finding_of
from pipelines.shards import ShardEvents, shard_name, subject_ids
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

    shard: str
    """The file (``poker/0001.avro``) or part of the night (``poker/p03``) judged."""
    family: str | None
    events: int
    subjects: int
    checks: list[CheckOutcome] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    docs: str = ""

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
        findings = [finding_of(f) for f in data["findings"]]
        checks = [CheckOutcome(**c) for c in data["checks"]]
        return cls(**{**data, "findings": findings, "checks": checks})


def readability(path: Path, shard: ShardEvents) -> QualityResult:
    """A file's own data quality, before anything of it is stored: a finding about the
    file when it cannot be read in full (what could not be read is quarantined)."""
    name = shard_name(path)
    result = QualityResult(name, shard.family, len(shard.events), len(subject_ids(shard)))
    if shard.error:
        result.findings.append(
            Finding(
                FindingKind.DATA_QUALITY,
                name,
                f"{CITATION_PREFIX}: shard.readable",
                f"shard cannot be read in full: {shard.error}",
                detail={"shard": name, "events_read": len(shard.events)},
            )
        )
    return result


def validate_events(
    label: str,
    family: str,
    events: Sequence[dict[str, Any]],
    subjects: int,
    docs_dir: Path | None = None,
) -> QualityResult:
    """Run the family's suites over stored events of whole subjects (see the module
    docstring), under ``label`` (the part of the night they are: ``poker/p03``)."""
    result = QualityResult(label, family, len(events), subjects)
    if family not in SUITES or not events:
        return result
    frames = FRAME_BUILDERS[family](events)
    suites = SUITES[family]
    site = docs_dir / _slug(label) if docs_dir else None
    outcomes = _run_suites(f"{family}.{_slug(label)}", frames, suites, site)
    for frame, check, outcome in outcomes:
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
    result.docs = str(site / "index.html") if site else ""
    return result


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
    result.docs = next((p.docs for p in parts if p.docs), "")
    return result


def _slug(name: str) -> str:
    return name.replace("/", "__").removesuffix(".avro")


def _run_suites(
    label: str,
    frames: dict[str, pd.DataFrame],
    suites: dict[str, tuple[Check, ...]],
    site: Path | None,
) -> list[tuple[str, Check, dict[str, Any]]]:
    """Validate each frame against its suite; (frame, check, GX result dict) per check."""
    import great_expectations as gx
    from great_expectations.data_context.types.base import ProgressBarsConfig

    context = gx.get_context(mode="ephemeral")
    context.variables.progress_bars = ProgressBarsConfig(globally=False)
    source = context.data_sources.add_pandas(label)
    outcomes: list[tuple[str, Check, dict[str, Any]]] = []
    for frame_name, checks in suites.items():
        suite = context.suites.add(gx.ExpectationSuite(name=f"{label}.{frame_name}"))
        by_id = {
            suite.add_expectation(getattr(gx.expectations, c.expectation)(**c.kwargs)).id: c
            for c in checks
        }
        batch = source.add_dataframe_asset(frame_name).add_batch_definition_whole_dataframe("whole")
        validation = context.validation_definitions.add(
            gx.ValidationDefinition(name=f"{label}.{frame_name}", data=batch, suite=suite)
        )
        run = validation.run(
            batch_parameters={"dataframe": frames[frame_name]},
            result_format={
                "result_format": "COMPLETE",
                "unexpected_index_column_names": ["subject"],
            },
        )
        for expectation_result in run.results:  # not in the suite's order: match by id
            outcome = dict(expectation_result.result)
            outcome["success"] = bool(expectation_result.success)
            config = expectation_result.expectation_config
            assert config is not None  # a run's result names the expectation it checked
            check = by_id[config.id]
            outcomes.append((frame_name, check, outcome))
    outcomes.sort(key=lambda o: (list(suites).index(o[0]), suites[o[0]].index(o[1])))
    if site is not None:
        _build_docs(context, site)
    return outcomes


def _build_docs(context: Any, site: Path) -> None:
    """Write the run's Data Docs to ``site`` (replacing an earlier run's)."""
    shutil.rmtree(site, ignore_errors=True)
    for name in list(context.list_data_docs_sites()):
        context.delete_data_docs_site(name)
    context.add_data_docs_site(
        site_name="nightly",
        site_config={
            "class_name": "SiteBuilder",
            "store_backend": {
                "class_name": "TupleFilesystemStoreBackend",
                "base_directory": str(site.resolve()),
            },
            "site_index_builder": {"class_name": "DefaultSiteIndexBuilder"},
        },
    )
    context.build_data_docs(site_names=["nightly"])


def _plain(value: Any) -> Any:
    """numpy and pandas scalars as JSON-able Python values."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _findings(shard: str, frame: str, check: Check, outcome: dict[str, Any]) -> list[Finding]:
    """One finding per subject with failing rows; one about the shard when no row is named."""
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
                shard,
                check.citation,
                check.reason,
                expected=expected,
                recorded=json.loads(json.dumps(outcome.get("observed_value"), default=str)),
                detail={"shard": shard, "frame": frame},
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
            detail={"shard": shard, "frame": frame},
        )
        for subject, values in sorted(by_subject.items())
    ]
