"""CPU per event of the compact state's codec alone, on the Pluribus hands.

    .venv/bin/python benchmarks/compact_codec.py [FOLDER] [--rounds N]

FOLDER holds the hands' ``.phh`` files (default ``/work/data/pluribus``). Every hand's
events are built once (``hand_events``), then each round times, as CPU of this process
with the cyclic garbage collector off, ``compact.encode`` of every event (what ingest does
per event: the write and whatever makes it exact) and ``compact.decode`` of every state.
Prints the best round of each in µs per event. Runs on any checkout that has
``audit.store.compact`` (only ``encode`` and ``decode`` are called), so it compares
versions.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit.ingest.phh import hand_events, iter_phh_records
from audit.store import compact

RECORDED = datetime(2026, 12, 5, 12, 0, 0, 123456, tzinfo=UTC)


def cpu(work: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        result = work()
        return time.process_time() - start, result
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=Path("/work/data/pluribus"))
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    events = [
        event
        for path in sorted(args.folder.rglob("*.phh"))
        for record in iter_phh_records(path)
        if not isinstance(record, Exception)
        for event in hand_events(record, default_rulebook="gg-2022-cash-holdem")
    ]
    encode, decode = compact.encode, compact.decode
    states: list[bytes | None] = []
    best_encode = best_decode = float("inf")
    for _ in range(args.rounds):
        seconds, states = cpu(lambda: [encode("poker", RECORDED, event) for event in events])
        best_encode = min(best_encode, seconds)
        stored = [state for state in states if state is not None]
        seconds, _ = cpu(lambda stored=stored: [decode(state) for state in stored])
        best_decode = min(best_decode, seconds)
    compact_count = sum(state is not None for state in states)
    print(f"{len(events):,} events, {compact_count:,} stored compactly")
    print(f"encode {best_encode / len(events) * 1e6:6.2f} µs of CPU per event")
    print(f"decode {best_decode / max(compact_count, 1) * 1e6:6.2f} µs of CPU per event")


if __name__ == "__main__":
    main()
