"""Banked round judging speed: ``adjudicate_round`` over seeded rounds of every game.

Usage: ``.venv/bin/python benchmarks/banked_replay.py [ROUNDS_PER_GAME] [SEED]``

Rounds are ``simulate.casino``'s, each game's clean rounds with every fourth one planted
with a fault in turn (``BANKED_FAULTS``), made before timing. Each game's rounds are
judged as the nightly and ``replay`` judge them (``with_steps=False``) and as ``show``
does (with the step-by-step view). Single process, one core; CPU seconds
(``time.process_time``), the loaded rounds moved out of the garbage collector's sight
(``gc.freeze``). The first line says which build is loaded (``replayer.compiled``).
"""

from __future__ import annotations

import gc
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replayer.casino import adjudicate_round
from replayer.compiled import build_description
from simulate.casino import BANKED_FAULTS, SIMULATORS, plant

START = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)


def rounds_of(game: str, count: int, seed: int) -> list[list[dict[str, object]]]:
    """``count`` seeded rounds of ``game``, every fourth with a planted fault."""
    rng = random.Random(f"{seed}-{game}")
    rounds = []
    for index in range(count):
        events = SIMULATORS[game](rng, f"{game}-{index}", START)
        planted = plant(events, BANKED_FAULTS[index // 4 % len(BANKED_FAULTS)])
        rounds.append(planted[0] if index % 4 == 3 and planted is not None else events)
    return rounds


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    print(f"build: {build_description()}; {count} rounds per game, seed {seed}")
    totals = [0.0, 0.0]
    for game in sorted(SIMULATORS):
        rounds = rounds_of(game, count, seed)
        gc.freeze()
        cells = []
        for index, with_steps in enumerate((False, True)):
            started = time.process_time()
            for events in rounds:
                adjudicate_round(events, with_steps=with_steps)
            spent = time.process_time() - started
            totals[index] += spent
            cells.append(f"{spent:6.2f} s ({count / spent:7.0f}/s)")
        gc.unfreeze()
        print(f"{game:14} without steps {cells[0]}   with steps {cells[1]}")
    print(f"{'all games':14} without steps {totals[0]:6.2f} s   with steps {totals[1]:6.2f} s")


if __name__ == "__main__":
    main()
