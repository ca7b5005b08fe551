"""Airflow 3 DAG: the nightly reconciliation, one task per step of ``pipelines.nightly``.

Thin by design: every task calls a plain function that the CLI (``casino-audit nightly``)
and the tests call too, and every task is idempotent, so any task or the whole run can
be retried or rerun for a date without duplicating anything.

    discover ─▶ validate[shard] ─▶ ingest_and_replay[shard] ─▶ detectors ─▶ append ─▶ report
                (dynamic task mapping: one task instance per shard; discover
                 stores the day's table declarations first, and fails on no input)

Params (trigger with ``--conf`` or the UI; empty means the default):
    date       YYYY-MM-DD; default the run's data interval start (UTC day)
    input_dir  root of the day folders (``<input_dir>/<YYYY-MM-DD>/**/*.avro``);
               default ``$CASINO_AUDIT_INPUT`` or ``./casino-audit-input``
    store_url  the store; default ``$CASINO_AUDIT_STORE`` or ``sqlite:///casino-audit.db``
    out_dir    where reports go; default ``$CASINO_AUDIT_OUT`` or ``./casino-audit-reports``

Scaling out: run Airflow with the CeleryExecutor (or KubernetesExecutor) and the store
on PostgreSQL. The mapped ``validate`` and ``ingest_and_replay`` instances of a day's
shards then spread over the workers (``max_active_tis_per_dag`` and pools bound the
concurrency the database takes); ``input_dir`` and ``out_dir`` must be on storage every
worker sees (a shared volume, or a synced bucket). The store serialises appends per
subject (the hash chain), and units have content-derived ids, so concurrent shards and
retries never duplicate a fact.
"""

from __future__ import annotations

import os
from datetime import date, datetime
from typing import Any

from airflow.sdk import Param, dag, get_current_context, task

INPUT_ENV, OUT_ENV = "CASINO_AUDIT_INPUT", "CASINO_AUDIT_OUT"


def _settings() -> dict[str, Any]:
    """The run's params with defaults filled in (see the module docstring)."""
    from audit.config import store_url_from_env

    context = get_current_context()
    params = context["params"]
    day_text = params.get("date") or ""
    if day_text:
        day = date.fromisoformat(day_text)
    else:
        start = context.get("data_interval_start") or context["dag_run"].run_after
        day = start.date()
    return {
        "day": day,
        "input_dir": params.get("input_dir") or os.environ.get(INPUT_ENV, "casino-audit-input"),
        "store_url": store_url_from_env(params.get("store_url") or None),
        "out_dir": params.get("out_dir") or os.environ.get(OUT_ENV, "casino-audit-reports"),
    }


@dag(
    dag_id="nightly_reconciliation",
    schedule="@daily",
    start_date=datetime(2025, 1, 1),
    catchup=False,
    max_active_runs=1,
    tags=["casino-audit"],
    params={
        "date": Param("", type="string", description="YYYY-MM-DD (default: the data interval)"),
        "input_dir": Param("", type="string", description="root of <YYYY-MM-DD>/ folders"),
        "store_url": Param("", type="string", description="sqlite:///… or postgresql://…"),
        "out_dir": Param("", type="string", description="where the report goes"),
    },
    doc_md=__doc__,
)
def nightly_reconciliation() -> None:
    @task
    def discover() -> list[str]:
        from pathlib import Path

        from pipelines.nightly import prepare_night

        settings = _settings()
        shards = prepare_night(settings["store_url"], Path(settings["input_dir"]), settings["day"])
        return [str(p) for p in shards]

    @task
    def validate(shard: str) -> dict[str, Any]:
        from pathlib import Path

        from pipelines.nightly import validate_shard

        settings = _settings()
        docs = Path(settings["out_dir"]) / settings["day"].isoformat() / "data-docs"
        return validate_shard(Path(shard), docs).to_json()

    @task
    def ingest_and_replay(shard: str) -> dict[str, Any]:
        from dataclasses import asdict
        from pathlib import Path

        from pipelines.nightly import ingest_shard, replay_day

        settings = _settings()
        ingested = ingest_shard(settings["store_url"], Path(shard))
        replayed = replay_day(settings["store_url"], settings["day"], Path(shard))
        return {"ingested": asdict(ingested), "replayed": asdict(replayed)}

    @task
    def detectors(replayed: list[dict[str, Any]]) -> list[dict[str, Any]]:
        from pipelines.nightly import run_detectors

        settings = _settings()
        return [d.to_json() for d in run_detectors(settings["store_url"], settings["day"])]

    @task
    def append(quality: list[dict[str, Any]], detections: list[dict[str, Any]]) -> int:
        from pipelines.detectors import Detection
        from pipelines.nightly import append_findings
        from pipelines.quality import QualityResult

        settings = _settings()
        return append_findings(
            settings["store_url"],
            settings["day"],
            [QualityResult.from_json(q) for q in quality],
            [Detection.from_json(d) for d in detections],
        )

    @task
    def report(stored: int) -> str:
        from pathlib import Path

        from pipelines.nightly import write_report

        settings = _settings()
        paths = write_report(settings["store_url"], settings["day"], Path(settings["out_dir"]))
        return str(paths.html)

    shards = discover()
    quality = validate.expand(shard=shards)
    replayed = ingest_and_replay.expand(shard=shards)
    quality >> replayed
    report(append(quality, detectors(replayed)))


nightly_reconciliation()
