"""Planted faults: deliberate errors in the recorded settlement of a played hand.

Each planter takes a correctly settled ``PlayedHand`` and returns the faulty settlement
plus the fault's detail, or None when the hand offers no opportunity (no split pot for
an odd chip, no side pot, ...). The finishing stacks are rendered from the same faulty
settlement, so the record stays self-consistent: the fault is in what was paid, which
is what the replayer must catch. ``FAULT_FINDINGS`` names the finding kinds the replayer
must raise for each fault, one finding per fault: a wrong rake takes its chips out of
the pot it came from, and the pot is paid right for the rake taken, so the replayer
(version 4) reports the rake alone, not also a mispaid pot:

* ``wrong_winner``: a pot paid to a player who lost the showdown (``mispaid_pot``).
* ``wrong_side_pot``: a side pot paid to a player not eligible for it, e.g. the all-in
  player who only contested the main pot (PT-217/2007 n.º 49-50; ``mispaid_pot``).
* ``odd_chip_wrong_player``: a split pot's indivisible remainder given to the wrong
  winner (MO-97/2010 art.10(5); PT-217/2007 n.º 67; GG-2022 cash: the rulebook's choice,
  the first winner left of the button) (``mispaid_pot``).
* ``rake_over_cap``: rake above the hand's cap (MO-97/2010 art.16: 5x the big blind; the
  table's declared cap elsewhere): ``rake_cap_breach``.
* ``rake_out_of_band``: rake outside the declared rate or band, under the cap:
  ``rake_rate_out_of_band``.
* ``void_not_refunded``: a void or reverted hand where a player's chips were not all
  returned (MO-97/2010 art.9(2); PT-217/2007 n.º 69; GG-2022 reembolso):
  ``void_hand_not_refunded``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from simulate.poker import PlayedHand, Settlement

WRONG_WINNER = "wrong_winner"
WRONG_SIDE_POT = "wrong_side_pot"
ODD_CHIP = "odd_chip_wrong_player"
RAKE_OVER_CAP = "rake_over_cap"
RAKE_OUT_OF_BAND = "rake_out_of_band"
VOID_NOT_REFUNDED = "void_not_refunded"

FAULT_FINDINGS: dict[str, tuple[str, ...]] = {
    WRONG_WINNER: ("mispaid_pot",),
    WRONG_SIDE_POT: ("mispaid_pot",),
    ODD_CHIP: ("mispaid_pot",),
    RAKE_OVER_CAP: ("rake_cap_breach",),
    RAKE_OUT_OF_BAND: ("rake_rate_out_of_band",),
    VOID_NOT_REFUNDED: ("void_hand_not_refunded",),
}
FAULT_KINDS = tuple(FAULT_FINDINGS)

Planted = tuple[Settlement, dict[str, Any]]


def _move(settlement: Settlement, pot: int, source: int | None, target: int) -> int:
    """Re-address every award of ``pot`` (from ``source`` only, if given) to ``target``."""
    moved = 0
    kept = []
    for pos, chips, index in settlement.awards:
        if index == pot and (source is None or pos == source):
            moved += chips
        else:
            kept.append((pos, chips, index))
    kept.append((target, moved, pot))
    settlement.awards = kept
    return moved


def wrong_winner(hand: PlayedHand, rng: random.Random) -> Planted | None:
    for index, (_, eligible) in enumerate(hand.pots):
        won = hand.winners[index]
        losers = [p for p in eligible if p not in won and p in hand.shown]
        if len(won) == 1 and losers:
            loser = rng.choice(losers)
            faulty = hand.settlement.copy()
            chips = _move(faulty, index, won[0], loser)
            detail = {
                "pot_index": index,
                "winner_seat": hand.seats[won[0]],
                "paid_seat": hand.seats[loser],
                "chips": chips,
            }
            return faulty, detail
    return None


def wrong_side_pot(hand: PlayedHand, rng: random.Random) -> Planted | None:
    for index in range(1, len(hand.pots)):
        eligible = hand.pots[index][1]
        outsiders = [p for p in hand.pots[0][1] if p not in eligible]
        if outsiders:
            target = rng.choice(outsiders)
            faulty = hand.settlement.copy()
            chips = _move(faulty, index, None, target)
            detail = {
                "pot_index": index,
                "eligible_seats": sorted(hand.seats[p] for p in eligible),
                "paid_seat": hand.seats[target],
                "chips": chips,
            }
            return faulty, detail
    return None


def odd_chip(hand: PlayedHand, rng: random.Random) -> Planted | None:
    for index, won in enumerate(hand.winners):
        if len(won) < 2:
            continue
        shares = {pos: chips for pos, chips, i in hand.settlement.awards if i == index}
        faulty = hand.settlement.copy()
        if hand.retained[index]:
            target = rng.choice(won)
            faulty.awards.append((target, hand.retained[index], index))
            detail = {"pot_index": index, "dropped_chips_paid_to": hand.seats[target]}
            return faulty, detail
        high = max(won, key=lambda p: (shares.get(p, 0), -p))
        low = min(won, key=lambda p: (shares.get(p, 0), p))
        if shares.get(high, 0) == shares.get(low, 0):
            continue
        faulty.awards = [
            (low if (pos, i) == (high, index) else high if (pos, i) == (low, index) else pos, c, i)
            for pos, c, i in faulty.awards
        ]
        detail = {
            "pot_index": index,
            "odd_chips_due_to": hand.seats[high],
            "paid_to": hand.seats[low],
            "remainder": shares[high] - shares.get(low, 0),
        }
        return faulty, detail
    return None


def _rake_change(hand: PlayedHand, delta: int) -> Settlement | None:
    """Take ``delta`` more rake from pot 0 (less if negative), out of its award; None
    when pot 0 is split: its one award paid right for the rake taken is what makes the
    replayer report the rake alone (the module docstring), and a split pot's shares
    would have to be split again by the rulebook's rule."""
    main = [(k, a) for k, a in enumerate(hand.settlement.awards) if a[2] == 0]
    if len(main) != 1 or main[0][1][1] <= delta:
        return None
    rake = {i: c for c, i in hand.settlement.rake}
    rake[0] = rake.get(0, 0) + delta
    if rake[0] < 0:
        return None
    faulty = hand.settlement.copy()
    k, (pos, chips, _) = main[0]
    faulty.awards[k] = (pos, chips - delta, 0)
    faulty.rake = [(c, i) for i, c in sorted(rake.items()) if c]
    return faulty


def rake_over_cap(hand: PlayedHand, rng: random.Random) -> Planted | None:
    _, _, cap = hand.rake_bounds
    if hand.void or not cap:
        return None
    chip = hand.table.smallest_chip
    recorded = sum(c for c, _ in hand.settlement.rake)
    target = cap + max(chip, cap // 4 // chip * chip * rng.randint(1, 2))
    faulty = _rake_change(hand, target - recorded)
    if faulty is None:
        return None
    return faulty, {"cap": cap, "rake_due": recorded, "rake_taken": target}


def rake_out_of_band(hand: PlayedHand, rng: random.Random) -> Planted | None:
    lowest, highest, cap = hand.rake_bounds
    if hand.void:
        return None
    chip = hand.table.smallest_chip
    recorded = sum(c for c, _ in hand.settlement.rake)
    options = []
    if lowest >= 2 * chip:
        options.append(lowest // 2 // chip * chip)
    if highest and (cap is None or highest + chip <= cap):
        over = highest + max(chip, highest // 2 // chip * chip)
        options.append(over if cap is None else min(over, cap))
    if not options:
        return None
    target = rng.choice(options)
    faulty = _rake_change(hand, target - recorded)
    if faulty is None:
        return None
    return faulty, {"band": [lowest, highest], "rake_due": recorded, "rake_taken": target}


def void_not_refunded(hand: PlayedHand, rng: random.Random) -> Planted | None:
    if not hand.void or not hand.settlement.awards:
        return None
    faulty = hand.settlement.copy()
    k = rng.randrange(len(faulty.awards))
    pos, chips, _ = faulty.awards[k]
    kept = chips if rng.random() < 0.5 else max(1, chips // 2)
    if kept == chips:
        del faulty.awards[k]
    else:
        faulty.awards[k] = (pos, chips - kept, None)
    return faulty, {"seat": hand.seats[pos], "due": chips, "withheld": kept}


PLANTERS: dict[str, Callable[[PlayedHand, random.Random], Planted | None]] = {
    WRONG_WINNER: wrong_winner,
    WRONG_SIDE_POT: wrong_side_pot,
    ODD_CHIP: odd_chip,
    RAKE_OVER_CAP: rake_over_cap,
    RAKE_OUT_OF_BAND: rake_out_of_band,
    VOID_NOT_REFUNDED: void_not_refunded,
}
