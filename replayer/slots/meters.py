"""Slot meters: what each event adds to each meter, and the composite identities.

Meter names follow SAS practice (industry, not in the seeds; RULES.md "Slot machines").
PT-217/2007 III.9 requires at least the wager (coin_in), prize (coin_out) and collection
(drop) meters. Monetary meters count minor units; games_played and games_won count games.
What each meter's delta between two readings must equal is the sum of ``contributions``
of the events in between (the schema's doc, ``schemas/slot_machine.avsc``, says the same).
"""

from __future__ import annotations

from collections.abc import Callable

from replayer.events import FlatEvent

METERS = (
    "coin_in",
    "coin_out",
    "jackpot",
    "handpaid_cancelled_credits",
    "cancelled_credits",
    "games_played",
    "games_won",
    "bills_in",
    "ticket_in",
    "ticket_out",
    "drop",
)
#: The meters that count games; every other meter counts minor units of the machine's
#: currency (``schemas/slot_machine.avsc``: "every monetary meter is an integer count of
#: minor units of MachineConfigured.currency").
COUNT_METERS = frozenset({"games_played", "games_won"})

#: Composite meter -> the meters it is the sum of (SAS "total won", "total hand paid").
COMPOSITES: dict[str, tuple[str, ...]] = {
    "total_won": ("coin_out", "jackpot"),
    "total_handpaid": ("handpaid_cancelled_credits", "jackpot"),
}


def contributions(event: FlatEvent) -> dict[str, int]:
    """What one event adds to each meter it moves, composites included (``CONTRIBUTIONS``;
    nothing for a type no table entry names)."""
    counted = CONTRIBUTIONS.get(event["type"])
    return counted(event) if counted is not None else {}


def _game_played(event: FlatEvent) -> dict[str, int]:
    """A game: its wager in, its win out (unless hand paid: the handpay counts it)."""
    win = event["win"]
    paid = 0 if event.get("handpaid", False) else win
    return {
        "coin_in": event["wager"],
        "games_played": 1,
        "games_won": 1 if win > 0 else 0,
        "coin_out": paid,
        "total_won": paid,
    }


def _handpay_made(event: FlatEvent) -> dict[str, int]:
    """A jackpot, or cancelled credits paid by hand."""
    amount = event.get("amount", 0)
    if event["kind"] == "jackpot":
        return {"jackpot": amount, "total_won": amount, "total_handpaid": amount}
    return {
        "handpaid_cancelled_credits": amount,
        "cancelled_credits": amount,
        "total_handpaid": amount,
    }


def _into(*meters: str) -> Callable[[FlatEvent], dict[str, int]]:
    """An event whose ``amount`` each of ``meters`` counts."""

    def counted(event: FlatEvent) -> dict[str, int]:
        amount: int = event.get("amount", 0)
        return dict.fromkeys(meters, amount)

    return counted


def _no_meter(event: FlatEvent) -> dict[str, int]:
    """The configuration, a reading, a reset, an approval or a jackpot record (a jackpot's
    payment is its HandpayMade): no meter counts it."""
    return {}


CONTRIBUTIONS: dict[str, Callable[[FlatEvent], dict[str, int]]] = {
    "MachineConfigured": _no_meter,
    "MeterRead": _no_meter,
    "GamePlayed": _game_played,
    "HandpayMade": _handpay_made,
    "BillInserted": _into("bills_in", "drop"),
    "TicketPrinted": _into("ticket_out", "cancelled_credits"),
    "TicketRedeemed": _into("ticket_in", "drop"),
    "MachineReset": _no_meter,
    "ConfigurationApproved": _no_meter,
    "JackpotContributed": _no_meter,
    "JackpotLevelRead": _no_meter,
    "JackpotAwarded": _no_meter,
    "JackpotTransferred": _no_meter,
    "JackpotReceived": _no_meter,
}
"""Record type -> what its event adds to the meters (every type of the slots schema)."""
