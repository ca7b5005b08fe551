"""``generate_day``: a seeded, deterministic synthetic day of poker with planted faults.

Everything derives from ``seed`` through named ``random.Random`` streams (tables, each
player, the colluding groups, each venue's daily seating, each table's play and each
table's faults); no global random state, no clock. The same seed, day and arguments give
byte-identical Avro input files and manifest. Changing ``fault_rate`` leaves the tables, the
people and the seating unchanged.

Output (``out``): ``tables.avro`` (each table's declared terms, ``tables.terms_declarations``),
``poker-<table>-<k>.avro`` input files, at most ``hands_per_file`` hands
each, and ``manifest.json`` (``manifest.DayManifest``). Input files are the Avro container
files of the ``poker`` family, the same records ``audit.ingest.avro_files.write_events``
writes, with a derived sync marker (``avro_out.write_input_file``); records are shaped by
``audit.ingest.avro_shape.to_avro``, which is several times faster than
``Family.to_avro`` on a day of 100,000 hands.

Banked rounds and slot machines are not generated here: their round/machine simulators
live in ``simulate/casino.py`` and ``slots.py``; a day adds them through
``extra`` generators (``floor.banked_rounds``, ``fleet.slot_fleet``), each called as
``extra(seed, day, out)`` and returning the input files it wrote and the faults it planted,
which join the manifest.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from audit.families import family_named
from replayer.rulebooks.poker import PokerRulebook
from replayer.rulebooks.registry import get_rulebook
from simulate.avro_out import write_input_file
from simulate.faults import FAULT_FINDINGS, FAULT_KINDS, PLANTERS
from simulate.manifest import CollusionGroup, DayManifest, PlantedFault
from simulate.players import VENUES, Player, player_pool
from simulate.poker import HandPlan, PlayedHand, play_hand
from simulate.seating import GroupSpec, TableSession, assign_tables, group_specs
from simulate.seating import plan_groups as _plan_groups
from simulate.session_faults import take_chips
from simulate.tables import (
    TableSpec,
    make_tables,
    rake_terms_dict,
    terms_declarations,
)

ExtraGenerator = Callable[[int, date, Path], tuple[list[str], list[PlantedFault]]]
MISDEAL_RATE = 0.004
HAND_SPACING = 60.0
"""Seconds between two hands' starts at a table at most: a table deals about a hand a
minute while it plays, so its hands are consecutive by their times
(``replayer.sessions.chaining``: within 3 minutes); a table with more hands than minutes
in the day deals them closer."""
EVENT_GAP = timedelta(seconds=2)
"""The most time between two events of a hand: a player acts well inside any clock
(GG-2022's, ``replayer.poker.clock``), however few hands a table deals in the day."""
TERMS_FILE = "tables.avro"
"""The day's table declarations (``TableTermsDeclared``), ingested before any hand (not
listed in ``manifest.input_files``, which lists the subjects' input files)."""


def population(
    seed: int,
    *,
    tables: int,
    players: int | None = None,
    colluders: int | Sequence[GroupSpec] = 0,
) -> tuple[list[TableSpec], dict[str, list[Player]], list[CollusionGroup]]:
    """The seed's tables, player pools per venue in use, and colluding groups."""
    specs = make_tables(seed, tables)
    venues = [v for v in VENUES if any(t.venue == v for t in specs)]
    share = None if players is None else max(12, players // len(venues))
    pools = {v: player_pool(seed, v, share) for v in venues}
    groups = _plan_groups(seed, pools, group_specs(colluders))
    return specs, pools, groups


def generate_day(
    seed: int,
    day: date,
    *,
    hands: int,
    out: Path,
    tables: int | None = None,
    players: int | None = None,
    colluders: int | Sequence[GroupSpec] = 0,
    fault_rate: float = 0.0,
    hands_per_file: int = 5_000,
    extra: Sequence[ExtraGenerator] = (),
    groups_stay: bool = False,
) -> DayManifest:
    """Write one day of ``hands`` poker hands to ``out`` and return its manifest.

    ``tables`` defaults to one per 2,500 hands (at least 8: every table kind);
    ``players`` is the total pool size (default: ``players.POOL_SIZES`` per venue);
    ``colluders`` is a number of groups (methods in turn, every fourth a ring of three)
    or explicit ``(method, size)`` pairs; ``fault_rate`` the share of hands that get a
    planted fault (kinds drawn at random; a kind waits at its table for a hand where it
    is possible, e.g. ``void_not_refunded`` for the next misdeal); ``groups_stay`` keeps
    the colluding groups seated all day (``seating.TableSession``).
    """
    count = tables if tables is not None else max(8, hands // 2_500)
    specs, pools, groups = population(seed, tables=count, players=players, colluders=colluders)
    start = datetime(day.year, day.month, day.day, tzinfo=UTC)
    out.mkdir(parents=True, exist_ok=True)
    per_table = [hands // count + (1 if i < hands % count else 0) for i in range(count)]
    candidates: dict[str, list[Player]] = {}
    for venue, pool in pools.items():
        rng = random.Random(f"{seed}:{day.isoformat()}:{venue}:seating")
        venue_tables = [t for t in specs if t.venue == venue]
        venue_groups = [g for g in groups if g.players[0] in {p.player_id for p in pool}]
        candidates.update(assign_tables(rng, pool, venue_tables, venue_groups))
    manifest = DayManifest(seed, day.isoformat(), 0, [], [], [], list(groups))
    stats: dict[str, int] = dict.fromkeys(
        ("hands", "misdeals", "showdowns", "side_pots", "split_pots", "all_ins"), 0
    )
    write_input_file(
        out / TERMS_FILE,
        family_named("table"),
        terms_declarations(specs),
        stream_id=f"{seed}:tables",
    )
    for table, table_hands in zip(specs, per_table, strict=True):
        book = get_rulebook(table.rulebook)
        assert isinstance(book, PokerRulebook)
        if not book.covers(table.variant, start):
            raise ValueError(f"{table.rulebook} is not in force on {day}")
        files = _play_table(
            seed,
            day,
            start,
            table,
            book,
            table_hands,
            candidates[table.table_id],
            groups,
            fault_rate,
            hands_per_file,
            out,
            manifest,
            stats,
            groups_stay,
        )
        manifest.tables.append(
            {
                "table_id": table.table_id,
                "venue": table.venue,
                "rulebook": table.rulebook,
                "variant": table.variant,
                "currency": table.currency,
                "seats": table.seats,
                "smallest_chip": table.smallest_chip,
                "small_blind": table.small_blind,
                "big_blind": table.big_blind,
                "ante": table.ante,
                "rate_bps": table.rate_bps,
                "rake_terms": rake_terms_dict(table.rake_terms),
                "hands": table_hands,
                "input_files": files,
            }
        )
    for generator in extra:
        files, faults = generator(seed, day, out)
        manifest.input_files.extend(files)
        manifest.faults.extend(faults)
    manifest.hands = stats["hands"]
    manifest.stats = stats
    manifest.write(out)
    return manifest


def _play_table(
    seed: int,
    day: date,
    start: datetime,
    table: TableSpec,
    book: PokerRulebook,
    count: int,
    candidates: list[Player],
    groups: list[CollusionGroup],
    fault_rate: float,
    hands_per_file: int,
    out: Path,
    manifest: DayManifest,
    stats: dict[str, int],
    groups_stay: bool = False,
) -> list[str]:
    """Play ``count`` hands at one table; write its input files; record faults and stats."""
    stream_id = f"{seed}:{day.isoformat()}:{table.table_id}"
    rng = random.Random(stream_id)
    fault_rng = random.Random(f"{stream_id}:faults")
    session = TableSession(table, candidates, groups, book.min_players, rng)
    session.groups_stay = groups_stay
    interval = 86_400 / max(count, 1)
    offset = rng.uniform(0, interval)
    interval = min(interval, HAND_SPACING)
    gap = min(EVENT_GAP, timedelta(microseconds=int(interval * 1e6 / 80)))
    taking = random.Random(f"{stream_id}:session-faults")
    played: list[list[dict[str, Any]]] = []
    pending: list[str] = []
    files: list[str] = []
    family = family_named("poker")
    present = {pid for p in candidates for pid in [p.player_id]}
    table_groups = [g for g in groups if sum(pid in present for pid in g.players) >= 2]
    for number in range(count):
        button, seated = session.next_hand()
        seated_ids = {player.player_id for _, player, _ in seated}
        plan = HandPlan(
            hand_id=f"{table.table_id}/{day:%Y%m%d}-{number + 1:06d}",
            started_at=start + timedelta(seconds=offset + number * interval),
            button_seat=button,
            seated=seated,
            event_gap=gap,
            misdeal=rng.random() < MISDEAL_RATE,
            groups=[g for g in table_groups if sum(p in seated_ids for p in g.players) >= 2],
        )
        hand = play_hand(table, book, plan, rng)
        if fault_rng.random() < fault_rate:
            pending.append(fault_rng.choice(FAULT_KINDS))
        settlement = hand.settlement
        for kind in pending:
            result = PLANTERS[kind](hand, fault_rng)
            if result is not None:
                settlement, detail = result
                pending.remove(kind)
                manifest.faults.append(
                    PlantedFault(kind, hand.hand_id, FAULT_FINDINGS[kind], detail)
                )
                break
        played.append(hand.render(settlement))
        session.update(dict(zip(hand.seats, hand.finishing(settlement), strict=True)))
        _count(hand, stats)
        if (number + 1) % hands_per_file == 0 or number + 1 == count:
            for index in range(1, len(played)):  # chips taken between two hands
                if fault_rate and taking.random() < fault_rate:
                    taken = take_chips(played, index, taking)
                    manifest.faults.extend([taken] if taken else [])
            buffer: list[dict[str, Any]] = [event for events in played for event in events]
            played = []
            name = f"poker-{table.table_id}-{len(files) + 1:02d}.avro"
            write_input_file(out / name, family, buffer, stream_id=stream_id)
            files.append(name)
            manifest.input_files.append(name)
    return files


def _count(hand: PlayedHand, stats: dict[str, int]) -> None:
    stats["hands"] += 1
    if hand.void:
        stats["misdeals"] += 1
        return
    stats["showdowns"] += bool(hand.shown)
    stats["side_pots"] += len(hand.pots) > 1
    stats["split_pots"] += any(len(w) > 1 for w in hand.winners)
    stats["all_ins"] += any(s == p for s, p in zip(hand.starting, hand.put, strict=True) if p)
