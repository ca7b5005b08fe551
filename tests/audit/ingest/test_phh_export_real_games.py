# ruff: noqa: E501  (the rooms' header lines are longer than 100 characters)
"""The PHH export of a room's tournament hands and of the new games (issue 21), checked
against PokerKit, the pinned test oracle: each hand written in a room's real form (our
own names and amounts), read by the real importer, exported and replayed in PokerKit to
the stacks the room's own summary gives. A game PokerKit does not deal is refused by
name, never replayed as another game."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path

import pytest

from audit.ingest.phh.export import hand_phh
from tests.pokerkit_oracle import pokerkit_check
from tests.replayer.tournaments.test_tournament_hands import GG_LEVEL, PS_2007, hand

#: PokerStars fixed-limit hold'em, 2024: stakes are the small and big bet.
PS_LIMIT = """\
PokerStars Hand #240000000101:  Hold'em Limit ($0.10/$0.20 USD) - 2024/02/03 21:00:00 CET [2024/02/03 15:00:00 ET]
Table 'Alcor III' 6-max Seat #1 is the button
Seat 1: Jardim ($5 in chips)
Seat 2: Hero ($4.50 in chips)
Seat 3: Lobo ($6.20 in chips)
Hero: posts small blind $0.05
Lobo: posts big blind $0.10
*** HOLE CARDS ***
Dealt to Hero [Ks Qd]
Jardim: raises $0.10 to $0.20
Hero: calls $0.15
Lobo: calls $0.10
*** FLOP *** [2h 7c Kd]
Hero: bets $0.10
Lobo: folds
Jardim: calls $0.10
*** TURN *** [2h 7c Kd] [9s]
Hero: bets $0.20
Jardim: folds
Uncalled bet ($0.20) returned to Hero
Hero collected $0.80 from pot
Hero: doesn't show hand
*** SUMMARY ***
Total pot $0.80 | Rake $0
Board [2h 7c Kd 9s]
Seat 1: Jardim (button) folded on the Turn
Seat 2: Hero (small blind) collected ($0.80)
Seat 3: Lobo (big blind) folded on the Flop
"""

#: GGPoker short deck, 2023: every player antes, the button posts the button blind.
GG_SHORT_DECK = """\
Poker Hand #SD900000001: ShortDeck No Limit ($0.02) - 2023/03/02 18:22:40
Table 'SDWhite9' 5-max Seat #3 is the button
Seat 1: aa11bb22 ($2.50 in chips)
Seat 2: cc33dd44 ($2 in chips)
Seat 3: Hero ($2 in chips)
aa11bb22: posts the ante $0.02
cc33dd44: posts the ante $0.02
Hero: posts the ante $0.02
Hero: posts button blind $0.02
*** HOLE CARDS ***
Dealt to aa11bb22
Dealt to cc33dd44
Dealt to Hero [Tc Ac]
aa11bb22: calls $0.02
cc33dd44: raises $0.08 to $0.10
Hero: folds
aa11bb22: calls $0.08
*** FLOP *** [Qh 8s 9d]
aa11bb22: checks
cc33dd44: bets $0.2
aa11bb22: folds
Uncalled bet ($0.2) returned to cc33dd44
*** SHOWDOWN ***
cc33dd44 collected $0.28 from pot
*** SUMMARY ***
Total pot $0.28 | Rake $0 | Jackpot $0 | Bingo $0
Board [Qh 8s 9d]
Seat 1: aa11bb22 folded on the Flop
Seat 2: cc33dd44 won ($0.28)
Seat 3: Hero (button) folded before Flop
"""

#: PokerStars 5-card omaha, 2024.
PS_PLO5 = """\
PokerStars Hand #240000000102:  5 Card Omaha Pot Limit ($0.05/$0.10 USD) - 2024/02/03 21:05:00 CET [2024/02/03 15:05:00 ET]
Table 'Alcor IV' 6-max Seat #2 is the button
Seat 1: Jardim ($10 in chips)
Seat 2: Hero ($10 in chips)
Seat 3: Lobo ($10 in chips)
Lobo: posts small blind $0.05
Jardim: posts big blind $0.10
*** HOLE CARDS ***
Dealt to Hero [Ks Qd 4c 4d 9h]
Hero: raises $0.25 to $0.35
Lobo: folds
Jardim: folds
Uncalled bet ($0.25) returned to Hero
Hero collected $0.25 from pot
Hero: doesn't show hand
*** SUMMARY ***
Total pot $0.25 | Rake $0
Seat 1: Jardim (big blind) folded before Flop
Seat 2: Hero (button) collected ($0.25)
Seat 3: Lobo (small blind) folded before Flop
"""


@pytest.mark.parametrize(
    ("text", "variant"),
    [(GG_LEVEL, "NT"), (PS_2007, "NT"), (PS_LIMIT, "FT"), (GG_SHORT_DECK, "NS")],
    ids=["gg-tournament", "ps-tournament", "fixed-limit", "short-deck"],
)
def test_the_export_replays_in_pokerkit_to_the_rooms_stacks(
    tmp_path: Path, text: str, variant: str
) -> None:
    events = hand(tmp_path, text)
    exported = hand_phh(events)
    assert tomllib.loads(exported)["variant"] == variant
    replayed = pokerkit_check(exported)
    assert replayed.refused == ""
    assert replayed.stacks == replayed.recorded


def test_a_tournament_hand_is_exported_in_chips_with_its_level(tmp_path: Path) -> None:
    fields = tomllib.loads(hand_phh(hand(tmp_path, PS_2007)), parse_float=Decimal)
    assert "currency" not in fields  # chips
    assert fields["starting_stacks"][0] == 2900  # whole chips, as the room writes them
    assert (fields["level"], fields["_tournament"]) == (2, "pokerstars/91000002")


def test_fixed_limit_is_exported_with_its_small_and_big_bet(tmp_path: Path) -> None:
    fields = tomllib.loads(hand_phh(hand(tmp_path, PS_LIMIT)), parse_float=Decimal)
    assert (fields["small_bet"], fields["big_bet"]) == (Decimal("0.1"), Decimal("0.2"))
    assert "min_bet" not in fields


def test_five_card_omaha_is_refused_by_pokerkit_by_name(tmp_path: Path) -> None:
    replayed = pokerkit_check(hand_phh(hand(tmp_path, PS_PLO5)))
    assert replayed.refused == "variant PO5 not in PokerKit"
