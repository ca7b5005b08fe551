"""The collusion detector on the independent population (``tests.population``): recall by
method at 100, 300, 1,000 and 3,000 shared hands, false positives over honest pairs,
the honest scores' tail and the detector's own time.

    .venv/bin/python benchmarks/collusion_population.py [--rounds 1000] [--groups 1]
        [--seeds 21 22 23] [--friends 2] [--honest-tables 1] [--cache DIR]
        [--methods soft_play chip_dumping ...]

One room per seed (``tests.population.room``): ``--groups`` groups of every method, each
at its own table (teams across tables over two), ``--friends`` pairs of honest friends who
always sit together, ``--honest-tables`` tables of honest players only; ``--rounds``
rounds (every table one hand per round). Every hand is dealt and settled by PokerKit.
``--methods`` plants only those methods' groups. ``--cache DIR`` keeps each room's hands
(pickled, ``gen_SEED_ROUNDS_GROUPS_METHODS.pkl``) and
reads them back on the next run, so the detector can be measured again without playing
the hands again. Each room is measured on its own (``tests.population.measure``) and the
figures are summed over the rooms. No assertion: a benchmark.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.population.measure import CHECKPOINTS, Measured, measure
from tests.population.methods import METHODS
from tests.population.room import Config, Group, Room

AS_OF = date(2025, 3, 5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000)
    parser.add_argument("--groups", type=int, default=1)
    parser.add_argument("--seeds", type=int, nargs="+", default=[21, 22, 23])
    parser.add_argument("--friends", type=int, default=2)
    parser.add_argument("--honest-tables", type=int, default=1)
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--methods", nargs="+", choices=sorted(METHODS), default=list(METHODS))
    args = parser.parse_args()
    runs = []
    for seed in args.seeds:
        groups, friends, hands = room_hands(args, seed)
        print(f"seed {seed}: {len(hands):,} hands, {len(groups)} groups, {len(friends)} friends")
        runs.append(measure(hands, groups, AS_OF, CHECKPOINTS))
    print_measured(summed(runs))


def room_hands(args: argparse.Namespace, seed: int) -> tuple[list[Group], list[Any], list[Any]]:
    """The seed's room played (or read back from ``--cache``)."""
    name = f"gen_{seed}_{args.rounds}_{args.groups}_{'-'.join(sorted(args.methods))}.pkl"
    cached = args.cache / name if args.cache else None
    if cached and cached.is_file():
        with cached.open("rb") as f:
            return pickle.load(f)  # type: ignore[no-any-return]  # our own cache
    config = Config(
        seed,
        dict.fromkeys(args.methods, args.groups),
        friends=args.friends,
        honest_tables=args.honest_tables,
    )
    room = Room(config)
    began = time.process_time()
    hands = list(room.hands(args.rounds))
    print(f"seed {seed}: played and settled by PokerKit in {time.process_time() - began:.0f} CPU s")
    if cached:
        with cached.open("wb") as f:
            pickle.dump((room.groups, room.friends, hands), f)
    return room.groups, room.friends, hands


def summed(runs: list[Measured]) -> Measured:
    """The rooms' figures together."""
    out = Measured()
    for run in runs:
        for mine, theirs in ((out.found, run.found), (out.whole, run.whole)):
            for key, found in theirs.items():
                mine.setdefault(key, []).extend(found)
        for key, scores in run.scores.items():
            out.scores.setdefault(key, []).extend(scores)
        for n, (wrong, judged) in run.honest.items():
            before = out.honest.get(n, (0, 0))
            out.honest[n] = (before[0] + wrong, before[1] + judged)
        out.false_pairs |= run.false_pairs
        out.honest_scores += run.honest_scores
        out.detector_seconds += run.detector_seconds
        out.hands += run.hands
    return out


def print_measured(measured: Measured) -> None:
    print("| method | " + " | ".join(f"{n:,} shared hands" for n in CHECKPOINTS) + " |")
    print("|---" * (len(CHECKPOINTS) + 1) + "|")
    for method in METHODS:
        cells = []
        for n in CHECKPOINTS:
            found = measured.found.get((method, n))
            if not found:
                cells.append("not reached")
                continue
            scores = measured.scores[(method, n)]
            middle = statistics.median(scores)
            cell = (
                f"{sum(found)}/{len(found)} (scores {min(scores):.1f}-{max(scores):.1f}, "
                f"median {middle:.1f})"
            )
            whole = measured.whole.get((method, n))
            if whole:
                cell += f", named whole {sum(whole)}/{len(whole)}"
            cells.append(cell)
        print(f"| {method.replace('_', ' ')} | " + " | ".join(cells) + " |")
    print()
    for n, (wrong, judged) in sorted(measured.honest.items()):
        print(f"at {n:,}: {wrong} of {judged} honest pairs with 100+ shared hands suspected")
    scores = sorted(measured.honest_scores)
    if scores:
        p50, p99 = (scores[int(q * (len(scores) - 1))] for q in (0.5, 0.99))
        print(
            f"at the end: {len(scores)} honest pairs with 100+ shared hands, scores median "
            f"{p50:.2f}, p99 {p99:.2f}, max {scores[-1]:.2f}; false pairs over the run: "
            f"{sorted(measured.false_pairs)}"
        )
    per_hand = measured.detector_seconds / max(measured.hands, 1)
    print(
        f"detector: {measured.detector_seconds:.1f} CPU s for {measured.hands:,} hands and "
        f"its reports ({per_hand * 1e3:.3f} ms a hand)"
    )


if __name__ == "__main__":
    main()
