"""The banked round (``round_id``): judged by ``replayer.casino.adjudicate.adjudicate_round``;
the table's declared terms in force name its operator and whether its rounds name players
by the operator's accounts (``TableTermsDeclared.player_accounts``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.record import Shown, SubjectKind
from audit.show.banked import round_body, round_kind
from audit.show.model import Line
from replayer.casino.adjudicate import adjudicate_round
from replayer.casino.verdict import RoundVerdict
from replayer.verdict import Verdict


def _adjudicate(inputs: Inputs, with_steps: bool) -> RoundVerdict:
    return adjudicate_round(inputs.events, with_steps=with_steps)


def _bettors(inputs: Inputs, first: Mapping[str, Any]) -> dict[str, str]:
    """A round's findings name bets: each bet's player."""
    players: dict[str, str] = {}
    for bet in inputs.events:
        if bet.get("type") != "BetPlaced":
            continue
        if bet.get("bet_id") is not None and bet.get("player_id") is not None:
            players[str(bet["bet_id"])] = str(bet["player_id"])
    return players


def player_accounts(inputs: Inputs, first: Mapping[str, Any]) -> dict[str, Any]:
    """Whether the table declares that its rounds name players by the operator's accounts;
    otherwise its player ids are seat labels, named per table (``audit.wording``)."""
    return {"player_accounts": (inputs.terms or {}).get("player_accounts") is True}


def rounds_of(events: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Rounds' events, given one round after another, back as one list per round."""
    rounds: list[list[dict[str, Any]]] = []
    for event in events:
        if not rounds or rounds[-1][0].get("round_id") != event.get("round_id"):
            rounds.append([])
        rounds[-1].append(event)
    return rounds


def _story(
    inputs: Inputs, verdict: Verdict, about: Mapping[str, Any], numbers: Mapping[str, int]
) -> tuple[Line, ...]:
    """The round's bets, events and settlement (``audit.show.banked``)."""
    return tuple(round_body(verdict, inputs.events, numbers))


BANKED = SubjectKind[RoundVerdict](
    "banked",
    _adjudicate,
    "RoundOpened",
    title="BANKED ROUND",
    noun="banked round",
    declared=True,
    in_flight=True,
    players=_bettors,
    about=player_accounts,
    shown=Shown(_story, what=round_kind),
)
