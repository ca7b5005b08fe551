"""A synthetic failure: play cut mid-way, refunds issued with planted mistakes, a manifest.

``generate_incident(seed, day, out) -> IncidentManifest`` writes one Avro file per family
(``incident``, ``poker``, ``banked``, ``tournament``) and ``incident-manifest.json``:

* poker: hands at three tables (``tables.make_tables``) before, across and after the
  failure window; at the two tables the incident lists, the hand running at the failure
  is cut there. One is reverted correctly, one is reverted with the big blind left out
  of the refund (``short_refund``), one table's hand is never reverted
  (``not_reverted``). The third table is not in the incident and plays on.
* live casino (``casino.punto_banco_round``, ``casino.roulette_round``): the round at
  the failure is cut after its bets, declared RoundMalfunction and refunded, the
  roulette one with a bet left out (``live_bet_not_refunded``).
* RNG casino (game ``rng``): three rounds pending at the failure: one resumes within the
  24 h and completes, one is refunded after the 24 h, one never is
  (``rng_not_refunded``).
* a bounty tournament started and in late registration, not in the money, guarantee not
  met, cancelled after the failure. Refunds are computed here with integer arithmetic
  (``//``), independently of ``replayer.tournaments``; planted: a staked player paid
  his backers' shares (``staking_share_not_paid``), a chip share rounded up
  (``fraction_rounded_up``), collected bounties left out (``bounty_won_not_refunded``),
  and the places of a same-hand double elimination swapped (``same_hand_places_swapped``).

Each planted mistake lists the findings it must raise as (kind, subject, player,
expected, recorded); the investigation as of ``as_of`` must find exactly those.
Deterministic: named ``random.Random`` streams from ``seed``, no clock.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from audit.families import family_named
from audit.ingest.avro_files import write_events
from replayer.rulebooks.poker import PokerRulebook
from replayer.rulebooks.registry import get_rulebook
from simulate.casino import RoundWriter, punto_banco_round, roulette_round
from simulate.envelope import FlatEvent, envelope
from simulate.players import player_pool
from simulate.poker import HandPlan, PlayedHand, play_hand
from simulate.tables import TableSpec, make_tables
from simulate.tournaments import Price, TournamentWriter

MANIFEST_NAME = "incident-manifest.json"
FAILURE_AT = timedelta(hours=14)
OUTAGE = timedelta(minutes=10)
RECOVERY = timedelta(minutes=5)
"""Refunds and amends are recorded this long after the window ends."""
AS_OF = timedelta(hours=25)
"""The investigation speaks as of the failure + 25 h: the RNG 24 h hold has run out."""
HAND_GAP = timedelta(seconds=2)

Expected = tuple[str, str, str, int, int]
"""(finding kind, subject, player, expected, recorded)."""


@dataclass(frozen=True, slots=True)
class PlantedMistake:
    kind: str
    subject: str
    findings: tuple[Expected, ...]


@dataclass(slots=True)
class IncidentManifest:
    seed: int
    day: str
    incident_id: str
    window_start: str
    window_end: str
    as_of: str
    tables: list[str]
    games: list[str]
    tournaments: list[str]
    files: list[str] = field(default_factory=list)
    in_flight: dict[str, list[str]] = field(default_factory=dict)
    planted: list[PlantedMistake] = field(default_factory=list)

    def expected_findings(self) -> set[Expected]:
        return {finding for plant in self.planted for finding in plant.findings}

    def write(self, folder: Path) -> Path:
        path = folder / MANIFEST_NAME
        path.write_text(json.dumps(asdict(self), sort_keys=True, indent=1) + "\n")
        return path


def _event(
    family: str, subject: str, seq: int, at: datetime, record_type: str, /, **body: Any
) -> FlatEvent:
    key = {"poker": "hand_id", "incident": "incident_id"}[family]
    return envelope(key, subject, seq, at, record_type, **body)


# --------------------------------------------------------------------------- poker


def _play(seed: int, table: TableSpec, hand_id: str, start: datetime) -> PlayedHand:
    book = get_rulebook(table.rulebook)
    assert isinstance(book, PokerRulebook)
    pool = player_pool(seed, table.venue, 20)
    rng = random.Random(f"{seed}:{hand_id}")
    count = min(table.seats, 6)
    players = rng.sample(pool, count)
    stacks = [table.big_blind * rng.randint(40, 200) or 20_000 for _ in players]
    seated = [(seat + 1, p, s) for seat, (p, s) in enumerate(zip(players, stacks, strict=True))]
    button = rng.randint(1, count)
    ordered = seated[button:] + seated[:button]
    plan = HandPlan(hand_id, start, button, ordered, event_gap=HAND_GAP)
    return play_hand(table, book, plan, rng)


def _contributions(events: list[FlatEvent]) -> dict[int, int]:
    put: dict[int, int] = {}
    for event in events:
        if event["type"] in ("BlindPosted", "ActionTaken"):
            put[event["seat"]] = put.get(event["seat"], 0) + event["amount"]
    return put


def _cut_hand(
    hand: PlayedHand, failure: datetime, recovery: datetime, incident_id: str, fault: str | None
) -> tuple[list[FlatEvent], PlantedMistake | None]:
    """The hand cut at ``failure``; reverted at ``recovery`` unless ``not_reverted``."""
    kept = [e for e in hand.events if e["occurred_at"] < failure]
    put = _contributions(kept)
    player_of = dict(zip(hand.seats, hand.players, strict=True))
    start = kept[0]
    if fault == "not_reverted":
        expected = tuple(
            ("refund_mismatch", hand.hand_id, player_of[seat], chips, 0)
            for seat, chips in sorted(put.items())
            if chips
        )
        return kept, PlantedMistake(fault, hand.hand_id, expected)
    refunds = dict(put)
    plant = None
    if fault == "short_refund":
        blind = next(e for e in kept if e["type"] == "BlindPosted" and e["kind"] == "big_blind")
        seat = blind["seat"]
        refunds[seat] -= blind["amount"]
        finding = ("refund_mismatch", hand.hand_id, player_of[seat], put[seat], refunds[seat])
        plant = PlantedMistake(fault, hand.hand_id, (finding,))
    seq = len(kept)
    out = list(kept)
    out.append(
        _event(
            "poker",
            hand.hand_id,
            seq,
            recovery,
            "HandReverted",
            reason="server failure",
            incident_id=incident_id,
        )
    )
    for seat, chips in sorted(refunds.items()):
        if chips:
            seq += 1
            out.append(
                _event(
                    "poker",
                    hand.hand_id,
                    seq,
                    recovery,
                    "PotAwarded",
                    seat=seat,
                    amount=chips,
                    pot_index=None,
                )
            )
    finishing = [
        s["stack"] - put.get(s["seat"], 0) + refunds.get(s["seat"], 0) for s in start["seats"]
    ]
    out.append(
        _event("poker", hand.hand_id, seq + 1, recovery, "HandEnded", finishing_stacks=finishing)
    )
    return out, plant


def _table_day(
    seed: int,
    day: date,
    table: TableSpec,
    failure: datetime,
    window_end: datetime,
    listed: bool,
    fault: str | None,
    incident_id: str,
) -> tuple[list[FlatEvent], str | None, PlantedMistake | None]:
    """Hands from an hour before the failure to half an hour after the window."""
    events: list[FlatEvent] = []
    at = failure - timedelta(minutes=30)
    number = 0
    cut_id = plant = None
    while at < window_end + timedelta(minutes=30):
        number += 1
        hand_id = f"{table.table_id}/{day:%Y%m%d}-{number:06d}"
        hand = _play(seed, table, hand_id, at)
        ended_at = hand.ended_at
        assert ended_at is not None
        if listed and cut_id is None and ended_at >= failure - timedelta(seconds=30):
            # the hand running at the failure: replayed to start so that play is cut
            # after a dozen events (blinds and the deal at least)
            lead = min(12, len(hand.events) - 2)
            hand = _play(seed, table, hand_id, failure - lead * HAND_GAP)
            cut, plant = _cut_hand(hand, failure, window_end + RECOVERY, incident_id, fault)
            events += cut
            cut_id = hand_id
            at = window_end + timedelta(seconds=30)
            continue
        if listed and failure <= at < window_end:
            at = window_end + timedelta(seconds=30)
            continue
        events += hand.render()
        at = ended_at + timedelta(seconds=20)
    return events, cut_id, plant


# ----------------------------------------------------------------------- casino


def _live_rounds(
    seed: int, failure: datetime, window_end: datetime, incident_id: str
) -> tuple[list[FlatEvent], list[str], list[PlantedMistake]]:
    events: list[FlatEvent] = []
    cut: list[str] = []
    plants: list[PlantedMistake] = []
    for name, make in (("bac-1", punto_banco_round), ("rou-1", roulette_round)):
        rng = random.Random(f"{seed}:{name}")
        at = failure - timedelta(minutes=20)
        number = 0
        while at < window_end + timedelta(minutes=20):
            number += 1
            round_id = f"{name}/{number:04d}"
            if at + timedelta(minutes=1) > failure and not any(c.startswith(name) for c in cut):
                at = failure - timedelta(seconds=3)  # opened, two bets, then the failure
                played = make(rng, round_id, at)
                kept = [e for e in played if e["occurred_at"] < failure]
                writer = RoundWriter(round_id, window_end + RECOVERY, kept)
                bets = [e for e in kept if e["type"] == "BetPlaced"]
                writer.emit("RoundMalfunction", reason=f"server failure ({incident_id})")
                skipped = bets[0] if name == "rou-1" else None
                for bet in bets:
                    if bet is not skipped:
                        writer.emit(
                            "RefundPaid",
                            bet_id=bet["bet_id"],
                            player_id=bet["player_id"],
                            amount=bet["amount"],
                        )
                for event in writer.events[len(kept) :]:
                    event["occurred_at"] = window_end + RECOVERY
                events += writer.events
                cut.append(round_id)
                if skipped is not None:
                    player = skipped["player_id"]
                    stakes = sum(b["amount"] for b in bets if b["player_id"] == player)
                    finding = (
                        "refund_mismatch",
                        round_id,
                        player,
                        stakes,
                        stakes - skipped["amount"],
                    )
                    plants.append(PlantedMistake("live_bet_not_refunded", round_id, (finding,)))
                at = window_end + timedelta(seconds=30)
                continue
            played = make(rng, round_id, at)
            events += played
            at = played[-1]["occurred_at"] + timedelta(seconds=30)
    return events, cut, plants


def _rng_round(round_id: str, start: datetime, bets: list[tuple[str, int]]) -> RoundWriter:
    writer = RoundWriter(round_id, start)
    writer.emit(
        "RoundOpened",
        rulebook=None,
        table_id="rng-bj-1",
        game="rng",
        currency="EUR",
        min_bet=100,
    )
    for index, (player, amount) in enumerate(bets):
        writer.emit(
            "BetPlaced", bet_id=f"b{index}", player_id=player, bet_type="main", amount=amount
        )
    return writer


def _pay(writer: RoundWriter, at: datetime, kind: str, amounts: list[int]) -> None:
    bets = [e for e in writer.events if e["type"] == "BetPlaced"]
    for bet, amount in zip(bets, amounts, strict=True):
        event = writer.emit(kind, bet_id=bet["bet_id"], player_id=bet["player_id"], amount=amount)
        event["occurred_at"] = at


def _rng_rounds(
    failure: datetime, window_end: datetime
) -> tuple[list[FlatEvent], list[str], list[PlantedMistake]]:
    done = _rng_round("rng-bj-1/0001", failure - timedelta(minutes=5), [("r1", 500)])
    _pay(done, failure - timedelta(minutes=4), "PayoutMade", [1000])
    resumed = _rng_round("rng-bj-1/0002", failure - timedelta(seconds=5), [("r2", 300)])
    _pay(resumed, window_end + RECOVERY, "PayoutMade", [0])
    refunded = _rng_round(
        "rng-bj-1/0003", failure - timedelta(seconds=5), [("r3", 700), ("r3", 200)]
    )
    _pay(refunded, failure + timedelta(hours=24, minutes=1), "RefundPaid", [700, 200])
    forgotten = _rng_round("rng-bj-1/0004", failure - timedelta(seconds=4), [("r4", 1_000)])
    after = _rng_round("rng-bj-1/0005", window_end + timedelta(minutes=2), [("r1", 500)])
    _pay(after, window_end + timedelta(minutes=3), "PayoutMade", [0])
    rounds = (done, resumed, refunded, forgotten, after)
    plant = PlantedMistake(
        "rng_not_refunded",
        forgotten.round_id,
        (("refund_mismatch", forgotten.round_id, "r4", 1_000, 0),),
    )
    return (
        [e for r in rounds for e in r.events],
        [r.round_id for r in (resumed, refunded, forgotten)],
        [plant],
    )


# ------------------------------------------------------------------- tournament

BUY_IN, BOUNTY, FEE, GUARANTEE, CHIPS = 1_000, 200, 100, 50_000, 10_000
PAYOUTS = [5_000, 3_000, 2_000, 1_400, 1_000, 800, 800]
STAKES = (("b1", 3_000), ("b2", 2_500))


def _tournament(
    day: date, failure: datetime, window_end: datetime, incident_id: str
) -> tuple[list[FlatEvent], str, list[PlantedMistake]]:
    tid = f"t-{day:%Y%m%d}-bounty"
    base = failure - timedelta(hours=2)
    writer = TournamentWriter(tid)
    events = writer.events

    def emit(minutes: float, kind: str, **body: Any) -> None:
        writer.emit(base + timedelta(minutes=minutes), kind, **body)

    emit(
        0,
        "TournamentAnnounced",
        rulebook=None,
        name="Bounty Hunter",
        currency="USD",
        buy_in=BUY_IN,
        fee=FEE,
        bounty=BOUNTY,
        guarantee=GUARANTEE,
        starting_chips=CHIPS,
        payouts=PAYOUTS,
        scheduled_start=base + timedelta(hours=1),
    )
    players = [f"t{n:02d}" for n in range(1, 13)]

    def register(minutes: float, player: str, entry: str) -> None:
        stakes = STAKES if player == "t04" else ()
        at = base + timedelta(minutes=minutes)
        writer.register(at, player, entry, Price(BUY_IN, FEE, BOUNTY), stakes=stakes)

    for index, player in enumerate(players):
        register(30 + index, player, f"e{index + 1:02d}")
    emit(60, "TournamentStarted", late_registration_until=failure + timedelta(minutes=30))
    emit(
        80,
        "PlayerEliminated",
        player_id="t05",
        place=12,
        hand_id="h1",
        chips_at_hand_start=4_000,
        seat_from_button=2,
    )
    emit(80, "BountyAwarded", player_id="t03", eliminated_player_id="t05", amount=BOUNTY)
    register(85, "t05", "e13")
    emit(
        100,
        "ChipCountRecorded",
        hand_id="h2",
        counts=[
            {"player_id": "t07", "chips": 6_500, "seat_from_button": 3},
            {"player_id": "t08", "chips": 3_100, "seat_from_button": 1},
        ],
    )
    # same hand: t07 started with more chips, so t07 finishes ahead (11th), t08 12th;
    # planted: the operator swapped them
    emit(
        100,
        "PlayerEliminated",
        player_id="t07",
        place=12,
        hand_id="h2",
        chips_at_hand_start=None,
        seat_from_button=None,
    )
    emit(
        100,
        "PlayerEliminated",
        player_id="t08",
        place=11,
        hand_id="h2",
        chips_at_hand_start=None,
        seat_from_button=None,
    )
    emit(100, "BountyAwarded", player_id="t01", eliminated_player_id="t07", amount=BOUNTY // 2)
    emit(100, "BountyAwarded", player_id="t02", eliminated_player_id="t07", amount=BOUNTY // 2)
    emit(100, "BountyAwarded", player_id="t01", eliminated_player_id="t08", amount=BOUNTY)
    register(105, "t08", "e14")
    remaining = [p for p in players if p != "t07"]
    counts = [9_377, 15_021, 17_333, 12_007, 11_111, 13_003, 10_000, 12_345, 14_441, 12_999]
    counts.append(14 * CHIPS - sum(counts))
    chips = dict(zip(remaining, counts, strict=True))
    emit(
        118,
        "ChipCountRecorded",
        hand_id=None,
        counts=[{"player_id": p, "chips": c, "seat_from_button": None} for p, c in chips.items()],
    )
    emit(135, "TournamentCancelled", reason="server failure", incident_id=incident_id)
    # the correct refunds, by integer arithmetic (GG-2022 case 2, guarantee not met)
    won = {"t03": BOUNTY, "t01": BOUNTY // 2 + BOUNTY, "t02": BOUNTY // 2}
    pool = 14 * BUY_IN
    total = sum(chips.values())
    due: dict[str, list[tuple[str, int]]] = {
        p: [
            ("fee", FEE),
            ("bounty", BOUNTY + won.get(p, 0)),
            ("prize_pool_equal", pool // (2 * len(remaining))),
            ("prize_pool_chips", pool * chips[p] // (2 * total)),
        ]
        for p in remaining
    }
    planted = [
        PlantedMistake(
            "same_hand_places_swapped",
            tid,
            (
                ("wrong_place", tid, "t07", 11, 12),
                ("wrong_place", tid, "t08", 12, 11),
            ),
        ),
    ]
    paid = {p: list(parts) for p, parts in due.items()}
    assert pool * chips["t09"] % (2 * total), "t09's chip share must have a fraction"
    paid["t09"][3] = ("prize_pool_chips", paid["t09"][3][1] + 1)
    paid["t01"][1] = ("bounty", BOUNTY)
    planted.append(
        PlantedMistake(
            "fraction_rounded_up",
            tid,
            (("refund_mismatch", tid, "t09", _sum(due["t09"]), _sum(due["t09"]) + 1),),
        )
    )
    planted.append(
        PlantedMistake(
            "bounty_won_not_refunded",
            tid,
            (("refund_mismatch", tid, "t01", _sum(due["t01"]), _sum(due["t01"]) - 300),),
        )
    )
    lines: list[tuple[str, str, int]] = []
    backers: dict[str, int] = {}
    for player in remaining:
        for component, amount in paid[player]:
            kept = amount
            if player == "t04":
                for backer, share in STAKES:
                    part = amount * share // 10_000
                    backers[backer] = backers.get(backer, 0) + part
                    kept -= part
            lines.append((player, component, amount if player == "t04" else kept))
    # planted: t04 was paid the whole refund, his backers nothing
    t04 = _sum(due["t04"])
    t04_share = t04 - sum(backers.values())
    planted.append(
        PlantedMistake(
            "staking_share_not_paid",
            tid,
            (
                ("refund_mismatch", tid, "t04", t04_share, t04),
                ("refund_mismatch", tid, "b1", backers["b1"], 0),
                ("refund_mismatch", tid, "b2", backers["b2"], 0),
            ),
        )
    )
    for player, component, amount in lines:
        emit(140, "RefundPaid", player_id=player, amount=amount, component=component)
    return events, tid, planted


def _sum(parts: list[tuple[str, int]]) -> int:
    return sum(amount for _, amount in parts)


# ------------------------------------------------------------------------ the day


def generate_incident(seed: int, day: date, out: Path) -> IncidentManifest:
    """Write the failure day's Avro files and manifest to ``out`` (module docstring)."""
    out.mkdir(parents=True, exist_ok=True)
    midnight = datetime(day.year, day.month, day.day, tzinfo=UTC)
    failure = midnight + FAILURE_AT
    window_end = failure + OUTAGE
    incident_id = f"inc-{day:%Y%m%d}-1"
    specs = make_tables(seed, 8)
    listed = {specs[0].table_id: "short_refund", specs[1].table_id: "not_reverted"}
    poker: list[FlatEvent] = []
    manifest = IncidentManifest(
        seed,
        day.isoformat(),
        incident_id,
        failure.isoformat(),
        window_end.isoformat(),
        (failure + AS_OF).isoformat(),
        sorted(listed),
        ["bac-1", "rng-bj-1", "rou-1"],
        [],
    )
    hands: list[str] = []
    for table in specs[:3]:
        events, cut, plant = _table_day(
            seed,
            day,
            table,
            failure,
            window_end,
            table.table_id in listed,
            listed.get(table.table_id),
            incident_id,
        )
        poker += events
        hands += [cut] if cut else []
        manifest.planted += [plant] if plant else []
    live, live_cut, live_plants = _live_rounds(seed, failure, window_end, incident_id)
    rng, rng_cut, rng_plants = _rng_rounds(failure, window_end)
    tournament, tid, t_plants = _tournament(day, failure, window_end, incident_id)
    manifest.planted += live_plants + rng_plants + t_plants
    manifest.in_flight = {
        "poker": hands,
        "live": live_cut,
        "rng": rng_cut,
        "tournament": [tid],
    }
    incident = _event(
        "incident",
        incident_id,
        0,
        window_end + RECOVERY,
        "IncidentRecorded",
        kind="server_failure",
        window_start=failure,
        window_end=window_end,
        tables=sorted(listed),
        tournaments=[],
        machines=[],
        games=manifest.games,
        description="game servers down",
        reported_by="ops",
    )
    for name, family, events in (
        ("incident.avro", "incident", [incident]),
        ("poker.avro", "poker", poker),
        ("banked.avro", "banked", live + rng),
        ("tournament.avro", "tournament", tournament),
    ):
        write_events(out / name, family_named(family), events)
        manifest.files.append(name)
    manifest.write(out)
    return manifest
