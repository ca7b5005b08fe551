"""Main and side pots from what each player put in, and how a pot is shared.

Pots (``build_pots``): live chips (bets, calls, raises, live blinds) are layered by
amount; each layer is a pot for the players who put in at least that much and have not
folded (a side pot per all-in, PT-217/2007 n.º 38, 48-50). Folded chips stay in the
pots they were put into (MO-97/2010 art.13(3)). Dead money (antes, dead blinds) goes to
the main pot, open to every player who has not folded (GG-2022 "adicionada diretamente
ao pote"; the same as PokerKit without ante trimming), and so does money the house adds
(``added``, a room's promotion such as GGPoker's Cash Drop). Consecutive pots open to the same
players are one pot. A layer that only its single contributor reached is an uncalled bet
and goes back to him (it is not a pot, and is not raked); a layer whose contributors
have all folded joins the pot below it.

Sharing (``split``): the pot is divided in equal shares that are whole multiples of the
split unit; the rest goes by the rulebook's odd-chip rule (MO-97/2010 art.10(4)-(5);
PT-217/2007 n.º 66-67; GG-2022 cash games: Política de mãos atadas and the rulebook's
open choice, the first winner left of the button). Within a layered pot every
winner put in the same amount, so PT n.º 66 "in proportion to the bets" is equal shares.
Under ``OddChip.DROPPED`` the fraction dropped is the one in a player's winnings from
the hand, not in each pot (``split_pots``).
"""

from __future__ import annotations

from fractions import Fraction

from replayer.rulebooks.poker import OddChip

Pot = tuple[int, tuple[int, ...]]
"""(amount, positions that may win it)."""


def build_pots(
    put: list[int], dead: list[int], folded: list[bool], added: int = 0
) -> tuple[list[Pot], list[int]]:
    """(pots, uncalled chips returned per position); pots in order, main pot first;
    ``added``: the house's money in the main pot.

    Position 0 all-in for 100, the others for more: a main pot for all three and a side
    pot for the two who put in more (PT-217/2007 n.º 38, 48-50); the 200 that only
    position 1 put in was never called and goes back to him.

    >>> build_pots([100, 500, 300], [0, 0, 0], [False, False, False])
    ([(300, (0, 1, 2)), (400, (1, 2))], [0, 200, 0])

    Folded chips stay in the pot they were put into (MO-97/2010 art.13(3)):

    >>> build_pots([100, 300, 300], [0, 0, 0], [True, False, False])
    ([(700, (1, 2))], [0, 0, 0])

    The house's money goes to the main pot (GGPoker's Cash Drop):

    >>> build_pots([100, 100], [0, 0], [False, False], added=20)
    ([(220, (0, 1))], [0, 0])
    """
    n = len(put)
    returned = [0] * n
    live = [put[p] - dead[p] for p in range(n)]
    pots: list[Pot] = []
    carry = sum(dead) + added
    if carry:
        pots.append((carry, tuple(p for p in range(n) if not folded[p])))
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
                pots[-1] = (pots[-1][0] + amount, pots[-1][1])
            else:
                carry += amount
        elif pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount + carry, eligible)
            carry = 0
        else:
            pots.append((amount + carry, eligible))
            carry = 0
    if carry:
        # Only folded players reached every layer: nobody is left to win them.
        pots.append((carry, ()))
    return pots, returned


def split(
    amount: int,
    winners: list[int],
    unit: int,
    rule: OddChip,
    seat_of: tuple[int, ...],
) -> tuple[dict[int, int], int]:
    """(share per winning position, chips kept by the house) of one pot.

    ``seat_of[position]`` is the table seat number; the button is the last position.

    101 chips between positions 0 (seat 5) and 1 (seat 2). MO-97/2010 art.10(5): the odd
    chip to the first winner from seat one, here seat 2:

    >>> split(101, [0, 1], 1, OddChip.FIRST_WINNER_FROM_SEAT_ONE, (5, 2))
    ({0: 50, 1: 51}, 0)

    GG-2022 cash games (Política de mãos atadas: split equally; silent on the odd chip,
    the rulebook's open choice): the odd chip to the first winner left of the button,
    position 0 here:

    >>> split(101, [0, 1], 1, OddChip.FIRST_WINNER_LEFT_OF_BUTTON, (5, 2))
    ({0: 51, 1: 50}, 0)

    Several odd units go one each, winners in order from the left of the button: $1.90
    in units of $0.05 between four players pays $0.50, $0.50, $0.45, $0.45 (as
    PokerStars paid a four-way tie at a table whose smallest chip was $0.05):

    >>> split(190, [0, 1, 2, 3], 5, OddChip.FIRST_WINNER_LEFT_OF_BUTTON, (8, 9, 2, 7))
    ({0: 50, 1: 50, 2: 45, 3: 45}, 0)

    Equal shares, the house keeps the odd chip (GG-2022's prize-fraction rule):

    >>> split(101, [0, 1], 1, OddChip.DROPPED, (5, 2))
    ({0: 50, 1: 50}, 1)

    PT-217/2007 n.º 67: shares in whole units of the table minimum (100), the rest one
    unit each from the player holding the "mão" (the button, position 2):

    >>> split(250, [0, 2], 100, OddChip.ONE_UNIT_EACH_FROM_BUTTON, (4, 6, 1))
    ({0: 100, 2: 150}, 0)
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
        shares[min(winners, key=seat_of.__getitem__)] += rest
        return shares, 0
    if rule is OddChip.FIRST_WINNER_LEFT_OF_BUTTON:
        ordered = sorted(winners)  # position 0 is the first seat left of the button
    else:  # ONE_UNIT_EACH_FROM_BUTTON: the button (the "mão") first, then clockwise.
        n = len(seat_of)
        ordered = sorted(winners, key=lambda p: (p + 1) % n)
    units, leftover = divmod(rest, unit)
    for p in ordered[:units]:
        shares[p] += unit
    shares[ordered[0]] += leftover
    return shares, 0


def split_pots(
    pots: list[tuple[int, list[int] | None]],
    unit: int,
    rule: OddChip,
    seat_of: tuple[int, ...],
) -> list[tuple[dict[int, int], int]]:
    """(share per winning position, chips kept by the house) of each pot, in order.

    ``pots`` is (amount to share, winning positions or None when the pot cannot be
    judged; such a pot gets no shares). Every odd-chip rule but ``DROPPED`` settles each
    pot on its own (``split``). ``DROPPED`` (GG-2022 Política de concessão de prémios:
    "os ganhos de um jogador" with a fraction of a cent are rounded down, 4.096 -> 4.09;
    Política de mãos atadas: each pot "dividido igualmente"): a winner is owed the exact
    sum of his equal shares of every pot he wins, rounded down to the unit, so two pots
    of 117 and 27 shared by the same two players pay 72 each and the house keeps nothing,
    where rounding each pot would keep 2. The whole units a winner recovers from several
    pots' remainders are paid out of those remainders, a pot's chips only to its winners.
    """
    settled = [split(amount, won, unit, rule, seat_of) if won else ({}, 0) for amount, won in pots]
    if rule is not OddChip.DROPPED:
        return settled
    credit: dict[int, Fraction] = {}
    # One slot per whole unit of a pot's remainder: (pot index, that pot's winners).
    slots: list[tuple[int, tuple[int, ...]]] = []
    for index, ((_, won), (_, rest)) in enumerate(zip(pots, settled, strict=True)):
        units = rest // unit
        if not units or not won:
            continue
        slots.extend([(index, tuple(won))] * units)
        for p in won:
            credit[p] = credit.get(p, Fraction(0)) + Fraction(units, len(won))
    owed = {p: int(c) for p, c in sorted(credit.items()) if c >= 1}
    if owed:
        recover_units(settled, slots, owed, unit)
    return settled


def recover_units(
    settled: list[tuple[dict[int, int], int]],
    slots: list[tuple[int, tuple[int, ...]]],
    owed: dict[int, int],
    unit: int,
) -> None:
    """Pay each position the whole units it is ``owed`` out of the pots' kept remainders.

    ``slots`` holds one (pot index, positions that may receive it) per whole unit of a
    pot's remainder; a unit goes only to a position listed for its pot, and units already
    placed move when that makes room (Kuhn). ``settled`` is updated in place. The caller
    guarantees that sharing each slot among its positions in proportion to what they are
    owed would cover every debt, so a whole assignment exists (Hall's theorem).
    """
    owner: list[int | None] = [None] * len(slots)

    def place(p: int, seen: set[int]) -> bool:
        """Give ``p`` a remainder unit of a pot he won, moving other units (Kuhn)."""
        for s, (_, won) in enumerate(slots):
            if p in won and s not in seen:
                seen.add(s)
                holder = owner[s]
                if holder is None or place(holder, seen):
                    owner[s] = p
                    return True
        return False

    for p, units in owed.items():
        for _ in range(units):
            # Always possible: see the docstring (Hall's theorem).
            placed = place(p, set())
            assert placed, "a recovered unit has no pot remainder left"
    for s, holder in enumerate(owner):
        if holder is not None:
            index = slots[s][0]
            shares, kept = settled[index]
            shares[holder] += unit
            settled[index] = (shares, kept - unit)
