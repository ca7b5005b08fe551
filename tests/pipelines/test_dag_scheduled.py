"""The nightly DAG as it runs unattended: a run the *scheduler* creates, not ``dags test``
with explicit parameters nor a trigger with ``--conf``.

A real Airflow 3 of the test's own (``tests/celery_harness.py`` pieces, LocalExecutor):
a fresh metadata database on the ``.ci/with-postgres`` server, ``airflow db migrate``,
the api-server (127.0.0.1, a free port, the tasks' Execution API pointed at it) and the
dag-processor, the ``casino_audit_store`` pool, the nightly unpaused once parsed, as the
deploy chapter (``docs/deployment.md``) says, then the scheduler (once the API answers,
so that no task starts before it can report). The DAG is the shipped one, unchanged
(``schedule="@daily"``, ``catchup=False``): on unpausing, the scheduler creates the run
of the latest midnight by itself. Its params are left empty, so the run takes its input,
store and report folder from ``CASINO_AUDIT_INPUT``, ``CASINO_AUDIT_STORE`` and
``CASINO_AUDIT_OUT`` (absolute paths) and its day from the run
(``pipelines.settings.night_of_run``).

Only the day before today (UTC) has input: a run that judged the day just begun would
find no input and fail at ``discover``. Both Airflow 3 timetables of ``@daily`` are run
(``[scheduler] create_cron_data_intervals``): ``CronTriggerTimetable`` (the default; a
run at midnight whose data interval is that instant) and ``CronDataIntervalTimetable``
(the interval of the day that ended); each must judge yesterday. ``[core]
max_map_length`` is 1 so the mapped tasks run as one instance each (a small night).
"""

from __future__ import annotations

from contextlib import ExitStack
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

import psycopg
import pytest

from audit.judging import current_findings
from audit.store import AuditStore
from pipelines.nightly.chunks import STORE_POOL, STORE_POOL_SLOTS
from tests.airflow_harness import AIRFLOW, migrate
from tests.celery_harness import (
    DAG_ID,
    Services,
    airflow,
    api_healthy,
    metadata_database,
    metadata_sqlalchemy,
    served_env,
    wait_until,
)
from tests.pg_server import free_port
from tests.pipelines.test_nightly import write_day

pytestmark = pytest.mark.postgres

TIMETABLES = {"CronTriggerTimetable": "False", "CronDataIntervalTimetable": "True"}
"""Timetable -> ``[scheduler] create_cron_data_intervals``, which picks it for ``@daily``."""


def _runs(metadata: str) -> list[tuple[str, str, str, datetime, datetime, datetime]]:
    """The nightly's runs: (run_id, run_type, state, data interval start and end, run_after)."""
    with psycopg.connect(metadata, autocommit=True) as db:
        return db.execute(
            "SELECT run_id, run_type, state, data_interval_start, data_interval_end, run_after "
            "FROM dag_run WHERE dag_id = %s ORDER BY run_after",
            (DAG_ID,),
        ).fetchall()


def _parsed(metadata: str) -> bool:
    """True once the dag-processor has stored the nightly (it is paused at creation)."""
    with psycopg.connect(metadata, autocommit=True) as db:
        found = db.execute("SELECT 1 FROM serialized_dag WHERE dag_id = %s", (DAG_ID,))
        return found.fetchone() is not None


def _ended(metadata: str) -> bool:
    runs = _runs(metadata)
    return bool(runs) and all(run[2] in {"success", "failed"} for run in runs)


@pytest.mark.parametrize("timetable", list(TIMETABLES))
def test_a_run_the_scheduler_creates_judges_the_day_that_ended(
    timetable: str, tmp_path: Path
) -> None:
    today = datetime.now(UTC).date()
    yesterday = today - timedelta(days=1)
    inputs, out, store_url = tmp_path / "in", tmp_path / "out", f"sqlite:///{tmp_path / 's.db'}"
    write_day(inputs, yesterday)  # and nothing for today
    midnight = datetime.combine(today, time(), UTC)
    logs = tmp_path / "logs"
    logs.mkdir()
    services = Services(logs)
    with ExitStack() as stack:
        sqlalchemy, metadata = metadata_sqlalchemy(stack.enter_context(metadata_database()))
        stack.callback(services.stop)
        api_port = free_port()
        env = served_env(tmp_path / "airflow-home", sqlalchemy, api_port) | {
            "AIRFLOW__CORE__EXECUTOR": "LocalExecutor",
            "AIRFLOW__CORE__MAX_MAP_LENGTH": "1",
            "AIRFLOW__SCHEDULER__CREATE_CRON_DATA_INTERVALS": TIMETABLES[timetable],
            "CASINO_AUDIT_INPUT": str(inputs),
            "CASINO_AUDIT_STORE": store_url,
            "CASINO_AUDIT_OUT": str(out),
        }
        migrate(env)
        services.start("api-server", [str(AIRFLOW), "api-server"], env)
        services.start("dag-processor", [str(AIRFLOW), "dag-processor"], env)
        airflow(env, "pools", "set", STORE_POOL, str(STORE_POOL_SLOTS), "casino-audit store")
        wait_until("the DAG parsed", lambda: _parsed(metadata), services)
        airflow(env, "dags", "unpause", DAG_ID)
        wait_until("the api-server", lambda: api_healthy(api_port), services)
        services.start("scheduler", [str(AIRFLOW), "scheduler"], env)  # tasks reach the API
        wait_until("the scheduled run", lambda: _ended(metadata), services)
        runs = _runs(metadata)
        scheduler_log = services.log("scheduler")[-5000:]
    if datetime.now(UTC).date() != today:
        pytest.skip("midnight passed during the test: the scheduler may have made another run")
    assert len(runs) == 1, runs
    _, run_type, state, start, end, run_after = runs[0]
    assert run_type == "scheduled", runs
    assert run_after == midnight
    if timetable == "CronTriggerTimetable":  # the instant the day began
        assert start == end == midnight
    else:  # the day that ended
        assert (start, end) == (midnight - timedelta(days=1), midnight)
    assert state == "success", f"{runs}\n{scheduler_log}"
    assert (out / yesterday.isoformat() / "report.html").is_file()
    assert not (out / today.isoformat()).exists()
    store = AuditStore(store_url)
    try:
        kinds = {f["kind"] for f in current_findings(store)}
    finally:
        store.close()
    assert kinds == {"mispaid_pot", "data_quality"}  # write_day's planted faults
