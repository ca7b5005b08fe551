# ruff: noqa: E501  (the rooms' header lines are longer than 100 characters)
"""PokerStars' all-in cash-out (issue 38 item 7): the line without a fee (``NAME cashed
out the hand for $X``, before only ``… | Cash Out Fee $Y`` was read and the hand was
refused "not understood"), the summary's ``(cashed out)`` and ``(pot not awarded as player
cashed out)``; and the PHH export's ``finishing_stacks``, what each player really holds
after the cash-out (before: the pot's stacks, the whole pot to a cashed-out winner, and
only ``_cashouts`` took it back).

Every hand here is written for this project in the line shapes of the real files (our
names and amounts); the room's summary is the oracle for the stored figures, and the
players' holdings are worked out by hand from the text."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path

import pytest

from audit.ingest.phh.export import hand_phh
from replayer.poker.replay import adjudicate_hand
from tests.audit.ingest.test_import_real_cash_forms import figures
from tests.replayer.test_real_form_rules import FIVE_PERCENT, PS_CASHOUT, changed, hand

RULEBOOKS = ("gg-2022-cash-holdem",)
NO_FEE = changed(
    PS_CASHOUT,
    ("ben cashed out the hand for $4.20 | Cash Out Fee $0.09", "ben cashed out the hand for $4.29"),
)
#: The cashed-out player wins: the pot is not awarded to him (the house bought his hand).
WINNER_CASHED_OUT = """\
PokerStars Hand #250000000101: Hold'em No Limit ($0.05/$0.10 USD) - 2025/03/04 20:10:00 ET
Table 'Lyra II' 6-max Seat #3 is the button
Seat 1: dora ($9.40 in chips)
Seat 2: emil ($12 in chips) is sitting out
Seat 3: finn ($11 in chips)
Seat 4: gus ($10 in chips)
gus: posts small blind $0.05
dora: posts big blind $0.10
*** HOLE CARDS ***
finn: raises $0.20 to $0.30
gus: folds
dora: raises $0.90 to $1.20
finn: raises $9.80 to $11 and is all-in
dora: calls $8.20 and is all-in
Uncalled bet ($1.60) returned to finn
*** FLOP *** [7c 3s Kc]
*** TURN *** [7c 3s Kc] [Jh]
*** RIVER *** [7c 3s Kc Jh] [Jd]
*** SHOW DOWN ***
dora: shows [Kd Ks] (a full house, Kings full of Jacks)
finn: shows [9d 9s] (two pair, Jacks and Nines)
dora cashed out the hand for $15.10 | Cash Out Fee $0.30
*** SUMMARY ***
Total pot $18.85 | Rake $0.94
Board [7c 3s Kc Jh Jd]
Seat 1: dora (big blind) showed [Kd Ks] and won ($17.91) with a full house, Kings full of Jacks (pot not awarded as player cashed out)
Seat 2: emil
Seat 3: finn (button) showed [9d 9s] and lost with two pair, Jacks and Nines
Seat 4: gus (small blind) folded before Flop
"""


def _finishing(events: list[dict]) -> dict[str, Decimal]:
    phh = tomllib.loads(hand_phh(events), parse_float=Decimal)
    return dict(zip(phh["players"], phh["finishing_stacks"], strict=True))


def _cash(events: list[dict]) -> list[tuple[str, int, int | None]]:
    return [
        (e["type"], e["amount"], e.get("seat"))
        for e in events
        if e["type"] in ("CashoutPaid", "FeeTaken")
    ]


def test_a_cash_out_without_a_fee_is_read(tmp_path: Path) -> None:
    events = hand(tmp_path, NO_FEE, RULEBOOKS)
    assert _cash(events) == [("CashoutPaid", 429, 3)]
    pot, rake, collected = figures(events)
    assert (pot, rake, collected) == (1005, 50, {1: 955})  # the summary's figures
    verdict = adjudicate_hand(events, rake_terms=FIVE_PERCENT)
    assert verdict.findings == ()
    assert verdict.cashouts == {3: 429}


def test_the_same_hand_with_a_fee_is_read_as_before(tmp_path: Path) -> None:
    events = hand(tmp_path, PS_CASHOUT, RULEBOOKS)
    assert _cash(events) == [("FeeTaken", 9, 3), ("CashoutPaid", 429, 3)]


@pytest.mark.parametrize(
    ("text", "holds"),
    [
        # ben put in $5, lost the pot and sold his hand for $4.29 less a $0.09 fee.
        (PS_CASHOUT, {"ana": "9.55", "ben": "9.20", "cai": "7.95"}),
        (NO_FEE, {"ana": "9.55", "ben": "9.29", "cai": "7.95"}),
        # dora put in $9.40 and won the $17.91 pot, which went to the house that bought
        # her hand for $15.40 less a $0.30 fee; finn got $1.60 back.
        (
            WINNER_CASHED_OUT,
            {"dora": "15.10", "finn": "1.60", "gus": "9.95"},
        ),
    ],
)
def test_finishing_stacks_are_what_players_hold_after_a_cash_out(
    tmp_path: Path, text: str, holds: dict[str, str]
) -> None:
    events = hand(tmp_path, text, RULEBOOKS)
    start = events[0]
    names = {s["seat"]: s["player_id"] for s in start["seats"]}
    phh = tomllib.loads(hand_phh(events), parse_float=Decimal)
    seat_of_player = dict(zip(phh["players"], phh["seats"], strict=True))
    got = {
        names[seat_of_player[p]]: stack
        for p, stack in zip(phh["players"], phh["finishing_stacks"], strict=True)
    }
    assert got == {name: Decimal(value) for name, value in holds.items()}
    # The chips leave the table only through the house: pot rake and the net cash-out.
    before = sum(s["stack"] for s in start["seats"])
    after = sum(int(v * 100) for v in got.values())
    rake = sum(e["amount"] for e in events if e["type"] == "RakeTaken")
    fees = sum(e["amount"] for e in events if e["type"] == "FeeTaken" and e.get("seat"))
    paid = sum(e["amount"] for e in events if e["type"] == "CashoutPaid")
    assert after == before - rake - fees + paid


def test_a_cashed_out_winner_is_stored_and_judged_clean(tmp_path: Path) -> None:
    events = hand(tmp_path, WINNER_CASHED_OUT, RULEBOOKS)
    pot, rake, collected = figures(events)
    assert (pot, rake) == (1885, 94)
    assert collected == {1: 1791}
    assert adjudicate_hand(events, rake_terms=FIVE_PERCENT).findings == ()
