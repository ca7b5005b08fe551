"""A night's intake: which subjects each input file names, filed by partition.

Ingesting an input file (``pipelines.nightly.steps.ingest_input_file``) stores one
``intake`` unit per partition its subjects fall in (``pipelines.nightly.partitions``);
judging a partition reads the day's intakes of that partition, whatever input files they
came from, and judges each subject once. A subject named by several input files (its
events split over files) is in several
intakes and judged once; a rerun stores the same intakes (content-derived unit ids).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from audit.store import AuditStore, SubjectRecords
from pipelines.night_units import INTAKE, UnitLookup, iter_days_units, unit
from pipelines.nightly.partitions import PARTITIONS, partition_name, partition_of


def intake_units(
    day: date, input_file: str, family: str, subjects: Iterable[str]
) -> list[SubjectRecords]:
    """The intake units of one input file of ``family``: the subjects it names, sorted,
    one unit per partition that holds any."""
    filed: dict[int, list[str]] = {}
    for subject in sorted(set(subjects)):
        filed.setdefault(partition_of(subject), []).append(subject)
    return [
        unit(
            INTAKE,
            f"{day.isoformat()}/{partition_name(p)}/{family}/{input_file}",
            [],
            family=family,
            subjects=names,
        )
        for p, names in sorted(filed.items())
    ]


def night_subjects(
    store: AuditStore, day: date, partition: int, unit_ids: UnitLookup | None = None
) -> dict[str, list[str]]:
    """family -> the subjects of ``partition`` that the day's input files name, each once,
    sorted (families in name order)."""
    if not 0 <= partition < PARTITIONS:
        raise ValueError(f"partition {partition} is not in 0..{PARTITIONS - 1}")
    named: dict[str, set[str]] = {}
    within = f"{partition_name(partition)}/"
    for _, record in iter_days_units(store, [day], [INTAKE], unit_ids, within):
        named.setdefault(record["family"], set()).update(record["subjects"])
    return {family: sorted(named[family]) for family in sorted(named)}
