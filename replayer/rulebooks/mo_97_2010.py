"""Macau: Despacho do Secretário para a Economia e Finanças n.º 97/2010, Omaha Poker.

Source: ``regulations/mo-despacho-97-2010-omaha.zh.txt`` (Boletim Oficial 32/2010,
published 2010-08-09). Point 3 of the despacho: in force from the day after publication,
2010-08-10 00:00 Macau time (UTC+8), i.e. 2010-08-09 16:00 UTC.

Choices the text leaves open, each beside its value below:

* art.12(2) caps raises at three per round "in games with betting limits"
  (設有限額的牌局); art.11(2) uses the same words for the pot-limit game, so the cap
  applies to pot-limit omaha (PO) and not to no-limit (NO, art.12(3)).
* art.12(4): 「如只有兩位博彩者進行牌局(head up),則加注的金額不設限制」, heads-up "the
  *amount* of a raise is not limited": with two players left in the hand the pot-limit
  maximum of art.11(2) does not bind (``raise_amount_unlimited_heads_up``). The text
  speaks of the amount, not of the number of raises; the number is lifted too
  (``raise_cap_lifted_heads_up``), since a cap of three raises bounds what a raise may
  reach and art.12(4) sets no limit on it. (The replayer once lifted only the number,
  reading the digest rather than the text.)
* art.5 names the 1st and 2nd player left of the button for the blinds; heads-up this
  would make the button the big blind. We follow the universal heads-up convention
  (button posts the small blind) that operators record.
* art.10(5): the indivisible remainder goes to the first player still in the hand to the
  croupier's left. Seats are numbered from the croupier's left (art.1(2), art.2), so it
  is the first tied winner in seat-number order from seat 1; a chip never goes to a
  player who did not win that pot.
* art.16: 3%-5% "of each hand's pot" (每局彩池), at most 5x the big blind: computed per
  pot, bounds rounded down to the smallest chip, cap per hand.
* art.15(3): four of a kind ignores its kicker (``evaluator.MO_97_2010``).
* Fees other than rake (a jackpot drop, ``FeeTaken``): the text is silent. Art.16 is the
  whole of what it lets the house take from a pot (場方在每局彩池中抽取 ... 作佣金: 3%-5% as
  commission), so we allow no other deduction: ``FeeTerms(kinds=frozenset())``; a table
  declaration may narrow this, never widen it (``replayer.terms.fees_in_force``).
* art.10(3): 「博彩者之間不得協議分享彩池,故各門應繼續進行博彩直至產生最後結果為止」, "players
  may not agree to share the pot, so every seat plays on until the final result". A board
  run more than once after an all-in is such an agreement: the players agree to divide
  the pot between several boards instead of playing the one board to its result. We read
  the text as forbidding it (``board_runs_forbidden_by``): a hand run more than once is
  ``illegal_action`` citing art.10(3). Its pots are still judged as the players agreed to
  share them, each run P/k, art.10(4)-(5) settling the shares and the indivisible
  remainder (``runs.split_runs``), so a payout that does not even follow the agreement is
  a ``mispaid_pot`` as well.
"""

from __future__ import annotations

from datetime import UTC, datetime

from replayer.rankings import MO_97_2010
from replayer.rulebooks.poker import (
    Citations,
    FeeTerms,
    FirstToAct,
    MinRaise,
    OddChip,
    Play,
    PokerRulebook,
    RaiseMax,
    RakeSplit,
    RakeTerms,
    RunShare,
    ShortBlind,
    SplitUnit,
)

_K = "MO-97/2010"

OMAHA = PokerRulebook(
    id="mo-97-2010-omaha",
    title="Macau Despacho n.º 97/2010, Omaha Poker statutory rules",
    valid_from=datetime(2010, 8, 9, 16, 0, tzinfo=UTC),  # 2010-08-10 00:00 UTC+8
    valid_until=None,
    variants=("PO", "NO"),
    play=Play.ANY,  # silent on tournaments: the game's rules whatever the play
    cite=Citations(
        rulebook=_K,
        deck=f"{_K} art.1(1)(3)",
        hole_cards=f"{_K} art.6(1)",
        board=f"{_K} art.7(1), 8(1), 8(3)",
        burns=f"{_K} art.7(1), 8(1), 8(3)",
        deal_order=f"{_K} art.3(2), 6(1)",
        blinds=f"{_K} art.5",
        first_round_order=f"{_K} art.6(3)-(4)",
        later_round_order=f"{_K} art.7(2), 8(2)",
        call_amount=f"{_K} art.11(2)(2)",
        min_bet=f"{_K} art.11(3)",
        min_raise=f"{_K} art.12(1)",
        max_raise=f"{_K} art.11(2)",
        raise_cap=f"{_K} art.12(2)-(4)",
        min_players=f"{_K} art.2(3)",
        max_seats=f"{_K} art.2(1)-(2)",
        side_pots=f"{_K} art.10(2), 13(3)",
        uncontested=f"{_K} art.10(2), 13(3)",
        ranking=f"{_K} art.10(1), 14, 15",
        split=f"{_K} art.10(4)",
        odd_chip=f"{_K} art.10(5)",
        rake_rate=f"{_K} art.16",
        rake_cap=f"{_K} art.16",
        fees=f"{_K} art.16",
        board_runs=f"{_K} art.10(4), 10(5) (the shares of a pot run more than once)",
        void_refund=f"{_K} art.9(2)",
    ),
    deck_size=52,  # art.1(1)(3)
    hole_cards=4,  # art.6(1)
    board_schedule=(0, 3, 1, 1),  # art.7(1), 8(1), 8(3)
    burns=True,  # art.7(1), 8(1), 8(3)
    board_from_bottom=False,
    hole_round_robin=True,  # art.6(1): one card at a time from the left of the button
    ranking=MO_97_2010,  # art.14-15
    heads_up_button_small_blind=True,  # art.5 silent heads-up: convention
    short_blind=ShortBlind.AS_POSTED,  # silent: what was put in, as PokerKit plays it
    later_rounds_first=FirstToAct.LEFT_OF_BUTTON,  # art.7(2), 8(2)
    min_raise=MinRaise.LAST_BET_OR_RAISE,  # art.12(1)
    max_raise_no_limit=RaiseMax.UNLIMITED,  # art.11(3), 12(3)
    max_raise_pot_limit=RaiseMax.POT,  # art.11(2)
    raise_cap_no_limit=None,  # art.12(3)
    raise_cap_pot_limit=3,  # art.12(2)
    raise_cap_lifted_heads_up=True,  # art.12(4): no limit heads-up, the number neither
    raise_amount_unlimited_heads_up=True,  # art.12(4): 加注的金額不設限制
    min_players=2,  # art.2(3)
    max_seats=None,  # art.2(2): more than ten seats allowed
    split_unit=SplitUnit.SMALLEST_CHIP,  # art.10(4)
    odd_chip=OddChip.FIRST_WINNER_FROM_SEAT_ONE,  # art.10(5)
    run_share=RunShare.EXACT,  # runs forbidden; judged as agreed: P/k, art.10(4)-(5)
    table_limits=None,  # art.4(3) posts the blind limits; art.5 SB "generally" half
    extra_board_card_by=None,  # art.9: a dealing error is corrected, else void
    showdown_order_by=None,  # art.8(5): every participant reveals, in no order
    board_runs_forbidden_by="MO-97/2010 art.10(3)",  # 不得協議分享彩池: no pot-sharing
    rake_split=RakeSplit.PROPORTIONAL,  # art.16: the rate is of each hand's pot
    rake=RakeTerms(min_bps=300, max_bps=500, cap_big_blinds=5),  # art.16
    fees=FeeTerms(kinds=frozenset()),  # art.16: the commission is the house's whole take
)

RULEBOOKS = (OMAHA,)
