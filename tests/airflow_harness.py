"""Run Airflow in child processes with their own AIRFLOW_HOME (no configuration leaks).

The metadata database is PostgreSQL when AIRFLOW_TEST_PG_URL is set (``.ci/with-postgres``),
else SQLite in the temporary AIRFLOW_HOME.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

DAGS = Path(__file__).resolve().parents[1] / "pipelines" / "dags"
AIRFLOW = Path(sys.executable).with_name("airflow")

_CHILD = """
import json, sys
from airflow.dag_processing.dagbag import DagBag

bag = DagBag(dag_folder=sys.argv[1])
out = {"errors": {k: str(v) for k, v in bag.import_errors.items()}, "dags": sorted(bag.dag_ids)}
if len(sys.argv) > 3 and not out["errors"]:
    dag = bag.get_dag(sys.argv[2])
    out["tasks"] = sorted(dag.task_ids)
    run = dag.test(run_conf=json.loads(sys.argv[3]))
    out["state"] = str(getattr(run.state, "value", run.state))
print("RESULT " + json.dumps(out))
"""


def airflow_env(home: Path) -> dict[str, str]:
    """Environment for an isolated Airflow: its home, our DAGs, its metadata database."""
    env = dict(os.environ)
    env |= {
        "AIRFLOW_HOME": str(home),
        "AIRFLOW__CORE__DAGS_FOLDER": str(DAGS),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
        "AIRFLOW__CORE__UNIT_TEST_MODE": "False",
        "AIRFLOW__LOGGING__LOGGING_LEVEL": "WARNING",
    }
    pg = os.environ.get("AIRFLOW_TEST_PG_URL")
    if pg:
        env["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN"] = pg
        env["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN_ASYNC"] = pg
    else:
        env["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN"] = f"sqlite:///{home / 'airflow.db'}"
    return env


def migrate(env: dict[str, str]) -> None:
    """``airflow db migrate`` for that environment (idempotent)."""
    done = subprocess.run(
        [str(AIRFLOW), "db", "migrate"],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-5000:]


def dag_child(
    env: dict[str, str], dag_id: str, conf: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Load our DAG folder in a child process; with ``conf``, also ``dag.test()`` dag_id."""
    args = [dag_id] if conf is None else [dag_id, json.dumps(conf)]
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(DAGS), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"child failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    return json.loads(lines[-1].removeprefix("RESULT "))
