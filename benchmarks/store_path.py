"""The store path's own CPU, phase by phase: replaying the Pluribus hands from the store
against judging them in memory.

    .ci/with-postgres .venv/bin/python benchmarks/store_path.py [PHH_FOLDER]

PHH_FOLDER defaults to the Pluribus archive of ../shared/data/phh, unpacked to a
temporary folder. One process, one core; CPU time (``time.process_time``), steadier than
the clock on a shared machine. The hands are ingested into SQLite and, when
``CASINO_AUDIT_TEST_PG_URL`` names a server (``.ci/with-postgres``), into a fresh
PostgreSQL schema; then, per store, in µs of CPU per hand:

* replay: ``casino-audit replay`` of the poker hands (reads, judging, verdicts stored);
* its phases, each timed alone on the same store: reads (the batches of subjects as
  replay reads them: the query, the rows, the states decoded into records), judging
  (``gather`` and ``judge`` of the records read), the verdict units (``verdict_unit``:
  findings, context and the inputs' digest, timed apart), and writing them (``append``
  of the units, a batch at a time, into a store holding the same hands and no verdicts);
* judging in memory: ``adjudicate_hand`` over the events converted from the PHH files
  (no store), the figure the ratio ``in memory / from the store`` is taken against.

The replayer's build (compiled by mypyc, or pure Python) is printed first: judging
depends on it, the store path's phases do not. No assertion: a benchmark.
"""

from __future__ import annotations

import gc
import os
import sys
import tarfile
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit.ingest.phh import hand_events, iter_phh_records
from audit.ingest.pipeline import ingest
from audit.judging import TermsBook, gather, judge, replay, verdict_unit
from audit.judging.replay import DEFAULT_BATCH
from audit.store import AuditStore
from replayer.compiled import build_description
from replayer.poker import adjudicate_hand
from replayer.poker.evaluator import rank_five

ARCHIVE = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh" / "pluribus-2019.tar.gz"
RULEBOOK = "gg-2022-cash-holdem"


def cpu(work: Callable[[], Any]) -> tuple[float, Any]:
    """(CPU seconds, result) of ``work()``, after a collection."""
    gc.collect()
    began = time.process_time()
    result = work()
    return time.process_time() - began, result


def fresh(url: str, folder: Path) -> AuditStore:
    """A store at ``url`` holding the hands of ``folder`` and nothing else."""
    store = AuditStore(url)
    ingest(store, [folder], rulebooks=[RULEBOOK])
    return store


def phases(urls: tuple[str, str, str], folder: Path) -> dict[str, float]:
    """CPU seconds of a replay and of each of its phases, on three fresh stores of the
    same hands (replayed; read, judged and digested; written into)."""
    replayed = fresh(urls[0], folder)
    seconds: dict[str, float] = {}
    seconds["replay from the store"], summary = cpu(lambda: replay(replayed, kinds=["poker"]))
    replayed.close()
    store = fresh(urls[1], folder)
    seconds["  reads (query, rows, decode)"], batches = cpu(
        lambda: list(store.iter_subject_batches("poker", DEFAULT_BATCH))
    )
    book = TermsBook(store)

    def judged() -> list[tuple[Any, Any]]:
        out = []
        for subjects in batches:
            book.prefetch("poker", subjects)
            for subject, records in subjects:
                inputs = gather(store, "poker", subject, records, book)
                out.append((inputs, judge(inputs)))
        return out

    seconds["  judging (gather, judge)"], verdicts = cpu(judged)
    seconds["  verdict units"], units = cpu(lambda: [verdict_unit(*v) for v in verdicts])
    seconds["    of which the inputs' digest"], _ = cpu(
        lambda: [i.digest(getattr(v, "rulebook_id", None)) for i, v in verdicts]
    )
    store.close()
    target = fresh(urls[2], folder)

    def write() -> None:
        for start in range(0, len(units), DEFAULT_BATCH):
            target.append(units[start : start + DEFAULT_BATCH])

    seconds["  writing the verdicts"], _ = cpu(write)
    target.close()
    assert summary.subjects["poker"] == len(units)
    return seconds


def main(folder: Path, work: Path) -> None:
    a, b, c = (f"sqlite:///{work / name}.db" for name in "abc")
    stores = {"SQLite": (a, b, c)}
    pg_base = os.environ.get("CASINO_AUDIT_TEST_PG_URL")
    if pg_base:
        a, b, c = (f"{pg_base}?schema=store_path_{uuid.uuid4().hex[:8]}" for _ in "abc")
        stores["PostgreSQL"] = (a, b, c)
    hands = [
        hand_events(record, default_rulebook=RULEBOOK)
        for path in sorted(folder.rglob("*.phh"))
        for record in iter_phh_records(path)
    ]
    rank_five(["As", "Ks", "Qs", "Js", "Ts"])  # the evaluator's tables, built before timing
    memory, _ = cpu(lambda: [adjudicate_hand(h, with_steps=False) for h in hands])
    per_hand = memory / len(hands) * 1e6
    print(f"Pluribus hands: {len(hands):,}; replayer {build_description()}; CPU µs per hand")
    print(f"  judging in memory                 {per_hand:8.0f}")
    for name, urls in stores.items():
        measured = phases(urls, folder)
        print(f"  {name}:")
        for phase, seconds in measured.items():
            print(f"  {phase:<34}{seconds / len(hands) * 1e6:8.0f}")
        ratio = memory / measured["replay from the store"]
        print(f"  replay from {name} / in memory     {ratio:8.2f}")


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
