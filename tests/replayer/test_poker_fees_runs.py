"""Poker v3 events judged: fees other than rake, boards run more than once, cash-outs.

Hand-built hands (``tests.poker_sim.HandBuilder``) under the GGPoker and Macau rulebooks:
a jackpot fee is not rake (the rake cap bounds the rake alone) and is allowed only by fee
terms; a pot run twice is shared between the runs with the rulebook's odd-chip rule; a
cash-out is paid by the house outside the pot and is never a pot payout.
"""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.show.poker import HandVoice
from replayer.poker.fees import Fee, allocate
from replayer.poker.pots import split, split_pots
from replayer.poker.replay import adjudicate_hand
from replayer.poker.runs import owed_by_run, split_runs
from replayer.poker.verdict import HandVerdict
from replayer.rulebooks.poker import FeeTerms, OddChip, RakeTerms, RunShare
from tests.poker_sim import HandBuilder

AT = datetime(2024, 3, 10, 18, 0, tzinfo=UTC)
JACKPOT = FeeTerms(kinds=frozenset({"jackpot"}))
CAPPED = RakeTerms(min_bps=0, max_bps=500, cap=60)


def all_in(*, variant: str = "NT", rulebook: str = "gg-2022-cash-holdem", bb: int = 2) -> Any:
    """Heads-up, both all-in pre-flop for 1000: a pot of 2000. Seat 2 has the button."""
    hole = {"NT": ("Ah Ad", "Kh Kd"), "NO": ("Ah Ad 2c 3c", "Kh Kd 4c 5c")}[variant]
    return (
        HandBuilder(
            variant=variant,
            rulebook=rulebook,
            stacks={1: 1000, 2: 1000},
            button=2,
            blinds=(1, bb),
            at=AT,
        )
        .post(2, "small_blind", 1)
        .post(1, "big_blind", bb)
        .hole(1, hole[0])
        .hole(2, hole[1])
        .act(2, "raise", 999)
        .act(1, "call", 1000 - bb)
        .show(2, hole[1])
        .show(1, hole[0])
    )


def one_board(builder: HandBuilder) -> HandBuilder:
    """A board on which seat 1 (aces) wins."""
    return builder.board("2s 7h 9c").board("Tc").board("3d")


def fee(builder: HandBuilder, amount: int, kind: str = "jackpot", seat: int | None = None) -> Any:
    return builder._add("FeeTaken", kind=kind, amount=amount, pot_index=None, seat=seat)


def kinds(verdict: HandVerdict) -> list[str]:
    return sorted(str(finding.kind) for finding in verdict.findings)


def only(verdict: HandVerdict, kind: str) -> Any:
    [found] = [finding for finding in verdict.findings if finding.kind == kind]
    return found


# -- fees other than rake ------------------------------------------------------------------


def test_a_jackpot_fee_is_not_rake_under_the_cap() -> None:
    """Rake 60 at the cap of 60, jackpot 20: 80 taken, but the rake alone is capped."""
    hand = fee(one_board(all_in()).award(1, 1920, 0), 20).rake(60).end([1920, 0])
    verdict = adjudicate_hand(hand.events, rake_terms=CAPPED, fee_terms=JACKPOT)
    assert kinds(verdict) == []
    assert verdict.expected_payouts == {1: 1920, 2: 0}
    assert (verdict.expected_rake, verdict.expected_fees, verdict.recorded_fees) == (60, 20, 20)
    assert verdict.conserved
    [pot] = verdict.pots
    assert sum(chips for _, chips in pot.shares) == pot.amount - pot.rake - 20


def test_rake_over_the_cap_is_judged_on_the_rake_alone() -> None:
    hand = fee(one_board(all_in()).award(1, 1910, 0), 20).rake(70).end([1910, 0])
    verdict = adjudicate_hand(hand.events, rake_terms=CAPPED, fee_terms=JACKPOT)
    # one fault, one finding: the payout is right for the rake taken, so no mispaid pot
    assert kinds(verdict) == ["rake_cap_breach"]
    breach = only(verdict, "rake_cap_breach")
    assert (breach.expected, breach.recorded) == ({"at_most": 60}, 70)  # not 90
    assert breach.citation == "GG-2022 Política de taxas e de ancinho"
    assert verdict.expected_payouts[1] == 1920  # the rules' payout: 10 more


def test_a_fee_of_a_kind_the_terms_do_not_allow() -> None:
    hand = fee(one_board(all_in()).award(1, 1920, 0), 20, "bingo").rake(60).end([1920, 0])
    verdict = adjudicate_hand(hand.events, rake_terms=CAPPED, fee_terms=JACKPOT)
    assert kinds(verdict) == ["fee_not_allowed", "mispaid_pot"]
    refused = only(verdict, "fee_not_allowed")
    assert (refused.expected, refused.recorded) == ({"at_most": 0}, 20)
    assert refused.citation == "GG-2022 Política de taxas e de ancinho"
    assert refused.detail["fee_kind"] == "bingo"
    assert only(verdict, "mispaid_pot").difference == {"1": -20}
    assert verdict.expected_fees == 0


def test_fees_above_the_declared_maximum() -> None:
    terms = FeeTerms(kinds=frozenset({"jackpot", "bingo"}), cap=25)
    hand = fee(fee(one_board(all_in()).award(1, 1910, 0), 20), 10, "bingo")
    verdict = adjudicate_hand(
        hand.rake(60).end([1910, 0]).events, rake_terms=CAPPED, fee_terms=terms
    )
    refused = only(verdict, "fee_not_allowed")
    assert (refused.expected, refused.recorded) == ({"at_most": 25}, 30)
    assert only(verdict, "mispaid_pot").difference == {"1": -5}


def test_without_fee_terms_a_fee_cannot_be_checked() -> None:
    hand = fee(one_board(all_in()).award(1, 1920, 0), 20).rake(60).end([1920, 0])
    verdict = adjudicate_hand(hand.events, rake_terms=CAPPED)
    assert kinds(verdict) == ["terms_missing"]
    missing = only(verdict, "terms_missing")
    assert missing.recorded == 20 and "fees of 20 (jackpot)" in missing.reason
    declared = {"rake_min_bps": 0, "rake_max_bps": 500, "rake_cap": 60, "fee_kinds": ["jackpot"]}
    assert kinds(adjudicate_hand(hand.events, table_terms=declared)) == []


def test_macau_allows_no_fee_besides_the_commission() -> None:
    """MO-97/2010 art.16 is the house's whole take; a declaration cannot widen it."""
    hand = all_in(variant="NO", rulebook="mo-97-2010-omaha", bb=3)
    hand.board("As Ks 7h").board("Ac").board("8d").award(1, 1965, 0)
    verdict = adjudicate_hand(fee(hand, 20).rake(15).end([1965, 0]).events, fee_terms=JACKPOT)
    assert kinds(verdict) == ["fee_not_allowed", "mispaid_pot"]
    assert only(verdict, "fee_not_allowed").citation == "MO-97/2010 art.16"


# -- boards run more than once -------------------------------------------------------------


def run_twice(builder: HandBuilder, first: str, second: str, flop: str = "2s 7h 9c") -> Any:
    """The flop in common, then two runs of turn and river."""
    builder.board(flop)
    for run, cards in ((1, first), (2, second)):
        builder._add("BoardRun", run=run)
        turn, river = cards.split()
        builder.board(turn).board(river)
    return builder


def test_run_twice_splits_the_pot_per_run_and_pays_the_odd_chip_left_of_the_button() -> None:
    """Net pot 1985 (rake 15): 992.5 per run; seat 1 wins the first, seat 2 (two kings
    making quads) the second. GG-2022's cash odd-chip choice: the odd chip to the first
    winner left of the button (seat 2 has it): seat 1, 993; the house keeps nothing."""
    hand = run_twice(all_in(), "Tc 3d", "Ks Kc")
    hand._add("BoardRun", run=1).award(1, 993, 0)
    hand._add("BoardRun", run=2).award(2, 992, 0)
    verdict = adjudicate_hand(
        hand.rake(15).end([993, 992]).events, rake_terms=RakeTerms(min_bps=0, max_bps=500)
    )
    assert kinds(verdict) == []
    assert verdict.expected_payouts == {1: 993, 2: 992}
    assert verdict.house_retained == 0
    [pot] = verdict.pots
    assert pot.winners == (1, 2)
    assert sum(chips for _, chips in pot.shares) + pot.retained == pot.amount - pot.rake


def test_run_twice_odd_chip_by_the_macau_rule() -> None:
    """MO-97/2010 art.10(5): the odd chip to the first winner from seat one (seat 1)."""
    hand = all_in(variant="NO", rulebook="mo-97-2010-omaha", bb=3)
    run_twice(hand, "Ac 8d", "Kc 9d", flop="As Ks 7h")  # aces, then kings, make quads
    hand._add("BoardRun", run=1).award(1, 993, 0)
    hand._add("BoardRun", run=2).award(2, 992, 0)
    verdict = adjudicate_hand(hand.rake(15).end([993, 992]).events)
    assert kinds(verdict) == ["illegal_action"]  # art.10(3): see the test below
    assert verdict.expected_payouts == {1: 993, 2: 992}
    swapped = adjudicate_hand(
        [
            {**e, "amount": 992 if e.get("seat") == 1 else 993} if e["type"] == "PotAwarded" else e
            for e in hand.events
            if e["type"] != "HandEnded"
        ]
    )
    mispaid = only(swapped, "mispaid_pot")
    assert mispaid.difference == {"1": -1, "2": 1}
    assert mispaid.citation.startswith("MO-97/2010 art.10(4), 10(5)")
    assert mispaid.detail["boards"][1][-2:] == ["Kc", "9d"]


def test_a_board_run_twice_is_a_pot_sharing_agreement_mo_art_10_3():
    """MO-97/2010 art.10(3):
    「博彩者之間不得協議分享彩池,
    故各門應繼續進行博彩直至產生最後結果為止」: no agreement to share the pot, every seat
    plays on to the result. Running the board
    twice divides the pot between two boards by agreement: one illegal_action citing
    art.10(3), on the hand's settlement; the same hand under PT-217/2007 (silent) and one
    board under MO raise nothing."""
    hand = all_in(variant="NO", rulebook="mo-97-2010-omaha", bb=3)
    run_twice(hand, "Ac 8d", "Kc 9d", flop="As Ks 7h")
    hand._add("BoardRun", run=1).award(1, 993, 0)
    hand._add("BoardRun", run=2).award(2, 992, 0)
    events = hand.rake(15).end([993, 992]).events
    agreement = only(adjudicate_hand(events), "illegal_action")
    assert agreement.citation == "MO-97/2010 art.10(3)"
    assert agreement.recorded == {"runs": 2}
    assert "agreed to share the pot" in agreement.reason
    pt_book = "pt-217-2007-omaha"
    pt = [{**e, "rulebook": pt_book} if e["type"] == "HandStarted" else e for e in events]
    assert not [f for f in adjudicate_hand(pt).findings if "share the pot" in f.reason]
    once = one_board(all_in(variant="NO", rulebook="mo-97-2010-omaha", bb=3))
    once.award(1, 1985, 0).rake(15).end([1985, 0])
    assert kinds(adjudicate_hand(once.events)) == []


def test_the_same_winner_in_every_run_takes_the_whole_pot() -> None:
    hand = run_twice(all_in(), "Tc 3d", "4d 5d")
    hand._add("BoardRun", run=1).award(1, 992, 0)
    hand._add("BoardRun", run=2).award(1, 993, 0)
    verdict = adjudicate_hand(
        hand.rake(15).end([1985, 0]).events, rake_terms=RakeTerms(min_bps=0, max_bps=500)
    )
    assert kinds(verdict) == [] and verdict.house_retained == 0


def aces_against_kings() -> HandBuilder:
    """Heads-up, 100 chips each, blinds 1 and 2, hole cards dealt: aces (1) against kings."""
    return (
        HandBuilder(stacks={1: 100, 2: 100}, button=2, at=AT)
        .post(2, "small_blind", 1)
        .post(1, "big_blind", 2)
        .hole(1, "Ah Ad")
        .hole(2, "Kh Kd")
    )


def test_a_board_run_while_players_can_still_bet_is_bad_data() -> None:
    builder = aces_against_kings().act(2, "call", 1).act(1, "check")
    run_twice(builder, "Tc 3d", "Ks Kc").award(1, 2, 0).end([102, 98])
    verdict = adjudicate_hand(builder.events)
    [run] = [f for f in verdict.findings if f.citation.endswith("BoardRun.run")]
    assert run.kind == "data_quality" and run.recorded == [1, 2]
    assert "while players can still bet" in run.reason


# -- cash-outs -----------------------------------------------------------------------------


def test_a_cashout_is_paid_outside_the_pot() -> None:
    """Seat 2, all-in and behind, takes an EV cash-out: the house pays him 150 and he pays
    a cash-out risk of 3; the pot is settled as usual and nobody is mispaid."""
    hand = one_board(all_in()).award(1, 1940, 0)
    fee(hand, 3, "cashout_risk", seat=2)
    hand._add("CashoutPaid", seat=2, amount=150)
    verdict = adjudicate_hand(
        hand.rake(60).end([1940, 0]).events, rake_terms=RakeTerms(min_bps=0, max_bps=500)
    )
    assert kinds(verdict) == []
    assert verdict.recorded_payouts == {1: 1940, 2: 0}
    assert (verdict.cashouts, verdict.paid_outside) == ({2: 150}, {2: 3})
    assert verdict.recorded_fees == 0 and verdict.conserved
    texts = [step.text for step in verdict.steps]
    assert "seat 2 cash-out 150 paid outside the pot" in texts


def test_a_cashout_to_a_player_not_all_in_is_bad_data() -> None:
    builder = aces_against_kings().act(2, "fold").award(1, 3, None)
    builder._add("CashoutPaid", seat=2, amount=50)
    verdict = adjudicate_hand(builder.end([101, 99]).events)
    [quality] = [f for f in verdict.findings if f.kind == "data_quality"]
    assert quality.citation == "schemas/poker_hand.avsc CashoutPaid.seat"
    assert "not all-in (folded)" in quality.reason
    assert "mispaid_pot" not in kinds(verdict)


# -- the show command's words ---------------------------------------------------------------


def test_the_new_events_in_words() -> None:
    events = run_twice(all_in(), "Tc 3d", "Ks Kc").events
    hand = HandVoice(events, {"1": "alice", "2": "bob"})
    words = [
        hand.describe({"type": "FeeTaken", "kind": "jackpot", "amount": 20, "seat": None}),
        hand.describe({"type": "FeeTaken", "kind": "cashout_risk", "amount": 3, "seat": 2}),
        hand.describe({"type": "BoardRun", "run": 2}),
        hand.describe({"type": "CashoutPaid", "seat": 2, "amount": 150}),
    ]
    assert words == [
        "the house takes a jackpot fee of EUR 0.20 from the pot (not rake)",
        "seat 2 (bob) pays the house an EV cash-out risk premium of EUR 0.03, outside the pot",
        "run 2 of the board (run more than once after an all-in)",
        "seat 2 (bob) is paid a cash-out of EUR 1.50 by the house, outside the pot "
        "(not a pot payout)",
    ]


# -- laws -------------------------------------------------------------------------------------

RULES = list(OddChip)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    pots=st.lists(
        st.tuples(
            st.integers(0, 5_000),
            st.lists(
                st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True),
                min_size=1,
                max_size=3,
            ),
        ),
        min_size=1,
        max_size=3,
    ),
    unit=st.sampled_from([1, 2, 5]),
    rule=st.sampled_from(RULES),
)
def test_runs_share_exactly_the_pot(
    pots: list[tuple[int, list[list[int]]]], unit: int, rule: OddChip
) -> None:
    """Every pot's shares over its runs plus what the house keeps is the pot; only a run's
    winner is paid; nobody gets a whole unit less than what the runs owe him (less what
    the house may keep under GG-2022); one set of winners is the one-board split."""
    seat_of = (4, 1, 7, 2)
    settled = split_runs(list(pots), unit, rule, seat_of, RunShare.EXACT)
    for (amount, runs), (shares, kept) in zip(pots, settled, strict=True):
        assert sum(shares.values()) + kept == amount and kept >= 0
        owed = owed_by_run(amount, runs)
        assert set(shares) == set(owed)
        for p, chips in shares.items():
            assert chips >= owed[p] - unit * len(owed) - kept
        if all(sorted(won) == sorted(runs[0]) for won in runs) and rule is not OddChip.DROPPED:
            assert (shares, kept) == split(amount, runs[0], unit, rule, seat_of)
    if rule is OddChip.DROPPED:
        total: dict[int, Fraction] = {}
        for amount, runs in pots:
            for p, value in owed_by_run(amount, runs).items():
                total[p] = total.get(p, Fraction(0)) + value
        paid: dict[int, int] = {}
        for shares, _ in settled:
            for p, chips in shares.items():
                paid[p] = paid.get(p, 0) + chips
        for p in total:  # GG-2022: the fraction of his winnings from the hand is dropped
            whole = int(total[p] // unit) * unit
            assert paid[p] == whole if unit == 1 else paid[p] <= whole
        if all(sorted(won) == sorted(runs[0]) for _, runs in pots for won in runs):
            one_board = [(amount, runs[0]) for amount, runs in pots]
            assert settled == split_pots(one_board, unit, rule, seat_of)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    amount=st.integers(0, 5_000),
    runs=st.lists(
        st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True), min_size=1, max_size=3
    ),
    unit=st.sampled_from([1, 2, 5]),
    rule=st.sampled_from([r for r in RULES if r is not OddChip.DROPPED]),
)
def test_runs_first_run_odd_unit(
    amount: int, runs: list[list[int]], unit: int, rule: OddChip
) -> None:
    """GG-2022 cash's open choice: the pot is paid whole to the runs' winners; a winner
    gets at least his whole units of every run he wins and never more than the pot's
    indivisible rest and each run's odd units beyond that; one winner of every run wins
    it all."""
    seat_of = (4, 1, 7, 2)
    [(shares, kept)] = split_runs(
        [(amount, runs)], unit, rule, seat_of, RunShare.FIRST_RUN_ODD_UNIT
    )
    assert kept == 0 and sum(shares.values()) == amount
    assert set(shares) == {p for won in runs for p in won}
    low = amount // (len(runs) * unit) * unit
    for p, chips in shares.items():
        won = [w for w in runs if p in w]
        floor = sum(low // (len(w) * unit) * unit for w in won)
        most = floor + (amount - low * len(runs)) + sum(unit * len(w) for w in won)
        assert floor <= chips <= most
    if all(w == runs[0] for w in runs) and len(runs[0]) == 1:
        assert shares == {runs[0][0]: amount}


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    fees=st.lists(st.tuples(st.integers(0, 500), st.none() | st.integers(0, 2)), max_size=4),
    sizes=st.lists(st.integers(0, 1_000), min_size=1, max_size=3),
)
def test_fees_come_out_of_the_pots(fees: list[tuple[int, int | None]], sizes: list[int]) -> None:
    """Net pots = pot - rake - fees: the fees taken per pot add up to the fees (as far as
    the pots hold them) and no pot gives more than it holds."""
    records = [Fee("jackpot", amount, index) for amount, index in fees]
    issues: list[Any] = []
    per_pot = allocate(records, [f.amount for f in records], sizes, issues)
    assert sum(per_pot) == min(sum(f.amount for f in records), sum(sizes))
    assert all(0 <= taken <= size for taken, size in zip(per_pot, sizes, strict=True))


def test_fee_terms_refuse_unknown_kinds() -> None:
    with pytest.raises(ValueError, match="unknown fee kinds"):
        FeeTerms(kinds=frozenset({"rake"}))


def test_fee_findings_read_in_money() -> None:
    from audit.wording import sentence

    hand = fee(one_board(all_in()).award(1, 1920, 0), 20, "bingo").rake(60).end([1920, 0])
    verdict = adjudicate_hand(hand.events, rake_terms=CAPPED, fee_terms=JACKPOT)
    row = {**only(verdict, "fee_not_allowed").as_dict(), "currency": "EUR"}
    assert sentence(row).startswith("bingo fee of EUR 0.20 taken from the pot where GG-2022")
    missing = adjudicate_hand(hand.events, rake_terms=CAPPED)
    row = {**only(missing, "terms_missing").as_dict(), "currency": "EUR"}
    assert sentence(row).startswith("fees of EUR 0.20 (bingo) taken from the pot besides the rake")
