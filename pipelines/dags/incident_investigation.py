"""Airflow 3 DAG: investigate one incident (manual trigger, the incident id as a param).

Thin by design: the tasks call the functions the CLI (``casino-audit incident
investigate``) and the tests call (``audit.incidents``, ``audit.incident_report``).

    in_flight ─▶ investigate (reports to <out_dir>/<incident_id>/, findings to the store)

Params:
    incident_id  the incident to investigate (required)
    as_of        ISO 8601 moment the investigation speaks for; default the run's
                 logical moment (``run_after``), so a rerun of a run gives the same
                 findings
    store_url    the store; default ``$CASINO_AUDIT_STORE`` or ``sqlite:///casino-audit.db``
    out_dir      where reports go; default ``$CASINO_AUDIT_OUT`` or ``./casino-audit-reports``

Both tasks are idempotent: findings are stored under a digest of the events judged and
``as_of`` (``audit.incidents.append_findings``).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Any

from airflow.sdk import Param, dag, get_current_context, task

OUT_ENV = "CASINO_AUDIT_OUT"


def _settings() -> dict[str, Any]:
    from audit.config import store_url_from_env

    context = get_current_context()
    params = context["params"]
    as_of = params.get("as_of") or ""
    moment = datetime.fromisoformat(as_of) if as_of else context["dag_run"].run_after
    return {
        "incident_id": params["incident_id"],
        "as_of": moment if moment.tzinfo else moment.replace(tzinfo=UTC),
        "store_url": store_url_from_env(params.get("store_url") or None),
        "out_dir": params.get("out_dir") or os.environ.get(OUT_ENV, "casino-audit-reports"),
    }


@dag(
    dag_id="incident_investigation",
    schedule=None,
    start_date=datetime(2025, 1, 1),
    catchup=False,
    tags=["casino-audit"],
    params={
        "incident_id": Param(type="string", minLength=1, description="incident to investigate"),
        "as_of": Param("", type="string", description="ISO 8601 (default: the run's moment)"),
        "store_url": Param("", type="string", description="sqlite:///… or postgresql://…"),
        "out_dir": Param("", type="string", description="where the reports go"),
    },
    doc_md=__doc__,
)
def incident_investigation() -> None:
    @task
    def in_flight() -> dict[str, list[str]]:
        from audit.incident_inflight import find_in_flight
        from audit.incident_record import load_incident
        from audit.store import AuditStore

        settings = _settings()
        store = AuditStore(settings["store_url"])
        try:
            found = find_in_flight(store, load_incident(store, settings["incident_id"]))
        finally:
            store.close()
        return {
            "poker": [subject for subject, _ in found.hands],
            "live": [subject for subject, _ in found.live_rounds],
            "rng": [subject for subject, _ in found.rng_rounds],
            "tournament": [subject for subject, _ in found.tournaments],
        }

    @task
    def investigate(subjects: dict[str, list[str]]) -> dict[str, Any]:
        from pathlib import Path

        from audit.incident_report import write_reports
        from audit.incidents import append_findings
        from audit.incidents import investigate as run
        from audit.store import AuditStore

        settings = _settings()
        store = AuditStore(settings["store_url"])
        try:
            investigation = run(store, settings["incident_id"], as_of=settings["as_of"])
            stored = append_findings(store, investigation)
        finally:
            store.close()
        folder = Path(settings["out_dir"]) / settings["incident_id"]
        paths = write_reports(investigation, folder)
        return {
            "in_flight": sum(len(ids) for ids in subjects.values()),
            "findings": len(investigation.findings),
            "stored": stored,
            "reports": [str(p) for p in paths],
        }

    investigate(in_flight())


incident_investigation()
