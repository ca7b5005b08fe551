"""One no-limit hold'em hand dealt, played and settled by PokerKit, written as the flat
events the collusion detector reads (``replayer.events``: HandStarted, BlindPosted,
CardsDealt (every seat's hole cards, as the room's server records them, and the board),
ActionTaken, PotAwarded).

PokerKit deals the cards from its shuffled deck, refuses any illegal action and pays the
pots at showdown: what each seat is paid is PokerKit's final stack less what it had left,
so every hand's settlement is the oracle's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from pokerkit import Automation, Deck, NoLimitTexasHoldem

from tests.population.agents import CALL, FOLD, Decision, View

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
Decider = Callable[[View], Decision]
"""A seat's player: his decision from his view (his own rng inside)."""


def play_hand(
    hand_id: str,
    at: datetime,
    seated: Sequence[tuple[int, str, int]],
    deciders: Sequence[Callable[[View], Decision]],
    views: Callable[[int, Any], dict[str, Any]],
    rng: random.Random,
    big_blind: int = 100,
) -> tuple[list[dict[str, Any]], list[int]]:
    """Play one hand: ``seated`` is (seat, player id, stack) by PokerKit index (0 the
    small blind, the last the button); ``views(index, state)`` adds what a player knows
    beyond the table (partners, shared cards, a dumping hand). Returns the events and
    the final stacks."""
    stacks = tuple(stack for _, _, stack in seated)
    state = NoLimitTexasHoldem.create_state(
        AUTOMATIONS, True, 0, (big_blind // 2, big_blind), big_blind, stacks, len(seated)
    )
    deck = list(Deck.STANDARD)
    rng.shuffle(deck)
    state.deck_cards.clear()
    state.deck_cards.extend(deck)
    while state.can_deal_hole():
        state.deal_hole()
    events: list[dict[str, Any]] = []

    def emit(kind: str, **body: Any) -> None:
        events.append(
            {"hand_id": hand_id, "sequence": len(events), "occurred_at": at, "type": kind, **body}
        )

    emit(
        "HandStarted",
        rulebook="gg-nlhe",
        table_id=hand_id.rsplit("/", 1)[0],
        variant="NT",
        currency="EUR",
        big_blind=big_blind,
        min_bet=big_blind,
        seats=[{"seat": s, "player_id": p, "stack": st} for s, p, st in seated],
    )
    put = [stacks[i] - state.stacks[i] for i in range(len(seated))]
    for i, amount in enumerate(put):
        if amount:
            emit("BlindPosted", seat=seated[i][0], amount=amount)
    for i, (seat, _, _) in enumerate(seated):
        # the room's server deals them: its records hold every seat's cards
        emit("CardsDealt", target="hole", seat=seat, cards=[repr(c) for c in state.hole_cards[i]])
    board = 0
    aggressor: int | None = None
    while state.status and state.actor_index is not None:
        shown = list(state.get_board_cards(0))
        if len(shown) != board:
            emit("CardsDealt", target="board", seat=None, cards=[repr(c) for c in shown[board:]])
            board, aggressor = len(shown), None
        me = state.actor_index
        live = frozenset(i for i in range(len(seated)) if state.statuses[i])
        to_call = state.checking_or_calling_amount or 0
        can_raise = state.can_complete_bet_or_raise_to()
        view = View(
            me=me,
            hole=list(state.hole_cards[me]),
            board=shown,
            street=state.street_index or 0,
            to_call=to_call,
            pot=state.total_pot_amount,
            stack=state.stacks[me],
            min_to=state.min_completion_betting_or_raising_to_amount if can_raise else None,
            max_to=state.max_completion_betting_or_raising_to_amount if can_raise else None,
            big_blind=big_blind,
            live=live,
            aggressor=aggressor,
            **views(me, state),
        )
        action, target = deciders[me](view)
        facing, mine = max(state.bets), state.bets[me]
        if action == FOLD and to_call:
            state.fold()
            name, amount = "fold", 0
        elif action == CALL or not can_raise:
            state.check_or_call()
            name, amount = ("call" if to_call else "check"), to_call
        else:
            state.complete_bet_or_raise_to(target)
            name, amount = ("raise" if facing else "bet"), target - mine
            aggressor = me
        # the amount the action put in (the stack after it may already hold the pot won)
        emit("ActionTaken", seat=seated[me][0], action=name, amount=amount)
    shown = list(state.get_board_cards(0))
    if len(shown) != board:
        emit("CardsDealt", target="board", seat=None, cards=[repr(c) for c in shown[board:]])
    final = list(state.stacks)
    for i, (seat, _, start) in enumerate(seated):
        paid = final[i] - start + _put(events, seat)
        if paid > 0:
            emit("PotAwarded", seat=seat, amount=paid)
    return events, final


def _put(events: list[dict[str, Any]], seat: int) -> int:
    return sum(
        e["amount"]
        for e in events
        if e["type"] in ("BlindPosted", "ActionTaken") and e["seat"] == seat
    )
