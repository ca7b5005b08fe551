"""Laws of generated hands, over many seeds (hypothesis)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from replayer.poker.replay import adjudicate_hand
from replayer.rulebooks.registry import get_rulebook
from simulate.faults import PLANTERS
from simulate.players import player_pool
from simulate.poker import HandPlan, play_hand
from simulate.tables import TABLE_KINDS, make_tables

START = datetime(2025, 3, 1, 12, tzinfo=UTC)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    kind=st.integers(0, len(TABLE_KINDS) - 1),
    players=st.integers(2, 10),
    misdeal=st.booleans(),
)
def test_hands_conserve_chips_and_replay_clean(
    seed: int, kind: int, players: int, misdeal: bool
) -> None:
    table = make_tables(seed, len(TABLE_KINDS))[kind]
    book = get_rulebook(table.rulebook)
    players = max(players, book.min_players)
    rng = random.Random(seed)
    pool = player_pool(seed, table.venue, players)
    unit = table.big_blind or table.min_bet
    seated = [(i + 1, p, rng.randint(1, 150) * unit) for i, p in enumerate(pool)]
    plan = HandPlan("t/1", START, players, seated, misdeal=misdeal)
    hand = play_hand(table, book, plan, rng)
    settlement = hand.settlement
    rake = sum(chips for chips, _ in settlement.rake)
    assert sum(hand.starting) == sum(hand.finishing(settlement)) + rake + sum(hand.retained)
    assert all(stack >= 0 for stack in hand.finishing(settlement))
    verdict = adjudicate_hand(hand.render(), rake_terms=table.rake_terms, with_steps=False)
    assert verdict.findings == ()
    for name, planter in sorted(PLANTERS.items()):
        planted = planter(hand, random.Random(seed))
        if planted is not None:
            faulty, _ = planted
            judged = adjudicate_hand(
                hand.render(faulty), rake_terms=table.rake_terms, with_steps=False
            )
            assert judged.findings, name
