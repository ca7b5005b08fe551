"""The house's commission: what may be taken from a hand's pots, and what was.

Bounds (``RakeTerms``): the rate is applied to the hand's whole pot (main and side pots
together, never an uncalled bet returned), ``pot * min_bps / 10000`` and
``pot * max_bps / 10000``, each rounded down to the smallest chip once; the hand's cap
(absolute, or a multiple of the big blind: MO-97/2010 art.16 "at most five times the big
blind") bounds that total. PokerStars' summary ``Total pot $3.70 Main pot $2.35. Side
pot-1 $0.88. Side pot-2 $0.29. | Rake $0.18`` is 5% of $3.70 rounded once (rounding each
pot would take $0.17).

The rake is then shared over the pots as the rulebook names (``RakeSplit``, cited as its
rake rate): ``PROPORTIONAL``, in proportion to their size (largest remainder, main pot
first on a tie: $0.12 / $0.05 / $0.01 over those gross pots of $2.47, $0.93 and $0.30),
or ``RUNNING_TOTAL``, the main pot first at the rate (the terms' highest: the rate
itself when it is fixed) and each side pot what the rate on the pots so far adds, until
the hand's rake is taken: PokerStars' ``Total pot $6.73 Main
pot $3. Side pot $3.43. | Rake $0.30`` is $0.15 on the $3.15 main pot and the $0.15 left
of the capped $0.30 on the $3.58 side pot (in proportion: $0.14 and $0.16). With
``cap_per_pot`` the cap bounds each pot's share instead (and the hand's total at the cap
times the pots).

Without terms (the source leaves them to the table, PT-217/2007 n.º 7; GG-2022 game
pages, and the table declared none in force) a rake that was taken cannot be checked: it
is accepted up to the pots and reported as ``terms_missing``, never judged silently; nor
can its share of each pot, so the room's own split stands when its awards of every pot
give one (each pot less what it paid, adding up to the rake), else in proportion.

The expected rake is the recorded one when it lies within the bounds, else the nearest
bound. Above the cap: ``rake_cap_breach``; otherwise outside the band:
``rake_rate_out_of_band``.
"""

from __future__ import annotations

from replayer.findings import FindingKind
from replayer.poker.betting import Issue
from replayer.rulebooks.poker import PokerRulebook, RakeSplit, RakeTerms


def rake_bounds(
    pots: list[int], terms: RakeTerms | None, chip: int, big_blind: int, board_dealt: bool
) -> tuple[int, int, int | None]:
    """(lowest, highest, cap) of the hand's rake; the bounds are within the cap.

    MO-97/2010 art.16 on a pot of 20,000 with a big blind of 100: 3% to 5% of the pot,
    but at most five big blinds.

    >>> from replayer.rulebooks.mo_97_2010 import OMAHA
    >>> rake_bounds([20_000], OMAHA.rake, chip=1, big_blind=100, board_dealt=True)
    (500, 500, 500)

    A rate of 5% on pots of 247, 93 and 30: 5% of 370 rounded once, 18:

    >>> rake_bounds([247, 93, 30], RakeTerms(500, 500), chip=1, big_blind=2, board_dealt=True)
    (18, 18, None)
    """
    whole = sum(pots)
    if terms is None:
        return 0, whole, None
    if terms.only_if_board and not board_dealt:
        return 0, 0, 0
    low = whole * terms.min_bps // 10_000 // chip * chip
    high = whole * terms.max_bps // 10_000 // chip * chip
    cap = _lowest_cap(terms, big_blind)
    if cap is not None and terms.cap_per_pot:
        cap *= len(pots)
    if cap is None:
        return low, high, None
    return min(low, cap), min(high, cap), cap


def _lowest_cap(terms: RakeTerms, big_blind: int) -> int | None:
    caps = [
        cap
        for cap in (
            terms.cap,
            None if terms.cap_big_blinds is None else terms.cap_big_blinds * big_blind,
        )
        if cap is not None
    ]
    return min(caps) if caps else None


def share_rake(
    total: int,
    pots: list[int],
    chip: int,
    per_pot: int | None,
    split: RakeSplit,
    rate_bps: int,
) -> list[int]:
    """``total`` shared over ``pots``; a pot never more than itself, nor than ``per_pot``
    when a cap bounds each pot.

    ``PROPORTIONAL``: each pot its quota rounded down to the chip, the chips left one each
    to the largest remainders (main pot first on a tie), any part of a chip to the first
    of those.

    >>> share_rake(18, [247, 93, 30], 1, None, RakeSplit.PROPORTIONAL, 500)
    [12, 5, 1]

    ``RUNNING_TOTAL`` at ``rate_bps``: main pot first, each pot the rate on the pots so far
    (rounded down to the chip, at most ``total``) less what the pots before it took; a
    rest (the rate below ``total``) goes to the main pot.

    >>> share_rake(30, [315, 358], 1, None, RakeSplit.RUNNING_TOTAL, 500)
    [15, 15]
    >>> share_rake(18, [247, 93, 30], 1, None, RakeSplit.RUNNING_TOTAL, 500)
    [12, 5, 1]
    """
    whole = sum(pots)
    if not whole or not total:
        return [0] * len(pots)
    limits = [pot if per_pot is None else min(pot, per_pot) for pot in pots]
    if split is RakeSplit.RUNNING_TOTAL:
        return _running_total(total, pots, chip, limits, rate_bps)
    shares = [
        min(total * pot // whole // chip * chip, limit)
        for pot, limit in zip(pots, limits, strict=True)
    ]
    order = sorted(range(len(pots)), key=lambda i: (-(total * pots[i] % (whole * chip)), i))
    left = total - sum(shares)
    while left > 0:
        room = [i for i in order if shares[i] < limits[i]]
        if not room:
            break
        for i in room:
            take = min(chip, left, limits[i] - shares[i])
            shares[i] += take
            left -= take
            if not left:
                break
    return shares


def _running_total(
    total: int, pots: list[int], chip: int, limits: list[int], rate_bps: int
) -> list[int]:
    """``RakeSplit.RUNNING_TOTAL`` (``share_rake``)."""
    shares: list[int] = []
    so_far = 0
    taken = 0
    for pot, limit in zip(pots, limits, strict=True):
        so_far += pot
        due = min(total, so_far * rate_bps // 10_000 // chip * chip)
        share = min(max(due - taken, 0), limit)
        shares.append(share)
        taken += share
    for index, limit in enumerate(limits):  # the rest, main pot first
        extra = min(total - taken, limit - shares[index])
        shares[index] += extra
        taken += extra
    return shares


def recorded_split(pots: list[int], paid: list[int | None], recorded: int) -> list[int] | None:
    """The rake of each pot as the room's awards show it (each pot less what it paid),
    when every pot's awards are recorded, each within the pot, adding up to ``recorded``;
    else None.

    >>> recorded_split([315, 358], [300, 343], 30)
    [15, 15]
    >>> recorded_split([315, 358], [300, None], 30) is None
    True
    """
    if any(chips is None for chips in paid):
        return None
    taken = [pot - int(chips or 0) for pot, chips in zip(pots, paid, strict=True)]
    if sum(taken) != recorded or any(not 0 <= t <= pot for t, pot in zip(taken, pots, strict=True)):
        return None
    return taken


def expected_rake(
    book: PokerRulebook,
    terms: RakeTerms | None,
    pots: list[int],
    recorded: int,
    chip: int,
    big_blind: int,
    board_dealt: bool,
    issues: list[Issue],
    paid_by_pot: list[int | None] | None = None,
) -> list[int]:
    """Expected rake per pot (main pot first), appending a finding when ``recorded`` is
    outside what the terms allow. ``paid_by_pot`` (what the room's awards paid from each
    pot, None where a pot's awards are not recorded) gives the room's own split of a rake
    taken without terms (``recorded_split``).

    A rake of 700 on that pot of 20,000 breaks the cap of five big blinds (MO-97/2010
    art.16); the rules' rake is the cap:

    >>> from replayer.rulebooks.mo_97_2010 import OMAHA
    >>> issues = []
    >>> expected_rake(OMAHA, OMAHA.rake, [20_000], 700, 1, 100, True, issues)
    [500]
    >>> [(str(issue.kind), issue.citation, issue.reason) for issue in issues]
    [('rake_cap_breach', 'MO-97/2010 art.16', 'rake of 700 above the cap of 500')]
    """
    lowest, highest, cap = rake_bounds(pots, terms, chip, big_blind, board_dealt)
    total = min(max(recorded, lowest), highest)
    cite = book.cite
    if terms is None and recorded > 0:
        issues.append(
            Issue(
                FindingKind.TERMS_MISSING,
                cite.rake_rate,
                f"rake of {recorded} taken, but the table declared no rake terms in force "
                "at the hand's start: the rake cannot be checked",
                None,
                recorded,
            )
        )
    elif cap is not None and recorded > cap:
        # The whole excess is one fault: over the most the rules allow, which the rate
        # may hold below the cap (then the cap is named beside it).
        no_drop = terms is not None and terms.only_if_board and not board_dealt
        reason = f"rake of {recorded} above the cap of {cap}"
        if no_drop:
            reason = f"rake of {recorded} taken with no board card dealt (no flop, no drop)"
        elif highest < cap:
            reason += f" and the {highest} the rate allows"
        bound = {"at_most": highest} if highest == cap else {"at_most": highest, "cap": cap}
        issues.append(Issue(FindingKind.RAKE_CAP_BREACH, cite.rake_cap, reason, bound, recorded))
    elif recorded != total:
        issues.append(
            Issue(
                FindingKind.RAKE_RATE_OUT_OF_BAND,
                cite.rake_rate,
                f"rake of {recorded} outside the allowed {lowest}..{highest}",
                {"at_least": lowest, "at_most": highest},
                recorded,
            )
        )
    if terms is None:
        own = None if paid_by_pot is None else recorded_split(pots, paid_by_pot, total)
        if own is not None:
            return own
        return share_rake(total, pots, chip, None, RakeSplit.PROPORTIONAL, 0)
    per_pot = _lowest_cap(terms, big_blind) if terms.cap_per_pot else None
    return share_rake(total, pots, chip, per_pot, book.rake_split, terms.max_bps)
