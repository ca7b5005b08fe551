"""The recorded facts of one banked round, read from its flat events.

``read_round`` orders the events, checks the envelope (one round, sequences 0, 1, 2, ...,
RoundOpened first) and gathers what every game needs: the bets, and what was paid,
refunded and withheld on each. A record that contradicts itself (a payout for an unknown
bet, a bet id used twice, a negative amount) yields ``data_quality`` findings; the facts
that remain usable are kept so the rest of the round can still be judged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from replayer.casino.cards import check_card
from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.frozen import rebuilt_by_init

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

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


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
    """Read one event (``READERS``); money moved must not be negative."""
    kind = event["type"]
    if kind in _AMOUNT_TYPES and event["amount"] < 0:
        _problem(record, f"{kind} has a negative amount", sequence=event["sequence"])
        return
    reader = READERS.get(kind)
    if reader is not None:
        reader(record, event)


Reader = Callable[[RoundRecord, FlatEvent], None]
_AMOUNT_TYPES = ("BetPlaced", "CagnotteTaken", *_MONEY_TYPES)


def _payment(ledger: Callable[[RoundRecord], dict[str, int]], *, player_named: bool) -> Reader:
    """Money moved on a bet, added to the bet's ``ledger``: the bet must be known and,
    when the event names the player paid (``player_named``), he must be the bet's."""

    def read(record: RoundRecord, event: FlatEvent) -> None:
        kind, sequence = event["type"], event["sequence"]
        bet = record.bets.get(event["bet_id"])
        if bet is None:
            _problem(record, f"{kind} for unknown bet {event['bet_id']!r}", sequence=sequence)
            return
        if player_named and event["player_id"] != bet.player_id:
            _problem(
                record,
                f"{kind} on bet {bet.bet_id!r} names player {event['player_id']!r}, "
                f"the bet is {bet.player_id!r}'s",
                sequence=sequence,
            )
        books = ledger(record)
        books[bet.bet_id] = books.get(bet.bet_id, 0) + event["amount"]

    return read


def _read_card(record: RoundRecord, event: FlatEvent) -> None:
    """A card that is not one makes the round unjudgeable."""
    try:
        check_card(event["card"])
    except ValueError as error:
        _problem(record, str(error), sequence=event["sequence"])
        record.judgeable = False


def _read_cagnotte(record: RoundRecord, event: FlatEvent) -> None:
    record.cagnotte += event["amount"]


def _read_void(record: RoundRecord, event: FlatEvent) -> None:
    """The first RoundVoided or RoundMalfunction decides the round."""
    if record.void_event is None:
        record.void_event = event


def _read_by_the_game(record: RoundRecord, event: FlatEvent) -> None:
    """Nothing to gather: the envelope (RoundOpened) or the game (``adjudicate.GAMES``)
    reads these events themselves."""


def _read_for_the_shoe(record: RoundRecord, event: FlatEvent) -> None:
    """A shoe's own record (its opening, the cut card out, its end) moves no money in the
    round: it is judged across the shoe's rounds (``replayer.casino.shoes``)."""


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


READERS: dict[str, Reader] = {
    "RoundOpened": _read_by_the_game,
    "BetPlaced": _read_bet,
    "CardDealt": _read_card,
    "PlayerDecision": _read_by_the_game,
    "SpinResult": _read_by_the_game,
    "PayoutMade": _payment(lambda record: record.paid, player_named=True),
    "CommissionTaken": _payment(lambda record: record.commission, player_named=False),
    "CagnotteTaken": _read_cagnotte,
    "RoundVoided": _read_void,
    "RoundMalfunction": _read_void,
    "RefundPaid": _payment(lambda record: record.refunded, player_named=True),
    "RoundSettled": _read_by_the_game,
    "ShoeOpened": _read_for_the_shoe,
    "CutCardDrawn": _read_for_the_shoe,
    "ShoeEnded": _read_for_the_shoe,
}
"""Record type -> what reading its event gathers (every type of the banked schema)."""
