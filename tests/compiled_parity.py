"""Verdicts of the replayer, printed for ``tests/test_compiled_build.py`` to compare the
compiled build with the pure-Python one (``replayer.compiled``).

    python -m tests.compiled_parity

prints one JSON object: which of the compiled modules this process loaded compiled, and
the full ``repr`` of every verdict (steps included) of the vendored PHH sample
(``tests/data/phh``, Pluribus, WSOP and historical hands) and of the seeded PokerKit
differential sample of ``tests/test_poker_replay.py`` (its CI seeds, fewer hands).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from audit.ingest.errors import RecordRejected
from audit.ingest.phh import PhhRecord, hand_events, iter_phh_records
from replayer.compiled import loaded_compiled
from replayer.poker import adjudicate_hand
from replayer.rulebooks.poker import RakeTerms
from tests.poker_sim import simulate
from tests.test_poker_replay import CASES, _without_rake

PHH_SAMPLE = Path(__file__).resolve().parent / "data" / "phh"
DIFFERENTIAL_HANDS = 100
"""Hands per case of the differential sample (the CI tier replays 300)."""


def phh_verdicts() -> list[str]:
    """Every hand of the vendored PHH sample, judged with its steps (variant's GG-2022
    rulebook, as ``tests/test_replay_real_hands.py`` ingests them)."""
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


def main() -> None:
    print(
        json.dumps(
            {
                "compiled": loaded_compiled(),
                "phh": phh_verdicts(),
                "differential": differential_verdicts(),
            }
        )
    )


if __name__ == "__main__":
    main()
