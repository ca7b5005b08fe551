"""Hands at a simulated tournament's tables, for the sessions judged across them (issue 38
item 2: a player's chips continue from one hand to the next, MO-97/2010 art.4(2)).

``play_tournament_tables`` deals ``hands`` hands at each of ``tables`` tables of one
tournament, hold'em under ``gg-2022-tournament-holdem`` (``simulate.poker.play_hand``: the
replayer's own betting and settlement), in tournament chips (``XXX``, no currency, a chip
``CHIP_MINOR_UNITS`` minor units, as a feed writes play chips; Avro feeds carry only ISO
4217 codes):

* the first table seats ``seats`` players of the ``gg`` pool with ``STARTING_CHIPS``, the
  others two fewer; a hand
  starts every ``HAND_SPACING`` (within ``SessionRules.max_gap``), the blinds rise by a
  level every ``LEVEL_HANDS`` hands (``LEVELS``), the button passes to the next seat
  dealt in both hands (PT-217/2007 n.º 29), or, in a win-the-button tournament
  (``button="win_the_button"``, PT-217/2007 n.º 124), to the seat of the player who won
  the previous hand's main pot (the simulator's own showdown), on a tie the one of them
  first left of the button (``BUTTONS``; a winner moved away or a hand with no winner:
  the rotation); its announcing event (``announcement``) states the format; a player
  left with no chip is out;
* every ``MOVE_EVERY`` hands the fullest table sends a player, with his chips, to a free
  seat of the emptiest (table balancing): he is not compared across tables;
* a player's stack changes between hands only by the hands themselves.

Faults (``fault_rate`` of the consecutive pairs and of the moves, once the tables have
played their hands, so the play is the same): chips taken off a carried player's stacks
between two hands (``TOURNAMENT_CHIPS_REMOVED``) or given to them from nowhere
(``TOURNAMENT_CHIPS_ADDED``), or either to a moved player's stacks at his new table
(from his arrival on), each hand legal on its own (``simulate.session_faults``), scored
on the later hand. In a win-the-button tournament the fault is instead one hand dealt with
the button away from the previous hand's single winner (``BUTTON_PAST_WINNER``, every
stack carried, the hand legal on its own). ``tournament_tables_day`` writes them as a
day's input files (``generate_day(extra=...)``, e.g. the demo's). Deterministic: one named
stream per tournament.
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from itertools import cycle
from pathlib import Path
from typing import Any

from audit.families import family_named
from audit.notation.money import CHIP_MINOR_UNITS, CHIPS
from replayer.rulebooks.poker import PokerRulebook
from replayer.rulebooks.registry import get_rulebook
from replayer.sessions.win_button import ROTATING, WIN_THE_BUTTON
from simulate.avro_out import write_input_file
from simulate.day import ExtraGenerator
from simulate.manifest import PlantedFault
from simulate.players import Player, player_pool
from simulate.poker import HandPlan, play_hand
from simulate.session_faults import (
    BUTTON_PAST_WINNER,
    SESSION_FAULTS,
    TOURNAMENT_CHIPS_ADDED,
    TOURNAMENT_CHIPS_REMOVED,
    shift_from,
    take_chips,
)
from simulate.tables import OPERATORS, TableSpec, operator_declarations

TABLES, HANDS_PER_TABLE = 2, 24
"""A tournament's tables and the hands dealt at each, by default."""
TERMS_FILE = "tournament-tables-terms.avro"
"""Each tournament's declared operator (its tables' sessions name it), not listed among
the input files of subjects, as ``simulate.tournaments.TERMS_FILE``."""

FlatEvent = dict[str, Any]
RULEBOOK = "gg-2022-tournament-holdem"
STARTING_CHIPS = 10_000 * CHIP_MINOR_UNITS
LEVELS: tuple[tuple[int, int], ...] = tuple(
    (small * CHIP_MINOR_UNITS, big * CHIP_MINOR_UNITS)
    for small, big in ((50, 100), (75, 150), (100, 200), (150, 300), (200, 400))
)
"""(small blind, big blind) of each level, in minor units of tournament chips."""
LEVEL_HANDS = 8
MOVE_EVERY = 7
HAND_SPACING = timedelta(seconds=70)
FAULTS = (TOURNAMENT_CHIPS_REMOVED, TOURNAMENT_CHIPS_ADDED)


def _spec(tournament_id: str, table: int, seats: int, level: int) -> TableSpec:
    small, big = LEVELS[min(level, len(LEVELS) - 1)]
    return TableSpec(
        table_id=f"{tournament_id} table {table}",
        venue="gg",
        rulebook=RULEBOOK,
        variant="NT",
        seats=seats,
        currency=CHIPS,
        smallest_chip=CHIP_MINOR_UNITS,
        small_blind=small,
        big_blind=big,
        ante=0,
        min_bet=big,
        rate_bps=0,
        rake_terms=None,
        committed=False,
    )


def _button(previous: int | None, before: set[int], seats: list[int]) -> int:
    """The next seat after ``previous`` among those dealt in the hand before too."""
    kept = [seat for seat in seats if seat in before] or seats
    after = [seat for seat in kept if previous is not None and seat > previous]
    return after[0] if after else kept[0]


def _to_winner(previous: int | None, before: set[int], seats: list[int], won: list[int]) -> int:
    """The seat of the previous hand's winner, on a tie the first of them clockwise after
    ``previous`` (PT-217/2007 n.º 124); the rotation for the first hand, a hand with no
    winner or a winner no longer seated."""
    if previous is None or not won or any(seat not in seats for seat in won):
        return _button(previous, before, seats)
    after = sorted(seat for seat in won if seat > previous)
    return after[0] if after else min(won)


def _rotated(previous: int | None, before: set[int], seats: list[int], won: list[int]) -> int:
    return _button(previous, before, seats)


BUTTONS = {ROTATING: _rotated, WIN_THE_BUTTON: _to_winner}
"""A tournament's button format -> (previous button, seats dealt before, seats now, the
previous hand's main-pot winners' seats) -> the button's seat."""


def announcement(tournament_id: str, start: datetime, button: str = ROTATING) -> FlatEvent:
    """The tournament's announcing event (flat, sequence 0), stating its button format
    (``TournamentAnnounced.button``, tournament schema v3)."""
    return {
        "event_id": f"{tournament_id}#0",
        "tournament_id": tournament_id,
        "sequence": 0,
        "occurred_at": start - timedelta(hours=1),
        "type": "TournamentAnnounced",
        "rulebook": RULEBOOK,
        "name": tournament_id,
        "currency": "EUR",
        "buy_in": 10_000,
        "fee": 1_000,
        "starting_chips": STARTING_CHIPS,
        "scheduled_start": start,
        "button": button,
    }


class _Table:
    """One table's seats (seat -> player and stack) and its hands so far."""

    def __init__(
        self, tournament_id: str, number: int, seats: int, players: list[Player], button: str
    ) -> None:
        self.tournament_id, self.number, self.seats = tournament_id, number, seats
        self.moves_button = BUTTONS[button]
        self.won: list[int] = []
        """The seats that won the last hand's main pot."""
        self.seated: dict[int, tuple[Player, int]] = {
            seat: (player, STARTING_CHIPS) for seat, player in enumerate(players, 1)
        }
        self.button: int | None = None
        self.last: set[int] = set()
        self.hands: list[list[FlatEvent]] = []
        self.arrivals: list[tuple[str, int]] = []
        """(player moved here, the index of the next hand here)."""
        self.misplace = False
        """Deal the next hand whose previous one a single player won, every seat dealt in
        both, with the button away from the winner (``BUTTON_PAST_WINNER``), once."""
        self.misplaced: PlantedFault | None = None

    def play(self, book: PokerRulebook, at: datetime, level: int, rng: random.Random) -> None:
        seats = sorted(self.seated)
        if len(seats) < 2:
            return
        self.button = self._misplaced(seats) or self.moves_button(
            self.button, self.last, seats, self.won
        )
        order = [s for s in seats if s > self.button] + [s for s in seats if s <= self.button]
        spec = _spec(self.tournament_id, self.number, self.seats, level)
        plan = HandPlan(
            hand_id=f"{self.tournament_id}/t{self.number}-{len(self.hands) + 1:04d}",
            started_at=at,
            button_seat=self.button,
            seated=[(seat, *self.seated[seat]) for seat in order],
        )
        hand = play_hand(spec, book, plan, rng)
        events = hand.render()
        events[0] = {**events[0], "tournament_id": self.tournament_id}
        self.hands.append(events)
        self.last = set(seats)
        self.won = [hand.seats[p] for p in hand.winners[0]] if hand.winners else []
        for seat, stack in zip(hand.seats, hand.finishing(hand.settlement), strict=True):
            player = self.seated[seat][0]
            if stack > 0:
                self.seated[seat] = (player, stack)
            else:
                del self.seated[seat]  # out of the tournament

    def _misplaced(self, seats: list[int]) -> int | None:
        """A seat other than the single winner's for this hand's button, when ``misplace``
        asks and the hand offers it (the fault recorded in ``misplaced``), else None."""
        if not self.misplace or len(self.won) != 1 or set(seats) != self.last:
            return None
        self.misplace = False
        wrong = next(seat for seat in seats if seat not in self.won)
        before = str(self.hands[-1][0]["hand_id"])
        hand = f"{self.tournament_id}/t{self.number}-{len(self.hands) + 1:04d}"
        detail = {"table": f"{self.tournament_id} table {self.number}", "hands": [before, hand]}
        kind = BUTTON_PAST_WINNER
        self.misplaced = PlantedFault(kind, hand, SESSION_FAULTS[kind], detail)
        return wrong

    def free_seat(self) -> int | None:
        return next((s for s in range(1, self.seats + 1) if s not in self.seated), None)


def _balance(tables: list[_Table], rng: random.Random) -> None:
    """One player, with his chips, from the fullest table to the emptiest's free seat."""
    fullest = max(tables, key=lambda t: len(t.seated))
    emptiest = min(tables, key=lambda t: len(t.seated))
    seat = emptiest.free_seat()
    if seat is None or len(fullest.seated) - len(emptiest.seated) < 2:
        return
    leaving = rng.choice(sorted(fullest.seated))
    emptiest.seated[seat] = fullest.seated.pop(leaving)
    emptiest.arrivals.append((emptiest.seated[seat][0].player_id, len(emptiest.hands)))


def _plant(tables: list[_Table], rate: float, rng: random.Random) -> list[PlantedFault]:
    """Chips taken or given between two hands of a table, or in a move to another (at a
    player's last arrival; a moved player is spared the other faults, whose change would
    move with him). The kinds take turns (``FAULTS``), so two faults plant both."""
    faults: list[PlantedFault] = []
    movers = frozenset(player for table in tables for player, _ in table.arrivals)
    last = {player: (table, index) for table in tables for player, index in table.arrivals}
    kinds = cycle(FAULTS)
    kind = next(kinds)
    for table in tables:
        for index in range(1, len(table.hands)):
            if rng.random() < rate and (fault := take_chips(table.hands, index, rng, kind, movers)):
                faults.append(fault)
                kind = next(kinds)
    for player, (table, index) in sorted(last.items()):
        if index < len(table.hands) and rng.random() < rate:
            amount = shift_from(table.hands, index, player, kind)
            if amount is not None:
                arrived = str(table.hands[index][0]["hand_id"])
                detail = {"player": player, "hands": [arrived], "amount": amount, "moved": True}
                faults.append(PlantedFault(kind, arrived, SESSION_FAULTS[kind], detail))
                kind = next(kinds)
    return faults


def play_tournament_tables(
    seed: int,
    tournament_id: str,
    start: datetime,
    *,
    tables: int = TABLES,
    seats: int = 6,
    hands: int = HANDS_PER_TABLE,
    fault_rate: float = 0.0,
    button: str = ROTATING,
) -> tuple[list[list[FlatEvent]], list[PlantedFault]]:
    """The hands of the tournament's tables (each table's in play order) and the faults
    planted in them (module docstring); ``button``: the tournament's button format."""
    stream = f"{seed}:{tournament_id}:tables"
    rng = random.Random(stream)
    pool = player_pool(seed, "gg")
    drawn = rng.sample(pool, tables * seats)
    book = get_rulebook(RULEBOOK)
    assert isinstance(book, PokerRulebook)
    # the first table full, the others two short: the balancing moves players from hand
    # ``MOVE_EVERY`` on
    played = [
        _Table(
            tournament_id,
            t + 1,
            seats,
            drawn[t * seats : (t + 1) * seats - 2 * (t > 0)],
            button,
        )
        for t in range(tables)
    ]
    played[0].misplace = button == WIN_THE_BUTTON and fault_rate > 0
    for number in range(hands):
        if number and number % MOVE_EVERY == 0:
            _balance(played, rng)
        for index, table in enumerate(played):
            at = start + number * HAND_SPACING + timedelta(seconds=5 * index)
            table.play(book, at, number // LEVEL_HANDS, rng)
    if button == WIN_THE_BUTTON:
        # its fault is the button, dealt so (a chip fault in the same gap would break the
        # session there: the button is judged only where every stack carries over)
        faults = [played[0].misplaced] if played[0].misplaced else []
    else:
        faults = _plant(played, fault_rate, random.Random(f"{stream}:faults")) if fault_rate else []
    return [hand for table in played for hand in table.hands], faults


def tournament_tables_day(
    count: int, *, fault_rate: float = 0.0, win_the_button: int = 0
) -> ExtraGenerator:
    """``count`` tournaments' tables' hands of a day as input files (one per
    tournament), for ``generate_day(extra=...)``: (file names, planted faults). The last
    ``win_the_button`` of them are win-the-button tournaments (PT-217/2007 n.º 124), each
    with its announcing event in a tournament file stating the format (with a
    ``fault_rate``, a button dealt away from its winner: ``play_tournament_tables``)."""

    def extra(seed: int, day: date, out: Path) -> tuple[list[str], list[PlantedFault]]:
        files: list[str] = []
        faults: list[PlantedFault] = []
        ids = [f"mtt-{day:%Y%m%d}-tables-{number:02d}" for number in range(1, count + 1)]
        write_input_file(
            out / TERMS_FILE,
            family_named("table"),
            operator_declarations([(t, "tournament") for t in ids], OPERATORS["gg"], "EUR"),
            stream_id=f"{seed}:{day.isoformat()}:tournament-tables-terms",
        )
        for number, tournament_id in enumerate(ids, 1):
            start = datetime(day.year, day.month, day.day, 14, tzinfo=UTC) + number * timedelta(
                hours=1
            )
            button = WIN_THE_BUTTON if number > count - win_the_button else ROTATING
            hands, planted = play_tournament_tables(
                seed, tournament_id, start, fault_rate=fault_rate, button=button
            )
            if button == WIN_THE_BUTTON:
                name = f"tournament-{tournament_id}.avro"
                write_input_file(
                    out / name,
                    family_named("tournament"),
                    [announcement(tournament_id, start, button)],
                    stream_id=tournament_id,
                )
                files.append(name)
            name = f"poker-{tournament_id}.avro"
            events = [event for hand in hands for event in hand]
            write_input_file(out / name, family_named("poker"), events, stream_id=tournament_id)
            files.append(name)
            faults.extend(planted)
        return files, faults

    return extra
