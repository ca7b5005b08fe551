"""Banked rounds cut by a failure: live casino and RNG casino.

Live casino (GG-2022 live II 2.1.8 baccarat, III 2.1.5 blackjack, IV 2.1.6 roulette):
"um mau funcionamento do sistema resultará na anulação de todos os pagamentos ou
jogadas", so a round in flight is void and every stake goes back, the late ones too.
The article is the game's own ``malfunction_citation`` (``replayer.casino.adjudicate``).
What was given back is every PayoutMade and RefundPaid on the player's bets, as the
casino replayer counts a void round's returns.

RNG casino (GG-2022 casino 2): the game resumes where it was cut; "sua aposta pendente
será mantida por 24 horas, e sua aposta será cancelada e devolvida ao seu saldo se o
jogo não for concluído dentro de 24 horas após a desconexão". The hold is the named
parameter ``PENDING_BET_HOLD``; the disconnection is the failure's start. A round is
*completed* at its RoundSettled event or, for exports without one, when every bet has a
PayoutMade (a lost bet a PayoutMade of 0) or a RefundPaid. Status at ``as_of``:

* ``resumed``: completed within the hold; no refund is due, so any RefundPaid is a
  mismatch (the settlement itself is the RNG's and is not judged here);
* ``pending``: not completed and the hold has not run out; nothing is due yet;
* ``cancelled``: not completed within the hold, or voided: every stake is due back and
  everything handed back on the bets (payouts and refunds) counts against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from replayer.casino import adjudicate_round
from replayer.casino.adjudicate import GAMES
from replayer.casino.record import RoundRecord, read_round
from replayer.events import FlatEvent
from replayer.refunds.refund import Refund

PENDING_BET_HOLD = timedelta(hours=24)
"""GG-2022 casino 2: how long a pending RNG bet is kept before it is cancelled."""
GG_RNG = "GG-2022 casino 2"
GG_LIVE = "GG-2022 live II 2.1.8, III 2.1.5, IV 2.1.6"
RNG = "rng"
_SETTLING = ("PayoutMade", "RefundPaid")


@dataclass(frozen=True, slots=True)
class RoundAtFailure:
    """A banked round cut by a failure: its state and what the rules require back.

    ``recorded`` is what counts against ``refunds`` per player; None when nothing is due
    yet (an RNG bet still within its hold).
    """

    round_id: str
    table_id: str
    game: str
    currency: str
    opened_at: datetime
    last_event: str
    stakes: dict[str, int]
    """Player -> stakes placed in the round."""
    status: str
    """live: ``void``; RNG: ``resumed``, ``pending`` or ``cancelled``."""
    refunds: tuple[Refund, ...]
    recorded: dict[str, int] | None
    citation: str
    due_at: datetime | None = None
    """RNG: when a pending bet is to be cancelled and refunded."""


def round_closed_at(events: Sequence[FlatEvent]) -> datetime | None:
    """When the round was closed (its last event, once decided); None while open.

    Decided: void (RoundVoided, RoundMalfunction); live: the replayer settles every bet;
    RNG: RoundSettled, or every bet has a PayoutMade or RefundPaid.
    """
    record = read_round(events)
    if record.opened is None:
        return None
    last: datetime = record.events[-1]["occurred_at"]
    if record.void_event is not None:
        return last
    if record.opened["game"] == RNG:
        return last if _completed_at(record) is not None else None
    verdict = adjudicate_round(events, with_steps=False)
    return last if set(record.bets) <= set(verdict.expected_payouts) else None


def live_round_at_failure(events: Sequence[FlatEvent]) -> RoundAtFailure:
    """A live round in flight: void, every stake back (see the module docstring)."""
    record = read_round(events)
    opened = _opened(record)
    spec = GAMES.get(opened["game"])
    citation = spec.malfunction_citation if spec is not None else GG_LIVE
    return _round(record, "void", citation, _stakes_back(record, citation, "malfunction"), None)


def rng_round_at_failure(
    events: Sequence[FlatEvent],
    disconnected_at: datetime,
    as_of: datetime,
    hold: timedelta = PENDING_BET_HOLD,
) -> RoundAtFailure:
    """An RNG round in flight at ``disconnected_at``, judged at ``as_of``."""
    record = read_round(events)
    due_at = disconnected_at + hold
    completed = _completed_at(record)
    if record.void_event is None and completed is not None and completed <= due_at:
        refunded: dict[str, int] = {}
        for bet_id, amount in record.refunded.items():
            player = record.bets[bet_id].player_id
            refunded[player] = refunded.get(player, 0) + amount
        return _round(record, "resumed", GG_RNG, (), refunded, due_at)
    if record.void_event is None and as_of < due_at:
        return _round(record, "pending", GG_RNG, (), None, due_at)
    basis = "voided" if record.void_event is not None else f"not completed by {due_at}"
    return _round(record, "cancelled", GG_RNG, _stakes_back(record, GG_RNG, basis), None, due_at)


def _opened(record: RoundRecord) -> FlatEvent:
    if record.opened is None:
        raise ValueError(f"round {record.round_id} has no RoundOpened")
    return record.opened


def _completed_at(record: RoundRecord) -> datetime | None:
    closing = [e for e in record.events if e["type"] == "RoundSettled"]
    if closing:
        settled_at: datetime = closing[0]["occurred_at"]
        return settled_at
    settled = [e for e in record.events if e["type"] in _SETTLING]
    if not record.bets or {e["bet_id"] for e in settled} < set(record.bets):
        return None
    last_paid: datetime = max(e["occurred_at"] for e in settled)
    return last_paid


def _stakes_back(record: RoundRecord, citation: str, basis: str) -> tuple[Refund, ...]:
    return tuple(
        Refund(
            record.round_id,
            bet.player_id,
            bet.amount,
            "stake",
            citation,
            f"{basis}: bet {bet.bet_id} ({bet.bet_type} {bet.amount}) returned",
        )
        for bet in record.bets.values()
    )


def _round(
    record: RoundRecord,
    status: str,
    citation: str,
    refunds: tuple[Refund, ...],
    recorded: dict[str, int] | None,
    due_at: datetime | None = None,
) -> RoundAtFailure:
    opened = _opened(record)
    stakes: dict[str, int] = {}
    returned: dict[str, int] = {}
    for bet in record.bets.values():
        stakes[bet.player_id] = stakes.get(bet.player_id, 0) + bet.amount
        returned[bet.player_id] = returned.get(bet.player_id, 0) + record.returned(bet.bet_id)
    if refunds:
        recorded = returned
    return RoundAtFailure(
        round_id=record.round_id,
        table_id=str(opened["table_id"]),
        game=str(opened["game"]),
        currency=str(opened["currency"]),
        opened_at=opened["occurred_at"],
        last_event=str(record.events[-1]["type"]),
        stakes=stakes,
        status=status,
        refunds=refunds,
        recorded=recorded,
        citation=citation,
        due_at=due_at,
    )
