"""The simulator's clean banked rounds checked by a reference written from the rule text.

``simulate.casino`` deals punto banco with the replayer's own tableau
(``replayer.casino.punto_banco.next_side``), so the replayer finding nothing on a clean
floor cannot catch a tableau bug both share (issue 25). This reference imports nothing
of ``replayer.casino``: it is the rule text, GG-2022 (GGPoker house rules updated
2022-09-28), live casino:

* punto banco (II): card values II 1.3.2 (2-9 face value, ten and court cards 0, ace 1,
  the tens digit dropped); cards 1 and 3 to the player, 2 and 4 to the bank (II 3.4.3);
  the third-card tableau of II 3.5.1, whose copy is garbled in translation ("empata" for
  "draws", "2-3-4-4-5-6-7"), so it is read as the published standard tableau: a natural
  8 or 9 on either side and both stand; the player draws on 0-5, stands on 6-7; a
  player who stood leaves the bank to draw on 0-5; else the bank draws on 0-2, on 3
  unless the player's third card is an 8, on 4 against 2-7, on 5 against 4-7, on 6
  against 6-7, stands on 7. Payouts II 2.1.2-2.1.5, 2.2: player 1 to 1, bank 1 to 1
  less a 5% commission on the amount won (II 2.2 does not say how a fraction of a cent
  is rounded: down, never more than 5%), tie 8 to 1, and on a tie the player and bank
  bets are returned (II 2.1.5).
* roulette (IV): single zero, 37 pockets (IV 1.2.1); payouts IV 2.2, odds to 1: straight
  35, split 17, street 11, four numbers 8 (the corner, IV 1.1 "aposta de canto", and
  0-1-2-3), six line 5, column and dozen 2, red, black, odd, even, low, high 1; the
  even chances lose on zero (IV 2.2 lists no other rule for it); a winner is paid its
  stake and the odds. The even chances' numbers are the standard single-zero layout's.
* blackjack (III 4.4): the dealer draws until he has a hard or soft 17 to 21, and draws
  nothing when his count cannot change the result (every player hand busted or a
  blackjack: the standard reading of the copy's "não tiver efeito sobre o resultado").

``/work/shared`` holds the texts; a clone does not, so the articles are cited here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from audit.ingest.avro_files import read_events
from simulate import DayManifest, generate_day
from simulate.floor import banked_rounds

DAY = date(2025, 3, 1)
Event = Mapping[str, Any]

ROULETTE_ODDS = {
    "straight": 35,
    "split": 17,
    "street": 11,
    "corner": 8,
    "four_number": 8,
    "six_line": 5,
    "column": 2,
    "dozen": 2,
    "red": 1,
    "black": 1,
    "odd": 1,
    "even": 1,
    "low": 1,
    "high": 1,
}
RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
EVEN_CHANCES = {
    "red": RED,
    "black": frozenset(range(1, 37)) - RED,
    "odd": frozenset(range(1, 37, 2)),
    "even": frozenset(range(2, 37, 2)),
    "low": frozenset(range(1, 19)),
    "high": frozenset(range(19, 37)),
}
COVERED = {"straight": 1, "split": 2, "street": 3, "corner": 4, "four_number": 4}
COVERED |= {"six_line": 6, "column": 12, "dozen": 12}
COMMISSION_PERCENT = 5
TIE_ODDS = 8
DEALER_STANDS_ON = 17


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> tuple[DayManifest, dict[str, list[Event]]]:
    """A floor of 2,400 banked rounds (punto banco, roulette, blackjack, chemin de fer),
    about one in twenty with a planted fault."""
    out: Path = tmp_path_factory.mktemp("oracle-floor")
    manifest = generate_day(
        5, DAY, hands=10, out=out, extra=[banked_rounds(2_400, fault_rate=0.05)]
    )
    rounds: dict[str, list[Event]] = defaultdict(list)
    for name in manifest.input_files:
        if name.startswith("banked-"):
            for event in read_events(out / name):
                rounds[event["round_id"]].append(event)
    return manifest, rounds


def clean_rounds(floor: tuple[DayManifest, dict[str, list[Event]]], game: str) -> list[list[Event]]:
    manifest, rounds = floor
    planted = {fault.subject for fault in manifest.faults}
    return [
        sorted(events, key=lambda e: e["sequence"])
        for round_id, events in rounds.items()
        if round_id not in planted and events[0]["game"] == game
    ]


def baccarat_value(card: str) -> int:
    """II 1.3.2: 2-9 at face value, ten and court cards 0, the ace 1."""
    rank = card[0]
    return 1 if rank == "A" else int(rank) if rank.isdigit() else 0


def points(cards: Sequence[str]) -> int:
    """II 1.3.2: the total's units digit."""
    return sum(baccarat_value(card) for card in cards) % 10


def bank_draws(bank: int, player_third: int) -> bool:
    """The standard tableau (II 3.5.1): does a bank of ``bank`` points draw against the
    player's third card of value ``player_third``?"""
    if bank <= 2:
        return True
    drawn_against = {3: set(range(10)) - {8}, 4: set(range(2, 8)), 5: set(range(4, 8))}
    drawn_against[6] = {6, 7}
    return player_third in drawn_against.get(bank, set())


def tableau(cards: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """The sides the coup's cards go to by II 3.4.3 and 3.5.1, and the two hands, for a
    coup dealt from ``cards`` (the cards as recorded, in order)."""
    player, bank = [cards[0], cards[2]], [cards[1], cards[3]]
    sides = ["player", "banker", "player", "banker"]
    rest = iter(cards[4:])
    if max(points(player), points(bank)) >= 8:
        return sides, player, bank
    if points(player) <= 5:
        third = next(rest)
        player.append(third)
        sides.append("player")
        if bank_draws(points(bank), baccarat_value(third)):
            bank.append(next(rest))
            sides.append("banker")
    elif points(bank) <= 5:
        bank.append(next(rest))
        sides.append("banker")
    return sides, player, bank


def baccarat_due(bet: Event, player: int, bank: int) -> tuple[int, int]:
    """(payout, commission) due on a punto banco bet: II 2.1.2-2.1.5 and 2.2."""
    stake, side = bet["amount"], bet["bet_type"]
    if side == "tie":
        return ((TIE_ODDS + 1) * stake if player == bank else 0), 0
    if player == bank:
        return stake, 0
    winner = "player" if player > bank else "banker"
    if side != winner:
        return 0, 0
    commission = stake * COMMISSION_PERCENT // 100 if side == "banker" else 0
    return 2 * stake - commission, commission


def paid(events: Sequence[Event], event_type: str) -> dict[str, int]:
    """Bet id -> the amount of its ``event_type`` events (PayoutMade, CommissionTaken)."""
    amounts: dict[str, int] = defaultdict(int)
    for event in events:
        if event["type"] == event_type:
            amounts[event["bet_id"]] += event["amount"]
    return dict(amounts)


def punto_banco_mismatches(events: Sequence[Event]) -> list[str]:
    """Where a punto banco coup departs from the reference (draws, payouts, commissions)."""
    dealt = [e for e in events if e["type"] == "CardDealt"]
    cards = [e["card"] for e in dealt]
    sides, player, bank = tableau(cards)
    wrong = []
    if sides != [e["to"] for e in dealt]:
        wrong.append(f"cards to {[e['to'] for e in dealt]}, the tableau deals {sides}")
    payouts, commissions = paid(events, "PayoutMade"), paid(events, "CommissionTaken")
    for bet in (e for e in events if e["type"] == "BetPlaced"):
        due = baccarat_due(bet, points(player), points(bank))
        made = (payouts.get(bet["bet_id"], 0), commissions.get(bet["bet_id"], 0))
        if made != due:
            wrong.append(f"{bet['bet_id']} {bet['bet_type']}: paid {made}, due {due}")
    return wrong


def roulette_mismatches(events: Sequence[Event]) -> list[str]:
    """Where a spin departs from the reference (the bet's numbers, its payout)."""
    pocket = next(e["pocket"] for e in events if e["type"] == "SpinResult")
    payouts = paid(events, "PayoutMade")
    wrong = []
    if not 0 <= pocket <= 36:
        wrong.append(f"pocket {pocket} not on a single-zero wheel")
    for bet in (e for e in events if e["type"] == "BetPlaced"):
        kind, numbers = bet["bet_type"], frozenset(bet["numbers"])
        expected = EVEN_CHANCES.get(kind)
        if expected is not None and numbers != expected:
            wrong.append(f"{bet['bet_id']} {kind} covers {sorted(numbers)}")
        if expected is None and len(numbers) != COVERED[kind]:
            wrong.append(f"{bet['bet_id']} {kind} covers {len(numbers)} numbers")
        due = bet["amount"] * (ROULETTE_ODDS[kind] + 1) if pocket in numbers else 0
        if payouts.get(bet["bet_id"], 0) != due:
            wrong.append(f"{bet['bet_id']} {kind}: paid {payouts.get(bet['bet_id'], 0)}, due {due}")
    return wrong


def blackjack_total(cards: Sequence[str]) -> int:
    """The hand's best count: court cards 10, an ace 11 unless that busts the hand."""
    values = [11 if c[0] == "A" else 10 if c[0] in "TJQK" else int(c[0]) for c in cards]
    total = sum(values)
    for _ in range(values.count(11)):
        if total > 21:
            total -= 10
    return total


def dealer_mismatches(events: Sequence[Event]) -> list[str]:
    """Where the dealer's draws depart from III 4.4."""
    hands: dict[int, list[str]] = defaultdict(list)
    dealer: list[str] = []
    split = set()
    for event in events:
        if event["type"] == "CardDealt":
            (dealer if event["to"] == "dealer" else hands[event["hand"]]).append(event["card"])
        elif event["type"] == "PlayerDecision" and event["decision"] == "split":
            split |= {event["hand"], event["new_hand"]}
    blackjack = {h for h, cards in hands.items() if len(cards) == 2 and h not in split}
    live = any(
        blackjack_total(cards) <= 21 and not (h in blackjack and blackjack_total(cards) == 21)
        for h, cards in hands.items()
    )
    due = dealer[:2]
    while live and blackjack_total(due) < DEALER_STANDS_ON and len(due) < len(dealer):
        due.append(dealer[len(due)])
    if due != dealer or (live and blackjack_total(dealer) < DEALER_STANDS_ON):
        return [f"dealer drew {dealer}; III 4.4 draws {due} (a player hand live: {live})"]
    return []


REFERENCES = {
    "punto_banco": punto_banco_mismatches,
    "roulette": roulette_mismatches,
    "blackjack": dealer_mismatches,
}


@pytest.mark.parametrize("game", sorted(REFERENCES))
def test_clean_rounds_are_what_the_rule_text_says(
    floor: tuple[DayManifest, dict[str, list[Event]]], game: str
) -> None:
    rounds = clean_rounds(floor, game)
    assert len(rounds) > 400
    wrong = {
        events[0]["round_id"]: found for events in rounds if (found := REFERENCES[game](events))
    }
    assert wrong == {}


@pytest.mark.parametrize("game", ["punto_banco", "roulette"])
def test_the_reference_sees_the_mispaid_rounds(
    floor: tuple[DayManifest, dict[str, list[Event]]], game: str
) -> None:
    manifest, rounds = floor
    mispaid = [
        fault
        for fault in manifest.faults
        if fault.kind in ("overpaid", "unpaid_winner", "wrong_commission")
        and fault.detail.get("game") == game
    ]
    assert mispaid
    for fault in mispaid:
        events = sorted(rounds[fault.subject], key=lambda e: e["sequence"])
        assert REFERENCES[game](events), fault
