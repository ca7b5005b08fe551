"""The recorded facts of one banked round, read from its flat events.

``read_round`` orders the events, checks the envelope (one round, sequences 0, 1, 2, ...,
RoundOpened first) and gathers what every game needs: the bets, and what was paid,
refunded and withheld on each. A record that contradicts itself (a payout for an unknown
bet, a bet id used twice, a negative amount) yields ``data_quality`` findings; the facts
that remain usable are kept so the rest of the round can still be judged.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from replayer.casino.cards import check_card
from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind

SCHEMA_CITATION = "schemas/banked_round.avsc"
VOID_TYPES = ("RoundVoided", "RoundMalfunction")
_MONEY_TYPES = ("PayoutMade", "RefundPaid", "CommissionTaken")


@dataclass(frozen=True, slots=True)
class Bet:
    """A wager as recorded by BetPlaced."""

    bet_id: str
    player_id: str
    bet_type: str
    amount: int
    sequence: int
    numbers: tuple[int, ...] = ()
    hand: int | None = None
    late: bool = False


@dataclass(slots=True)
class RoundRecord:
    """One round's events in order, with its bets and money movements per bet."""

    round_id: str
    events: tuple[FlatEvent, ...]
    opened: FlatEvent | None
    bets: dict[str, Bet] = field(default_factory=dict)
    paid: dict[str, int] = field(default_factory=dict)
    refunded: dict[str, int] = field(default_factory=dict)
    commission: dict[str, int] = field(default_factory=dict)
    cagnotte: int = 0
    void_event: FlatEvent | None = None
    problems: list[Finding] = field(default_factory=list)
    judgeable: bool = True  # False when a fact the game needs is unreadable (a bad card)

    def of_type(self, *types: str) -> list[FlatEvent]:
        return [event for event in self.events if event["type"] in types]

    def returned(self, bet_id: str) -> int:
        """Everything handed back on a bet: payouts and refunds."""
        return self.paid.get(bet_id, 0) + self.refunded.get(bet_id, 0)


def read_round(events: Iterable[FlatEvent]) -> RoundRecord:
    """Order and read one round's flat events.

    Raises ``ValueError`` when there are no events or they belong to several rounds: that
    is a caller's mistake, not a fact about the round.
    """
    ordered = tuple(sorted(events, key=lambda event: event["sequence"]))
    round_ids = {event["round_id"] for event in ordered}
    if len(round_ids) != 1:
        raise ValueError(f"expected the events of one round, got round ids {sorted(round_ids)}")
    round_id = round_ids.pop()
    opened = ordered[0] if ordered[0]["type"] == "RoundOpened" else None
    record = RoundRecord(round_id, ordered, opened)
    _check_envelope(record)
    for event in ordered:
        _read_event(record, event)
    return record


def _problem(record: RoundRecord, reason: str, **detail: Any) -> None:
    record.problems.append(
        Finding(FindingKind.DATA_QUALITY, record.round_id, SCHEMA_CITATION, reason, detail=detail)
    )


def _check_envelope(record: RoundRecord) -> None:
    sequences = [event["sequence"] for event in record.events]
    if sequences != list(range(len(sequences))):
        _problem(record, "event sequences are not 0, 1, 2, ... without gaps", recorded=sequences)
    if record.opened is None:
        _problem(record, "the round does not start with RoundOpened")
    if len(record.of_type("RoundOpened")) > 1:
        _problem(record, "more than one RoundOpened")


def _read_event(record: RoundRecord, event: FlatEvent) -> None:
    kind = event["type"]
    sequence = event["sequence"]
    if kind in ("BetPlaced", "CagnotteTaken", *_MONEY_TYPES) and event["amount"] < 0:
        _problem(record, f"{kind} has a negative amount", sequence=sequence)
        return
    if kind == "BetPlaced":
        _read_bet(record, event)
    elif kind in _MONEY_TYPES:
        bet = record.bets.get(event["bet_id"])
        if bet is None:
            _problem(record, f"{kind} for unknown bet {event['bet_id']!r}", sequence=sequence)
            return
        if kind != "CommissionTaken" and event["player_id"] != bet.player_id:
            _problem(
                record,
                f"{kind} on bet {bet.bet_id!r} names player {event['player_id']!r}, "
                f"the bet is {bet.player_id!r}'s",
                sequence=sequence,
            )
        ledger = {"PayoutMade": record.paid, "RefundPaid": record.refunded}.get(
            kind, record.commission
        )
        ledger[bet.bet_id] = ledger.get(bet.bet_id, 0) + event["amount"]
    elif kind == "CardDealt":
        try:
            check_card(event["card"])
        except ValueError as error:
            _problem(record, str(error), sequence=sequence)
            record.judgeable = False
    elif kind == "CagnotteTaken":
        record.cagnotte += event["amount"]
    elif kind in VOID_TYPES and record.void_event is None:
        record.void_event = event


def _read_bet(record: RoundRecord, event: FlatEvent) -> None:
    if event["bet_id"] in record.bets:
        _problem(record, f"bet id {event['bet_id']!r} used twice", sequence=event["sequence"])
        return
    record.bets[event["bet_id"]] = Bet(
        bet_id=event["bet_id"],
        player_id=event["player_id"],
        bet_type=event["bet_type"],
        amount=event["amount"],
        sequence=event["sequence"],
        numbers=tuple(event.get("numbers") or ()),
        hand=event.get("hand"),
        late=bool(event.get("after_no_more_bets", False)),
    )
