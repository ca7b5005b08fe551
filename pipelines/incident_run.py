"""One incident investigated end to end, as the ``incident_investigation`` DAG runs it:
judge what was in flight (``audit.incidents.investigation``), store the findings as a
verdict unit (idempotent: the same events and moment store nothing twice) and write the
reports under ``<out_dir>/<incident_id>/``."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from audit.incidents.investigation import append_findings, investigate
from audit.incidents.report import write_reports
from audit.store import AuditStore


def investigate_incident(
    store_url: str, incident_id: str, *, as_of: datetime, out_dir: str
) -> dict[str, Any]:
    """Investigate ``incident_id`` as of ``as_of``; a summary for the scheduler's log."""
    store = AuditStore(store_url)
    try:
        investigation = investigate(store, incident_id, as_of=as_of)
        stored = append_findings(store, investigation)
    finally:
        store.close()
    paths = write_reports(investigation, Path(out_dir) / incident_id)
    return {
        "in_flight": len(investigation.subjects),
        "findings": len(investigation.findings),
        "stored": stored,
        "reports": [str(path) for path in paths],
    }
