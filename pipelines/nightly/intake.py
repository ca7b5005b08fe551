"""A night's intake: which subjects each input file names, filed by partition.

Ingesting an input file (``pipelines.nightly.steps.ingest_input_file``) stores one
``intake`` unit per partition its subjects fall in (``pipelines.nightly.partitions``);
judging a partition reads the day's intakes of that partition, whatever input files they
came from, and judges each subject once. A subject named by several input files (its
events split over files) is in several
intakes and judged once; a rerun stores the same intakes (content-derived unit ids).

Finding a day's intakes means scanning the ids of every stored unit, verdicts included
(``pipelines.night_units.iter_days_units``). Judging stores no intake, so the ids found
once every shard is in (``day_intakes``) are those each partition would find: the
night scans once and hands them to every partition (``pipelines.night_units.unit_lookup``),
instead of 16 scans of a store that fills with the night's verdicts as they run.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path

from audit.ingest.errors import RecordRejected
from audit.judging import KIND as ADJUDICATION
from audit.store import AuditStore, SubjectRecords
from pipelines.input_files import InputFileEvents
from pipelines.night_units import INTAKE, UnitLookup, iter_days_units, unit
from pipelines.nightly.partitions import PARTITIONS, partition_name, partition_of


class ReadByIngest:
    """What ingest read of one input file, unit by unit (``ingest(on_unit=add)``), so the
    night need not read the file a second time for its intake and readability. A file
    ingest read whole with no rejection (every block decoded under the family's schema,
    every record valid) reads whole as a plain container too, with the same events and
    subjects: ``input_file`` then gives what ``pipelines.input_files.read_input_file``
    gives;
    after any rejection, or when nothing was read, it is None and the caller reads the
    file as it stands (``read_input_file`` stops at the first damage)."""

    def __init__(self) -> None:
        self.units: list[SubjectRecords] = []
        self.rejected = False

    def add(self, item: SubjectRecords | RecordRejected) -> None:
        if isinstance(item, RecordRejected):
            self.rejected = True
        else:
            self.units.append(item)

    def input_file(self, path: Path) -> InputFileEvents | None:
        if self.rejected or not self.units:
            return None
        events = [record for read in self.units for record in read.records]
        return InputFileEvents(Path(path), self.units[0].kind, events)


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


def day_intakes(store: AuditStore, day: date) -> list[str]:
    """The ids of the day's stored intake units, in the order stored (one scan of the
    stored units' ids)."""
    prefix = f"{INTAKE}:{day.isoformat()}/"
    return [uid for uid in store.iter_subject_ids(ADJUDICATION) if uid.startswith(prefix)]
