"""The nightly DAG on a real distributed Airflow: CeleryExecutor, a Redis broker and two
Celery workers, the metadata and the store on PostgreSQL (``tests/celery_harness.py``).

A small synthetic day is triggered as one run, its input files mapped in ``MAX_CHUNKS``
chunks; the run must succeed with both workers having executed tasks, the tasks that
open the store must have run in the store pool, and its ``findings.jsonl`` must be
byte-identical to that of ``casino-audit nightly`` on the same input and a fresh store.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipelines.nightly.chunks import STORE_POOL
from simulate.day import generate_day
from simulate.fleet import slot_fleet
from simulate.floor import banked_rounds
from tests.celery_harness import WORKERS, celery_airflow
from tests.conftest import fresh_postgres_url
from tests.fault_harness import DAY, run_cli

pytestmark = pytest.mark.postgres

RUN_ID = "celery-nightly"
MAX_CHUNKS = 4
STORE_TASKS = {"discover", "ingest", "judge", "detectors", "append", "report"}


def small_day(input_dir: Path) -> None:
    """A few hundred hands at eight tables, a few banked rounds and slot machines, with
    faults: thirteen input files."""
    generate_day(
        11,
        DAY,
        hands=300,
        out=input_dir / DAY.isoformat(),
        colluders=1,
        fault_rate=0.03,
        hands_per_file=100,
        extra=[
            banked_rounds(60, fault_rate=0.05, per_file=30),
            slot_fleet(4, fault_rate=0.25, per_file=2),
        ],
    )


def test_the_nightly_on_celery_workers_finds_what_the_command_line_finds(tmp_path: Path) -> None:
    input_dir, dag_out, cli_out = tmp_path / "in", tmp_path / "dag-out", tmp_path / "cli-out"
    small_day(input_dir)
    conf = {
        "date": DAY.isoformat(),
        "input_dir": str(input_dir),
        "store_url": fresh_postgres_url(),
        "out_dir": str(dag_out),
        "max_chunks": MAX_CHUNKS,
    }
    with celery_airflow(tmp_path / "cluster") as cluster:
        cluster.trigger(RUN_ID, json.dumps(conf))
        state = cluster.wait_for_run(RUN_ID)
        tasks = cluster.task_instances(RUN_ID)
        ran = cluster.workloads()
        logs = {name: cluster.services.log(name)[-3000:] for name in ("scheduler", *WORKERS)}
    assert state == "success", f"run {state}; tasks {tasks}\n{logs}"
    assert {index for task, index in tasks if task == "ingest"} == set(range(MAX_CHUNKS))
    assert {index for task, index in tasks if task == "judge"} == set(range(MAX_CHUNKS))
    assert {state for state, _ in tasks.values()} == {"success"}
    for (task, _), (_, pool) in tasks.items():
        assert (pool == STORE_POOL) == (task in STORE_TASKS), (task, pool)
    assert all(ran.values()), f"a worker ran nothing: {ran}"
    assert set().union(*ran.values()) == set(tasks)

    cli = run_cli(
        fresh_postgres_url(),
        "nightly",
        "--date",
        DAY.isoformat(),
        "--input",
        str(input_dir),
        "--out",
        str(cli_out),
    )
    assert cli.code in (0, 1), cli  # 1: the day has data-quality findings
    findings = (dag_out / DAY.isoformat() / "findings.jsonl").read_bytes()
    assert findings, "the day has planted faults: there must be findings"
    assert findings == (cli_out / DAY.isoformat() / "findings.jsonl").read_bytes()
