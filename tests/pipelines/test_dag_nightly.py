"""The Airflow 3 DAG: it imports cleanly and a real run (dag.test) stores the findings.

Airflow runs in child processes with their own AIRFLOW_HOME, so its configuration never
leaks into other tests. The metadata database is PostgreSQL when AIRFLOW_TEST_PG_URL is
set (``.ci/with-postgres``), else SQLite in the temporary AIRFLOW_HOME; it is migrated
once per module.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from audit.judging import current_findings
from audit.store import AuditStore
from tests.airflow_harness import airflow_env, dag_child, migrate
from tests.conftest import PG_ENV, fresh_postgres_url
from tests.pipelines.test_nightly import DAY, write_day

DAG_ID = "nightly_reconciliation"


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An Airflow home whose metadata database is migrated (once per module)."""
    env = airflow_env(tmp_path_factory.mktemp("airflow-home"))
    migrate(env)
    return env


def test_the_dag_imports_without_errors(tmp_path: Path) -> None:
    result = dag_child(airflow_env(tmp_path), DAG_ID)
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
    result = dag_child(migrated, DAG_ID, conf)
    assert result["tasks"] == [
        "append",
        "detectors",
        "discover",
        "ingest",
        "judge",
        "plan_judging",
        "report",
    ]
    assert result["state"] == "success"
    store = AuditStore(store_url)
    kinds = {f["kind"] for f in current_findings(store)}
    store.close()
    assert kinds == {"mispaid_pot", "data_quality"}
    assert (tmp_path / "out" / DAY.isoformat() / "report.html").is_file()


def test_a_dag_run_for_a_day_without_input_fails(migrated: dict[str, str], tmp_path: Path) -> None:
    conf = {
        "date": DAY.isoformat(),
        "input_dir": str(tmp_path / "empty"),
        "store_url": f"sqlite:///{tmp_path / 'store.db'}",
        "out_dir": str(tmp_path / "out"),
    }
    result = dag_child(migrated, DAG_ID, conf)
    assert result["state"] == "failed"
    assert not (tmp_path / "out" / DAY.isoformat() / "report.html").exists()
