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

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.table_session import SESSION, TABLE_SESSION, session_hand
from audit.judging.path import TermsBook, verdict_unit
from audit.store import RecordReads, SubjectRecords
from replayer.sessions import DEFAULT_RULES, SessionVerdict, sessions_of
from replayer.sessions.verdict import session_hands, summaries

__all__ = ["judge_table_sessions", "session_hand", "session_unit"]


def _related(
    store: RecordReads | None, hands: Iterable[Sequence[dict[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    """Tournament id -> what the session kind's record relates to its hands (its
    announcing event, ``kinds.table_session.tournament_announced``), read from ``store``
    once a tournament (none without a store, or for cash hands)."""
    relate = SESSION.related
    if store is None or relate is None:
        return {}
    starts: dict[str, dict[str, Any]] = {}
    for hand in hands:
        started = next((e for e in hand if e.get("type") == "HandStarted"), None)
        if started is not None and started.get("tournament_id") is not None:
            starts.setdefault(str(started["tournament_id"]), started)
    return {tid: list(relate(store, TABLE_SESSION, started)) for tid, started in starts.items()}


def judge_table_sessions(
    hands: Sequence[Sequence[dict[str, Any]]],
    store: RecordReads | None = None,
) -> Iterator[tuple[Inputs, SessionVerdict]]:
    """The inputs and verdict of each session of two or more hands among one table's or
    one tournament's ``hands`` (each a stored hand's events): its own hands in play
    order, then the other tables' hands its arrivals moved from
    (``replayer.sessions.verdict.session_hands``), and the events its kind relates to it
    from ``store`` (its tournament's announcing event: the button format, PT-217/2007
    n.º 124; none without a store), judged by its kind's adjudicator
    (``audit.judging.kinds.table_session``)."""
    by_id = {str(events[0].get("hand_id")): events for events in hands if events}
    related = _related(store, by_id.values())
    summarized = summaries(by_id.values(), [e for found in related.values() for e in found])
    for session in sessions_of(summarized):
        if len(session.hands) < 2:
            continue
        ids = session_hands(session, summarized, DEFAULT_RULES)
        events = [event for hand in ids for event in by_id[hand]]
        announced = related.get(str(session.hands[0].tournament_id), [])
        inputs = Inputs(TABLE_SESSION, session.subject, events, related=announced)
        yield inputs, SESSION.adjudicate(inputs, False)


def session_unit(
    inputs: Inputs, verdict: SessionVerdict, terms_book: TermsBook | None = None
) -> SubjectRecords:
    """The stored verdict unit of a session (``verdict_unit``), with who and what it is
    about (its currency, table, operator (the table's declared terms in force at its
    first hand, or its tournament's at a tournament's table, from ``terms_book``; they
    are not judged, so not in its inputs) and first hand's start) and its hands in play
    order with how each follows the one before (``show`` lists them)."""
    stored = verdict_unit(inputs, verdict)
    first = next((e for e in inputs.events if e.get("type") == "HandStarted"), {})
    when = first.get("occurred_at")
    table = first.get("table_id")
    at = when if isinstance(when, datetime) else None
    terms = None
    if terms_book is not None:
        # a tournament's tables declare nothing: the tournament, its own table, does
        declared = (t for t in (table, first.get("tournament_id")) if t is not None)
        terms = next((found for t in declared if (found := terms_book.in_force(str(t), at))), None)
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
