"""A tournament's state from its events, up to a moment (the failure's start).

GG-2022 Política de reembolso: refunds use "o estado do jogo em qualquer torneio
imediatamente antes dessa interrupção", so ``state_before(events, cutoff)`` reads only the
events that happened before ``cutoff``: entries (registrations, late registrations and
re-entries, PT-217/2007 II n.º 116), whether play started, who is still in (a player is
in when his latest entry came after his latest elimination), the latest chip counts and
the bounties each player had collected.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from replayer.events import FlatEvent


@dataclass(frozen=True, slots=True)
class Entry:
    """One PlayerRegistered: an entry and who staked it."""

    entry_id: str
    player_id: str
    buy_in: int
    fee: int
    bounty: int
    paid_with: str
    stakes: tuple[tuple[str, int], ...]
    """(backer, share in basis points) of this entry."""


@dataclass(frozen=True, slots=True)
class TournamentState:
    """What the tournament looked like at a moment; money in minor units of ``currency``."""

    tournament_id: str
    currency: str
    buy_in: int
    fee: int
    bounty: int
    guarantee: int
    payouts: tuple[int, ...]
    entries: tuple[Entry, ...]
    started: bool
    completed: bool
    remaining: tuple[str, ...]
    """Players still in, in the order of their current entry."""
    current_entry: dict[str, Entry]
    """Player -> his latest entry."""
    chips: dict[str, int]
    """The latest chip count recorded, player -> chips."""
    bounties_won: dict[str, int] = field(default_factory=dict)
    """Player -> bounties awarded to him (BountyAwarded summed)."""

    @property
    def collected(self) -> int:
        """Prize-pool money collected through entries (their ``buy_in`` parts)."""
        return sum(entry.buy_in for entry in self.entries)

    @property
    def in_the_money(self) -> bool:
        """Every remaining player is sure of a prize (GG-2022: "lugares pagos")."""
        return self.started and 0 < len(self.remaining) <= len(self.payouts)


def state_before(events: Sequence[FlatEvent], cutoff: datetime | None = None) -> TournamentState:
    """The state from the events that happened before ``cutoff`` (None: all events)."""
    ordered = sorted(events, key=lambda event: event["sequence"])
    seen = [e for e in ordered if cutoff is None or e["occurred_at"] < cutoff]
    announced = next((e for e in ordered if e["type"] == "TournamentAnnounced"), None)
    if announced is None:
        raise ValueError("the tournament has no TournamentAnnounced")
    tally = _Tally()
    for position, event in enumerate(seen):
        tallied = TALLY.get(event["type"])
        if tallied is not None:
            tallied(tally, event, position)
    types = {event["type"] for event in seen}
    return TournamentState(
        tournament_id=str(announced["tournament_id"]),
        currency=str(announced["currency"]),
        buy_in=int(announced["buy_in"]),
        fee=int(announced["fee"]),
        bounty=int(announced.get("bounty") or 0),
        guarantee=int(announced.get("guarantee") or 0),
        payouts=tuple(int(p) for p in announced.get("payouts") or ()),
        entries=tuple(tally.entries),
        started="TournamentStarted" in types,
        completed="TournamentCompleted" in types,
        remaining=tuple(sorted(tally.playing, key=tally.playing.__getitem__)),
        current_entry=tally.current,
        chips=tally.chips,
        bounties_won=tally.won,
    )


@dataclass(slots=True)
class _Tally:
    """The entries, players and money read so far, in event order."""

    entries: list[Entry] = field(default_factory=list)
    current: dict[str, Entry] = field(default_factory=dict)
    playing: dict[str, int] = field(default_factory=dict)
    """Player -> position (in the events read) of his current entry."""
    chips: dict[str, int] = field(default_factory=dict)
    won: dict[str, int] = field(default_factory=dict)


def _registered(tally: _Tally, event: FlatEvent, position: int) -> None:
    """An entry (a registration, a late registration or a re-entry): the player is in."""
    entry = Entry(
        entry_id=str(event["entry_id"]),
        player_id=str(event["player_id"]),
        buy_in=int(event["buy_in"]),
        fee=int(event["fee"]),
        bounty=int(event.get("bounty") or 0),
        paid_with=str(event.get("paid_with") or "cash"),
        stakes=tuple((str(s["backer_id"]), int(s["share_bps"])) for s in event.get("stakes") or ()),
    )
    tally.entries.append(entry)
    tally.current[entry.player_id] = entry
    tally.playing[entry.player_id] = position


def _unregistered(tally: _Tally, event: FlatEvent, position: int) -> None:
    """An entry withdrawn before the start: as if never made (its refunds: ``staking``)."""
    entry_id, player = str(event["entry_id"]), str(event["player_id"])
    tally.entries = [e for e in tally.entries if e.entry_id != entry_id]
    current = tally.current.get(player)
    if current is not None and current.entry_id == entry_id:
        del tally.current[player]
        tally.playing.pop(player, None)


def _eliminated(tally: _Tally, event: FlatEvent, position: int) -> None:
    tally.playing.pop(str(event["player_id"]), None)


def _chip_count(tally: _Tally, event: FlatEvent, position: int) -> None:
    """The latest count replaces the one before."""
    tally.chips = {str(c["player_id"]): int(c["chips"]) for c in event["counts"]}


def _bounty(tally: _Tally, event: FlatEvent, position: int) -> None:
    player = str(event["player_id"])
    tally.won[player] = tally.won.get(player, 0) + int(event["amount"])


def _read_above(tally: _Tally, event: FlatEvent, position: int) -> None:
    """Nothing to tally: the announcement, the start and the end are read by
    ``state_before`` itself; prizes, refunds, a cancellation, a deal and a sanction are
    judged elsewhere (``prizes``, ``cancellation``, ``deals``, ``sanctions``; a
    sanctioned player leaves by the elimination recorded after it)."""


TALLY: dict[str, Callable[[_Tally, FlatEvent, int], None]] = {
    "TournamentAnnounced": _read_above,
    "PlayerRegistered": _registered,
    "TournamentStarted": _read_above,
    "ChipCountRecorded": _chip_count,
    "PlayerEliminated": _eliminated,
    "BountyAwarded": _bounty,
    "PrizePaid": _read_above,
    "TournamentCancelled": _read_above,
    "RefundPaid": _read_above,
    "TournamentCompleted": _read_above,
    "DealAgreed": _read_above,
    "PlayerSanctioned": _read_above,
    "PlayerUnregistered": _unregistered,
}
"""Record type -> what its event adds to the state (every type of the tournament schema)."""
