"""A poker table session (``<table id>@<first hand id>``): a table's consecutive cash hands,
or a tournament table's with the other tables' hands its arrivals moved from, judged
across each other by ``replayer.sessions.adjudicate_session`` (issue 38;
``audit.judging.table_sessions``). A tournament table's session is judged with its
tournament's announcing event (``related``: the button format it states, PT-217/2007
n.º 124), found by its hands' ``HandStarted.tournament_id``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.record import EvidencePart, Feed, SubjectKind
from audit.store import RecordReads, StoreReads
from replayer.sessions import SessionVerdict, adjudicate_session
from replayer.sessions.hands import summarize
from replayer.sessions.win_button import ANNOUNCED

TABLE_SESSION = "table_session"
"""The subject kind of a poker table's session (``<table id>@<first hand id>``)."""
TOURNAMENT = "tournament"
"""The family whose announcing event states a tournament's button format."""


def session_hand(records: Sequence[dict[str, Any]]) -> str | None:
    """What a stored poker hand's sessions are judged among: its tournament (a player
    moves between its tables) or its cash table (None: no session can hold it, e.g. a
    hand without a known start time)."""
    summary = summarize(records)
    if summary is None:
        return None
    return summary.tournament_id if summary.tournament_id is not None else summary.table_id


def _session_inputs(
    store: StoreReads, subject: str, record: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """A poker table session's inputs: the hands its verdict lists, in play order, then
    its tournament's stored events when it is a tournament table's (they state its
    button format: ``tournament_announced``)."""
    hands = [("poker", str(hand)) for hand in record.get("hands") or ()]
    first = store.records_of(*hands[0]) if hands else []
    tournament = first[0].get("tournament_id") if first else None
    if tournament is not None and store.records_of(TOURNAMENT, str(tournament)):
        hands.append((TOURNAMENT, str(tournament)))
    return hands


def _adjudicate(inputs: Inputs, with_steps: bool) -> SessionVerdict:
    return adjudicate_session(inputs.events, related=inputs.related)


def _named(subject: str) -> bool:
    return "@" in subject


def tournament_announced(
    store: RecordReads, kind: str, started: Mapping[str, Any]
) -> Sequence[dict[str, Any]]:
    """The announcing event of the tournament a session's first hand
    (``HandStarted``) was played in, when stored (none for a cash table's session): only
    it, so the session's verdict does not change as the tournament's later events come."""
    tournament = started.get("tournament_id")
    if tournament is None:
        return ()
    records = store.records_of(TOURNAMENT, str(tournament))
    return [record for record in records if record.get("type") == ANNOUNCED][:1]


SESSION = SubjectKind[SessionVerdict](
    TABLE_SESSION,
    _adjudicate,
    None,
    title="POKER TABLE SESSION",
    noun="poker table session",
    related=tournament_announced,
    across=_named,
    feed=Feed("poker", session_hand),
    evidence=EvidencePart(
        _session_inputs,
        "hand",
        "the bundle holds the hands of this session as judged when it was made; a hand of "
        "the table stored later, outside the signed history, is not in it",
    ),
)
