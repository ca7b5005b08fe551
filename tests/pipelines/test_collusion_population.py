"""The collusion detector against the independent population (``tests.population``):
players and colluders written from the methods' published descriptions, every hand dealt
and settled by PokerKit. The fixed-seed tier runs in every test run; the long tier is the
measurement of ``docs/figures.md`` (*Collusion on the independent population*), through
``benchmarks/collusion_population.py``."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from pokerkit import StandardHighHand

from pipelines.detectors.collusion import CollusionDetector
from pipelines.detectors.collusion_cards import FOLDS_AHEAD, card_spots
from tests.population.measure import measure
from tests.population.methods import (
    CHIP_DUMPING,
    HOLE_CARD_SHARING,
    METHODS,
    MULTI_ACCOUNTING,
    RING,
    SOFT_PLAY,
    TEAM_ACROSS_TABLES,
    WHIPSAW,
)
from tests.population.room import Config, Room, pairs_of

AS_OF = date(2025, 3, 5)
#: The fixed-seed tier: one group of each of four methods, two pairs of honest friends
#: who always sit together, one honest table; 400 rounds (seven tables, 2,800 hands).
SMALL = Config(11, {CHIP_DUMPING: 1, WHIPSAW: 1, RING: 1, SOFT_PLAY: 1}, friends=2, honest_tables=1)
SMALL_ROUNDS = 400


@pytest.fixture(scope="module")
def small_room() -> tuple[Room, list[tuple[int, list[dict[str, Any]]]]]:
    room = Room(SMALL)
    return room, list(room.hands(SMALL_ROUNDS))


def test_every_hand_is_settled_by_pokerkit_and_conserves_chips(
    small_room: tuple[Room, list[tuple[int, list[dict[str, Any]]]]],
) -> None:
    """PokerKit refused no action (it raises on an illegal one) and paid every pot: what
    the seats were paid is what they put in, hand by hand."""
    _, hands = small_room
    assert len(hands) == SMALL_ROUNDS * 7
    for _, events in hands:
        put = sum(e["amount"] for e in events if e["type"] in ("BlindPosted", "ActionTaken"))
        paid = sum(e["amount"] for e in events if e["type"] == "PotAwarded")
        assert put == paid > 0, events[0]["hand_id"]
        assert [e["sequence"] for e in events] == list(range(len(events)))


def test_fixed_seed_tier_finds_every_group_and_accuses_no_honest_pair(
    small_room: tuple[Room, list[tuple[int, list[dict[str, Any]]]]],
) -> None:
    """At 300 shared hands (measured: the whipsaw pair 23.5, the ring 10.1, the soft-playing
    pair 12.2, the chip-dumping pair 8.4: the better hand folded to the partner's river
    bet, ``folds_ahead``; 5.1 at 100) every group is found; no pair of players not planted
    together is suspected at 100 or 300 shared hands, the honest friends who always sit
    together included."""
    room, hands = small_room
    measured = measure(hands, room.groups, AS_OF, checkpoints=(100, 300))
    for method in (WHIPSAW, RING, SOFT_PLAY, CHIP_DUMPING):
        assert measured.found[(method, 300)] == [True], method
    assert measured.scores[(CHIP_DUMPING, 300)][0] > measured.scores[(CHIP_DUMPING, 100)][0]
    assert measured.false_pairs == set()
    assert [judged > 0 for _, judged in measured.honest.values()] == [True, True]
    detector = CollusionDetector(as_of=AS_OF)
    for _, events in hands:
        detector.observe(events)
    for friends in room.friends:
        verdict = detector.verdict(friends)
        assert verdict.shared_hands == SMALL_ROUNDS
        assert verdict.verdict == "not suspected", verdict


def test_the_methods_are_the_published_ones() -> None:
    """Every method the issue names has a group size and rules; rings and teams have three
    or more players, multi-accounting two seats."""
    assert set(METHODS) == {
        "soft_play",
        "chip_dumping",
        "whipsaw",
        "hole_card_sharing",
        "ring",
        "team_across_tables",
        "multi_accounting",
    }
    assert METHODS[RING][1] >= 3 and METHODS["team_across_tables"][1] >= 3
    assert METHODS[MULTI_ACCOUNTING][1] == 2 and METHODS[MULTI_ACCOUNTING][2]
    assert pairs_of(["b", "a", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]


#: The long tier: the figures' measurement (docs/figures.md, *Collusion on the independent
#: population*): four rooms of five groups of every method but teams across tables (20 of
#: each), four pairs of honest friends and two honest tables each, 1,000 rounds.
LONG_SEEDS = (21, 22, 23, 24)
LONG_METHODS = tuple(m for m in METHODS if m != TEAM_ACROSS_TABLES)
#: Groups found of 20 at 1,000 shared hands, as measured (2026-12-07, threshold 5.5).
LONG_FOUND = {
    SOFT_PLAY: 16,
    CHIP_DUMPING: 19,
    WHIPSAW: 20,
    HOLE_CARD_SHARING: 17,
    RING: 20,
    MULTI_ACCOUNTING: 15,
}


@pytest.mark.long
def test_long_tier_recall_and_false_positives_at_volume() -> None:
    """Each method found at 1,000 shared hands in at least as many of its 20 groups as
    measured (``LONG_FOUND``: below the 90% target for soft play, hole-card sharing and
    multi-accounting, docs/figures.md), rings named whole; false positives at most 1% of
    the honest pairs with 100+ shared hands at every checkpoint; no honest friends
    suspected."""
    found: dict[str, list[bool]] = {}
    whole: list[bool] = []
    for seed in LONG_SEEDS:
        room = Room(Config(seed, dict.fromkeys(LONG_METHODS, 5), friends=4, honest_tables=2))
        measured = measure(room.hands(1_000), room.groups, AS_OF, checkpoints=(100, 300, 1_000))
        for method in LONG_METHODS:
            found.setdefault(method, []).extend(measured.found[(method, 1_000)])
        whole += measured.whole[(RING, 1_000)]
        for wrong, judged in measured.honest.values():
            assert wrong <= 0.01 * judged
        friends = {tuple(sorted(f)) for f in room.friends}
        assert not friends & measured.false_pairs
    for method, hits in found.items():
        assert len(hits) == 20 and sum(hits) >= LONG_FOUND[method], (method, sum(hits))
    assert sum(whole) >= 19


def test_the_better_hand_folded_is_the_better_hand_by_pokerkit(
    small_room: tuple[Room, list[tuple[int, list[dict[str, Any]]]]],
) -> None:
    """Every ``folds_ahead`` spot the detector reads (a river fold to the other's bet with
    the better hand) is one where PokerKit's own evaluator ranks the folder's seven cards
    above the bettor's; the fixed-seed room has hundreds of them."""
    checked = 0
    for _, events in small_room[1]:
        spots = [s for s in card_spots(events) if s[2] == FOLDS_AHEAD]
        if not spots:
            continue
        holes = {e["seat"]: e["cards"] for e in events if e.get("target") == "hole"}
        board = [c for e in events if e.get("target") == "board" for c in e["cards"]]
        for seat, other, _, _ in spots:
            mine, theirs = (
                StandardHighHand.from_game("".join(holes[s]), "".join(board)) for s in (seat, other)
            )
            assert mine > theirs, events[0]["hand_id"]
            checked += 1
    assert checked >= 100
