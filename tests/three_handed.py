"""One three-handed hold'em hand built by hand, the hand the store-backed tests plant
(issue 42 item 8: ``show``'s, the console's and the nightly's tests had a copy each).

Blinds 50/100 EUR, seats 1-3 with 10,000 each, the button on seat 3: both blinds posted,
seats 3 and 1 fold, the big blind (seat 2) is paid ``award`` (150 is right: 120 is a
``mispaid_pot``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

CARDS = ("As", "Kd", "7c", "2h", "Qs", "Qh")
"""The hole cards dealt, two a seat in seat order."""


def three_handed(
    hand_id: str,
    at: datetime,
    *,
    table: str,
    players: tuple[str, str, str] = ("p1", "p2", "p3"),
    award: int = 150,
    pot_index: int | None = 0,
    rulebook: str | None = "gg-2022-cash-holdem",
    variant: str = "NT",
    cards: tuple[str, ...] = CARDS,
    ended: bool = True,
    duplicate_id: bool = False,
) -> list[dict[str, Any]]:
    """The hand's flat events, one a second from ``at`` (see the module docstring);
    ``ended=False`` leaves out its ``HandEnded``, ``duplicate_id`` gives its third event
    the second's id."""
    events: list[dict[str, Any]] = []

    def event(type_: str, **body: Any) -> None:
        n = len(events)
        events.append(
            {
                "event_id": f"{hand_id}#{n - 1 if duplicate_id and n == 2 else n}",
                "hand_id": hand_id,
                "sequence": n,
                "occurred_at": at + timedelta(seconds=n),
                "type": type_,
                **body,
            }
        )

    seats = [{"seat": s, "player_id": players[s - 1], "stack": 10_000} for s in (1, 2, 3)]
    event(
        "HandStarted",
        rulebook=rulebook,
        table_id=table,
        variant=variant,
        currency="EUR",
        smallest_chip=1,
        small_blind=50,
        big_blind=100,
        ante=0,
        min_bet=100,
        button=3,
        seats=seats,
        shuffle_commitment=None,
        source=None,
    )
    event("BlindPosted", seat=1, kind="small_blind", amount=50)
    event("BlindPosted", seat=2, kind="big_blind", amount=100)
    for seat in (1, 2, 3):
        event("CardsDealt", target="hole", seat=seat, cards=list(cards[2 * seat - 2 : 2 * seat]))
    event("ActionTaken", seat=3, action="fold", amount=0)
    event("ActionTaken", seat=1, action="fold", amount=0)
    event("PotAwarded", seat=2, amount=award, pot_index=pot_index)
    if ended:
        event("HandEnded", finishing_stacks=[])
    return events
