"""The day a nightly run judges: the day that ended, under both Airflow 3 timetables.

The runs are the ones Airflow's scheduler creates: their ``run_after`` and data interval
come from the timetable's ``next_dagrun_info`` (what the scheduler calls to create a
scheduled run) and ``infer_manual_data_interval`` (a triggered run), never typed in by
hand. The DAG's own timetable is read from the DAG file and serialised as the scheduler
sees it, in a child process, so Airflow's configuration never leaks into other tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from pipelines.settings import night_of_run
from tests.airflow_harness import DAGS, airflow_env

_SCHEDULED = """
import json, sys
import pendulum
from airflow.dag_processing.dagbag import DagBag
from airflow.serialization.decoders import decode_timetable
from airflow.serialization.encoders import encode_timetable
from airflow.timetables.base import TimeRestriction
from airflow.timetables.interval import CronDataIntervalTimetable
from airflow.timetables.trigger import CronTriggerTimetable

earliest = pendulum.parse(sys.argv[2])
manual_at = pendulum.parse(sys.argv[3])
dag = DagBag(dag_folder=sys.argv[1]).dags["nightly_reconciliation"]
timetables = {
    "dag": decode_timetable(encode_timetable(dag.timetable)),
    "CronTriggerTimetable": CronTriggerTimetable("@daily", timezone="UTC"),
    "CronDataIntervalTimetable": CronDataIntervalTimetable("@daily", timezone="UTC"),
}
out = {}
for name, timetable in timetables.items():
    info = timetable.next_dagrun_info(
        last_automated_data_interval=None,
        restriction=TimeRestriction(earliest=earliest, latest=None, catchup=True),
    )
    manual = timetable.infer_manual_data_interval(run_after=manual_at)
    out[name] = {
        "type": type(timetable).__name__,
        "scheduled": [info.run_after.isoformat(), info.data_interval.end.isoformat()],
        "manual": [manual_at.isoformat(), manual.end.isoformat()],
    }
print("RESULT " + json.dumps(out))
"""

MIDNIGHT = "2026-11-02T00:00:00+00:00"
"""The earliest moment the scheduler may start a run (``start_date``)."""
MORNING = "2026-11-05T10:00:00+00:00"
"""A run triggered by hand at 10:00 on 5 November judges 4 November."""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[str]]]:
    """``run_after`` and data interval end of the scheduler's and a triggered run."""
    env = airflow_env(tmp_path_factory.mktemp("airflow-home"))
    done = subprocess.run(
        [sys.executable, "-c", _SCHEDULED, str(DAGS), MIDNIGHT, MORNING],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"child failed ({done.returncode}):\n{done.stderr[-5000:]}"
    return json.loads(lines[-1].removeprefix("RESULT "))


def _night(run: list[str], explicit: str | None = None) -> date:
    run_after, interval_end = (datetime.fromisoformat(moment) for moment in run)
    return night_of_run(explicit, data_interval_end=interval_end, run_after=run_after)


@pytest.mark.parametrize("timetable", ["dag", "CronTriggerTimetable", "CronDataIntervalTimetable"])
def test_a_scheduled_run_judges_the_day_that_ended(
    runs: dict[str, dict[str, list[str]]], timetable: str
) -> None:
    """A scheduled run starts at a midnight and judges the day that midnight closed."""
    run = runs[timetable]["scheduled"]
    started = datetime.fromisoformat(run[0])
    assert (started.hour, started.minute) == (0, 0)
    assert _night(run) == started.date() - timedelta(days=1)


@pytest.mark.parametrize("timetable", ["dag", "CronTriggerTimetable", "CronDataIntervalTimetable"])
def test_a_triggered_run_judges_yesterday(
    runs: dict[str, dict[str, list[str]]], timetable: str
) -> None:
    assert _night(runs[timetable]["manual"]) == date(2026, 11, 4)


def test_the_dags_schedule_is_airflow_3s_daily_trigger(
    runs: dict[str, dict[str, list[str]]],
) -> None:
    """The case that judged an empty day: a point interval at the midnight just begun."""
    run_after, interval_end = runs["dag"]["scheduled"]
    assert runs["dag"]["type"] == "CronTriggerTimetable"
    assert run_after == interval_end == MIDNIGHT
    assert _night(runs["dag"]["scheduled"]) == date(2026, 11, 1)


def test_a_date_param_wins(runs: dict[str, dict[str, list[str]]]) -> None:
    assert _night(runs["dag"]["scheduled"], "2026-10-15") == date(2026, 10, 15)


def test_a_run_without_an_interval_uses_run_after() -> None:
    run_after = datetime(2026, 11, 2, 0, 0, tzinfo=UTC)
    assert night_of_run(None, data_interval_end=None, run_after=run_after) == date(2026, 11, 1)


def test_the_day_is_a_utc_day_whatever_the_runs_zone() -> None:
    """01:30 in UTC+2 on 2 November is 23:30 UTC on 1 November: 31 October ended last."""
    run_after = datetime(2026, 11, 2, 1, 30, tzinfo=ZoneInfo("Europe/Athens"))
    assert night_of_run(None, data_interval_end=None, run_after=run_after) == date(2026, 10, 31)
