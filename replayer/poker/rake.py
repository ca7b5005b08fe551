"""The house's commission: what may be taken from each pot, and what was.

Bounds (``RakeTerms``): per pot, ``pot * min_bps / 10000`` and ``pot * max_bps / 10000``,
each rounded down to the smallest chip; the hand's cap (absolute, or a multiple of the
big blind: MO-97/2010 art.16 "at most five times the big blind") bounds the total and
is taken from the main pot first (with ``cap_per_pot`` the cap bounds each pot instead).
Without terms (the source leaves them to the table, PT-217/2007 n.º 7; GG-2022 game pages,
and the table declared none in force) a rake that was taken cannot be checked: it is
accepted up to the pots and reported as ``terms_missing``, never judged silently.

The expected rake is the recorded one when it lies within the bounds, else the nearest
bound. Above the cap: ``rake_cap_breach``; otherwise outside the band:
``rake_rate_out_of_band``.
"""

from __future__ import annotations

from replayer.findings import FindingKind
from replayer.poker.betting import Issue
from replayer.rulebooks.poker import PokerRulebook, RakeTerms


def rake_bounds(
    pots: list[int], terms: RakeTerms | None, chip: int, big_blind: int, board_dealt: bool
) -> tuple[list[int], list[int], int | None]:
    """(lowest per pot, highest per pot, cap per hand or None).

    MO-97/2010 art.16 on a pot of 20,000 with a big blind of 100: 3% to 5% of the pot,
    but at most five big blinds.

    >>> from replayer.rulebooks.mo_97_2010 import OMAHA
    >>> rake_bounds([20_000], OMAHA.rake, chip=1, big_blind=100, board_dealt=True)
    ([600], [1000], 500)
    """
    if terms is None:
        return [0] * len(pots), list(pots), None
    if terms.only_if_board and not board_dealt:
        return [0] * len(pots), [0] * len(pots), 0
    low = [pot * terms.min_bps // 10_000 // chip * chip for pot in pots]
    high = [pot * terms.max_bps // 10_000 // chip * chip for pot in pots]
    if terms.cap_per_pot:
        per_pot = _lowest_cap(terms, big_blind)
        if per_pot is None:
            return low, high, None
        low = [min(bound, per_pot) for bound in low]
        high = [min(bound, per_pot) for bound in high]
        return low, high, per_pot * len(pots)
    return low, high, _lowest_cap(terms, big_blind)


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


def expected_rake(
    book: PokerRulebook,
    terms: RakeTerms | None,
    pots: list[int],
    recorded: int,
    chip: int,
    big_blind: int,
    board_dealt: bool,
    issues: list[Issue],
) -> list[int]:
    """Expected rake per pot (main pot first), appending a finding when ``recorded`` is
    outside what the terms allow.

    A rake of 700 on that pot of 20,000 breaks the cap of five big blinds (MO-97/2010
    art.16); the rules' rake is the cap:

    >>> from replayer.rulebooks.mo_97_2010 import OMAHA
    >>> issues = []
    >>> expected_rake(OMAHA, OMAHA.rake, [20_000], 700, 1, 100, True, issues)
    [500]
    >>> [(str(issue.kind), issue.citation, issue.reason) for issue in issues]
    [('rake_cap_breach', 'MO-97/2010 art.16', 'rake of 700 above the cap of 500')]
    """
    low, high, cap = rake_bounds(pots, terms, chip, big_blind, board_dealt)
    lowest = sum(low)
    highest = sum(high)
    if cap is not None:
        lowest = min(lowest, cap)
        highest = min(highest, cap)
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
        issues.append(
            Issue(
                FindingKind.RAKE_CAP_BREACH,
                cite.rake_cap,
                f"rake of {recorded} above the cap of {cap}",
                {"at_most": cap},
                recorded,
            )
        )
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
    # Allocate: each pot's lowest first, then the rest from the main pot up.
    per_pot = []
    remaining = total
    for bound in low:
        take = min(bound, remaining)
        per_pot.append(take)
        remaining -= take
    for index, bound in enumerate(high):
        take = min(bound - per_pot[index], remaining)
        per_pot[index] += take
        remaining -= take
    return per_pot
