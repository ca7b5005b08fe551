"""The poker replay judges a hand's events whatever order and mapping type they come in.

``adjudicate_hand`` holds its events as dicts in sequence order (``replay._in_sequence``):
events already in order are only checked, others sorted, a mapping that is not a dict
copied. The oracle is the verdict of the same events as plain dicts in sequence order.
"""

from __future__ import annotations

import random
from types import MappingProxyType

import pytest

from replayer.findings import FindingKind
from replayer.poker import adjudicate_hand
from tests.poker_sim import simulate

SEEDS = range(6)


def _events(seed: int) -> list[dict]:
    return simulate(random.Random(seed), "NT", rulebook="gg-2022-cash-holdem").events


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffled_events_give_the_verdict_of_ordered_ones(seed: int) -> None:
    events = _events(seed)
    shuffled = list(events)
    random.Random(seed).shuffle(shuffled)
    assert shuffled != events
    assert adjudicate_hand(shuffled) == adjudicate_hand(events)
    assert adjudicate_hand(list(reversed(events))) == adjudicate_hand(events)


@pytest.mark.parametrize("seed", SEEDS)
def test_read_only_mappings_give_the_verdict_of_dicts(seed: int) -> None:
    events = _events(seed)
    proxies = [MappingProxyType(event) for event in events]
    assert adjudicate_hand(proxies) == adjudicate_hand(events)
    assert adjudicate_hand(tuple(events)) == adjudicate_hand(events)


def test_the_events_given_are_not_changed() -> None:
    events = _events(1)
    before = [dict(event) for event in reversed(events)]
    given = list(reversed(events))
    adjudicate_hand(given)
    assert given == before


def test_an_event_without_a_sequence_is_a_gap_not_a_crash() -> None:
    events = _events(2)
    broken = [dict(event) for event in events]
    del broken[3]["sequence"]
    verdict = adjudicate_hand(broken)
    quality = [f for f in verdict.findings if f.kind is FindingKind.DATA_QUALITY]
    assert any("sequence" in f.reason for f in quality)
