"""Batches of simulated rounds: clean ones raise nothing, planted faults exactly their findings."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from replayer.casino import adjudicate_round
from simulate.casino import FAULTS, SIMULATORS, plant

START = datetime(2024, 5, 4, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize("game", sorted(SIMULATORS))
def test_clean_batch_has_no_findings(game: str) -> None:
    rng = random.Random(f"clean-{game}")
    for index in range(200):
        verdict = adjudicate_round(SIMULATORS[game](rng, f"{game}-{index}", START))
        assert verdict.findings == (), (index, [f.reason for f in verdict.findings])


@pytest.mark.parametrize("game", sorted(SIMULATORS))
def test_planted_faults_yield_exactly_the_planted_findings(game: str) -> None:
    rng = random.Random(f"planted-{game}")
    planted: Counter[str] = Counter()
    found: Counter[str] = Counter()
    for index in range(200):
        clean = SIMULATORS[game](rng, f"{game}-{index}", START)
        faulty = plant(clean, FAULTS[index % len(FAULTS)])
        if faulty is None:
            continue
        events, kinds = faulty
        findings = adjudicate_round(events).findings
        assert sorted(f.kind for f in findings) == sorted(kinds), (index, kinds)
        planted.update(kinds)
        found.update(str(f.kind) for f in findings)
    assert found == planted
    assert sum(planted.values()) >= 100 and len(planted) >= 2  # faults really were planted


def test_replay_is_deterministic() -> None:
    events = plant(SIMULATORS["blackjack"](random.Random(7), "bj-7", START), "overpaid")
    assert events is not None
    first, second = adjudicate_round(events[0]), adjudicate_round(list(reversed(events[0])))
    assert [f.canonical_json() for f in first.findings] == [
        f.canonical_json() for f in second.findings
    ]
    assert first == second


@pytest.mark.parametrize("game", sorted(SIMULATORS))
def test_verdict_without_steps_is_the_same_verdict(game: str) -> None:
    """``with_steps=False`` (the nightly's and replay's judging) leaves out the
    step-by-step view and nothing else, on clean rounds and on every planted fault."""
    rng = random.Random(f"steps-{game}")
    compared = 0
    for index in range(100):
        clean = SIMULATORS[game](rng, f"{game}-{index}", START)
        faulty = plant(clean, FAULTS[index % len(FAULTS)])
        for events in (clean, faulty[0] if faulty else None):
            if events is None:
                continue
            full = adjudicate_round(events)
            assert full.steps  # the default builds the view
            lean = adjudicate_round(events, with_steps=False)
            assert lean.steps == ()
            assert lean == replace(full, steps=())
            compared += 1
    assert compared >= 150
