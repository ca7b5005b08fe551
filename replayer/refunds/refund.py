"""What a rule says must be given back: one ``Refund`` line per player, component and
rule, in integer minor units.

Every required-refund rule (``cash``, ``live``, ``rng`` here; cancellations in
``replayer.tournaments``) returns ``Refund`` lines; ``totals`` sums them per player, the
figure the recorded refunds are compared with.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Refund:
    """``amount`` minor units owed back to ``player_id`` on ``subject`` under ``citation``.

    ``component`` names the part (``stake`` for a hand or a bet; for tournaments the
    ``RefundPaid.component`` symbols of ``schemas/tournament.avsc``); ``basis`` is a
    one-line reason an investigator can read.
    """

    subject: str
    player_id: str
    amount: int
    component: str
    citation: str
    basis: str


def totals(refunds: Iterable[Refund]) -> dict[str, int]:
    """Player -> everything owed back, in first-seen order."""
    owed: dict[str, int] = {}
    for refund in refunds:
        owed[refund.player_id] = owed.get(refund.player_id, 0) + refund.amount
    return owed
