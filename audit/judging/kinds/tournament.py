"""The tournament (``tournament_id``): judged by
``replayer.tournaments.adjudicate_tournament``, a satellite's extra seats against its
target tournament's stored events (GG-2022: an extra seat for an event already entered is
paid as T$ = buy-in minus fee); the tournament is its own table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.record import Shown, SubjectKind
from audit.show.model import Line
from audit.show.tournament import tournament_body, tournament_hands, tournament_kind
from audit.store import RecordReads
from replayer.tournaments import adjudicate_tournament
from replayer.tournaments.adjudicate import TournamentVerdict
from replayer.verdict import Verdict


def _adjudicate(inputs: Inputs, with_steps: bool) -> TournamentVerdict:
    if inputs.related:
        return adjudicate_tournament(inputs.events, target_events=inputs.related)
    return adjudicate_tournament(inputs.events)


def satellite_target(
    store: RecordReads, kind: str, announced: Mapping[str, Any]
) -> Sequence[dict[str, Any]]:
    """A satellite's target tournament's stored events (none for any other tournament)."""
    target = announced.get("satellite_for")
    return store.records_of(kind, str(target)) if target else ()


def _story(
    inputs: Inputs, verdict: Verdict, about: Mapping[str, Any], numbers: Mapping[str, int]
) -> tuple[Line, ...]:
    """The announcement, entries, places and prizes (``audit.show.tournament``)."""
    return tuple(tournament_body(verdict, inputs.events, numbers))


TOURNAMENT = SubjectKind[TournamentVerdict](
    "tournament",
    _adjudicate,
    "TournamentAnnounced",
    title="TOURNAMENT",
    noun="tournament",
    place="tournament",
    declared=True,
    own_table=True,
    in_flight=True,
    related=satellite_target,
    shown=Shown(_story, what=tournament_kind, more=tournament_hands),
)
