"""Portugal: Portaria n.º 217/2007, Section II, non-banked poker (omaha, hold'em, sintético).

Source: ``regulations/pt-portaria-217-2007.pt.txt`` (26 Feb 2007, in force 1 Mar 2007,
00:00 Lisbon = UTC in March). Hold'em takes the omaha rules with its own changes
(n.º 92); "póquer sintético" takes only the general rules (n.º 112).

Choices the text leaves open, each beside its value below:

* n.º 42, 44, 46, 85: after the first round "the player who has the mão" speaks first.
  The mão is the marker the small blind sits left of (n.º 29, 81), i.e. the button, so
  we read it literally: the button opens every later round (``FirstToAct.BUTTON``).
  The usual "first active player left of the button" reading is
  ``FirstToAct.LEFT_OF_BUTTON``.
* n.º 86: raises are at least the table minimum and at most "the total of the bets made
  so far"; we read it as: raise increment <= all chips in the pot before the raiser's
  call (``RaiseMax.BETS_SO_FAR``), for every hold'em/omaha hand whatever its recorded
  structure letter.
* n.º 87-88: three raises per round, unlimited with two players left; forced bets are
  not raises. N.º 88 (and 47) lift the *number* of raises ("o número de repiques é
  ilimitado"), not n.º 86's maximum: heads-up a raise is still at most the bets so far.
* n.º 17 (ranking list) is cut from the copy: the standard order (``evaluator.STANDARD``).
  n.º 103/105 (sintético changes) are cut: flush above full house, ace low A-8-9-T-J
  (n.º 95) (``evaluator.SYNTHETIC``).
* n.º 66: shares "in proportion to the bets": within a layered (side-)pot every winner
  put in the same amount, so the shares are equal. n.º 67: "the smallest chip in each
  share equals the bet minimum": the split unit is the table minimum (big blind) and
  the leftover units go one each to the mão (button) first, then clockwise.
* n.º 7 (rake modalities) is cut: no default rake terms; declare them per table.
* Fees other than rake (a jackpot drop, ``FeeTaken``): n.º 65 names only the
  concessionaire's percentage, and n.º 7's list of modalities is cut, so whether a drop
  may be one cannot be read: no default fee terms (``fees=None``); declare them per
  table, and a fee taken without them is ``terms_missing``.
* Boards run more than once after an all-in: silent. Each run shares the pot equally and
  n.º 66-67 settle the shares and the leftover units (``runs.split_runs``).
* n.º 19-20, 82-83 (``TableLimits``): the small blind is half the table minimum, the big
  blind the minimum (sintético has no blinds; its ante, n.º 102, is "no valor mínimo
  fixado pela concessionária", a minimum of its own), no bet or raise above the table
  maximum, and a declared minimum from 20% to 40% of the maximum. The minimum is the
  declared table terms' ``min_bet``, else the hand's own; n.º 21 (how the maximum is
  fixed) is cut, so a bet or raise is bounded by the chips that one action puts in.
* n.º 24: fewer than four players suspends the game; a hand dealt to fewer is reported
  as ``invalid_deal`` (the deal should not have happened) and otherwise judged as played.
* Sintético (n.º 95-112): ante from every player (n.º 102), no burn (n.º 100), five board
  cards from the bottom one at a time, a betting round after each (n.º 107-108), the
  first round opened left of the mão (n.º 107), the next ones by the player who made the
  highest bet in the previous round (n.º 108); a board card turned before its time loses
  a betting round per card (n.º 110, ``extra_board_card_by``). Minimum raise and raise
  cap are not set (n.º 112 refers to the general rules, which are silent): previous bet
  or raise, no cap.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from replayer.rankings import STANDARD
from replayer.rankings import SYNTHETIC as SYNTHETIC_RANKING
from replayer.rulebooks.poker import (
    Citations,
    FirstToAct,
    MinRaise,
    OddChip,
    Play,
    PokerRulebook,
    RaiseMax,
    RakeSplit,
    RunShare,
    ShortBlind,
    SplitUnit,
    TableLimits,
)

_K = "PT-217/2007"

_CITE = Citations(
    rulebook=_K,
    deck=f"{_K} n.º 72",
    hole_cards=f"{_K} n.º 77",
    board=f"{_K} n.º 41, 43, 45",
    burns=f"{_K} n.º 41, 43, 45",
    deal_order=f"{_K} n.º 35",
    blinds=f"{_K} n.º 81-83",
    first_round_order=f"{_K} n.º 84",
    later_round_order=f"{_K} n.º 42, 44, 46, 85",
    call_amount=f"{_K} n.º 48",
    min_bet=f"{_K} n.º 20",
    min_raise=f"{_K} n.º 86",
    max_raise=f"{_K} n.º 86",
    raise_cap=f"{_K} n.º 87-88",
    min_players=f"{_K} n.º 24",
    max_seats=f"{_K} n.º 6",
    side_pots=f"{_K} n.º 38, 48-50",
    uncontested=f"{_K} n.º 51",
    ranking=f"{_K} n.º 17, 72-73",
    split=f"{_K} n.º 66",
    odd_chip=f"{_K} n.º 67",
    rake_rate=f"{_K} n.º 7, 65",
    rake_cap=f"{_K} n.º 7, 65",
    fees=f"{_K} n.º 7, 65",
    board_runs=f"{_K} n.º 66, 67 (silent on boards run more than once)",
    void_refund=f"{_K} n.º 69",
)

LIMITS = TableLimits(
    within="PT-217/2007 n.º 19",
    minimum_share="PT-217/2007 n.º 20",
    min_to_max_bps=(2000, 4000),  # n.º 20 "entre 20% ou 40% do máximo": read as a band
    small_blind="PT-217/2007 n.º 82",
    big_blind="PT-217/2007 n.º 83",
)

OMAHA = PokerRulebook(
    id="pt-217-2007-omaha",
    title="Portaria n.º 217/2007, Secção II, póquer não bancado, variante omaha",
    valid_from=datetime(2007, 3, 1, tzinfo=UTC),
    valid_until=None,
    variants=("PO", "NO"),
    play=Play.ANY,  # n.º 113: tournaments play by the general and the game's rules
    cite=_CITE,
    deck_size=52,  # n.º 72
    hole_cards=4,  # n.º 77
    board_schedule=(0, 3, 1, 1),  # n.º 41, 43, 45
    burns=True,  # n.º 41, 43, 45
    board_from_bottom=False,
    hole_round_robin=True,  # n.º 35: one card at a time from the first bettor
    ranking=STANDARD,  # n.º 17 cut: standard order; n.º 72-73
    heads_up_button_small_blind=True,  # silent (n.º 24 forbids heads-up anyway)
    short_blind=ShortBlind.AS_POSTED,  # silent: what was put in, as PokerKit plays it
    later_rounds_first=FirstToAct.BUTTON,  # n.º 85 literal "mão"
    min_raise=MinRaise.TABLE_MINIMUM,  # n.º 86
    max_raise_no_limit=RaiseMax.BETS_SO_FAR,  # n.º 86
    max_raise_pot_limit=RaiseMax.BETS_SO_FAR,  # n.º 86
    raise_cap_no_limit=3,  # n.º 87
    raise_cap_pot_limit=3,  # n.º 87
    raise_cap_lifted_heads_up=True,  # n.º 88, 47
    raise_amount_unlimited_heads_up=False,  # n.º 88 lifts the number of raises only
    min_players=4,  # n.º 24
    max_seats=10,  # n.º 6
    split_unit=SplitUnit.TABLE_MINIMUM,  # n.º 67
    odd_chip=OddChip.ONE_UNIT_EACH_FROM_BUTTON,  # n.º 67
    run_share=RunShare.EXACT,  # silent on runs: each run P/k, n.º 66-67 the leftover units
    table_limits=LIMITS,  # n.º 19-20, 82-83
    extra_board_card_by=None,  # omaha, hold'em: n.º 69-71 (n.º 110 is sintético's)
    showdown_order_by="PT-217/2007 n.º 62",  # the last round's opener first, then clockwise
    board_runs_forbidden_by=None,  # silent (n.º 56's "parol" annuls plays; runs do not)
    rake_split=RakeSplit.PROPORTIONAL,  # n.º 65: the percentage "retirada de cada um dos
    # pagamentos", each pot's payment its own share
    rake=None,  # n.º 7 list cut: declared per table
    fees=None,  # n.º 7 list cut, n.º 65 names the percentage only: declared per table
)

HOLDEM = replace(
    OMAHA,
    id="pt-217-2007-holdem",
    title="Portaria n.º 217/2007, Secção II, póquer não bancado, variante hold'em",
    variants=("NT",),
    cite=replace(_CITE, hole_cards=f"{_K} n.º 92-93", ranking=f"{_K} n.º 17, 72, 94"),
    hole_cards=2,  # n.º 93
)

SYNTHETIC = replace(
    OMAHA,
    id="pt-217-2007-synthetic",
    title="Portaria n.º 217/2007, Secção II, póquer não bancado, póquer sintético",
    variants=("NSY", "PSY"),
    cite=replace(
        _CITE,
        deck=f"{_K} n.º 95",
        hole_cards=f"{_K} n.º 96",
        board=f"{_K} n.º 107-108",
        burns=f"{_K} n.º 100",
        blinds=f"{_K} n.º 102",
        first_round_order=f"{_K} n.º 107",
        later_round_order=f"{_K} n.º 108",
        min_raise=f"{_K} n.º 112 (silent: previous bet or raise)",
        max_raise=f"{_K} n.º 112 (silent: by structure)",
        raise_cap=f"{_K} n.º 47, 112",
        max_seats=f"{_K} n.º 6, 99",
        ranking=f"{_K} n.º 95, 97, 103, 105",
        split=f"{_K} n.º 66, 104",
        void_refund=f"{_K} n.º 109",
    ),
    deck_size=28,  # n.º 95
    hole_cards=2,  # n.º 96
    board_schedule=(1, 1, 1, 1, 1),  # n.º 107-108
    burns=False,  # n.º 100
    board_from_bottom=True,  # n.º 107
    ranking=SYNTHETIC_RANKING,  # n.º 95, 103/105 cut: flush above full house
    later_rounds_first=FirstToAct.LAST_HIGHEST_BETTOR,  # n.º 108
    min_raise=MinRaise.LAST_BET_OR_RAISE,  # n.º 112: silent, convention
    max_raise_no_limit=RaiseMax.UNLIMITED,  # n.º 112: silent, by structure
    max_raise_pot_limit=RaiseMax.POT,  # n.º 112: silent, by structure
    raise_cap_no_limit=None,  # n.º 47, 112: no cap set for sintético
    raise_cap_pot_limit=None,
    max_seats=11,  # n.º 6, 99
    extra_board_card_by="PT-217/2007 n.º 110",  # a card turned early loses a betting round
    # n.º 102's ante is "no valor mínimo fixado pela concessionária": a minimum of its own,
    # not said to be the table minimum, so the ante is the hand's declared one (``blinds``)
    table_limits=replace(LIMITS, small_blind=None, big_blind=None),
)

RULEBOOKS = (OMAHA, HOLDEM, SYNTHETIC)
