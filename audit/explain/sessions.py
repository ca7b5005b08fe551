"""``casino-audit show <table>@<first hand>``: a poker table session's page, from its
current stored verdict (``audit.judging.table_sessions``); its story, the hands in play
order with the break where chips went missing, is ``audit.show.sessions.session_body``.
"""

from __future__ import annotations

from audit.current import Verdicts, current_of
from audit.judging import TABLE_SESSION
from audit.show.common import (
    adjudication_units,
    fields,
    findings_section,
    history_section,
    rows,
    safe,
)
from audit.show.model import Part
from audit.show.sessions import session_body
from audit.store import StoreReads


def session_part(store: StoreReads, subject: str, verdicts: Verdicts | None) -> Part | None:
    """The session's page (None: no session verdict is stored under ``subject``)."""
    units = adjudication_units(store, [(TABLE_SESSION, subject)], verdicts)
    current = current_of(units)
    if current is None:
        return None
    found = list(current.get("findings") or ())
    context = current.get("context") or {}
    about = {"subject_kind": TABLE_SESSION, "rulebook": current.get("rulebook"), **context}
    header = fields(
        [
            ("subject", safe(subject)),
            ("kind", "poker table session (chips carried between consecutive hands)"),
            ("started at", safe(context.get("started_at"))),
            ("table", safe(context.get("table"))),
            ("currency", safe(context.get("currency")) if context.get("currency") else None),
        ]
    )
    hands = [str(h) for h in current.get("hands") or ()]
    links = [str(h) for h in current.get("links") or ()]
    return Part(
        f"POKER TABLE SESSION {safe(subject)}",
        header,
        tuple(session_body(store, hands, links, found)),
        tuple(findings_section(rows(found, about))),
        tuple(history_section(units)),
    )
