"""Rulebooks: registry, effective periods, variant coverage and named parameters."""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime, timedelta, timezone

import pytest

from replayer.findings import Finding, FindingKind
from replayer.poker import adjudicate_hand
from replayer.rankings import MO_97_2010, STANDARD, SYNTHETIC
from replayer.rulebooks.poker import (
    Citations,
    FirstToAct,
    MinRaise,
    OddChip,
    PokerRulebook,
    RaiseMax,
    SplitUnit,
)
from replayer.rulebooks.registry import all_rulebooks, choose_rulebook, get_rulebook
from tests.poker_sim import HandBuilder

REQUIRED = {
    "mo-97-2010-omaha",
    "pt-217-2007-omaha",
    "pt-217-2007-holdem",
    "pt-217-2007-synthetic",
    "gg-2022-cash-holdem",
    "gg-2022-cash-omaha",
}
MACAU = timezone(timedelta(hours=8))


def test_required_rulebooks_are_registered():
    ids = {book.id for book in all_rulebooks()}
    assert ids >= REQUIRED
    assert [book.id for book in all_rulebooks()] == sorted(ids)


@pytest.mark.parametrize("book_id", sorted(REQUIRED))
def test_every_rule_names_its_source(book_id):
    book = get_rulebook(book_id)
    assert isinstance(book, PokerRulebook)
    key = book.cite.rulebook
    for field in fields(Citations):
        assert getattr(book.cite, field.name).startswith(key), field.name
    assert book.valid_from.tzinfo is not None


def test_unknown_id_raises_naming_known_ids():
    with pytest.raises(KeyError, match="mo-97-2010-omaha"):
        get_rulebook("nope")


def test_mo_in_force_from_2010_08_10_macau_time():
    """MO-97/2010 point 3: in force the day after publication (2010-08-09)."""
    book = get_rulebook("mo-97-2010-omaha")
    assert book.covers("PO", datetime(2010, 8, 10, tzinfo=MACAU))
    assert not book.covers("PO", datetime(2010, 8, 9, 23, 59, tzinfo=MACAU))
    found = choose_rulebook("mo-97-2010-omaha", "PO", datetime(2010, 8, 9, tzinfo=UTC))
    assert isinstance(found, Finding) and found.kind is FindingKind.NO_RULEBOOK
    assert "not in force" in found.reason


def test_choose_by_variant_and_time():
    at = datetime(2015, 6, 1, tzinfo=UTC)
    assert choose_rulebook(None, "NT", at).id == "pt-217-2007-holdem"
    assert choose_rulebook(None, "NSY", at).id == "pt-217-2007-synthetic"
    assert not hasattr(choose_rulebook(None, "NS", at), "id")  # PHH NS: 36-card short deck
    assert choose_rulebook("gg-2022-cash-omaha", "PO", datetime(2023, 1, 1, tzinfo=UTC)).id == (
        "gg-2022-cash-omaha"
    )


def test_ambiguous_choice_is_a_finding_not_a_guess():
    found = choose_rulebook(None, "PO", datetime(2015, 6, 1, tzinfo=UTC), subject="h")
    assert isinstance(found, Finding) and found.kind is FindingKind.NO_RULEBOOK
    assert found.detail["candidates"] == ["mo-97-2010-omaha", "pt-217-2007-omaha"]


@pytest.mark.parametrize(
    ("rulebook", "variant", "at", "words"),
    [
        (None, "FT", datetime(2015, 1, 1, tzinfo=UTC), ["'FT'", "2015-01-01"]),
        (None, "NT", datetime(2006, 1, 1, tzinfo=UTC), ["'NT'", "2006-01-01"]),
        ("gg-2022-cash-holdem", "NT", datetime(2022, 9, 27, tzinfo=UTC), ["not in force"]),
        ("mo-97-2010-omaha", "NT", datetime(2015, 1, 1, tzinfo=UTC), ["does not cover", "'NT'"]),
        ("nope", "NT", datetime(2015, 1, 1, tzinfo=UTC), ["unknown rulebook"]),
    ],
)
def test_uncovered_hand_yields_a_single_no_rulebook_finding(rulebook, variant, at, words):
    events = HandBuilder(variant=variant, rulebook=rulebook, at=at).end().events
    verdict = adjudicate_hand(events)
    assert [f.kind for f in verdict.findings] == [FindingKind.NO_RULEBOOK]
    assert verdict.rulebook_id is None
    for word in words:
        assert word in verdict.findings[0].reason


def test_override_replaces_the_recorded_rulebook():
    events = HandBuilder(variant="NT", rulebook="nope").end().events
    verdict = adjudicate_hand(events, rulebook_override="gg-2022-cash-holdem")
    assert verdict.rulebook_id == "gg-2022-cash-holdem"


def test_parameters_chosen_where_the_sources_are_silent_or_cut():
    mo = get_rulebook("mo-97-2010-omaha")
    pt = get_rulebook("pt-217-2007-holdem")
    syn = get_rulebook("pt-217-2007-synthetic")
    gg = get_rulebook("gg-2022-cash-holdem")
    # MO art.12(1)-(4), 11(2), 10(4)-(5), 15(3), 16
    assert mo.min_raise is MinRaise.LAST_BET_OR_RAISE
    assert (mo.raise_cap_pot_limit, mo.raise_cap_no_limit) == (3, None)
    assert mo.max_raise_pot_limit is RaiseMax.POT
    assert mo.odd_chip is OddChip.FIRST_WINNER_FROM_SEAT_ONE
    assert mo.ranking is MO_97_2010
    assert (mo.rake.min_bps, mo.rake.max_bps, mo.rake.cap_big_blinds) == (300, 500, 5)
    # PT n.º 24, 67, 85, 86, 87, 17 (cut), 7 (cut)
    assert pt.min_players == 4
    assert pt.later_rounds_first is FirstToAct.BUTTON
    assert pt.min_raise is MinRaise.TABLE_MINIMUM
    assert pt.max_raise_no_limit is RaiseMax.BETS_SO_FAR
    assert pt.split_unit is SplitUnit.TABLE_MINIMUM
    assert pt.odd_chip is OddChip.ONE_UNIT_EACH_FROM_BUTTON
    assert pt.ranking is STANDARD and pt.rake is None
    # PT n.º 95, 100, 103/105 (cut), 107-108
    assert (syn.deck_size, syn.burns, syn.board_from_bottom) == (28, False, True)
    assert syn.board_schedule == (1, 1, 1, 1, 1)
    assert syn.ranking is SYNTHETIC
    assert syn.later_rounds_first is FirstToAct.LAST_HIGHEST_BETTOR
    # GG-2022: equal split, the odd chip a named choice (silent text); rake per game page
    assert gg.odd_chip is OddChip.FIRST_WINNER_LEFT_OF_BUTTON and gg.rake is None
    assert "open choice" in gg.cite.odd_chip
