"""Main and side pots from what each player put in, and how a pot is shared.

Pots (``build_pots``): live chips (bets, calls, raises, live blinds) are layered by
amount; each layer is a pot for the players who put in at least that much and have not
folded (a side pot per all-in, PT-217/2007 n.º 38, 48-50). Folded chips stay in the
pots they were put into (MO-97/2010 art.13(3)). Dead money (antes, dead blinds) goes to
the main pot, open to every player who has not folded (GG-2022 "adicionada diretamente
ao pote"; the same as PokerKit without ante trimming). Consecutive pots open to the same
players are one pot. A layer that only its single contributor reached is an uncalled bet
and goes back to him (it is not a pot, and is not raked); a layer whose contributors
have all folded joins the pot below it.

Sharing (``split``): the pot is divided in equal shares that are whole multiples of the
split unit; the rest goes by the rulebook's odd-chip rule (MO-97/2010 art.10(4)-(5);
PT-217/2007 n.º 66-67; GG-2022 Política de mãos atadas). Within a layered pot every
winner put in the same amount, so PT n.º 66 "in proportion to the bets" is equal shares.
"""

from __future__ import annotations

from replayer.rulebooks.poker import OddChip

Pot = tuple[int, tuple[int, ...]]
"""(amount, positions that may win it)."""


def build_pots(put: list[int], dead: list[int], folded: list[bool]) -> tuple[list[Pot], list[int]]:
    """(pots, uncalled chips returned per position); pots in order, main pot first."""
    n = len(put)
    returned = [0] * n
    live = [put[p] - dead[p] for p in range(n)]
    pots: list[list] = []
    carry = sum(dead)
    if carry:
        pots.append([carry, tuple(p for p in range(n) if not folded[p])])
        carry = 0
    previous = 0
    for level in sorted(set(live)):
        if level <= 0:
            continue
        contributors = [p for p in range(n) if live[p] >= level]
        amount = (level - previous) * len(contributors)
        previous = level
        eligible = tuple(p for p in contributors if not folded[p])
        if len(contributors) == 1 and eligible:
            returned[eligible[0]] += amount
        elif not eligible:
            if pots:
                pots[-1][0] += amount
            else:
                carry += amount
        elif pots and pots[-1][1] == eligible:
            pots[-1][0] += amount + carry
            carry = 0
        else:
            pots.append([amount + carry, eligible])
            carry = 0
    if carry:
        # Only folded players reached every layer: nobody is left to win them.
        pots.append([carry, ()])
    return [(amount, eligible) for amount, eligible in pots], returned


def split(
    amount: int,
    winners: list[int],
    unit: int,
    rule: OddChip,
    seat_of: tuple[int, ...],
) -> tuple[dict[int, int], int]:
    """(share per winning position, chips kept by the house) of one pot.

    ``seat_of[position]`` is the table seat number; the button is the last position.
    """
    count = len(winners)
    share = amount // (count * unit) * unit
    rest = amount - share * count
    shares = dict.fromkeys(winners, share)
    if not rest:
        return shares, 0
    if rule is OddChip.DROPPED:
        return shares, rest
    if rule is OddChip.FIRST_WINNER_FROM_SEAT_ONE:
        first = min(winners, key=seat_of.__getitem__)
        shares[first] += rest
        return shares, 0
    # ONE_UNIT_EACH_FROM_BUTTON: the button (the "mão") first, then clockwise.
    n = len(seat_of)
    ordered = sorted(winners, key=lambda p: (p + 1) % n)
    units, leftover = divmod(rest, unit)
    for p in ordered[:units]:
        shares[p] += unit
    shares[ordered[0]] += leftover
    return shares, 0
