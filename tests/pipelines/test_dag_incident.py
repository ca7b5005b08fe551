"""The Airflow 3 DAG ``incident_investigation``: it imports cleanly and a real run
(dag.test, in a child process with its own AIRFLOW_HOME, as ``test_dag_nightly``) writes
the reports and stores exactly the planted findings."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

from audit.ingest.pipeline import ingest
from audit.judging import current_findings
from audit.store import AuditStore
from simulate.incident import generate_incident
from tests.airflow_harness import airflow_env, dag_child, migrate
from tests.conftest import PG_ENV, fresh_postgres_url

DAG_ID = "incident_investigation"


def test_the_dag_imports_without_errors(tmp_path: Path) -> None:
    result = dag_child(airflow_env(tmp_path), DAG_ID)
    assert result["errors"] == {}
    assert DAG_ID in result["dags"]


def test_a_dag_run_investigates_the_incident(tmp_path: Path) -> None:
    env = airflow_env(tmp_path / "home")
    migrate(env)
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
    result = dag_child(env, DAG_ID, conf)
    assert result["tasks"] == ["investigate"]
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
