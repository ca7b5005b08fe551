"""Cash poker: a hand in flight when the servers failed is reverted.

GG-2022 Política de reembolso (Cash Games): "todas as mãos em andamento serão revertidas.
A contagem de fichas de cada jogador será redefinida para o valor no início da mão", so
every chip a player put into the hand goes back to him. The land-based rulebooks say the
same of a void hand: MO-97/2010 art.9(2) (the hand is declared void and the bets are
returned) and PT-217/2007 II n.º 69 (the "jogada" is void; n.º 109 for "sintético").
The article cited is the hand's own rulebook's ``void_refund`` citation.

The hand's state comes from the poker replayer (``adjudicate_hand``): the stacks at the
start of the hand, the chips each seat put in so far, the step at which play stopped and
what the operator recorded as given back (PotAwarded summed, or derived from
HandEnded.finishing_stacks); ``hand_closed_at`` says when a hand was closed (for the
in-flight test of an incident). Tournament hands (currency ``XXX``) are not cash: their
chips are settled by the tournament's cancellation policy (``replayer.tournaments``), so
no refund is required of the hand itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from replayer.events import FlatEvent
from replayer.poker import Step, adjudicate_hand
from replayer.refunds.refund import Refund
from replayer.rulebooks.poker import PokerRulebook
from replayer.rulebooks.registry import get_rulebook

GG_CASH = "GG-2022 Política de reembolso (Cash Games)"
TOURNAMENT_CHIPS = "XXX"
#: Events of the play itself; the step at the failure is the last of these.
PLAY_EVENTS = frozenset({"HandStarted", "BlindPosted", "CardsDealt", "ActionTaken", "CardsShown"})
#: Events that close a hand.
END_EVENTS = frozenset({"HandEnded", "HandVoided", "HandReverted"})


@dataclass(frozen=True, slots=True)
class HandAtFailure:
    """A poker hand cut by a failure: its state and what the rules require back."""

    hand_id: str
    table_id: str
    currency: str
    rulebook_id: str | None
    started_at: datetime
    stacks_at_start: dict[str, int]
    """Player -> chips in front of him when the hand started."""
    contributions: dict[str, int]
    """Player -> chips he put in during the hand, as recorded."""
    step: Step | None
    """The last step of play before the hand stopped (None: the hand cannot be replayed)."""
    outcome: str | None
    """The closing event recorded, HandReverted or HandVoided before HandEnded; None."""
    recorded_returns: dict[str, int]
    """Player -> chips the operator recorded as given back."""
    refunds: tuple[Refund, ...]
    citation: str


def hand_at_failure(events: Sequence[FlatEvent]) -> HandAtFailure:
    """The interrupted hand's state and required refunds (see the module docstring)."""
    verdict = adjudicate_hand(events)
    ordered = sorted(events, key=lambda event: event["sequence"])
    start = next(event for event in ordered if event["type"] == "HandStarted")
    player_of = {int(seat["seat"]): str(seat["player_id"]) for seat in start["seats"]}
    book = get_rulebook(verdict.rulebook_id) if verdict.rulebook_id else None
    citation = book.cite.void_refund if isinstance(book, PokerRulebook) else GG_CASH
    contributions = {player_of[seat]: chips for seat, chips in verdict.contributions.items()}
    currency = str(start["currency"])
    refunds: tuple[Refund, ...] = ()
    if currency != TOURNAMENT_CHIPS:
        refunds = tuple(
            Refund(
                verdict.hand_id,
                player,
                chips,
                "stake",
                citation,
                f"hand reverted: the {chips} put in go back (stack reset to the start of the hand)",
            )
            for player, chips in contributions.items()
            if chips
        )
    play = [step for step in verdict.steps if step.event_type in PLAY_EVENTS]
    ends = sorted(
        {event["type"] for event in ordered if event["type"] in END_EVENTS},
        key=("HandEnded", "HandVoided", "HandReverted").index,
    )
    return HandAtFailure(
        hand_id=verdict.hand_id,
        table_id=str(start["table_id"]),
        currency=currency,
        rulebook_id=verdict.rulebook_id,
        started_at=start["occurred_at"],
        stacks_at_start={player_of[int(s["seat"])]: int(s["stack"]) for s in start["seats"]},
        contributions=contributions,
        step=play[-1] if play else None,
        outcome=ends[-1] if ends else None,
        recorded_returns={
            player_of[seat]: chips for seat, chips in verdict.recorded_payouts.items()
        },
        refunds=refunds,
        citation=citation,
    )


def hand_closed_at(events: Sequence[FlatEvent]) -> datetime | None:
    """When the hand's first closing event (HandEnded, HandVoided, HandReverted) happened;
    None while the hand is open."""
    ends = [event["occurred_at"] for event in events if event["type"] in END_EVENTS]
    return min(ends) if ends else None
