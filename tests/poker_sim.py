"""Random legal hands played by PokerKit, written out as our flat poker events.

Independent of ``replayer``: PokerKit decides legality, pots and payouts; the events are
what an operator following PokerKit's rules would record. Seeded, so every run of a test
sees the same hands.

Seats: ``table_size`` numbered seats, ``players`` of them occupied, a random button;
PokerKit's player index i is the i-th occupied seat clockwise from the button's left
(heads-up: index 0 is the big blind, index 1 the button and small blind), which is our
"position". Deck order: a seeded shuffle; hole cards one at a time round the table from
the first player left of the button, then burn + flop, burn + turn, burn + river from the
top, which is what the rulebooks' commitment check assumes.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from pokerkit import (
    Automation,
    BoardDealing,
    CardBurning,
    HoleCardsShowingOrMucking,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)
from pokerkit import (
    rake as pokerkit_rake,
)

from replayer.poker.cards import full_deck

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.CHIPS_PULLING,
)
GAMES = {"NT": (NoLimitTexasHoldem, 2), "PO": (PotLimitOmahaHoldem, 4)}
EPOCH = datetime(2023, 3, 1, 12, 0, tzinfo=UTC)


@dataclass
class SimulatedHand:
    """A hand's events plus PokerKit's own account of it."""

    events: list[dict[str, Any]]
    seats: list[int]
    """Seat of each PokerKit player index (= our position)."""
    starting: list[int]
    put: list[int]
    payouts: list[int]
    """PokerKit: chips returned to each player index (final - start + put)."""
    pots: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)
    """PokerKit's pots as played (before showdown losers leave): (raked, unraked, player
    indices); with rake, PokerKit re-forms and rakes the pots after the showdown."""
    rake: int = 0


def _card(card: Any) -> str:
    return f"{card.rank}{card.suit}"


def simulate(
    rng: random.Random,
    variant: str = "NT",
    *,
    rulebook: str | None = None,
    players: int | None = None,
    table_size: int = 9,
    blinds: tuple[int, int] = (1, 2),
    chip: int = 1,
    rake_percentage: float = 0.0,
    rake_cap: float = float("inf"),
    max_raises: int | None = None,
    commitment: bool = False,
    hand_number: int = 0,
) -> SimulatedHand:
    """Play one random hand to the end and return its events."""
    game, hole_count = GAMES[variant]
    n = players or rng.randint(2, 6)
    occupied = sorted(rng.sample(range(1, table_size + 1), n))
    button = rng.choice(occupied)
    after = [s for s in occupied if s > button] + [s for s in occupied if s <= button]
    seats = after  # position -> seat
    small, big = blinds
    starting = [
        rng.choice((rng.randint(big, 20 * big), rng.randint(20 * big, 200 * big))) for _ in range(n)
    ]
    state = game.create_state(
        AUTOMATIONS,
        True,
        0,
        blinds,
        big,
        tuple(starting),
        n,
        rake=partial(pokerkit_rake, percentage=rake_percentage, cap=rake_cap),
    )
    deck = full_deck()
    rng.shuffle(deck)
    salt = f"salt-{hand_number}"
    hand_id = f"sim/{variant}/{hand_number}"
    clock = [EPOCH + timedelta(minutes=hand_number)]
    events: list[dict[str, Any]] = []

    def emit(event_type: str, **body: Any) -> None:
        clock[0] += timedelta(seconds=1)
        events.append(
            {
                "event_id": f"{hand_id}#{len(events)}",
                "hand_id": hand_id,
                "sequence": len(events),
                "occurred_at": clock[0],
                "type": event_type,
                **body,
            }
        )

    emit(
        "HandStarted",
        rulebook=rulebook,
        table_id="sim",
        variant=variant,
        currency="EUR",
        smallest_chip=chip,
        small_blind=small,
        big_blind=big,
        ante=0,
        min_bet=big,
        button=button,
        seats=[
            {"seat": s, "player_id": f"p{s}", "stack": starting[seats.index(s)]} for s in occupied
        ],
        shuffle_commitment=(
            hashlib.sha256((" ".join(deck) + ":" + salt).encode()).hexdigest()
            if commitment
            else None
        ),
    )
    put = [0] * n
    for op in state.operations:  # blinds, posted by automation at creation
        if type(op).__name__ == "BlindOrStraddlePosting":
            heads_up_sb = n == 2 and op.player_index == 1
            kind = "small_blind" if (op.player_index == 0 and n > 2) or heads_up_sb else "big_blind"
            put[op.player_index] += op.amount
            emit("BlindPosted", seat=seats[op.player_index], kind=kind, amount=op.amount)
    top = 0
    holes: list[list[str]] = [[] for _ in range(n)]
    for _ in range(hole_count):
        for p in range(n):
            holes[p].append(deck[top])
            top += 1
    for p in range(n):
        state.deal_hole("".join(holes[p]))
        emit("CardsDealt", target="hole", seat=seats[p], cards=list(holes[p]))
    raises_this_street = 0
    seen = len(state.operations)
    pots: list[tuple[int, int, tuple[int, ...]]] = []
    while state.status:
        manual = None
        if state.can_burn_card():
            state.burn_card(deck[top])
            top += 1
        elif state.can_deal_board():
            count = 3 if not state.board_cards else 1
            state.deal_board("".join(deck[top : top + count]))
            top += count
            raises_this_street = 0
        elif state.actor_index is not None:
            p = state.actor_index
            choices = ["call"] * 5
            if state.can_fold():
                choices += ["fold"] * 2
            can_raise = state.can_complete_bet_or_raise_to() and (
                max_raises is None or raises_this_street < max_raises
            )
            if can_raise:
                choices += ["raise"] * 3
            choice = rng.choice(choices)
            if choice == "fold":
                manual = state.fold()
                emit("ActionTaken", seat=seats[p], action="fold", amount=0)
            elif choice == "call":
                manual = state.check_or_call()
                put[p] += manual.amount
                emit(
                    "ActionTaken",
                    seat=seats[p],
                    action="call" if manual.amount else "check",
                    amount=manual.amount,
                )
            else:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                amount = rng.choice((low, high, rng.randint(low, high)))
                before = state.bets[p]
                facing = max(state.bets) > 0
                manual = state.complete_bet_or_raise_to(amount)
                put[p] += amount - before
                emit(
                    "ActionTaken",
                    seat=seats[p],
                    action="raise" if facing else "bet",
                    amount=amount - before,
                )
                raises_this_street += 1
        elif state.can_kill_hand() or state.can_push_chips():
            # PokerKit's pots as played, before showdown losers leave them (PokerKit then
            # merges the pots a single winner takes and rakes the merged pot).
            if not pots and not any(state.bets):  # once the bets are collected
                pots = [
                    (pot.raked_amount, pot.unraked_amount, tuple(pot.player_indices))
                    for pot in state.pots
                ]
            if state.can_kill_hand():
                state.kill_hand()
            else:
                state.push_chips()
        else:  # pragma: no cover - automations cover every other step
            raise AssertionError(f"stuck: {state}")
        for op in state.operations[seen:]:
            if op is not manual:
                _emit_operation(op, seats, emit)
        seen = len(state.operations)
    final = list(state.stacks)
    payouts = [final[p] - starting[p] + put[p] for p in range(n)]
    rake = sum(put) - sum(payouts)  # what PokerKit raked from the pots it pushed
    awards = [0] * n
    for op in state.operations:
        if type(op).__name__ == "ChipsPushing":
            for p, amount in enumerate(op.amounts):
                if amount:
                    awards[p] += amount
                    emit("PotAwarded", seat=seats[p], amount=amount, pot_index=op.pot_index)
    for p in range(n):
        if payouts[p] != awards[p]:  # an uncalled bet returned
            emit("PotAwarded", seat=seats[p], amount=payouts[p] - awards[p], pot_index=None)
    if rake:
        emit("RakeTaken", amount=rake, pot_index=None)
    emit("HandEnded", finishing_stacks=[final[seats.index(s)] for s in occupied])
    if commitment:
        emit("DeckRevealed", order=deck, salt=salt)
    return SimulatedHand(events, seats, starting, put, payouts, pots, rake)


def _emit_operation(op: Any, seats: list[int], emit: Any) -> None:
    """Events for the operations PokerKit's automations performed."""
    if isinstance(op, CardBurning):
        emit("CardsDealt", target="burn", seat=None, cards=[_card(op.card)])
    elif isinstance(op, BoardDealing):
        emit("CardsDealt", target="board", seat=None, cards=[_card(c) for c in op.cards])
    elif isinstance(op, HoleCardsShowingOrMucking):
        cards = [_card(c) for c in op.hole_cards]
        emit("CardsShown", seat=seats[op.player_index], cards=cards, mucked=not cards)


class HandBuilder:
    """Hand-built events for rule tests: ``HandBuilder(...).post(...).act(...).events``."""

    def __init__(
        self,
        *,
        variant: str = "NT",
        rulebook: str | None = "gg-2022-cash-holdem",
        stacks: dict[int, int] | None = None,
        button: int | None = None,
        blinds: tuple[int, int] = (1, 2),
        ante: int = 0,
        chip: int = 1,
        at: datetime = EPOCH,
        commitment: str | None = None,
        hand_id: str = "t/1",
    ) -> None:
        stacks = stacks or {1: 100, 2: 100, 3: 100}
        self.hand_id = hand_id
        self.events: list[dict[str, Any]] = []
        self.at = at
        self._add(
            "HandStarted",
            rulebook=rulebook,
            table_id="t",
            variant=variant,
            currency="EUR",
            smallest_chip=chip,
            small_blind=blinds[0],
            big_blind=blinds[1],
            ante=ante,
            min_bet=blinds[1],
            button=max(stacks) if button is None else button,
            seats=[
                {"seat": s, "player_id": f"p{s}", "stack": c} for s, c in sorted(stacks.items())
            ],
            shuffle_commitment=commitment,
        )

    def _add(self, event_type: str, **body: Any) -> HandBuilder:
        n = len(self.events)
        self.events.append(
            {
                "event_id": f"{self.hand_id}#{n}",
                "hand_id": self.hand_id,
                "sequence": n,
                "occurred_at": self.at + timedelta(seconds=n),
                "type": event_type,
                **body,
            }
        )
        return self

    def post(self, seat: int, kind: str, amount: int) -> HandBuilder:
        return self._add("BlindPosted", seat=seat, kind=kind, amount=amount)

    def hole(self, seat: int, cards: str) -> HandBuilder:
        return self._add("CardsDealt", target="hole", seat=seat, cards=cards.split())

    def board(self, cards: str) -> HandBuilder:
        return self._add("CardsDealt", target="board", seat=None, cards=cards.split())

    def burn(self, card: str) -> HandBuilder:
        return self._add("CardsDealt", target="burn", seat=None, cards=[card])

    def act(self, seat: int, action: str, amount: int = 0) -> HandBuilder:
        return self._add("ActionTaken", seat=seat, action=action, amount=amount)

    def show(self, seat: int, cards: str = "", mucked: bool = False) -> HandBuilder:
        return self._add("CardsShown", seat=seat, cards=cards.split(), mucked=mucked)

    def award(self, seat: int, amount: int, pot_index: int | None = None) -> HandBuilder:
        return self._add("PotAwarded", seat=seat, amount=amount, pot_index=pot_index)

    def rake(self, amount: int) -> HandBuilder:
        return self._add("RakeTaken", amount=amount, pot_index=None)

    def end(self, finishing: list[int] | None = None) -> HandBuilder:
        return self._add("HandEnded", finishing_stacks=finishing or [])

    def void(self, reason: str = "misdeal") -> HandBuilder:
        return self._add("HandVoided", reason=reason)

    def revert(self, reason: str = "server failure") -> HandBuilder:
        return self._add("HandReverted", reason=reason, incident_id="inc-1")

    def reveal(self, order: list[str], salt: str) -> HandBuilder:
        return self._add("DeckRevealed", order=order, salt=salt)
