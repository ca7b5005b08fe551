"""A poker table session (``<table id>@<first hand id>``): a table's consecutive cash hands
judged across each other by ``replayer.sessions.adjudicate_session`` (issue 38;
``audit.judging.table_sessions``)."""

from __future__ import annotations

from audit.judging.inputs import Inputs
from audit.judging.kinds.record import SubjectKind
from replayer.sessions import SessionVerdict, adjudicate_session

TABLE_SESSION = "table_session"
"""The subject kind of a poker table's session (``<table id>@<first hand id>``)."""


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
)
