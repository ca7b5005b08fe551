"""Poker table sessions over a night's hands, table by table (issue 38): each table's
sessions judged through the path ``replay`` takes (``audit.judging.judge_table_sessions``),
stored as verdicts and listed in a ledger of the night so the report shows their findings.

A session is judged once, by the night in which it closes: the UTC day of its last hand's
start plus the longest gap that still chains a hand (``SessionRules.max_gap``). A session
still open at midnight (its last hand within that gap of the day's end) is left to the
next night, which reads the previous night's hands of its tables too (from that night's
ledgers), so it judges the session whole: the same hands as ``replay`` judges, the same
verdict unit, never two answers. One table's hands are in memory at a time, or one
tournament's (a player moves between its tables: ``replayer.sessions.moves``), grouped
as ``replay`` groups them (``audit.judging.table_sessions.session_hand``) by the
``tournament`` a poker ledger's entry names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta

from audit.judging import TABLE_SESSION, TermsBook, judge_table_sessions
from audit.judging.table_sessions import session_unit
from audit.store import AuditStore, SubjectRecords
from pipelines.night_units import LEDGER, UnitLookup, iter_days_units, unit
from replayer.sessions import DEFAULT_RULES

SCOPE = "table_sessions"
"""The ledger of the night's table sessions: ``<day>/table_sessions``."""


def closes_on(events: Sequence[Mapping[str, object]]) -> date | None:
    """The UTC day a session closes (its last hand's start plus ``max_gap``)."""
    starts = [
        when
        for event in events
        if event.get("type") == "HandStarted"
        and isinstance(when := event.get("occurred_at"), datetime)
    ]
    return (max(starts) + DEFAULT_RULES.max_gap).date() if starts else None


def night_hands(
    store: AuditStore, day: date, unit_ids: UnitLookup | None = None
) -> dict[str, list[str]]:
    """table (or tournament) -> the poker hands of the night and of the night before
    (their ledgers), for the tables (tournaments) that dealt a hand tonight."""
    tonight: set[str] = set()
    tables: dict[str, list[str]] = {}
    for days, here in (([day - timedelta(days=1)], False), ([day], True)):
        for _, record in iter_days_units(store, days, [LEDGER], unit_ids):
            if record["family"] == "poker":
                for subject, entry in record["ledger"].items():
                    among = entry.get("tournament") or entry["table"]
                    tables.setdefault(among, []).append(subject)
                    if here:
                        tonight.add(among)
    return {table: hands for table, hands in tables.items() if table in tonight}


def table_session_units(
    store: AuditStore, day: date, tables: Mapping[str, Sequence[str]]
) -> list[SubjectRecords]:
    """The verdict of each session among ``tables``' hands that closes on ``day``, in table
    order, and the night's ledger of them (none when no session closed)."""
    units: list[SubjectRecords] = []
    ledger: dict[str, dict[str, str]] = {}
    terms_book = TermsBook(store)
    for table, hands in sorted(tables.items()):
        records = [records for _, records in store.iter_records("poker", dict.fromkeys(hands))]
        for inputs, verdict in judge_table_sessions(records, store):
            if closes_on(inputs.events) == day:
                units.append(session_unit(inputs, verdict, terms_book))
                at = str(inputs.events[0].get("table_id") or table)
                ledger[inputs.subject] = {"verdict": units[-1].subject_id, "table": at}
    if ledger:
        flagged = sorted(u.records[0]["subject"] for u in units if u.records[0]["findings"])
        scope = f"{day.isoformat()}/{SCOPE}"
        units.append(
            unit(LEDGER, scope, [], family=TABLE_SESSION, ledger=ledger, with_findings=flagged)
        )
    return units
