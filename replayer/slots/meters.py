"""Slot meters: what each event adds to each meter, and the composite identities.

Meter names follow SAS practice (industry, not in the seeds; RULES.md "Slot machines").
PT-217/2007 III.9 requires at least the wager (coin_in), prize (coin_out) and collection
(drop) meters. Monetary meters count minor units; games_played and games_won count games.
What each meter's delta between two readings must equal is the sum of ``contributions``
of the events in between (the schema's doc, ``schemas/slot_machine.avsc``, says the same).
"""

from __future__ import annotations

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
    """What one event adds to each meter it moves, composites included."""
    kind = event["type"]
    if kind == "GamePlayed":
        win = event["win"]
        paid = 0 if event.get("handpaid", False) else win
        return {
            "coin_in": event["wager"],
            "games_played": 1,
            "games_won": 1 if win > 0 else 0,
            "coin_out": paid,
            "total_won": paid,
        }
    amount = event.get("amount", 0)
    if kind == "HandpayMade" and event["kind"] == "jackpot":
        return {"jackpot": amount, "total_won": amount, "total_handpaid": amount}
    if kind == "HandpayMade":
        return {
            "handpaid_cancelled_credits": amount,
            "cancelled_credits": amount,
            "total_handpaid": amount,
        }
    if kind == "BillInserted":
        return {"bills_in": amount, "drop": amount}
    if kind == "TicketPrinted":
        return {"ticket_out": amount, "cancelled_credits": amount}
    if kind == "TicketRedeemed":
        return {"ticket_in": amount, "drop": amount}
    return {}
