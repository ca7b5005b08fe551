"""Poker table sessions: a table's consecutive cash hands judged across each other
(issue 38; ``replayer.sessions``).

Chips that vanish between two hands, a room's record that disagrees with itself and a
button that does not pass are seen across hands, never in one. A table's stored hands are
cut into sessions by what their records say (``replayer.sessions.chaining``: time gap,
same players, the button), and each session of two or more hands is one
``table_session`` subject, ``<table id>@<first hand id>``, judged through
``judge_table_sessions`` and stored by ``session_unit``: the same hands give the same
inputs (their events in play order), so the same verdict unit, whichever path judged
them. A lone hand is no session
and stores nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.table_session import SESSION, TABLE_SESSION
from audit.judging.path import TermsBook, verdict_unit
from audit.store import SubjectRecords
from replayer.sessions import SessionVerdict, table_sessions
from replayer.sessions.hands import summarize


def session_hand(records: Sequence[dict[str, Any]]) -> str | None:
    """The table of a stored poker hand a session may hold (None: none can, e.g. a
    tournament hand or one without a known start time)."""
    summary = summarize(records)
    return summary.table_id if summary is not None else None


def judge_table_sessions(
    hands: Sequence[Sequence[dict[str, Any]]],
) -> Iterator[tuple[Inputs, SessionVerdict]]:
    """The inputs and verdict of each session of two or more hands among one table's
    ``hands`` (each a stored hand's events), in play order (its kind's adjudicator,
    ``audit.judging.kinds.table_session``)."""
    by_id = {str(events[0].get("hand_id")): events for events in hands if events}
    for session in table_sessions(list(by_id.values())):
        if len(session.hands) < 2:
            continue
        events = [event for hand in session.hands for event in by_id[hand.hand_id]]
        inputs = Inputs(TABLE_SESSION, session.subject, events)
        yield inputs, SESSION.adjudicate(inputs, False)


def session_unit(
    inputs: Inputs, verdict: SessionVerdict, terms_book: TermsBook | None = None
) -> SubjectRecords:
    """The stored verdict unit of a session (``verdict_unit``), with who and what it is
    about (its currency, table, operator (the table's declared terms in force at its
    first hand, from ``terms_book``; they are not judged, so not in its inputs) and first
    hand's start) and its hands in play order with how each follows the one before
    (``show`` lists them)."""
    stored = verdict_unit(inputs, verdict)
    first = next((e for e in inputs.events if e.get("type") == "HandStarted"), {})
    when = first.get("occurred_at")
    table = first.get("table_id")
    terms = None
    if terms_book is not None and table is not None:
        terms = terms_book.in_force(str(table), when if isinstance(when, datetime) else None)
    record = stored.records[0]
    record["context"] = {
        **record["context"],
        "currency": first.get("currency"),
        "table": table,
        "operator": (terms or {}).get("operator"),
        "started_at": when.isoformat() if isinstance(when, datetime) else None,
    }
    record["hands"] = list(verdict.hands)
    record["links"] = list(verdict.links)
    return stored
