"""Chemin de fer banker runs over a night's coups, table by table (PT-217/2007 I.34,
I.46): each table's coups of the night judged together as its ``banker_run`` subject,
through the path ``replay`` takes (``audit.judging.judge_banker_run``), stored as
verdicts and listed in a ledger of the night so the report shows their findings. One
table's coups are in memory at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from audit.judging import BANKER_RUN, TermsBook, banker_run_unit, is_coup, judge_banker_run
from audit.store import AuditStore, SubjectRecords
from pipelines.night_units import LEDGER, UnitLookup, iter_days_units, unit

SCOPE = "banker_runs"
"""The ledger of the night's banker runs: ``<day>/banker_runs``."""


def coups_noted(family: str, coups: Sequence[str]) -> dict[str, list[str]]:
    """What a partition's ledger of ``family`` notes besides its verdicts: for banked
    rounds, which of them are chemin de fer coups (``coups``, sorted), so that the night's
    banker runs read those rounds alone; nothing for another family."""
    return {"coups": sorted(coups)} if family == "banked" else {}


def night_tables(
    store: AuditStore, day: date, unit_ids: UnitLookup | None = None
) -> dict[str, list[str]]:
    """table -> the banked rounds of the night that may be coups (from its ledgers): the
    coups a ledger notes (``coups_noted``), or every round it judged at the table when it
    notes none (a ledger stored before the night noted its coups)."""
    tables: dict[str, list[str]] = {}
    for _, record in iter_days_units(store, [day], [LEDGER], unit_ids):
        if record["family"] == "banked":
            noted = set(record["coups"]) if "coups" in record else None
            for subject, entry in record["ledger"].items():
                if noted is None or subject in noted:
                    tables.setdefault(entry["table"], []).append(subject)
    return tables


def banker_run_units(
    store: AuditStore, day: date, tables: Mapping[str, Sequence[str]]
) -> list[SubjectRecords]:
    """The verdict of each table's banker run over its coups among ``tables``' rounds, in
    table order, and the night's ledger of them (none when no table dealt a coup)."""
    units: list[SubjectRecords] = []
    ledger: dict[str, dict[str, str]] = {}
    terms = TermsBook(store)
    for table, rounds in sorted(tables.items()):
        coups = [records for _, records in store.iter_records("banked", rounds) if is_coup(records)]
        if coups:
            inputs, verdict = judge_banker_run(table, coups, terms)
            units.append(banker_run_unit(inputs, verdict))
            ledger[inputs.subject] = {"verdict": units[-1].subject_id, "table": table}
    if ledger:
        units.append(
            unit(LEDGER, f"{day.isoformat()}/{SCOPE}", [], family=BANKER_RUN, ledger=ledger)
        )
    return units
