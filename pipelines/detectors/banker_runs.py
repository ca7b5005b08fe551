"""Chemin de fer banker runs over a day's coups, table by table (PT-217/2007 I.34, I.46):
the garage rule as ``replay`` judges it (``audit.banker_runs``), over the night's coups
of each table together. One table's coups are in memory at a time. A run that crosses
midnight starts afresh on the new day: its first coup there has no predecessor to
compare with, so a reduction at that coup is not judged (never a false finding).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from audit.banker_runs import is_coup
from audit.store import AuditStore
from replayer.casino.garage import check_banker_runs
from replayer.findings import Finding


def banker_run_findings(store: AuditStore, tables: Mapping[str, Sequence[str]]) -> list[Finding]:
    """Garage findings over each table's banked rounds (table -> round ids, from the
    night's ledgers), per table in table order."""
    findings: list[Finding] = []
    for _, rounds in sorted(tables.items()):
        coups = [records for _, records in store.iter_records("banked", rounds) if is_coup(records)]
        if coups:
            findings.extend(check_banker_runs(coups).findings)
    return findings
