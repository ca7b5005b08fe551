"""A poker table session (``<table id>@<first hand id>``): a table's consecutive cash hands,
or a tournament table's with the other tables' hands its arrivals moved from, judged
across each other by ``replayer.sessions.adjudicate_session`` (issue 38;
``audit.judging.table_sessions``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.record import EvidencePart, Feed, SubjectKind
from audit.store import StoreReads
from replayer.sessions import SessionVerdict, adjudicate_session
from replayer.sessions.hands import summarize

TABLE_SESSION = "table_session"
"""The subject kind of a poker table's session (``<table id>@<first hand id>``)."""


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
    """A poker table session's inputs: the hands its verdict lists, in play order."""
    return [("poker", str(hand)) for hand in record.get("hands") or ()]


def _adjudicate(inputs: Inputs, with_steps: bool) -> SessionVerdict:
    return adjudicate_session(inputs.events)


def _named(subject: str) -> bool:
    return "@" in subject


SESSION = SubjectKind[SessionVerdict](
    TABLE_SESSION,
    _adjudicate,
    None,
    title="POKER TABLE SESSION",
    noun="poker table session",
    across=_named,
    feed=Feed("poker", session_hand),
    evidence=EvidencePart(
        _session_inputs,
        "hand",
        "the bundle holds the hands of this session as judged when it was made; a hand of "
        "the table stored later, outside the signed history, is not in it",
    ),
)
