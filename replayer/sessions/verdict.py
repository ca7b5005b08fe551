"""A table session judged whole: ``adjudicate_session`` over its hands' stored events.

The session's hands are ordered by time and linked pair by pair
(``replayer.sessions.chaining``); across each consecutive pair the chips carried
(``continuity``) and the button's rotation (``rotation``) are judged, or, in a
win-the-button tournament its announcing event says is one (``related``), the button
going to the previous hand's winner (``rotation.winner_findings``, PT-217/2007 n.º 124).
At a tournament's table the session's inputs hold, after its own hands, the other tables' hands its
arrivals moved from (``moves.moved_from``), and each move shown is judged
(``continuity.move_findings``); the session's table is its first given hand's. Pure and
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
from replayer.sessions.continuity import chip_findings, move_findings
from replayer.sessions.hands import HandSummary, summarize
from replayer.sessions.moves import moved_from, moves_into
from replayer.sessions.rotation import rotation_findings, winner_findings
from replayer.sessions.win_button import formats, with_formats


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


def summaries(
    hands: Iterable[Sequence[FlatEvent]], related: Sequence[FlatEvent] = ()
) -> list[HandSummary]:
    """The summaries of the hands a session can hold (``hands.summarize``), each with its
    tournament's button format where ``related`` holds its announcing event
    (``win_button.formats``)."""
    given = [s for events in hands if (s := summarize(events)) is not None]
    return with_formats(given, formats(related))


def table_sessions(
    hands: Iterable[Sequence[FlatEvent]],
    rules: SessionRules = DEFAULT_RULES,
    related: Sequence[FlatEvent] = (),
) -> list[Session]:
    """One table's hands (each its events) cut into sessions (``related``: their
    tournament's announcing event, ``summaries``)."""
    return sessions_of(summaries(hands, related), rules)


def session_hands(
    session: Session, others: Sequence[HandSummary], rules: SessionRules
) -> list[str]:
    """The ids of the hands a session is judged on: its own in play order, then those of
    ``others`` (its tournament's hands) its arrivals moved from (module docstring)."""
    moved = moved_from(session.hands, others, rules)
    return [h.hand_id for h in session.hands] + [h.hand_id for h in moved]


def adjudicate_session(
    events: Sequence[FlatEvent],
    rules: SessionRules = DEFAULT_RULES,
    related: Sequence[FlatEvent] = (),
) -> SessionVerdict:
    """Judge one session from its hands' events and, at a tournament's table, its
    tournament's announcing event (``related``: its button format) (module docstring)."""
    given = summaries(by_hand(events).values(), related)
    if not given:
        return SessionVerdict("", (), (), ())
    ordered = in_play_order([h for h in given if h.at_table == given[0].at_table])
    moved = in_play_order([h for h in given if h.at_table != given[0].at_table])
    subject = f"{ordered[0].table_id}@{ordered[0].hand_id}"
    findings: list[Finding] = []
    links = [Link.FIRST]
    for before, after in pairwise(ordered):
        how = link(before, after, rules)
        links.append(how)
        if how in CHAINED:
            findings += chip_findings(subject, before, after)
            findings += rotation_findings(subject, before, after, how)
            findings += winner_findings(subject, before, after, how)
    if moved:
        for move in moves_into(ordered, given, rules):
            findings += move_findings(subject, move)
    return SessionVerdict(
        subject,
        tuple(findings),
        tuple(h.hand_id for h in [*ordered, *moved]),
        tuple(str(how) for how in [*links, *[Link.MOVED_FROM] * len(moved)]),
    )
