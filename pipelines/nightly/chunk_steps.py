"""The mapped steps of the nightly, what one task instance of the Airflow DAG runs,
returning JSON for XCom: the first phase over one chunk of input files, the second over one
chunk of the partitions of the night's subjects (``pipelines.nightly.chunks``,
``pipelines.nightly.partitions``).

Retrying a chunk runs every input file of it again, retrying a partition judges it again.
Each step is idempotent (the store keeps one copy of an event, verdicts, intakes and
ledgers are units with content-derived ids), so a task killed midway and run again
stores nothing twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Any

from pipelines.nightly.intake import day_intakes
from pipelines.nightly.steps import judge_partition, open_store, take_in_input_file


def ingest_chunk(store_url: str, day: date, chunk: Sequence[str]) -> list[dict[str, Any]]:
    """``take_in_input_file`` for each input file of the chunk, in order: what each
    stored, and the data-quality result of an input file that could not be read in
    full."""
    done = []
    for path in chunk:
        intake = take_in_input_file(store_url, day, Path(path))
        quality = intake.quality.to_json() if intake.quality.findings else None
        done.append({"ingested": asdict(intake.ingested), "quality": quality})
    return done


def judge_chunk(
    store_url: str, day: date, partitions: Sequence[int], docs_dir: Path | None = None
) -> list[dict[str, Any]]:
    """``judge_partition`` for each partition of the chunk, once every input file of the
    night is ingested: what each judged (the day's intakes found once for the chunk)."""
    with open_store(store_url) as store:
        found = day_intakes(store, day)
    return [asdict(judge_partition(store_url, day, int(p), docs_dir, found)) for p in partitions]
