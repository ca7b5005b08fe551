"""Chemin de fer banker runs over a night's coups, table by table (PT-217/2007 I.34,
I.46): each table's coups of the night judged together as its ``banker_run`` subject,
through the path ``replay`` takes (``audit.judging.judge_banker_run``), stored as
verdicts and listed in a ledger of the night so the report shows their findings. One
table's coups are in memory at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from audit.judging import BANKER_RUN, is_coup, judge_banker_run, verdict_unit
from audit.store import AuditStore, SubjectRecords
from pipelines.night_units import LEDGER, UnitLookup, iter_days_units, unit

SCOPE = "banker_runs"
"""The ledger of the night's banker runs: ``<day>/banker_runs``."""


def night_tables(
    store: AuditStore, day: date, unit_ids: UnitLookup | None = None
) -> dict[str, list[str]]:
    """table -> the banked rounds the night's replay judged at it (from its ledgers)."""
    tables: dict[str, list[str]] = {}
    for _, record in iter_days_units(store, [day], [LEDGER], unit_ids):
        if record["family"] == "banked":
            for subject, entry in record["ledger"].items():
                tables.setdefault(entry["table"], []).append(subject)
    return tables


def banker_run_units(
    store: AuditStore, day: date, tables: Mapping[str, Sequence[str]]
) -> list[SubjectRecords]:
    """The verdict of each table's banker run over its coups among ``tables``' rounds, in
    table order, and the night's ledger of them (none when no table dealt a coup)."""
    units: list[SubjectRecords] = []
    ledger: dict[str, dict[str, str]] = {}
    for table, rounds in sorted(tables.items()):
        coups = [records for _, records in store.iter_records("banked", rounds) if is_coup(records)]
        if coups:
            inputs, verdict = judge_banker_run(table, coups)
            units.append(verdict_unit(inputs, verdict))
            ledger[inputs.subject] = {"verdict": units[-1].subject_id, "table": table}
    if ledger:
        units.append(
            unit(LEDGER, f"{day.isoformat()}/{SCOPE}", [], family=BANKER_RUN, ledger=ledger)
        )
    return units
