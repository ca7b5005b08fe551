"""Where a night's input and reports live: one place for the settings every entry point
shares (the two DAGs, ``casino-audit nightly``, ``incident``, ``serve``).

Each is an explicit value (a DAG param, a command-line option), else an environment
variable, else a default relative to the working directory; the store URL is
``audit.config.store_url_from_env``'s.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any

from audit.config import store_url_from_env

INPUT_ENV, DEFAULT_INPUT = "CASINO_AUDIT_INPUT", "casino-audit-input"
"""Input root: a day's files are under ``<input>/<YYYY-MM-DD>/``."""
OUT_ENV, DEFAULT_OUT = "CASINO_AUDIT_OUT", "casino-audit-reports"
"""Report root: a night's report is under ``<out>/<YYYY-MM-DD>/``."""


def input_root(explicit: str | None = None) -> str:
    """``explicit``, else ``$CASINO_AUDIT_INPUT``, else ``./casino-audit-input``."""
    return explicit or os.environ.get(INPUT_ENV) or DEFAULT_INPUT


def report_root(explicit: str | None = None) -> str:
    """``explicit``, else ``$CASINO_AUDIT_OUT``, else ``./casino-audit-reports``."""
    return explicit or os.environ.get(OUT_ENV) or DEFAULT_OUT


def run_settings(params: Mapping[str, Any]) -> dict[str, str]:
    """A DAG run's ``input_dir``, ``store_url`` and ``out_dir`` with defaults filled in."""
    return {
        "input_dir": input_root(params.get("input_dir") or None),
        "store_url": store_url_from_env(params.get("store_url") or None),
        "out_dir": report_root(params.get("out_dir") or None),
    }


NIGHT_ZONE = UTC
"""The zone whose calendar days the nightly judges: the day folders are UTC days."""


def night_of_run(
    explicit: str | None, *, data_interval_end: datetime | None, run_after: datetime
) -> date:
    """The day a nightly run judges: ``explicit`` (``YYYY-MM-DD``) if given, else the
    whole day that ended at or before the run's data interval end (``run_after`` when
    the run has no interval).

    A nightly judges the day that ended, never the day just begun. Airflow 3's
    ``@daily`` (``CronTriggerTimetable``) starts a run at midnight with
    ``data_interval_start == data_interval_end == run_after``: the day that ended is
    the one before. ``CronDataIntervalTimetable`` gives the interval of the day that
    ended, whose end is the next midnight: again the day before the end. A manual run
    at 10:00 judges yesterday under both.
    """
    if explicit:
        return date.fromisoformat(explicit)
    end = data_interval_end or run_after
    return (end.astimezone(NIGHT_ZONE) - timedelta(days=1)).date()
