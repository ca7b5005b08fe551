"""The poker hand (``hand_id``): judged by ``replayer.poker.replay.adjudicate_hand`` under
the table's declared terms in force at its start (MO-97/2010 art.16, PT-217/2007 n.º 7:
the rake the rulebook leaves to the table)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.record import Shown, SubjectKind
from audit.show.model import PokerStory
from audit.show.poker import hand_kind, hand_tournament, poker_body
from replayer.poker.replay import adjudicate_hand
from replayer.poker.verdict import HandVerdict
from replayer.verdict import Verdict


def _adjudicate(inputs: Inputs, with_steps: bool) -> HandVerdict:
    return adjudicate_hand(inputs.events, table_terms=inputs.terms, with_steps=with_steps)


def _seats(inputs: Inputs, first: Mapping[str, Any]) -> dict[str, str]:
    """A hand's findings name seats: each seat's player."""
    players: dict[str, str] = {}
    for seat in first.get("seats") or ():
        if isinstance(seat, dict) and "seat" in seat:
            players[str(seat["seat"])] = str(seat.get("player_id", ""))
    return players


def _tournament(inputs: Inputs, first: Mapping[str, Any]) -> dict[str, Any]:
    """A tournament hand's tournament (``audit.grouping.subject_index``)."""
    return {"tournament": str(first["tournament_id"])} if first.get("tournament_id") else {}


def _story(
    inputs: Inputs, verdict: Verdict, about: Mapping[str, Any], numbers: Mapping[str, int]
) -> PokerStory:
    """The hand told street by street, each seat by its player (``audit.show.poker``)."""
    return poker_body(inputs, verdict, about.get("players") or {}, numbers)


POKER = SubjectKind[HandVerdict](
    "poker",
    _adjudicate,
    "HandStarted",
    title="POKER HAND",
    noun="poker hand",
    declared=True,
    prefetch_tables=True,
    in_flight=True,
    players=_seats,
    about=_tournament,
    shown=Shown(_story, what=hand_kind, more=hand_tournament),
)
