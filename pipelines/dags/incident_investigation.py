"""Airflow 3 DAG: investigate one incident (manual trigger, the incident id as a param).

Thin by design: its one task calls ``pipelines.incident_run.investigate_incident``, the
same steps as ``casino-audit incident investigate --append-findings``.

    investigate (in-flight play judged; reports to <out_dir>/<incident_id>/, findings to
    the store)

Params:
    incident_id  the incident to investigate (required)
    as_of        ISO 8601 moment the investigation speaks for; default the run's
                 logical moment (``run_after``), so a rerun of a run gives the same
                 findings
    store_url    the store; default ``$CASINO_AUDIT_STORE`` or ``sqlite:///casino-audit.db``
    out_dir      where reports go; default ``$CASINO_AUDIT_OUT`` or ``./casino-audit-reports``

The task is idempotent: findings are stored under a digest of the events judged and
``as_of`` (``audit.incidents.investigation.append_findings``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from airflow.sdk import Param, dag, get_current_context, task


def _settings() -> dict[str, Any]:
    """The run's params with defaults filled in (see the module docstring)."""
    from pipelines.settings import run_settings

    context = get_current_context()
    params = context["params"]
    as_of = params.get("as_of") or ""
    moment = datetime.fromisoformat(as_of) if as_of else context["dag_run"].run_after
    return {
        "incident_id": params["incident_id"],
        "as_of": moment if moment.tzinfo else moment.replace(tzinfo=UTC),
        **run_settings(params),
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
    def investigate() -> dict[str, Any]:
        from pipelines.incident_run import investigate_incident

        settings = _settings()
        return investigate_incident(
            settings["store_url"],
            settings["incident_id"],
            as_of=settings["as_of"],
            out_dir=settings["out_dir"],
        )

    investigate()


incident_investigation()
