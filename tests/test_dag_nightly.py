"""The Airflow 3 DAG: it imports cleanly and a real run (dag.test) stores the findings.

Airflow runs in child processes with their own AIRFLOW_HOME, so its configuration never
leaks into other tests. The metadata database is PostgreSQL when AIRFLOW_TEST_PG_URL is
set (``.ci/with-postgres``), else SQLite in the temporary AIRFLOW_HOME; it is migrated
once per module.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from audit.adjudicate import current_findings
from audit.store import AuditStore
from tests.conftest import PG_ENV, fresh_postgres_url
from tests.test_nightly import DAY, write_day

DAGS = Path(__file__).resolve().parents[1] / "pipelines" / "dags"
AIRFLOW = Path(sys.executable).with_name("airflow")
DAG_ID = "nightly_reconciliation"

_CHILD = """
import json, sys
from airflow.dag_processing.dagbag import DagBag

bag = DagBag(dag_folder=sys.argv[1])
out = {"errors": {k: str(v) for k, v in bag.import_errors.items()}, "dags": sorted(bag.dag_ids)}
if len(sys.argv) > 3 and not out["errors"]:
    dag = bag.get_dag(sys.argv[3])
    out["tasks"] = sorted(dag.task_ids)
    run = dag.test(run_conf=json.loads(sys.argv[2]))
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


def run_child(env: dict[str, str], *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(DAGS), *args, DAG_ID],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"child failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    return json.loads(lines[-1].removeprefix("RESULT "))


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An Airflow home whose metadata database is migrated (once per module)."""
    env = airflow_env(tmp_path_factory.mktemp("airflow-home"))
    done = subprocess.run(
        [str(AIRFLOW), "db", "migrate"],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    return env


def test_the_dag_imports_without_errors(tmp_path: Path) -> None:
    result = run_child(airflow_env(tmp_path))
    assert result["errors"] == {}
    assert DAG_ID in result["dags"]


def test_a_dag_run_stores_the_nights_findings(migrated: dict[str, str], tmp_path: Path) -> None:
    store_url = (
        fresh_postgres_url() if os.environ.get(PG_ENV) else f"sqlite:///{tmp_path / 'store.db'}"
    )
    conf = {
        "date": DAY.isoformat(),
        "input_dir": str(write_day(tmp_path / "in")),
        "store_url": store_url,
        "out_dir": str(tmp_path / "out"),
    }
    result = run_child(migrated, json.dumps(conf))
    assert result["tasks"] == [
        "append",
        "detectors",
        "discover",
        "ingest_and_replay",
        "report",
        "validate",
    ]
    assert result["state"] == "success"
    store = AuditStore(store_url)
    kinds = {f["kind"] for f in current_findings(store)}
    store.close()
    assert kinds == {"mispaid_pot", "data_quality"}
    assert (tmp_path / "out" / DAY.isoformat() / "report.html").is_file()
