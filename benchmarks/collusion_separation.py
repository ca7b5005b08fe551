"""Separation of honest and planted pairs by the collusion detector, over several seeds:
the measurement behind ``THRESHOLD`` and ``MIN_HANDS`` (``pipelines.detectors.collusion``).

    .venv/bin/python benchmarks/collusion_separation.py [--seeds 1 ... 8] [--populations demo]

Two populations per seed, each scored once at the end of its window (every pair, however
few hands it shared):

* ``demo``: the demo day's settings (``simulate.demo``: one day of 3,000
  hands at eight tables, two planted pairs, 1% planted faults);
* ``small``: the collusion test's (``tests/pipelines/test_collusion.py``: two days of 2,500 hands
  at three tables, 45 players, four planted groups).

Printed per band of shared hands: the honest pairs' count, 99th percentile and maximum
score, and every planted pair's score; then, at ``--threshold`` and ``--min-hands``, the
false alarms, the planted pairs found, missed and left undecided ("not enough shared
hands to judge"). No assertions: a benchmark.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

from audit.ingest.avro_files import read_events
from pipelines.detectors.collusion import MIN_HANDS, THRESHOLD, CollusionDetector
from simulate import generate_day
from simulate.demo import DEMO_DAY, DEMO_HANDS

BANDS = (1, 50, 100, 200, 500)
POPULATIONS: dict[str, dict[str, Any]] = {
    "demo": {"days": 1, "hands": DEMO_HANDS, "colluders": 2, "fault_rate": 0.01},
    "small": {
        "days": 2,
        "hands": 2_500,
        "tables": 3,
        "players": 45,
        "colluders": [("chip_dumping", 2), ("soft_play", 2), ("whipsaw", 2), ("soft_play", 3)],
    },
}


def _hands(out: Path, input_files: list[str]) -> Iterator[list[dict[str, Any]]]:
    for name in input_files:
        hands: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for event in read_events(out / name):
            hands[event["hand_id"]].append(event)
        yield from hands.values()


def run(seed: int, settings: dict[str, Any], folder: Path) -> list[tuple[int, float, str]]:
    """(shared hands, score, method or "") of every pair of one seed's population."""
    options = dict(settings)
    days = options.pop("days")
    detector = CollusionDetector(as_of=DEMO_DAY + timedelta(days=days - 1), min_hands=1)
    planted: dict[tuple[str, ...], str] = {}
    for k in range(days):
        out = folder / f"{seed}-{k}"
        manifest = generate_day(seed, DEMO_DAY + timedelta(days=k), out=out, **options)
        for events in _hands(out, manifest.input_files):
            detector.observe(events)
        for group in manifest.collusion:
            members = sorted(group.players)
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    planted[(a, b)] = group.method
    return [(s.shared_hands, s.score, planted.get(s.players, "")) for s in detector.scores()]


def band_of(n: int) -> int:
    return max(b for b in BANDS if b <= n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5, 6, 7, 8])
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--min-hands", type=int, default=MIN_HANDS)
    parser.add_argument("--populations", nargs="+", choices=POPULATIONS, default=list(POPULATIONS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.populations:
            settings = POPULATIONS[name]
            honest: dict[int, list[float]] = defaultdict(list)
            planted: dict[int, list[str]] = defaultdict(list)
            tally = dict.fromkeys(("false alarms", "found", "missed", "undecided"), 0)
            for seed in args.seeds:
                for n, score, method in run(seed, settings, Path(tmp) / name):
                    judged = n >= args.min_hands
                    if method:
                        planted[band_of(n)].append(f"{score:.1f}@{n} ({method}, seed {seed})")
                        verdict = "found" if score >= args.threshold else "missed"
                        tally[verdict if judged else "undecided"] += 1
                    else:
                        honest[band_of(n)].append(score)
                        tally["false alarms"] += judged and score >= args.threshold
            print(f"{name}: seeds {args.seeds}")
            for low in BANDS:
                scores = sorted(honest[low])
                if scores:
                    p99 = scores[min(len(scores) - 1, int(0.99 * len(scores)))]
                    print(
                        f"  {low:>4}+ shared hands: {len(scores):>5} honest pairs, "
                        f"p99 {p99:.2f}, max {scores[-1]:.2f}"
                    )
                for line in planted[low]:
                    print(f"        planted {line}")
            print(
                f"  at threshold {args.threshold}, {args.min_hands}+ shared hands: "
                + ", ".join(f"{v} {k}" for k, v in tally.items())
            )


if __name__ == "__main__":
    main()
