"""The demo day: the seeded synthetic day ``casino-audit demo`` generates and judges.

Seed 7, 2025-03-01: 3,000 poker hands at eight tables (two colluding pairs, chip dumping
and whipsaw, who came to play together and keep their seats all day, so that they share
enough hands to be judged; 1% of hands with a planted fault, and chips taken off a player
between two consecutive hands: ``session_faults``), 2,000 banked rounds of four games
(1% faulty, and every fault across rounds at least once: shoes and chemin de fer across
coups), 20 slot machines with hourly readings (10% faulty), 12 tournaments (a third
faulty, and a fault across the hands of each other one, every kind at least once:
``cross_hand_faults``), 60 hands at a GGPoker table where a tenth of the hands, and at
least one, hold an action after the time ran out (``late_actions``) and 120 hands at a
PT-217/2007 table whose session carries every session fault at least once
(``session_table``). Every class planted across records is scored apart
(``simulate.across``). Tests that must hold "for every subject of the demo day" generate
exactly this day.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from simulate.day import ExtraGenerator, generate_day
from simulate.fleet import slot_fleet
from simulate.floor import banked_rounds
from simulate.late_actions import late_actions
from simulate.manifest import DayManifest
from simulate.session_table import session_table
from simulate.tournament_tables import tournament_tables_day
from simulate.tournaments import tournament_day

DEMO_DAY, DEMO_SEED, DEMO_HANDS = date(2025, 3, 1), 7, 3_000
#: Banked rounds, slot machines and tournaments beside the hands; faults in 1% of the
#: rounds and, so that a small fleet and a handful of tournaments show some, 10% of the
#: machines and a third of the tournaments.
DEMO_ROUNDS, DEMO_MACHINES, DEMO_TOURNAMENTS = 2_000, 20, 12
DEMO_CLOCK_HANDS, DEMO_SESSION_HANDS = 60, 120
#: Tournaments dealt table by table (two tables each, players moved between them), the
#: last one win-the-button (PT-217/2007 n.º 124).
DEMO_TOURNAMENT_TABLES = 2
#: The planted colluding groups: (method, players).
DEMO_COLLUDERS = (("chip_dumping", 2), ("whipsaw", 2))


def demo_extras(
    *, rounds: int, machines: int, tournaments: int, clock_hands: int, session_hands: int
) -> list[ExtraGenerator]:
    """The demo day's subjects beside the poker tables, at the demo's fault rates and
    with every class across records planted at least once."""
    return [
        banked_rounds(rounds, fault_rate=0.01, every_across=True),
        slot_fleet(machines, fault_rate=0.1),
        tournament_day(tournaments, fault_rate=0.3, cross_hand_rate=1.0),
        late_actions(clock_hands, fault_rate=0.1),
        session_table(session_hands, fault_rate=0.01),
        tournament_tables_day(DEMO_TOURNAMENT_TABLES, fault_rate=0.1, win_the_button=1),
    ]


def demo_day(input_dir: Path) -> DayManifest:
    """Write the demo day's input files under ``input_dir/<day>/`` and return its manifest."""
    return generate_day(
        DEMO_SEED,
        DEMO_DAY,
        hands=DEMO_HANDS,
        out=Path(input_dir) / DEMO_DAY.isoformat(),
        colluders=DEMO_COLLUDERS,
        groups_stay=True,
        fault_rate=0.01,
        extra=demo_extras(
            rounds=DEMO_ROUNDS,
            machines=DEMO_MACHINES,
            tournaments=DEMO_TOURNAMENTS,
            clock_hands=DEMO_CLOCK_HANDS,
            session_hands=DEMO_SESSION_HANDS,
        ),
    )
