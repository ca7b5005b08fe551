"""One hand as a session sees it: where it was played (a cash table, or a tournament's
table), who sat where with what, and what the hand's own events leave each seat.

A session compares hands, never replays them: ``summarize`` reads only what a hand's
stored events say. A seat's chips when the hand ends are the operator's recorded
closing stack (``HandEnded.finishing_stacks``), else its starting stack less what it put
in (``BlindPosted``, ``ActionTaken``) plus what it was given back (``PotAwarded``, an
uncalled bet included); a cash-out the house paid outside the pot (``CashoutPaid``) is
the player's too, and a premium he paid the house outside it (``FeeTaken`` naming his
seat: an all-in insurance) is gone from his chips. A hand voided or reverted with no
closing stacks recorded returns every chip (MO-97/2010 art.9(2); PT n.º 69): the seat
leaves with what it brought (one that records them and keeps chips is the hand's own
``void_hand_not_refunded``, not reported again across hands).

A tournament hand (``HandStarted.tournament_id``) is played for the tournament's chips;
its ``game`` is the tournament, whose blinds rise by level. A room's text writes a
rebuy or an add-on (PokerStars ``NAME re-buys and receives 3000 chips``) before the seats,
its chips already in the stack: the importer notes it in the hand's ``source``
(``REBUY_NOTE``), and the hand records that chips came in (``rebuy_noted``).

The hand's winners (``winners``, for a win-the-button tournament: PT-217/2007 n.º 124)
are the seats the main pot paid (``PotAwarded.pot_index`` 0: the pot every player still
in contested; a side pot or an uncalled bet returned wins no hand), or, where the record
names no pot (one total per player), every seat paid from the pots. The button format is
the tournament's record's, never the hand's (``replayer.sessions.win_button``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from replayer.events import FlatEvent

_PUT = frozenset({"BlindPosted", "ActionTaken"})
_RETURNED = frozenset({"HandVoided", "HandReverted"})
REBUY_NOTE = "a rebuy or add-on before the hand, its chips in the stacks"
"""The note a room's text importer writes in the hand's ``source`` for a rebuy or an
add-on line before the seats (``audit.ingest.room_text``)."""


@dataclass(frozen=True)
class Seat:
    """One player dealt in: his seat, his name, the chips he started with and those the
    hand's own events leave him (minor units)."""

    seat: int
    player: str
    stack: int
    end: int
    collected: int
    """Chips paid back to the player (``PotAwarded``; an uncalled bet included: a room's
    text does not always say which pot paid what)."""


@dataclass(frozen=True)
class HandSummary:
    """What a session needs of one stored hand."""

    hand_id: str
    table_id: str
    started: datetime
    currency: str
    stakes: tuple[int, int, int]
    """(small blind, big blind, ante)."""
    button: int | None
    rulebook: str | None
    seats: tuple[Seat, ...]
    rake_recorded: bool
    """Whether the hand records any rake (``RakeTaken``)."""
    tournament_id: str | None = None
    """The tournament the hand was played in (None: a cash hand)."""
    rebuy_noted: bool = False
    """Whether the hand's record says chips came in before it (``REBUY_NOTE``)."""
    winners: tuple[int, ...] = ()
    """The seats that won the hand (module docstring), in seat order."""
    button_format: str = "rotating"
    """Where the button goes after the hand: its tournament's format
    (``replayer.sessions.win_button``), else the clockwise rotation."""

    @property
    def at_table(self) -> tuple[str, str]:
        """(its tournament or "", its table): the hands of one table's sessions."""
        return (self.tournament_id or "", self.table_id)

    @property
    def game(self) -> tuple[str, ...]:
        """What a session's hands share: a cash table's currency and stakes, or the
        tournament (its blinds rise by level)."""
        if self.tournament_id is not None:
            return ("tournament", self.tournament_id)
        return ("cash", self.currency, *map(str, self.stakes))

    def seat_of(self, player: str) -> Seat | None:
        """The player's seat in this hand (None: not dealt in)."""
        return next((s for s in self.seats if s.player == player), None)


def _amount(event: FlatEvent) -> int:
    value = event.get("amount")
    return value if isinstance(value, int) else 0


def _by_seat(events: Sequence[FlatEvent], types: frozenset[str]) -> dict[int, int]:
    totals: dict[int, int] = {}
    for event in events:
        if event.get("type") in types and isinstance(event.get("seat"), int):
            totals[event["seat"]] = totals.get(event["seat"], 0) + _amount(event)
    return totals


def _winners(events: Sequence[FlatEvent]) -> tuple[int, ...]:
    """The seats that won the hand (module docstring)."""
    paid = [e for e in events if e.get("type") == "PotAwarded" and isinstance(e.get("seat"), int)]
    indexed = [e for e in paid if e.get("pot_index") is not None]
    main = [e for e in indexed if e.get("pot_index") == 0] if indexed else paid
    return tuple(sorted({int(e["seat"]) for e in main if _amount(e) > 0}))


def summarize(events: Sequence[FlatEvent]) -> HandSummary | None:
    """The hand's summary, or None when no session can hold it: a hand without a known
    start time or without its end."""
    start = next((e for e in events if e.get("type") == "HandStarted"), None)
    types = {str(e.get("type")) for e in events}
    if start is None:
        return None
    when = start.get("occurred_at")
    if not isinstance(when, datetime) or start.get("start_time_known") is False:
        return None
    if "HandEnded" not in types and not types & _RETURNED:
        return None
    try:
        seats = [(int(s["seat"]), str(s["player_id"]), int(s["stack"])) for s in start["seats"]]
    except (KeyError, TypeError, ValueError):
        return None
    ended = next((e for e in events if e.get("type") == "HandEnded"), None)
    finishing = list(ended.get("finishing_stacks") or []) if ended else []
    put = _by_seat(events, _PUT)
    given = _by_seat(events, frozenset({"PotAwarded"}))
    cashed = _by_seat(events, frozenset({"CashoutPaid"}))
    premiums = _by_seat(events, frozenset({"FeeTaken"}))
    returned = bool(types & _RETURNED)
    tournament = start.get("tournament_id")
    summary: list[Seat] = []
    for index, (seat, player, stack) in enumerate(seats):
        if len(finishing) == len(seats):
            end = int(finishing[index])
        elif returned:
            end = stack
        else:
            end = stack - put.get(seat, 0) + given.get(seat, 0)
        end += cashed.get(seat, 0) - premiums.get(seat, 0)
        summary.append(Seat(seat, player, stack, end, given.get(seat, 0)))
    return HandSummary(
        hand_id=str(start.get("hand_id", "")),
        table_id=str(start.get("table_id", "")),
        started=when,
        currency=str(start.get("currency", "")),
        stakes=(
            int(start.get("small_blind") or 0),
            int(start.get("big_blind") or 0),
            int(start.get("ante") or 0),
        ),
        button=start.get("button") if isinstance(start.get("button"), int) else None,
        rulebook=None if start.get("rulebook") is None else str(start.get("rulebook")),
        seats=tuple(summary),
        rake_recorded="RakeTaken" in types,
        tournament_id=None if tournament is None else str(tournament),
        rebuy_noted=REBUY_NOTE in str(start.get("source") or ""),
        winners=_winners(events),
    )
