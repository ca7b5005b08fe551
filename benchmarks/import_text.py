"""Room text import benchmark: GGPoker text hands against PHH, the same hands.

    .venv/bin/python benchmarks/import_text.py [--hands 100000] [--ingest 10000]

1. Plays ``--distinct`` hands with the simulator (``tests.poker_sim``) and repeats them
   under new hand numbers up to ``--hands``, written as one GGPoker text file (by
   ``tests.room_text_writer``) and as one ``.phhs`` file (``audit.ingest.phh.export``).
2. Reads both files to events (conversion only: no store), hands/s and events/s.
3. Ingests the first ``--ingest`` hands of each end to end into a fresh SQLite store.
Prints the figures; no assertion: a benchmark.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit.ingest.limits import Limits
from audit.ingest.phh.export import hand_phh
from audit.ingest.pipeline import ingest, units_of
from audit.store import AuditStore
from tests.poker_sim import simulate
from tests.room_text_writer import write

HEADER_ZONE = "UTC"
"""The zone declared for the generated GGPoker headers (they give none; their times are UTC)."""


def files(folder: Path, hands: int, distinct: int, first: int) -> tuple[Path, Path]:
    """(GG text, PHH) files of ``hands`` hands, the first ``first`` of them."""
    played = [
        simulate(
            random.Random(seed), random.Random(seed).choice(["NT", "PO"]), hand_number=seed
        ).events
        for seed in range(distinct)
    ]
    text, phh = folder / f"gg-{first}.txt", folder / f"hands-{first}.phhs"
    limit = Limits.from_env().max_phh_file_bytes
    with text.open("w") as gg, phh.open("w") as out:
        for number in range(min(hands, first)):
            events = played[number % distinct]
            hand_id = f"bench/{number}"
            renamed = [{**e, "hand_id": hand_id} for e in events]
            gg.write(write(renamed, "ggpoker", str(10**9 + number)) + "\n")
            out.write(f"[{number + 1}]\n{hand_phh(renamed)}\n")
    for path in (text, phh):
        if path.stat().st_size > limit:
            print(
                f"note: {path.name} is {path.stat().st_size:,} bytes, over the file limit;"
                " raise CASINO_AUDIT_MAX_PHH_FILE_BYTES"
            )
    return text, phh


def convert(path: Path) -> tuple[int, int, float]:
    start = time.perf_counter()
    hands = events = 0
    for unit in units_of(path, (), header_zone=HEADER_ZONE):
        hands += 1
        events += len(getattr(unit, "records", ()))
    return hands, events, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=1_000)
    parser.add_argument("--ingest", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        gg, phh = files(Path(folder), args.hands, args.distinct, args.hands)
        for name, path in (("GGPoker text", gg), ("PHH (.phhs)", phh)):
            hands, events, seconds = convert(path)
            print(
                f"{name:>13} convert: {hands:,} hands, {events:,} events in {seconds:.1f} s: "
                f"{hands / seconds:,.0f} hands/s, {events / seconds:,.0f} events/s "
                f"({path.stat().st_size / 2**20:.1f} MiB)"
            )
        gg, phh = files(Path(folder), args.hands, args.distinct, args.ingest)
        for name, path in (("GGPoker text", gg), ("PHH (.phhs)", phh)):
            store = AuditStore(f"sqlite:///{Path(folder) / (path.stem + '.db')}")
            start = time.perf_counter()
            summary = ingest(store, [path], header_zone=HEADER_ZONE)
            seconds = time.perf_counter() - start
            print(
                f"{name:>13} ingest (SQLite): {summary.subjects_stored:,} hands, "
                f"{summary.events_stored:,} events in {seconds:.1f} s: "
                f"{summary.subjects_stored / seconds:,.0f} hands/s"
            )
            store.close()


if __name__ == "__main__":
    main()
