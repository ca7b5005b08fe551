"""Verdicts of the replayer and the rows of an ingest, printed for
``tests/project/test_compiled_build.py`` to compare the compiled build with the pure-Python one
(``replayer.compiled``, ``audit.compiled``).

    python -m tests.compiled_parity

prints one JSON object: which of the compiled modules this process loaded compiled, the
full ``repr`` of every verdict (steps included) of the vendored PHH sample
(``tests/data/phh``, Pluribus, WSOP and historical hands), of its events (and of
flawed copies' rejections: ``audit.ingest.phh`` is compiled too), and of the seeded PokerKit
differential sample of ``tests/replayer/test_poker_replay.py`` (its CI seeds, fewer hands), of
seeded banked rounds of every game (``simulate.casino``, clean and with each planted fault)
and of their chemin de fer tables' banker runs, and every stored row of a seeded poker
file ingested at a fixed time (state bytes, chain links) with the checkpoint's chain head
and Merkle root.
"""

from __future__ import annotations

import json
import random
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import audit.store.application
from audit.compiled import COMPILED_MODULES as INGEST_MODULES
from audit.families import family_named
from audit.ingest.avro_files import write_events
from audit.ingest.errors import RecordRejected
from audit.ingest.phh import PhhRecord, hand_events, iter_phh_records
from audit.ingest.pipeline import ingest
from audit.store import AuditStore
from replayer.casino import adjudicate_round
from replayer.casino.garage import check_banker_runs
from replayer.compiled import COMPILED_MODULES, loaded_compiled
from replayer.poker import adjudicate_hand
from replayer.rulebooks.poker import RakeTerms
from simulate.casino import BANKED_FAULTS, SIMULATORS, plant
from tests.poker_sim import simulate
from tests.replayer.test_poker_replay import CASES, _without_rake

PHH_SAMPLE = Path(__file__).resolve().parent / "data" / "phh"
DIFFERENTIAL_HANDS = 100
"""Hands per case of the differential sample (the CI tier replays 300)."""
BANKED_ROUNDS = 120
"""Rounds per game of the banked sample, each planted with one of the faults in turn."""
BANKED_START = datetime(2024, 5, 4, 18, 0, tzinfo=UTC)
INGESTED_HANDS = 120
"""Hands of the seeded file the ingest sample stores."""
INGESTED_AT = datetime(2025, 3, 2, 4, 5, 6, 789_012, tzinfo=UTC)
"""The recording time of the ingest sample (a stored state holds it)."""


def phh_verdicts() -> list[str]:
    """Every hand of the vendored PHH sample, judged with its steps (variant's GG-2022
    rulebook, as ``tests/replayer/test_replay_real_hands.py`` ingests them)."""
    verdicts = []
    for path in sorted(PHH_SAMPLE.rglob("*.phh")):
        for record in iter_phh_records(path):
            if not isinstance(record, PhhRecord):
                verdicts.append(f"rejected {record}")
                continue
            try:
                events = hand_events(record, default_rulebook=_rulebook(path))
            except RecordRejected as rejected:
                verdicts.append(f"rejected {rejected}")
                continue
            verdicts.append(repr(adjudicate_hand(events)))
    return verdicts


PHH_FLAWS = (
    ("dh p1 ", "dh p1 Z"),
    ("actions = [", "actions = ['p9 cc', "),
    ("actions = [", "actions = ['p1 cbr 1.001', "),
    ("min_bet = ", "min_bet = -"),
    ("antes = [", "antes = [0.5, "),
    ("variant = ", "year = 2024\nmonth = 2\nday = 30\nvariant = "),
    ("variant = ", "hand = 123456789012345678901234\nvariant = "),
    ("variant = ", "[table]\nvariant = "),
    ("\n", "\r\n"),
)
"""Edits of a sample hand (``old``, ``new``, first occurrence) that the reader or the
conversion rejects, or reads by ``tomllib`` instead of ``flat_toml``."""


def phh_events(work: Path) -> list[str]:
    """Every record of the vendored PHH sample as events (their full ``repr``) or as its
    rejection, and the rejections of ``PHH_FLAWS`` applied to each of its first hands,
    written to ``work``."""
    paths = sorted(PHH_SAMPLE.rglob("*.phh"))
    flawed = []
    for number, (old, new) in enumerate(PHH_FLAWS):
        for index, sample in enumerate(paths[:3]):
            path = work / f"flaw-{number}-{index}.phh"
            path.write_text(sample.read_text(encoding="utf-8").replace(old, new, 1))
            flawed.append(path)
    converted = []
    for path in paths + flawed:
        for record in iter_phh_records(path):
            if not isinstance(record, PhhRecord):
                converted.append(f"rejected {record.field}: {record.reason}")
                continue
            try:
                converted.append(repr(hand_events(record, default_rulebook=_rulebook(path))))
            except RecordRejected as rejected:
                converted.append(f"rejected {rejected.field}: {rejected.reason}")
    return converted


def _rulebook(path: Path) -> str:
    return "gg-2022-cash-omaha" if "variant = 'PO'" in path.read_text() else "gg-2022-cash-holdem"


def differential_verdicts() -> list[str]:
    """The differential's random legal hands (``tests.poker_sim``), its seeds and
    rulebooks: unraked under a declared rake of 0, and MO-97/2010 omaha raked."""
    verdicts = []
    for variant, book in CASES:
        with _without_rake(book) as unraked:
            verdicts += _simulated(variant, unraked, 2024, RakeTerms(0, 0), {})
    raked = {"rake_percentage": 0.05, "rake_cap": 10}
    verdicts += _simulated("PO", "mo-97-2010-omaha", 7, None, raked)
    return verdicts


def _simulated(
    variant: str, book: str, seed: int, terms: RakeTerms | None, rake: dict[str, float]
) -> list[str]:
    rng = random.Random(seed)
    limited = 3 if book.startswith("mo") else None
    hands = (
        simulate(rng, variant, rulebook=book, hand_number=n, max_raises=limited, **rake)
        for n in range(DIFFERENTIAL_HANDS)
    )
    return [repr(adjudicate_hand(hand.events, rake_terms=terms)) for hand in hands]


def banked_verdicts() -> list[str]:
    """Seeded rounds of every game (``simulate.casino``), each clean and with one of the
    planted faults in turn, judged with their steps; and the banker runs of the chemin de
    fer rounds taken as one table's."""
    verdicts = []
    for game in sorted(SIMULATORS):
        rng = random.Random(f"parity-{game}")
        rounds = []
        for index in range(BANKED_ROUNDS):
            clean = SIMULATORS[game](rng, f"{game}-{index}", BANKED_START)
            planted = plant(clean, BANKED_FAULTS[index % len(BANKED_FAULTS)])
            rounds.append(clean)
            verdicts.append(repr(adjudicate_round(clean)))
            if planted is not None:
                verdicts.append(repr(adjudicate_round(planted[0])))
        if game == "chemin_de_fer":
            verdicts.append(repr(check_banker_runs(rounds)))
    return verdicts


class _IngestClock(datetime):
    """``datetime`` whose ``now`` is ``INGESTED_AT``: the store's recording time, fixed."""

    @classmethod
    def now(cls, tz: Any = None) -> Any:
        return INGESTED_AT


def ingested_rows() -> dict[str, Any]:
    """A seeded poker file (``tests.poker_sim`` hands, one event made negative and one
    card dealt twice for the invariants to reject) ingested from ``ingest-sample/`` in
    the working folder into a fresh SQLite store there at ``INGESTED_AT``: every row
    (identity, topic, state, chain links, hex), the ingest's counts, and the checkpoint's
    chain head, event count and Merkle root."""
    rng = random.Random(24)
    events = [
        event
        for number in range(INGESTED_HANDS)
        for event in simulate(rng, "NT", rulebook="gg-2022-cash-holdem", hand_number=number).events
    ]
    amounts = [event for event in events if isinstance(event.get("amount"), int)]
    amounts[7]["amount"] = -5
    dealt = [event for event in events if event["type"] == "CardsDealt"]
    dealt[3]["cards"] = [dealt[2]["cards"][0], *dealt[3]["cards"][1:]]
    audit.store.application.datetime = _IngestClock  # type: ignore[misc]
    folder = Path.cwd() / "ingest-sample"  # the path is in the quarantine's records
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    path = folder / "hands.avro"
    write_events(path, family_named("poker"), events)
    store = AuditStore(f"sqlite:///{folder / 'store.db'}")
    try:
        summary = ingest(store, [path])
        checkpoint = store.checkpoint()
        rows = [
            [
                row.notification_id,
                row.originator_id,
                row.originator_version,
                row.topic,
                row.state.hex(),
                row.chain_prev.hex(),
                row.chain_hash.hex(),
                row.shard,
                row.form,
            ]
            for row in store.recorder.iter_chain_rows()
        ]
    finally:
        store.close()
        shutil.rmtree(folder)
    assert checkpoint is not None
    return {
        "rows": rows,
        "stored": summary.events_stored,
        "quarantined": summary.quarantined,
        "head": [checkpoint.chain_hash.hex(), checkpoint.event_count, checkpoint.tree_root.hex()],
    }


def main() -> None:
    print(
        json.dumps(
            {
                "compiled": loaded_compiled(COMPILED_MODULES + INGEST_MODULES),
                "phh": phh_verdicts(),
                "phh_events": phh_events(Path.cwd()),
                "differential": differential_verdicts(),
                "banked": banked_verdicts(),
                "ingest": ingested_rows(),
            }
        )
    )


if __name__ == "__main__":
    main()
