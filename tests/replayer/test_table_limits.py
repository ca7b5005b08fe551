"""PT-217/2007 n.º 19-20 and 82-83: a hand's stakes against the table's minimum and
maximum (``replayer.poker.limits``), and a declaration's minimum against its maximum
(``replayer.terms``). Each test names its article; the hands are built by hand, four
players (n.º 24), seat 4 on the button."""

from __future__ import annotations

from datetime import timedelta

from audit.judging import replay
from audit.store import SubjectRecords
from replayer.findings import Finding
from replayer.poker import adjudicate_hand
from replayer.terms import adjudicate_table
from tests.poker_sim import EPOCH, HandBuilder

HOLDEM = {"variant": "NT", "rulebook": "pt-217-2007-holdem"}
FOUR = {1: 1000, 2: 1000, 3: 1000, 4: 1000}


def _hand(sb: int = 50, bb: int = 100, bet: int = 300) -> HandBuilder:
    """Everyone calls the big blind (a pot of 400); on the flop seat 1 bets ``bet`` (at most
    the bets so far under n.º 86)."""
    hand = HandBuilder(**HOLDEM, stacks=FOUR, blinds=(sb, bb))
    hand.post(1, "small_blind", sb).post(2, "big_blind", bb)
    hand.act(3, "call", bb).act(4, "call", bb).act(1, "call", bb - sb).act(2, "check")
    return hand.board("2c 7d 9h").act(4, "check").act(1, "bet", bet)


def _terms(min_bet: int | None, max_bet: int | None, rulebook: str = "pt-217-2007-holdem") -> dict:
    at = EPOCH - timedelta(days=1)
    return {
        "event_id": "t#terms-0",
        "table_id": "t",
        "sequence": 0,
        "occurred_at": at,
        "type": "TableTermsDeclared",
        "effective_from": at,
        "rulebook": rulebook,
        "operator": "Casino Estoril",
        "currency": "EUR",
        "rake_min_bps": 0,
        "rake_max_bps": 0,
        "rake_cap": None,
        "rake_cap_big_blinds": None,
        "rake_cap_per": "hand",
        "no_flop_no_drop": False,
        "min_bet": min_bet,
        "max_bet": max_bet,
    }


def _cited(hand: HandBuilder, terms: dict | None = None) -> list[tuple[str, str]]:
    verdict = adjudicate_hand(hand.events, table_terms=terms)
    return [(f.citation, f.reason) for f in verdict.findings if f.kind == "illegal_action"]


def test_blinds_and_raises_within_the_limits_raise_nothing_pt_n19_20_82_83() -> None:
    assert _cited(_hand()) == []
    assert _cited(_hand(), _terms(100, 400)) == []
    assert _cited(_hand(bet=100), _terms(100, 250)) == []


def test_small_blind_is_half_the_table_minimum_pt_n82() -> None:
    """The audit's spot check P6: SB 100 = BB 100 was accepted because the record declared
    it; n.º 82 makes the small bet half the table minimum."""
    assert _cited(_hand(sb=100)) == [
        ("PT-217/2007 n.º 82", "small blind of 100; half the table minimum is 50")
    ]


def test_big_blind_is_the_declared_table_minimum_pt_n83() -> None:
    """The hand posts 50/100 at a table whose declared minimum is 200: the big blind is not
    the table minimum (n.º 83), the small blind not half of it (n.º 82), and the hand's own
    minimum bet is below the table's (n.º 20)."""
    found = _cited(_hand(), _terms(200, 800))
    assert [citation for citation, _ in found] == [
        "PT-217/2007 n.º 20",
        "PT-217/2007 n.º 82",
        "PT-217/2007 n.º 83",
    ]
    assert ("PT-217/2007 n.º 83", "big blind of 100; the table minimum is 200") in found


def test_a_bet_above_the_table_maximum_pt_n19() -> None:
    hand = _hand(bet=300)
    assert _cited(hand, _terms(100, 250)) == [
        ("PT-217/2007 n.º 19", "seat 1: bet of 300 above the table maximum of 250")
    ]
    # no maximum declared: nothing to judge the bet against
    assert _cited(hand, _terms(100, None)) == []


def test_a_synthetic_table_judges_its_minimum_and_maximum_not_blinds_pt_n20_n112() -> None:
    """Sintético has no blinds (n.º 102: an ante, "no valor mínimo fixado", a minimum of its
    own); the general rules' limits apply (n.º 112, 19-20)."""
    syn = {"variant": "NSY", "rulebook": "pt-217-2007-synthetic"}
    hand = HandBuilder(**syn, stacks=FOUR, blinds=(0, 0), ante=5)
    hand.events[0]["min_bet"] = 10
    for seat in (1, 2, 3, 4):
        hand.post(seat, "ante", 5)
    hand.board("As").act(1, "bet", 50)
    assert _cited(hand, _terms(10, 40, "pt-217-2007-synthetic")) == [
        ("PT-217/2007 n.º 19", "seat 1: bet of 50 above the table maximum of 40")
    ]
    assert _cited(hand, _terms(20, 50, "pt-217-2007-synthetic")) == [
        ("PT-217/2007 n.º 20", "the hand's minimum bet of 10 is below the table minimum of 20")
    ]


def test_other_rulebooks_tie_no_stake_to_the_limits_mo_art_5_gg() -> None:
    """MO-97/2010 art.5: the small blind is "generally" (一般) half the big blind, not a
    rule; GG-2022 leaves stakes to the game pages."""
    for book in (
        {"variant": "PO", "rulebook": "mo-97-2010-omaha"},
        {"rulebook": "gg-2022-cash-holdem"},
    ):
        hand = HandBuilder(**book, stacks=FOUR, blinds=(100, 100))
        hand.post(1, "small_blind", 100).post(2, "big_blind", 100).act(3, "call", 100)
        assert _cited(hand, _terms(200, 400, book["rulebook"])) == []


def test_the_declared_minimum_is_20_to_40_percent_of_the_maximum_pt_n20() -> None:
    def outside(min_bet: int, max_bet: int) -> tuple[Finding, ...]:
        return adjudicate_table([_terms(min_bet, max_bet)]).findings

    assert outside(100, 500) == () and outside(100, 250) == ()
    [finding] = outside(100, 1000)
    assert (finding.kind, finding.citation) == ("terms_outside_rulebook", "PT-217/2007 n.º 20")
    assert finding.reason == "declared minimum 100 is 10% of the maximum 1000; allowed 20%-40%"
    [finding] = outside(100, 200)
    assert "50%" in finding.reason


def test_the_terms_in_force_judge_the_limits_through_the_one_path(store) -> None:
    hand = _hand(bet=300).act(2, "fold").act(3, "fold").act(4, "fold").award(1, 700).end()
    store.append([SubjectRecords("poker", "t/1", hand.events)])
    assert replay(store).findings == {}
    store.append([SubjectRecords("table", "t", [_terms(100, 250)])])
    assert replay(store).findings == {"illegal_action": 1}
