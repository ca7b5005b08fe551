"""The one path from stored events to a verdict: gather a subject's inputs, judge them.

Every verdict is a pure function of stored facts. ``replay``, ``show``/``hand``, the
nightly job, the incident investigation and the DAGs all judge through ``judge``, which
takes a subject's ``Inputs`` and nothing else:

* ``events``: the subject's own stored events;
* ``terms``: the ``TableTermsDeclared`` record in force at its start (poker: the rake the
  rulebook leaves to the table), looked up in the store (``TermsBook``), or None;
* ``related``: other stored events the rules need (a satellite's target tournament; the
  jackpot records of the machines a slot machine's jackpots link or move to);
* ``conflicts``: versions of its events the operator sent that differ from the stored
  ones (``audit.ingest.conflicts``), each a ``conflicting_versions`` finding.

A subject with sequences missing is judged incomplete (``replayer.completeness``), never
by the rules, until they arrive; the next replay then judges it whole.

The verdict unit's id covers every input (``inputs_digest``: events, terms, related
events, the rulebook judged under and the replayer version), so a changed input is a new,
later verdict and never a silently kept old one. The current verdict of a subject is its
latest stored unit (``audit.judging.current``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from audit.current import KIND
from audit.judging.inputs import Inputs
from audit.judging.kinds import STORED_KINDS, SUBJECT_KINDS, subject_kind
from audit.store import VERDICT_RECORD, RecordReads, SubjectRecords
from replayer import REPLAYER_VERSION
from replayer.completeness import conflicting_versions, incomplete
from replayer.findings import Finding, FindingKind
from replayer.terms import terms_in_force
from replayer.verdict import Findings, Verdict

TABLE = "table"
"""The kind of a table's declarations (``audit.judging.kinds.table``)."""
REPLAY_KINDS = STORED_KINDS
"""The kinds ``replay`` judges one stored subject at a time, in order."""
UNJUDGEABLE = "casino-audit stored-event schema"
"""Citation of a subject whose stored events the replayer cannot read."""


def opening(kind: str, events: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The subject's opening event (its kind's ``SubjectKind.opening``: HandStarted,
    RoundOpened, ...), if stored."""
    record = subject_kind(kind)
    name = record.opening if record is not None else None
    return next((e for e in events if e.get("type") == name), None)


def started_at(kind: str, events: Sequence[dict[str, Any]]) -> datetime | None:
    """When the subject started (its opening event's time; None when unknown)."""
    first = opening(kind, events)
    if first is None or first.get("start_time_known") is False:
        return None
    when = first.get("occurred_at")
    return when if isinstance(when, datetime) else None


class TermsBook:
    """What a batch of subjects is judged with besides their own events, read from the
    store a batch at a time: the declared table terms (one table at a time, kept for the
    run) and the subjects' conflict facts (``prefetch``)."""

    def __init__(self, store: RecordReads):
        self._store = store
        self._tables: dict[str, list[dict[str, Any]]] = {}
        self._conflicts: dict[str, list[dict[str, Any]]] = {}
        self._conflicts_of: set[tuple[str, str]] = set()

    def conflicts(self, kind: str, subject: str) -> list[dict[str, Any]]:
        """The subject's conflict facts (read now unless prefetched)."""
        if (kind, subject) not in self._conflicts_of:
            self._read_conflicts(kind, [subject])
        return self._conflicts.get(f"{kind}:{subject}", [])

    def _read_conflicts(self, kind: str, subjects: Sequence[str]) -> None:
        from audit.ingest.conflicts import conflicts_of

        self._conflicts = {
            f"{kind}:{s}": facts for s, facts in conflicts_of(self._store, kind, subjects).items()
        }
        self._conflicts_of = {(kind, s) for s in subjects}

    def declarations(self, table_id: str) -> list[dict[str, Any]]:
        if table_id not in self._tables:
            self._tables[table_id] = self._store.records_of(TABLE, table_id)
        return self._tables[table_id]

    def prefetch(self, kind: str, subjects: Sequence[tuple[str, Sequence[dict[str, Any]]]]) -> None:
        """Read the declarations of every table these subjects name and the book does not
        hold yet, in one query (a table without any is remembered as such)."""
        self._read_conflicts(kind, [subject for subject, _ in subjects])
        record = subject_kind(kind)
        if record is None or not record.prefetch_tables:
            return
        wanted = {table for _, events in subjects if (table := _table_of(kind, events))}
        missing = sorted(wanted - self._tables.keys())
        if missing:
            found = self._store.records_of_many(TABLE, missing)
            for table in missing:
                self._tables[table] = found.get(table, [])

    def in_force(self, table_id: str | None, at: datetime | None) -> dict[str, Any] | None:
        """The table's declaration governing a subject started at ``at``."""
        if table_id is None:
            return None
        found = terms_in_force(self.declarations(table_id), at)
        return dict(found) if found is not None else None


def _table_of(kind: str, events: Sequence[dict[str, Any]]) -> str | None:
    """The table a subject's opening event names (None: none)."""
    first = opening(kind, events)
    return str(first["table_id"]) if first and first.get("table_id") is not None else None


def gather(
    store: RecordReads,
    kind: str,
    subject: str,
    events: Sequence[dict[str, Any]],
    terms_book: TermsBook | None = None,
) -> Inputs:
    """A stored subject's inputs: its events, the terms in force, related events, the
    conflicting versions received."""
    book = terms_book or TermsBook(store)
    conflicts = tuple(book.conflicts(kind, subject))
    record = subject_kind(kind)
    terms = None
    if record is not None and record.declared:
        table = _table_of(kind, events) or (subject if record.own_table else None)
        terms = book.in_force(table, started_at(kind, events))
    related: Sequence[dict[str, Any]] = ()
    announced = opening(kind, events)
    if record is not None and record.related is not None and announced is not None:
        related = record.related(store, kind, announced)
    return Inputs(kind, subject, events, terms=terms, related=related, conflicts=conflicts)


@dataclass(frozen=True)
class Unjudgeable:
    """The verdict on a stored subject the replayer could not judge: one ``data_quality``
    finding saying why, so one bad subject never stops a replay or a night."""

    findings: tuple[Finding, ...]
    rulebook_id: str | None = None


def judge(inputs: Inputs, *, with_steps: bool = False) -> Verdict:
    """The replayer's verdict on ``inputs`` (pure: the same inputs, the same verdict).

    Poker hands are judged with the table terms in force; a satellite's extra seats
    against its target tournament (GG-2022: an extra seat for an event already entered is
    paid as T$ = buy-in minus fee); ``with_steps`` builds the step-by-step view of a poker
    hand or a banked round (the verdict's findings and what it owes are the same without).
    A subject the replayer fails on is ``Unjudgeable`` (a ``data_quality`` finding naming
    the error), never an exception: the rest of the day is still judged. A subject with
    sequences missing is ``Unjudgeable`` as incomplete, and every conflicting version
    received adds a ``conflicting_versions`` finding (``replayer.completeness``).
    """
    verdict = _incomplete_or_judged(inputs, with_steps)
    if not inputs.conflicts:
        return verdict
    extra = conflicting_versions(inputs.subject, inputs.conflicts)
    return replace(verdict, findings=(*verdict.findings, *extra))


def _incomplete_or_judged(inputs: Inputs, with_steps: bool) -> Verdict:
    record = subject_kind(inputs.kind)
    whole = record is None or record.opening is None or record.across is not None
    gap = None if whole else incomplete(inputs.subject, inputs.events)
    if gap is not None:
        return Unjudgeable((gap,))
    try:  # the kind's adjudicator (``audit.judging.kinds``): one signature for every kind
        return SUBJECT_KINDS[inputs.kind].adjudicate(inputs, with_steps)
    except Exception as error:  # any stored record, however malformed, gets a verdict
        reason = f"the replayer could not judge this {inputs.kind} subject: {error!r}"
        return Unjudgeable(
            (Finding(FindingKind.DATA_QUALITY, inputs.subject, UNJUDGEABLE, reason[:500]),)
        )


def findings_json(verdict: Findings) -> list[dict[str, Any]]:
    """The verdict's findings in their canonical, byte-stable JSON form."""
    return [json.loads(json.dumps(f.to_record(), sort_keys=True)) for f in verdict.findings]


def context(inputs: Inputs) -> dict[str, Any]:
    """Who and what a verdict is about, for people: currency, table, players, operator.

    ``players`` maps the keys findings use for people (poker: seat numbers; a banked
    round: bet ids) to player ids (the kind's ``SubjectKind.players``), and the kind adds
    what its record's ``about`` says.
    A banked round adds ``player_accounts``: whether its table declares that its rounds
    name players by the operator's accounts (``TableTermsDeclared.player_accounts``);
    otherwise its player ids are seat labels, named per table (``audit.wording``). A
    tournament hand adds ``tournament``: the tournament its ``HandStarted`` names.
    """
    record = subject_kind(inputs.kind)
    first = opening(inputs.kind, inputs.events) or {}
    when = started_at(inputs.kind, inputs.events)
    terms = inputs.terms or {}
    table = first.get("table_id")
    if table is None and record is not None and record.own_table:
        table = inputs.subject
    about = {
        "currency": first.get("currency") or terms.get("currency"),
        "table": None if table is None else str(table),
        "players": record.players(inputs, first) if record is not None else {},
        "operator": terms.get("operator"),
        "started_at": when.isoformat() if when else None,
    }
    if record is not None:
        about.update(record.about(inputs, first))
    return about


def adjudication_record(
    kind: str, subject: str, findings: list[dict[str, Any]], **content: Any
) -> dict[str, Any]:
    """The one ``VerdictRecorded`` record shape (the store's only adjudication record
    type; ``HandAdjudicated`` before issue 25), for verdicts, incident investigations and
    the nightly's own units: who is judged (``kind``, ``subject``), under which replayer
    version, the findings, and ``content`` (``rulebook`` defaults to None)."""
    return {
        "type": VERDICT_RECORD,
        "sequence": 0,
        "kind": kind,
        "subject": subject,
        "rulebook": content.pop("rulebook", None),
        "replayer_version": REPLAYER_VERSION,
        "findings": findings,
        **content,
    }


def adjudication_unit(record: dict[str, Any], digest: str, source: str = "") -> SubjectRecords:
    """The store unit holding ``record``, with id
    ``<kind>:<subject>|<replayer version>|<digest>``: the same digest stores nothing new,
    a different one is a new, later unit of the same (kind, subject)."""
    unit_id = f"{record['kind']}:{record['subject']}|{REPLAYER_VERSION}|{digest}"
    return SubjectRecords(KIND, unit_id, [record], source=source)


def verdict_record(
    kind: str,
    subject: str,
    *,
    digest: str,
    events_judged: int,
    findings: list[dict[str, Any]],
    rulebook: str | None = None,
    **content: Any,
) -> SubjectRecords:
    """The store unit of one conclusion about a subject, identified by the digest of
    its inputs (``adjudication_unit``)."""
    record = adjudication_record(
        kind,
        subject,
        findings,
        rulebook=rulebook,
        input_digest=digest,
        events_judged=events_judged,
        **content,
    )
    return adjudication_unit(record, digest, source="replay")


def verdict_unit(inputs: Inputs, verdict: Verdict) -> SubjectRecords:
    """The store unit recording one verdict on ``inputs``."""
    rulebook = verdict.rulebook_id
    return verdict_record(
        inputs.kind,
        inputs.subject,
        digest=inputs.digest(rulebook),
        events_judged=len(inputs.events),
        findings=findings_json(verdict),
        rulebook=rulebook,
        terms_sequence=None if inputs.terms is None else inputs.terms.get("sequence"),
        context=context(inputs),
    )


def judge_stored(
    store: RecordReads, kind: str, subject: str, *, with_steps: bool = True
) -> tuple[Inputs, Verdict] | None:
    """Gather and judge one stored subject (None when it is not stored)."""
    events = store.records_of(kind, subject)
    if not events:
        return None
    inputs = gather(store, kind, subject, events)
    return inputs, judge(inputs, with_steps=with_steps)


def started_on(kind: str, events: Sequence[dict[str, Any]]) -> Any:
    """The UTC day a subject started (None when unknown)."""
    when = started_at(kind, events)
    if when is None and events and isinstance(events[0].get("occurred_at"), datetime):
        when = events[0]["occurred_at"]
    return when.date() if when is not None else None
