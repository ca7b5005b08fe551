"""The per-shard steps of the nightly over one chunk of shards (``pipelines.chunks``):
what one mapped task instance of the Airflow DAG runs, returning JSON for XCom.

Retrying a chunk runs every shard of it again. Each step is idempotent (the store keeps
one copy of a record, verdicts and ledgers are units with content-derived ids), so a
chunk killed mid-shard and run again stores nothing twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Any

from pipelines.nightly import ingest_shard, replay_day, validate_shard


def validate_chunk(chunk: Sequence[str], docs_dir: Path) -> list[dict[str, Any]]:
    """``validate_shard`` over each shard of the chunk: their data-quality results."""
    return [validate_shard(Path(shard), docs_dir).to_json() for shard in chunk]


def ingest_and_replay_chunk(
    store_url: str, day: date, chunk: Sequence[str]
) -> list[dict[str, Any]]:
    """``ingest_shard`` then ``replay_day`` for each shard of the chunk, in order: what
    each stored and judged."""
    done: list[dict[str, Any]] = []
    for shard in chunk:
        ingested = ingest_shard(store_url, Path(shard))
        replayed = replay_day(store_url, day, Path(shard))
        done.append({"ingested": asdict(ingested), "replayed": asdict(replayed)})
    return done
