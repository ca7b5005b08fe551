"""The 10,000 Pluribus hands: ingest and replay speed beside PokerKit on the same files.

    .venv/bin/python benchmarks/pluribus.py [PHH_FOLDER]

PHH_FOLDER defaults to the Pluribus archive of ../shared/data/phh, unpacked to a
temporary folder. One process, one core. Prints hands/s for:

* ingest: PHH files -> validated events -> the SQLite store (hash chain, batches);
* replay from the store: read every hand back and judge it (``casino-audit replay``);
* replay in memory: ``adjudicate_hand`` over the converted events (no I/O, no steps);
* PokerKit: iterating every state of the same files' ``HandHistory`` (PokerKit's own
  replay of PHH, with its showdown and chip pushing), parsed beforehand like ours;

and the ratio of our in-memory replay to PokerKit's. No assertion: a benchmark.
"""

from __future__ import annotations

import gc
import sys
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerkit import HandHistory

from audit.adjudicate import replay
from audit.ingest.phh import hand_events, iter_phh_records
from audit.ingest.pipeline import ingest
from audit.store import AuditStore
from replayer.poker import adjudicate_hand

ARCHIVE = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh" / "pluribus-2019.tar.gz"
RULEBOOK = "gg-2022-cash-holdem"


def rate(count: int, seconds: float) -> str:
    return f"{count:>6,} hands in {seconds:7.2f} s = {count / seconds:>9,.0f} hands/s"


def main(folder: Path, work: Path) -> None:
    files = sorted(folder.rglob("*.phh"))
    store = AuditStore(f"sqlite:///{work / 'pluribus.db'}")
    began = time.perf_counter()
    summary = ingest(store, [folder], rulebooks=[RULEBOOK])
    ingest_s = time.perf_counter() - began
    began = time.perf_counter()
    replayed = replay(store, kinds=["poker"])
    replay_s = time.perf_counter() - began

    hands = [
        hand_events(record, default_rulebook=RULEBOOK)
        for path in files
        for record in iter_phh_records(path)
    ]
    gc.collect()
    gc.freeze()
    began = time.perf_counter()
    with_findings = sum(bool(adjudicate_hand(h, with_steps=False).findings) for h in hands)
    memory_s = time.perf_counter() - began

    began = time.perf_counter()
    histories = []
    for path in files:
        with path.open("rb") as stream:
            histories.append(HandHistory.load(stream))
    parse_s = time.perf_counter() - began
    began = time.perf_counter()
    for history in histories:
        for _ in history:
            pass
    pokerkit_s = time.perf_counter() - began

    print(f"Pluribus hands: {len(files):,} files")
    print(f"  ingest into SQLite        {rate(summary.subjects_stored, ingest_s)}")
    print(f"  replay from the store     {rate(replayed.subjects['poker'], replay_s)}")
    print(
        f"  replay in memory          {rate(len(hands), memory_s)}  ({with_findings} with findings)"
    )
    print(f"  PokerKit replay           {rate(len(files), pokerkit_s)}  (parsed beforehand)")
    print(f"  PokerKit parse + replay   {rate(len(files), parse_s + pokerkit_s)}")
    print(f"  in-memory replay / PokerKit replay = {pokerkit_s / memory_s:.1f}x")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        if len(sys.argv) > 1:
            source = Path(sys.argv[1])
        else:
            with tarfile.open(ARCHIVE) as tar:
                tar.extractall(tmp, filter="data")
            source = tmp / "pluribus"
        main(source, tmp)
