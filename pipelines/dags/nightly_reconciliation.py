"""Airflow 3 DAG: the nightly reconciliation, one task per step of ``pipelines.nightly``.

Thin by design: every task calls a plain function that the CLI (``casino-audit nightly``)
and the tests call too, and every task is idempotent, so any task or the whole run can
be retried or rerun for a date without duplicating anything.

    discover ─▶ ingest[chunk] ─▶ judge[partitions] ─▶ detectors ─▶ append ─▶ report
                  plan_judging ─┘
                (dynamic task mapping: one task instance per chunk of input files, then one
                 per chunk of the partitions of the night's subjects once every input
                 file is in;
                 discover stores the day's table declarations first, fails on no input)

Two phases, so a subject whose events are split over several files of the night is
judged once, whole (``pipelines.nightly.partitions``): every ``judge`` instance waits for every
``ingest`` instance.

Chunks (``pipelines.nightly.chunks``): the day's input files (and the ``PARTITIONS`` partitions of
its subjects) in at most ``max_chunks`` consecutive chunks, never more than Airflow's
``[core] max_map_length`` (1,024 by default), so any day size maps; one input file per chunk
when the day is small enough.

Params (trigger with ``--conf`` or the UI; empty means the default):
    date       YYYY-MM-DD; default the UTC day that ended before the run
               (``pipelines.settings.night_of_run``)
    input_dir  root of the day folders (``<input_dir>/<YYYY-MM-DD>/**/*.avro``);
               default ``$CASINO_AUDIT_INPUT`` or ``./casino-audit-input``
    store_url  the store; default ``$CASINO_AUDIT_STORE`` or ``sqlite:///casino-audit.db``
    out_dir    where reports go; default ``$CASINO_AUDIT_OUT`` or ``./casino-audit-reports``
    max_chunks the most mapped instances per mapped task; 0 (default) means
               ``[core] max_map_length``, which also caps any larger value

Scaling out: run Airflow with the CeleryExecutor (or KubernetesExecutor) and the store
on PostgreSQL (README: "Deploying the nightly on Airflow"). The mapped
``ingest`` and ``judge`` instances then spread over the workers; every task that opens the
store runs in the pool ``casino_audit_store`` (create it: ``airflow pools set``), whose
slots bound the connections the store takes. ``input_dir`` and ``out_dir`` must be on
storage every worker sees (a shared volume, or a synced bucket). The store serialises
appends per subject (the hash chain), and units have content-derived ids, so concurrent
input files and retries (``RETRIES`` per task; a day without input fails at once) never
duplicate a fact.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from airflow.sdk import Param, dag, get_current_context, task

from pipelines.nightly.chunks import STORE_POOL, chunked
from pipelines.nightly.partitions import PARTITIONS

RETRIES = 2
"""Attempts after the first for every task (a lost worker, a dropped connection)."""


def _settings() -> dict[str, Any]:
    """The run's params with defaults filled in (see the module docstring)."""
    from pipelines.settings import night_of_run, run_settings

    context = get_current_context()
    params = context["params"]
    day = night_of_run(
        params.get("date") or None,
        data_interval_end=context.get("data_interval_end"),
        run_after=context["dag_run"].run_after,
    )
    return {"day": day, **run_settings(params)}


def _max_chunks() -> int:
    """The most instances of a mapped task: ``max_chunks``, capped by ``[core]
    max_map_length``."""
    from airflow.sdk.configuration import conf

    cap: int = conf.getint("core", "max_map_length")
    wanted: int = get_current_context()["params"].get("max_chunks") or cap
    return min(wanted, cap)


@dag(
    dag_id="nightly_reconciliation",
    schedule="@daily",
    start_date=datetime(2025, 1, 1),
    catchup=False,
    max_active_runs=1,
    tags=["casino-audit"],
    default_args={"retries": RETRIES, "retry_delay": timedelta(seconds=30)},
    params={
        "date": Param("", type="string", description="YYYY-MM-DD (default: the day that ended)"),
        "input_dir": Param("", type="string", description="root of <YYYY-MM-DD>/ folders"),
        "store_url": Param("", type="string", description="sqlite:///… or postgresql://…"),
        "out_dir": Param("", type="string", description="where the report goes"),
        "max_chunks": Param(0, type="integer", minimum=0, description="0: max_map_length"),
    },
    doc_md=__doc__,
)
def nightly_reconciliation() -> None:
    @task(pool=STORE_POOL)
    def discover() -> list[list[str]]:
        from pathlib import Path

        from airflow.sdk.exceptions import AirflowFailException

        from pipelines.nightly import NoInput, prepare_night

        settings = _settings()
        try:
            input_files = prepare_night(
                settings["store_url"], Path(settings["input_dir"]), settings["day"]
            )
        except NoInput as error:  # a retry would not find more
            raise AirflowFailException(str(error)) from error
        return chunked([str(p) for p in input_files], _max_chunks())

    @task(pool=STORE_POOL)
    def ingest(chunk: list[str]) -> list[dict[str, Any]]:
        from pipelines.nightly.chunk_steps import ingest_chunk

        settings = _settings()
        return ingest_chunk(settings["store_url"], settings["day"], chunk)

    @task
    def plan_judging() -> list[list[int]]:
        return chunked(list(range(PARTITIONS)), _max_chunks())

    @task(pool=STORE_POOL)
    def judge(partitions: list[int]) -> list[dict[str, Any]]:
        from pathlib import Path

        from pipelines.nightly.chunk_steps import judge_chunk

        settings = _settings()
        docs = Path(settings["out_dir"]) / settings["day"].isoformat() / "data-docs"
        return judge_chunk(settings["store_url"], settings["day"], partitions, docs)

    @task(pool=STORE_POOL)
    def detectors(judged: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
        from pipelines.nightly import run_detectors

        settings = _settings()
        return [d.to_json() for d in run_detectors(settings["store_url"], settings["day"])]

    @task(pool=STORE_POOL)
    def append(ingested: list[list[dict[str, Any]]], detections: list[dict[str, Any]]) -> int:
        from pipelines.detectors import Detection
        from pipelines.nightly import append_findings
        from pipelines.quality import QualityResult

        settings = _settings()
        return append_findings(
            settings["store_url"],
            settings["day"],
            [QualityResult.from_json(s["quality"]) for c in ingested for s in c if s["quality"]],
            [Detection.from_json(d) for d in detections],
        )

    @task(pool=STORE_POOL)
    def report(stored: int) -> str:
        from pathlib import Path

        from pipelines.nightly import write_report

        settings = _settings()
        paths = write_report(settings["store_url"], settings["day"], Path(settings["out_dir"]))
        return str(paths.html)

    chunks = discover()
    ingested = ingest.expand(chunk=chunks)
    judged = judge.expand(partitions=plan_judging())
    ingested >> judged
    # Airflow types a task call as taking the function's own parameters, but at DAG
    # build time each argument is an upstream task's XComArg, resolved when the task runs.
    report(append(ingested, detectors(judged)))  # type: ignore[arg-type]


nightly_reconciliation()
