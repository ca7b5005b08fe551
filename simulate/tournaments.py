"""``tournament_day``: a day of online poker tournaments for ``generate_day(extra=...)``.

``count`` multi-table tournaments of one day, announced at midnight, money in USD minor
units, players from the ``gg`` pool (``players.player_pool``), played under GG-2022's
tournament policies (PT-217/2007 II n.º 113-124):

* freezeouts and bounty (knockout) tournaments of 12-200 entries starting through the
  day; an entry is ``buy_in`` (prize pool) + ``bounty`` + ``fee`` (``Price``); some
  announce a guarantee, which the house makes up when the entries fall short;
* for every ten tournaments (at least one when ``count`` >= 2) a satellite into an
  evening "main event" of the same day, which it names by
  ``TournamentAnnounced.satellite_for``. Its pool buys whole seats (the target's full
  entry); what is left is cash to the next place; play stops when as many players
  remain as there are seats. About a quarter of its players registered for the target
  in the morning: a seat they win is paid as T$ of the target's buy-in + bounty, its
  fee not included (GG-2022 Política de prêmios para vários satélites/assentos); the
  other winners register for the target with their ticket. A satellite is written to
  the same input file as its target, so the night judges it against the target however its
  input files are spread over workers.

Prize pools: the buy-ins collected or the guarantee, whichever is more, paid to about
15% of the field (at least 3 places) in harmonic shares (1, 1/2, 1/3 ...) of whole
dollars, the odd dollars to 1st, announced in ``payouts`` (a satellite's: one seat's
price per seat, then the leftover cash). Players bust one a hand, now and then two or
three in one hand: those are placed by chips at the start of the hand, then by seat
from the button (GG-2022 Política de eliminação de torneios; computed here, not by the
replayer), sometimes from equal stacks so that the seat decides, the chips recorded on
the eliminations or in a ChipCountRecorded of that hand. In a bounty tournament the
hand's winner collects each busted player's bounty; a split pot (sometimes three ways)
shares it equally, fractions of a cent dropped (GG-2022 Bounty Política de torneios).

Faults (``tournament_faults.TOURNAMENT_FAULTS``; the finding kinds come from running
``replayer.tournaments.adjudicate_tournament`` on each):

* ``same_hand_places_swapped``: the best and the worst placed of a same-hand elimination
  get each other's place (and prize): ``wrong_place`` for both (GG-2022 Política de
  eliminação de torneios);
* ``bounty_not_split``: a split pot's bounty recorded whole to its first winner, 0 to the
  others: ``mispaid_bounty`` (GG-2022 Bounty Política de torneios);
* ``bounty_paid_to_each``: every winner of a split pot paid the whole bounty:
  ``mispaid_bounty`` (same rule);
* ``extra_seat_not_converted``: a satellite winner already registered for the target
  given a seat instead of T$: ``mispaid_prize`` (GG-2022 Política de prêmios para vários
  satélites/assentos);
* ``extra_seat_fee_included``: that T$ paid as the target's full entry, fee included:
  ``mispaid_prize`` (same rule).

Faults across a tournament's hands (``cross_hand_faults``, ``cross_hand_rate`` of the
tournaments without one of the faults above): chips leaving the tournament between hands,
a player counted after his elimination, an entry once in the money.

Not planted: a cash prize paid for the wrong place or amount, or a bounty paid to a
player who did not win the hand: the replayer compares neither (it judges only
satellite seats among prizes, and takes a bounty's winners from BountyAwarded), so
they would go unfound. ``fault_rate`` is the share of tournaments that draw a fault, of
a kind their format offers; a drawn kind waits for the next tournament offering a place
for it (a same-hand elimination, a split bounty, an extra seat).

Deterministic: the day's programme from the named stream ``"<seed>:<day>:tournaments"``,
each tournament from ``"<seed>:<day>:<tournament id>"``, the faults from
``"...:tournaments:faults"``; no global random state, no clock. The same seed and day
give byte-identical input files, and ``fault_rate`` changes no clean tournament.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from audit.families import family_named
from simulate.avro_out import write_input_file
from simulate.cross_hand_faults import plant_cross_hand
from simulate.day import ExtraGenerator
from simulate.envelope import envelope
from simulate.knockouts import STARTING_CHIPS, Knockout, knockouts_until
from simulate.manifest import PlantedFault
from simulate.players import player_pool
from simulate.tables import OPERATORS, operator_declarations
from simulate.tournament_faults import OFFERED, FlatEvent, plant_pending

CURRENCY, VENUE = "USD", "gg"
TERMS_FILE = "tournament-terms.avro"
"""Each tournament's declared operator (the room running it), not listed among the input files
of subjects: the tournament is its own table (``audit.judging.kinds``:
``SubjectKind.own_table``)."""
FIELD, SATELLITE_FIELD, TARGET_FIELD = (12, 200), (12, 60), (60, 200)
TOURNAMENTS_PER_SATELLITE = 10
REGISTRATION, LATE_REGISTRATION = timedelta(hours=2), timedelta(hours=1)
TARGET_START, SATELLITE_LEAD = timedelta(hours=19), timedelta(hours=6)
PAID_PERCENT, MIN_PAID = 15, 3


@dataclass(frozen=True, slots=True)
class Price:
    """An entry, in minor units: ``buy_in`` to the prize pool, ``bounty`` on the player's
    head, ``fee`` to the house."""

    buy_in: int
    fee: int
    bounty: int = 0

    @property
    def entry(self) -> int:
        return self.buy_in + self.bounty + self.fee

    @property
    def seat_value(self) -> int:
        """T$ for an extra seat in a tournament of this price: the entry minus the fee."""
        return self.buy_in + self.bounty


PRICES: dict[str, tuple[Price, ...]] = {
    "freezeout": (Price(1_000, 100), Price(2_000, 200), Price(5_000, 400), Price(10_000, 800)),
    "bounty": (Price(500, 100, 500), Price(1_000, 200, 1_000), Price(2_500, 500, 2_500)),
}
TARGET_PRICES = (Price(20_000, 2_000), Price(10_000, 2_000, 10_000))
SATELLITE_PRICE = Price(2_000, 200)
LABELS = {"freezeout": "Daily Freezeout", "bounty": "Bounty Hunters"}


@dataclass(slots=True)
class TournamentWriter:
    """Emits one tournament's flat events with consecutive sequences (ids ``<id>#<n>``)."""

    tournament_id: str
    events: list[FlatEvent] = field(default_factory=list)

    def emit(self, at: datetime, body_type: str, /, **body: Any) -> FlatEvent:
        sequence = len(self.events)
        event = envelope("tournament_id", self.tournament_id, sequence, at, body_type, **body)
        self.events.append(event)
        return event

    def register(
        self,
        at: datetime,
        player: str,
        entry_id: str,
        price: Price,
        *,
        paid_with: str = "cash",
        stakes: Sequence[tuple[str, int]] = (),
    ) -> FlatEvent:
        """A PlayerRegistered at ``price``; ``stakes``: (backer, share in basis points)."""
        return self.emit(
            at,
            "PlayerRegistered",
            player_id=player,
            entry_id=entry_id,
            buy_in=price.buy_in,
            fee=price.fee,
            bounty=price.bounty,
            paid_with=paid_with,
            stakes=[{"backer_id": backer, "share_bps": share} for backer, share in stakes],
        )


@dataclass(frozen=True, slots=True)
class Spec:
    """A tournament as announced."""

    tournament_id: str
    name: str
    price: Price
    announced: datetime
    start: datetime
    guarantee: int = 0
    satellite_for: str | None = None

    @property
    def format(self) -> str:
        """satellite, bounty or freezeout."""
        return "satellite" if self.satellite_for else "bounty" if self.price.bounty else "freezeout"

    @property
    def late_end(self) -> datetime:
        return self.start + LATE_REGISTRATION


@dataclass(frozen=True, slots=True, order=True)
class Registration:
    at: datetime
    player_id: str
    paid_with: str = "cash"


@dataclass(frozen=True, slots=True)
class Prize:
    player_id: str
    place: int | None
    amount: int
    kind: str = "cash"


@dataclass(slots=True)
class Played:
    """A tournament's entries, payouts, busting hands and the prizes paid at the end."""

    spec: Spec
    entries: list[Registration]
    payouts: list[int]
    knockouts: list[Knockout]
    finish: list[Prize]

    @property
    def ended(self) -> datetime:
        return self.knockouts[-1].at + timedelta(minutes=1)


def tournament_day(
    count: int, *, fault_rate: float = 0.0, per_file: int = 100, cross_hand_rate: float = 0.0
) -> ExtraGenerator:
    """An ``extra`` generator: ``count`` tournaments in ``tournaments-<k>.avro`` input files of
    at most ``per_file`` tournaments (a satellite always beside its target), a fault
    planted in about ``fault_rate`` of them and, in about ``cross_hand_rate`` of the others,
    a fault across their hands (``cross_hand_faults``)."""

    def extra(seed: int, day: date, out: Path) -> tuple[list[str], list[PlantedFault]]:
        faults: list[PlantedFault] = []
        files: list[str] = []
        buffer: list[FlatEvent] = []
        held = 0
        family = family_named("tournament")
        out.mkdir(parents=True, exist_ok=True)
        ids = [spec.tournament_id for unit in _programme(seed, day, count) for spec in unit]
        write_input_file(
            out / TERMS_FILE,
            family_named("table"),
            operator_declarations([(t, "tournament") for t in ids], OPERATORS[VENUE], CURRENCY),
            stream_id=f"{seed}:{day.isoformat()}:tournament-terms",
        )

        def flush() -> None:
            files.append(f"tournaments-{len(files) + 1:03d}.avro")
            write_input_file(
                out / files[-1], family, buffer, stream_id=f"{seed}:{day.isoformat()}:tournaments"
            )
            buffer.clear()

        for unit in _units(seed, day, count, fault_rate, faults, cross_hand_rate):
            if buffer and held + len(unit) > per_file:
                flush()
                held = 0
            buffer.extend(event for events in unit for event in events)
            held += len(unit)
        if buffer:
            flush()
        return files, faults

    return extra


def _units(
    seed: int,
    day: date,
    count: int,
    fault_rate: float,
    faults: list[PlantedFault],
    cross_hand_rate: float = 0.0,
) -> Iterator[list[list[FlatEvent]]]:
    """The day's tournaments in order of start, a satellite together with its target,
    each as its flat events, faults planted (and appended to ``faults``)."""
    pool = [player.player_id for player in player_pool(seed, VENUE)]
    fault_rng = _stream(seed, day, "tournaments:faults")
    cross_rng = _stream(seed, day, "tournaments:cross-hand")
    pending: list[str] = []
    for unit in _programme(seed, day, count):
        if len(unit) == 1:
            played = [_regular(seed, day, unit[0], pool)]
        else:
            played = list(_satellite_and_target(seed, day, *unit, pool))
        events = []
        for tournament in played:
            fmt = tournament.spec.format
            if fault_rng.random() < fault_rate:
                pending.append(fault_rng.choice(OFFERED[fmt]))
            clean = _render(tournament)
            faulty, fault = plant_pending(clean, fmt, pending, fault_rng)
            if fault is None and cross_rng.random() < cross_hand_rate:
                faulty, fault = plant_cross_hand(faulty, len(faults), cross_rng)
            faults += [fault] if fault is not None else []
            events.append(faulty)
        yield events


def _stream(seed: int, day: date, name: str) -> random.Random:
    return random.Random(f"{seed}:{day.isoformat()}:{name}")


# ---------------------------------------------------------------------- the programme


def _programme(seed: int, day: date, count: int) -> list[tuple[Spec] | tuple[Spec, Spec]]:
    """The day's tournaments, numbered in order of start: singles through the day, and
    (satellite, target) pairs whose targets start from 19:00."""
    rng = _stream(seed, day, "tournaments")
    midnight = datetime(day.year, day.month, day.day, tzinfo=UTC)
    pairs = max(1, count // TOURNAMENTS_PER_SATELLITE) if count >= 2 else 0
    singles = count - 2 * pairs
    starts = [
        (midnight + timedelta(minutes=30 + j * 1_380 // singles + rng.randrange(15)), False)
        for j in range(singles)
    ]
    starts += [(midnight + TARGET_START + timedelta(minutes=20 * i), True) for i in range(pairs)]
    starts.sort(key=lambda s: s[0] - SATELLITE_LEAD if s[1] else s[0])  # a pair: its satellite
    units: list[tuple[Spec] | tuple[Spec, Spec]] = []
    number = 0
    for start, pair in starts:
        number += 2 if pair else 1
        tournament_id = f"mtt-{day:%Y%m%d}-{number:03d}"
        if pair:
            target = _target_spec(rng, tournament_id, midnight, start)
            satellite_id = f"mtt-{day:%Y%m%d}-{number - 1:03d}"
            units.append((_satellite_spec(satellite_id, midnight, target), target))
        else:
            units.append((_single_spec(rng, tournament_id, midnight, start),))
    return units


def _single_spec(
    rng: random.Random, tournament_id: str, midnight: datetime, start: datetime
) -> Spec:
    fmt = rng.choice(sorted(PRICES))
    price = rng.choice(PRICES[fmt])
    guarantee = price.buy_in * rng.choice((25, 50)) if rng.random() < 0.4 else 0
    return Spec(tournament_id, _name(price, LABELS[fmt]), price, midnight, start, guarantee)


def _target_spec(
    rng: random.Random, tournament_id: str, midnight: datetime, start: datetime
) -> Spec:
    price = rng.choice(TARGET_PRICES)
    return Spec(
        tournament_id, _name(price, "Main Event"), price, midnight, start, 100 * price.buy_in
    )


def _satellite_spec(tournament_id: str, midnight: datetime, target: Spec) -> Spec:
    name = f"{_name(SATELLITE_PRICE, 'Satellite')} to {target.name}"
    start = target.start - SATELLITE_LEAD
    return Spec(tournament_id, name, SATELLITE_PRICE, midnight, start, 0, target.tournament_id)


def _name(price: Price, label: str) -> str:
    return f"${price.entry // 100} {label}"


# ---------------------------------------------------------------------- play


def _regular(seed: int, day: date, spec: Spec, pool: Sequence[str]) -> Played:
    """A freezeout or bounty tournament played down to its winner."""
    rng = _stream(seed, day, spec.tournament_id)
    players = rng.sample(pool, _field_size(rng, FIELD))
    opens = max(spec.announced, spec.start - REGISTRATION)
    return _played_down(rng, spec, _entries(rng, players, opens, spec.late_end))


def _satellite_and_target(
    seed: int, day: date, satellite: Spec, target: Spec, pool: Sequence[str]
) -> tuple[Played, Played]:
    """A satellite and its target: 60% of the target's cash entries register before the
    satellite starts, the satellite's seat winners after it ends, the rest later."""
    rng = _stream(seed, day, target.tournament_id)
    cash = rng.sample(pool, _field_size(rng, TARGET_FIELD))
    early, late = cash[: len(cash) * 6 // 10], cash[len(cash) * 6 // 10 :]
    entries = _entries(rng, early, target.announced + timedelta(minutes=10), satellite.start)
    taken = set(cash)
    others = [player for player in pool if player not in taken]
    played = _satellite(
        _stream(seed, day, satellite.tournament_id), satellite, target, early, others
    )
    seated = [p.player_id for p in played.finish if p.kind == "satellite_seat"]
    entries += [
        Registration(played.ended + timedelta(minutes=10 + n), player, "satellite_ticket")
        for n, player in enumerate(seated)
    ]
    entries += _entries(rng, late, played.ended + timedelta(minutes=15), target.late_end)
    return played, _played_down(rng, target, sorted(entries))


def _played_down(rng: random.Random, spec: Spec, entries: list[Registration]) -> Played:
    """A freezeout or bounty tournament of ``entries`` played down to its winner; the
    pool is what the entries collected, or the guarantee if more."""
    pool = max(len(entries) * spec.price.buy_in, spec.guarantee)
    payouts = payout_table(pool, len(entries))
    knockouts, (winner,) = knockouts_until(
        rng, spec.tournament_id, spec.late_end, [entry.player_id for entry in entries], 1
    )
    return Played(spec, entries, payouts, knockouts, [Prize(winner, 1, payouts[0])])


def _satellite(
    rng: random.Random, spec: Spec, target: Spec, registered: list[str], others: list[str]
) -> Played:
    """A satellite played down to its seats; a quarter of its field is ``registered`` for
    the target already, and a seat won by one of them is paid as T$."""
    size = _field_size(rng, SATELLITE_FIELD)
    regulars = min(len(registered), size // 4)
    players = rng.sample(registered, regulars) + rng.sample(others, size - regulars)
    rng.shuffle(players)
    entries = _entries(rng, players, spec.start - REGISTRATION, spec.late_end)
    seats, leftover = divmod(size * spec.price.buy_in, target.price.entry)
    payouts = [target.price.entry] * seats + ([leftover] if leftover else [])
    knockouts, winners = knockouts_until(rng, spec.tournament_id, spec.late_end, players, seats)
    already = set(registered)
    finish = [
        Prize(player, None, target.price.seat_value, "tournament_money")
        if player in already
        else Prize(player, None, target.price.entry, "satellite_seat")
        for player in winners
    ]
    return Played(spec, entries, payouts, knockouts, finish)


def _field_size(rng: random.Random, bounds: tuple[int, int]) -> int:
    """Entries between ``bounds``, small fields more likely than large ones."""
    low, high = bounds
    return low + int((high - low) * rng.random() ** 2)


def _entries(
    rng: random.Random, players: Sequence[str], opens: datetime, closes: datetime
) -> list[Registration]:
    """Cash entries of ``players`` at random moments between ``opens`` and ``closes``."""
    span = int((closes - opens).total_seconds())
    moments = sorted(rng.randrange(span) for _ in players)
    return [
        Registration(opens + timedelta(seconds=s), player)
        for s, player in zip(moments, players, strict=True)
    ]


def payout_table(pool: int, entries: int) -> list[int]:
    """Prizes per place, 1st first: ``pool`` in harmonic shares of whole dollars to
    ``PAID_PERCENT`` of the ``entries`` (at least ``MIN_PAID``), the rest to 1st."""
    places = max(MIN_PAID, entries * PAID_PERCENT // 100)
    weights = [10_000 // place for place in range(1, places + 1)]
    dollars = [pool // 100 * weight // sum(weights) for weight in weights]
    prizes = [100 * amount for amount in dollars]
    prizes[0] += pool - sum(prizes)
    return prizes


# ---------------------------------------------------------------------- events


def _render(played: Played) -> list[FlatEvent]:
    """The tournament's flat events (``schemas/tournament.avsc``), in order of time."""
    spec = played.spec
    writer = TournamentWriter(spec.tournament_id)
    writer.emit(
        spec.announced,
        "TournamentAnnounced",
        rulebook=None,
        name=spec.name,
        currency=CURRENCY,
        buy_in=spec.price.buy_in,
        fee=spec.price.fee,
        bounty=spec.price.bounty,
        guarantee=spec.guarantee,
        starting_chips=STARTING_CHIPS,
        satellite_for=spec.satellite_for,
        payouts=played.payouts,
        scheduled_start=spec.start,
    )
    _registrations(writer, played)
    for knockout in played.knockouts:
        _knockout(writer, played, knockout)
    for prize in played.finish:
        _prize(writer, played.ended, prize)
    writer.emit(played.ended, "TournamentCompleted")
    return writer.events


def _registrations(writer: TournamentWriter, played: Played) -> None:
    """The entries, TournamentStarted among them at the scheduled start."""
    spec = played.spec
    started = False
    for number, entry in enumerate(played.entries, 1):
        if not started and entry.at >= spec.start:
            started = _start(writer, spec)
        entry_id = f"{spec.tournament_id}/e{number:03d}"
        writer.register(entry.at, entry.player_id, entry_id, spec.price, paid_with=entry.paid_with)
    if not started:
        _start(writer, spec)


def _start(writer: TournamentWriter, spec: Spec) -> bool:
    writer.emit(spec.start, "TournamentStarted", late_registration_until=spec.late_end)
    return True


def _knockout(writer: TournamentWriter, played: Played, knockout: Knockout) -> None:
    """One busting hand: chips, eliminations, bounties, and the prizes of those busted
    in the money."""
    at, hand_id = knockout.at, knockout.hand_id
    if knockout.counted:
        counts = [
            {"player_id": p.player_id, "chips": p.chips, "seat_from_button": p.seat_from_button}
            for p in (*knockout.busted, *knockout.winners)
        ]
        writer.emit(at, "ChipCountRecorded", counts=counts, hand_id=hand_id)
    for place, busted in enumerate(knockout.busted, knockout.first_place):
        writer.emit(
            at,
            "PlayerEliminated",
            player_id=busted.player_id,
            place=place,
            hand_id=hand_id,
            chips_at_hand_start=None if knockout.counted else busted.chips,
            seat_from_button=None if knockout.counted else busted.seat_from_button,
        )
    bounty = played.spec.price.bounty
    for busted in knockout.busted if bounty else ():
        for winner in knockout.winners:
            writer.emit(
                at,
                "BountyAwarded",
                player_id=winner.player_id,
                eliminated_player_id=busted.player_id,
                amount=bounty // len(knockout.winners),
            )
    for place, busted in enumerate(knockout.busted, knockout.first_place):
        if place <= len(played.payouts):
            _prize(writer, at, Prize(busted.player_id, place, played.payouts[place - 1]))


def _prize(writer: TournamentWriter, at: datetime, prize: Prize) -> None:
    writer.emit(
        at,
        "PrizePaid",
        player_id=prize.player_id,
        place=prize.place,
        amount=prize.amount,
        kind=prize.kind,
    )
