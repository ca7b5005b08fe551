"""Replay stored subjects through the replayer and append its verdicts to the store.

A verdict is stored as an ``Adjudication`` subject whose id names the subject, the
replayer version and a digest of the exact events judged, so replaying unchanged input
twice stores nothing new (idempotent), and a re-judgement after new events or a new
replayer version is a new, later fact: nothing is overwritten. The current findings of
a subject are those of its latest adjudication.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from audit.store.application import AuditStore, SubjectRecords, canonical, record_digest
from replayer import REPLAYER_VERSION
from replayer.casino.garage import check_banker_runs

KIND = "adjudication"
BANKER_RUN = "banker_run"  # chemin de fer: the garage rule spans a banker's coups

# kind -> (module, function): the replayer's pure entry point for one subject's events.
ADJUDICATORS: dict[str, tuple[str, str]] = {
    "poker": ("replayer.poker.replay", "adjudicate_hand"),
    "banked": ("replayer.casino.adjudicate", "adjudicate_round"),
    "slots": ("replayer.slots.reconcile", "reconcile_machine"),
    "tournament": ("replayer.tournaments", "adjudicate_tournament"),
}
REPLAY_KINDS = tuple(ADJUDICATORS)
DEFAULT_BATCH = 2000


def adjudicator(kind: str) -> Callable[[Sequence[dict[str, Any]]], Any]:
    """The replayer function for a kind of subject."""
    module, function = ADJUDICATORS[kind]
    return getattr(importlib.import_module(module), function)


def adjudication_options(
    store: AuditStore, kind: str, records: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """Keyword arguments for the adjudicator of one subject.

    Batch replay skips the poker step-by-step view (``casino-audit hand`` rebuilds it).
    A satellite's extra seats are judged against its target tournament (GG-2022: an
    extra seat for an event already entered is paid as T$ = buy-in minus fee), named by
    ``TournamentAnnounced.satellite_for``.
    """
    if kind == "poker":
        return {"with_steps": False}
    if kind != "tournament":
        return {}
    announced = next((r for r in records if r.get("type") == "TournamentAnnounced"), None)
    target = announced.get("satellite_for") if announced else None
    return {"target_events": store.records_of("tournament", target)} if target else {}


def findings_json(verdict: Any) -> list[dict[str, Any]]:
    """The verdict's findings in their canonical, byte-stable JSON form."""
    return [json.loads(json.dumps(f.to_record(), sort_keys=True)) for f in verdict.findings]


def adjudication_unit(
    kind: str, subject_id: str, records: Sequence[dict[str, Any]], verdict: Any
) -> SubjectRecords:
    """The store unit recording one verdict."""
    input_digest = record_digest(canonical(r) for r in records)
    record = {
        "type": "HandAdjudicated",
        "sequence": 0,
        "kind": kind,
        "subject": subject_id,
        "rulebook": getattr(verdict, "rulebook_id", None),
        "replayer_version": REPLAYER_VERSION,
        "input_digest": input_digest,
        "events_judged": len(records),
        "findings": findings_json(verdict),
    }
    unit_id = f"{kind}:{subject_id}|{REPLAYER_VERSION}|{input_digest}"
    return SubjectRecords(KIND, unit_id, [record], source="replay")


def _started_on(records: Sequence[dict[str, Any]]) -> date | None:
    first = records[0].get("occurred_at") if records else None
    return first.date() if isinstance(first, datetime) else None


@dataclass
class ReplaySummary:
    """What a replay did."""

    subjects: dict[str, int] = field(default_factory=dict)
    with_findings: int = 0
    findings: dict[str, int] = field(default_factory=dict)
    adjudications_stored: int = 0


def replay(
    store: AuditStore,
    *,
    kinds: Sequence[str] = REPLAY_KINDS,
    since: date | None = None,
    until: date | None = None,
    batch: int = DEFAULT_BATCH,
) -> ReplaySummary:
    """Judge every stored subject of ``kinds`` started within [since, until] (UTC days)."""
    summary = ReplaySummary()
    pending: list[SubjectRecords] = []

    def flush() -> None:
        if pending:
            summary.adjudications_stored += store.append(pending).stored
            pending.clear()

    def record(kind: str, subject_id: str, records: Sequence[dict[str, Any]], verdict: Any) -> None:
        summary.subjects[kind] = summary.subjects.get(kind, 0) + 1
        summary.with_findings += bool(verdict.findings)
        for finding in verdict.findings:
            summary.findings[str(finding.kind)] = summary.findings.get(str(finding.kind), 0) + 1
        pending.append(adjudication_unit(kind, subject_id, records, verdict))
        if len(pending) >= batch:
            flush()

    runs: dict[str, list[list[dict[str, Any]]]] = {}
    for kind in kinds:
        judge = adjudicator(kind)
        for subject_id, records in store.iter_subjects(kind):
            day = _started_on(records)
            if (since and (day is None or day < since)) or (until and (day is None or day > until)):
                continue
            record(
                kind,
                subject_id,
                records,
                judge(records, **adjudication_options(store, kind, records)),
            )
            if kind == "banked" and records and records[0].get("game") == "chemin_de_fer":
                runs.setdefault(str(records[0].get("table_id")), []).append(list(records))
    for table_id, rounds in sorted(runs.items()):  # PT-217/2007 I.34, I.46 across coups
        record(
            BANKER_RUN,
            f"table:{table_id}",
            [r for coup in rounds for r in coup],
            check_banker_runs(rounds),
        )
    flush()
    store.checkpoint()
    return summary


def current_adjudications(store: AuditStore) -> Iterator[dict[str, Any]]:
    """The latest adjudication record of every judged subject, in first-judged order."""
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    for _, records in store.iter_subjects(KIND):
        record = records[0]
        latest[record["kind"], record["subject"]] = record
    yield from latest.values()


def current_findings(store: AuditStore, kind: str | None = None) -> Iterator[dict[str, Any]]:
    """Every current finding, optionally of one finding kind."""
    for adjudication in current_adjudications(store):
        for finding in adjudication["findings"]:
            if kind is None or finding["kind"] == kind:
                yield finding
