"""Replay stored subjects through the one judging path and append the verdicts.

Besides each stored subject, the subjects judged across others: a table's chemin de fer
banker runs and its shoes, over the rounds this replay judged (a shoe whose rounds lie
partly outside ``since``/``until`` is judged on those inside).

A verdict is stored as an ``Adjudication`` unit whose id names the subject, the
replayer version and a digest of every input judged (``audit.judging``), so replaying
unchanged input twice stores nothing new (idempotent), and a re-judgement after new
events, new terms or a new replayer version is a new, later fact: nothing is
overwritten. Which verdict of a subject is current: ``audit.judging.current``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Any

from audit.judging.banker_runs import banker_run_unit, judge_banker_run
from audit.judging.batches import VerdictWriter, judged_batches
from audit.judging.inputs import Inputs
from audit.judging.kinds import BANKER_RUN, SHOE, SUBJECT_KINDS, TABLE_SESSION
from audit.judging.path import (
    REPLAY_KINDS,
    TermsBook,
    started_on,
    verdict_unit,
)
from audit.judging.shoes import judge_shoe, shoes_of_rounds
from audit.judging.table_sessions import judge_table_sessions, session_unit
from audit.store import AuditStore, SubjectRecords
from replayer.findings import tally_kinds
from replayer.verdict import Verdict

DEFAULT_BATCH = 2000


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
    """Judge every stored subject of ``kinds`` started within [since, until] (UTC days).

    Table declarations are judged whatever their dates (they govern later subjects:
    ``SubjectKind.undated``).
    """
    summary = ReplaySummary()
    writer = VerdictWriter(store, batch)
    terms_book = TermsBook(store)

    # the kinds judged across others store what they judged beside their verdict
    stored_as: dict[str, Callable[[Inputs, Any], SubjectRecords]] = {
        TABLE_SESSION: partial(session_unit, terms_book=terms_book),
        BANKER_RUN: banker_run_unit,
    }

    def record(inputs: Inputs, verdict: Verdict) -> None:
        summary.subjects[inputs.kind] = summary.subjects.get(inputs.kind, 0) + 1
        summary.with_findings += bool(verdict.findings)
        tally_kinds(verdict.findings, summary.findings)
        writer.add(stored_as.get(inputs.kind, verdict_unit)(inputs, verdict))

    # kind judged across others -> its group (a table, a tournament) -> the subjects of
    # its feeding kind this replay judged there (``SubjectKind.feed``)
    fed: dict[str, dict[str, list[str]]] = {}
    for kind in kinds:
        undated = SUBJECT_KINDS[kind].undated
        keep = None if undated else partial(_started_within, kind, since, until)
        feeds = [
            (k.name, k.feed.group)
            for k in SUBJECT_KINDS.values()
            if k.feed is not None and k.feed.kind == kind
        ]
        batches = store.iter_subject_batches(kind, batch)
        for judged in judged_batches(store, kind, batches, terms_book, keep):
            for inputs, verdict in judged:
                record(inputs, verdict)
                for across, group_of in feeds:
                    if (group := group_of(inputs.events)) is not None:
                        fed.setdefault(across, {}).setdefault(group, []).append(inputs.subject)
    runs, tables, shoe_rounds = (fed.get(k, {}) for k in (BANKER_RUN, TABLE_SESSION, SHOE))
    # what is judged across subjects, read again one table at a time (ids are kept, not
    # events: memory does not grow with the store)
    for table_id, rounds in sorted(runs.items()):  # PT-217/2007 I.34, I.46 across coups
        coups = [records for _, records in store.iter_records("banked", rounds)]
        record(*judge_banker_run(table_id, coups, terms_book))
    for _, hands in sorted(tables.items()):  # chips carried between hands (issue 38)
        played = [records for _, records in store.iter_records("poker", hands)]
        for judged_session in judge_table_sessions(played, store):
            record(*judged_session)
    for table_id in sorted(shoe_rounds):  # a table's shoes, one table in memory at a time
        for key, dealt in sorted(shoes_of_rounds(store, shoe_rounds[table_id]).items()):
            record(*judge_shoe(key, dealt, terms_book))
    writer.flush()
    summary.adjudications_stored = writer.stored
    store.checkpoint()
    return summary


def _started_within(
    kind: str, since: date | None, until: date | None, records: Sequence[dict[str, Any]]
) -> bool:
    """Whether the subject started within [since, until] (UTC days; no bound: any)."""
    day = started_on(kind, records)
    if since and (day is None or day < since):
        return False
    return not (until and (day is None or day > until))
