"""Calibration curve of the collusion detector: recall of planted groups against the
false-positive rate over honest pairs, as a function of the hands a pair played together.

    .venv/bin/python benchmarks/collusion_curve.py [--seeds 1 2 3 4] [--days 8]
    .venv/bin/python benchmarks/collusion_curve.py --quick      # small, for CI smoke runs

For each seed: a small population (4 tables, 60 players) with planted groups (pairs and
rings of three of every method, ``GROUPS``) plays ``--days`` days of ``--hands`` hands
(``simulate.generate_day``, input files written and read back); the detector
observes every hand. Each pair is scored once, at the hand where its shared count reaches
each milestone (``--milestones``), so every score is "after N hands together". At the
threshold (``--threshold``, default the detector's ``THRESHOLD``):

* recall: planted groups detected at N (a pair: its score; a ring, once one of its pairs
  reached N: at least two of its pairs flagged, each at the largest milestone <= N it
  reached, which joins the three players into one component);
* FPR: honest pairs (not both in one group) whose score reaches the threshold at N.

It also prints the honest scores' 99th percentile per milestone (what the threshold
must exceed for 1% FPR). No assertions: a benchmark.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path

from audit.ingest.avro_files import read_events
from pipelines.detectors.collusion import THRESHOLD, CollusionDetector
from simulate import generate_day

GROUPS = [
    ("chip_dumping", 2),
    ("soft_play", 2),
    ("whipsaw", 2),
    ("chip_dumping", 3),
    ("soft_play", 3),
    ("whipsaw", 3),
]
START = date(2025, 3, 1)


def run_seed(
    seed: int, days: int, hands: int, milestones: list[int], folder: Path
) -> tuple[dict[tuple[str, str], dict[int, float]], list[tuple[str, tuple[str, ...]]]]:
    """Scores per pair at each milestone reached, and the planted groups."""
    detector = CollusionDetector(as_of=START + timedelta(days=days - 1), min_hands=1)
    at: dict[tuple[str, str], dict[int, float]] = defaultdict(dict)
    wanted = set(milestones)
    groups: list[tuple[str, tuple[str, ...]]] = []
    for k in range(days):
        out = folder / f"{seed}-{k}"
        manifest = generate_day(
            seed,
            START + timedelta(days=k),
            hands=hands,
            out=out,
            tables=4,
            players=60,
            colluders=GROUPS,
        )
        groups = [(g.method, tuple(sorted(g.players))) for g in manifest.collusion]
        for name in manifest.input_files:
            hands_of: dict[str, list[dict]] = defaultdict(list)
            for event in read_events(out / name):
                hands_of[event["hand_id"]].append(event)
            for events in hands_of.values():
                detector.observe(events)
                ids = sorted(s["player_id"] for s in events[0]["seats"])
                for i, a in enumerate(ids):
                    for b in ids[i + 1 :]:
                        pair = detector.pairs.get((a, b))
                        if pair is not None and pair.n in wanted:
                            at[(a, b)][pair.n] = detector.score((a, b)).score
    return at, groups


def latest(scores: dict[int, float], n: int) -> float:
    """A pair's score at the largest milestone up to ``n`` it reached (0 if none): the
    pairs of a ring do not all reach a milestone at once."""
    reached = [m for m in scores if m <= n]
    return scores[max(reached)] if reached else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--days", type=int, default=8)
    parser.add_argument("--hands", type=int, default=3_000)
    parser.add_argument("--milestones", type=int, nargs="+", default=[100, 300, 1000, 3000])
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--quick", action="store_true", help="1 seed, 2 days, 2,000 hands")
    args = parser.parse_args()
    if args.quick:
        args.seeds, args.days, args.hands, args.milestones = [1], 2, 2_000, [100, 300]
    started = time.perf_counter()
    hits: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    false: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    honest_scores: dict[int, list[float]] = defaultdict(list)
    total_hands = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            at, groups = run_seed(seed, args.days, args.hands, args.milestones, Path(tmp))
            total_hands += args.days * args.hands
            colluding = set()
            for _, members in groups:
                pairs = [(a, b) for i, a in enumerate(members) for b in members[i + 1 :]]
                colluding.update(pairs)
                for n in args.milestones:
                    if not any(n in at.get(p, {}) for p in pairs):
                        continue
                    flagged = sum(latest(at.get(p, {}), n) >= args.threshold for p in pairs)
                    hits[n][1] += 1
                    hits[n][0] += flagged >= (1 if len(members) == 2 else 2)
            for pair, by_n in at.items():
                if pair in colluding:
                    continue
                for n, score in by_n.items():
                    false[n][1] += 1
                    false[n][0] += score >= args.threshold
                    honest_scores[n].append(score)
    elapsed = time.perf_counter() - started
    print(
        f"seeds {args.seeds}, {args.days} days x {args.hands} hands each "
        f"({total_hands} hands, {elapsed:.0f} s), threshold {args.threshold}"
    )
    print(f"{'hands together':>15} {'recall':>14} {'FPR':>16} {'honest p99':>11}")
    for n in args.milestones:
        found, planted = hits[n]
        flagged, honest = false[n]
        scores = sorted(honest_scores[n])
        p99 = scores[min(len(scores) - 1, int(0.99 * len(scores)))] if scores else float("nan")
        recall = f"{found}/{planted} {found / planted:.0%}" if planted else "-"
        fpr = f"{flagged}/{honest} {flagged / honest:.1%}" if honest else "-"
        print(f"{n:>15} {recall:>14} {fpr:>16} {p99:>11.2f}")


if __name__ == "__main__":
    main()
