"""A table session judged whole: ``adjudicate_session`` over its hands' stored events.

The session's hands are ordered by time and linked pair by pair
(``replayer.sessions.chaining``); across each consecutive pair the chips carried
(``continuity``) and the button's rotation (``rotation``) are judged. Pure and
deterministic: the same hands, the same verdict, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from replayer.events import FlatEvent
from replayer.findings import Finding
from replayer.sessions.chaining import (
    CHAINED,
    DEFAULT_RULES,
    Link,
    Session,
    SessionRules,
    in_play_order,
    link,
    sessions_of,
)
from replayer.sessions.continuity import chip_findings
from replayer.sessions.hands import HandSummary, summarize
from replayer.sessions.rotation import rotation_findings


@dataclass(frozen=True)
class SessionVerdict:
    """The outcome of one session: its findings, its hands in play order and how each
    follows the one before (``Link`` values)."""

    subject: str
    findings: tuple[Finding, ...]
    hands: tuple[str, ...]
    links: tuple[str, ...]
    rulebook_id: str | None = None


def by_hand(events: Iterable[FlatEvent]) -> dict[str, list[FlatEvent]]:
    """Events grouped by their hand, in the order given."""
    hands: dict[str, list[FlatEvent]] = {}
    for event in events:
        hands.setdefault(str(event.get("hand_id", "")), []).append(event)
    return hands


def summaries(hands: Iterable[Sequence[FlatEvent]]) -> list[HandSummary]:
    """The summaries of the hands a session can hold (``hands.summarize``)."""
    return [s for events in hands if (s := summarize(events)) is not None]


def table_sessions(
    hands: Iterable[Sequence[FlatEvent]], rules: SessionRules = DEFAULT_RULES
) -> list[Session]:
    """One table's hands (each its events) cut into sessions."""
    return sessions_of(summaries(hands), rules)


def adjudicate_session(
    events: Sequence[FlatEvent], rules: SessionRules = DEFAULT_RULES
) -> SessionVerdict:
    """Judge one session from its hands' events (module docstring)."""
    ordered = in_play_order(summaries(by_hand(events).values()))
    if not ordered:
        return SessionVerdict("", (), (), ())
    subject = f"{ordered[0].table_id}@{ordered[0].hand_id}"
    findings: list[Finding] = []
    links = [Link.FIRST]
    for before, after in pairwise(ordered):
        how = link(before, after, rules)
        links.append(how)
        if how in CHAINED:
            findings += chip_findings(subject, before, after)
            findings += rotation_findings(subject, before, after, how)
    return SessionVerdict(
        subject,
        tuple(findings),
        tuple(h.hand_id for h in ordered),
        tuple(str(how) for how in links),
    )
