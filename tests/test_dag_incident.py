"""The Airflow 3 DAG ``incident_investigation``: it imports cleanly and a real run
(dag.test, in a child process with its own AIRFLOW_HOME, as ``test_dag_nightly``) writes
the reports and stores exactly the planted findings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

from audit.adjudicate import current_findings
from audit.ingest.pipeline import ingest
from audit.store import AuditStore
from pipelines.simulate.incident import generate_incident
from tests.conftest import PG_ENV, fresh_postgres_url
from tests.test_dag_nightly import AIRFLOW, DAGS, airflow_env

DAG_ID = "incident_investigation"
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


def _child(env: dict[str, str], *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(DAGS), DAG_ID, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"child failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    return json.loads(lines[-1].removeprefix("RESULT "))


def test_the_dag_imports_without_errors(tmp_path: Path) -> None:
    result = _child(airflow_env(tmp_path))
    assert result["errors"] == {}
    assert DAG_ID in result["dags"]


def test_a_dag_run_investigates_the_incident(tmp_path: Path) -> None:
    env = airflow_env(tmp_path / "home")
    migrated = subprocess.run(
        [str(AIRFLOW), "db", "migrate"],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert migrated.returncode == 0, migrated.stderr[-5000:]
    store_url = (
        fresh_postgres_url() if os.environ.get(PG_ENV) else f"sqlite:///{tmp_path / 'store.db'}"
    )
    manifest = generate_incident(5, date(2025, 3, 1), tmp_path / "in")
    store = AuditStore(store_url)
    ingest(store, [tmp_path / "in"])
    store.close()
    conf = {
        "incident_id": manifest.incident_id,
        "as_of": manifest.as_of,
        "store_url": store_url,
        "out_dir": str(tmp_path / "out"),
    }
    result = _child(env, json.dumps(conf))
    assert result["tasks"] == ["in_flight", "investigate"]
    assert result["state"] == "success"
    store = AuditStore(store_url)
    stored = list(current_findings(store))
    store.close()
    found = {
        (f["kind"], f["subject"], f["detail"].get("player_id"), f["expected"], f["recorded"])
        for f in stored
    }
    assert found == {tuple(f) for f in manifest.expected_findings()}
    report = tmp_path / "out" / manifest.incident_id
    assert {p.name for p in report.iterdir()} == {"report.txt", "report.json", "refunds.csv"}
