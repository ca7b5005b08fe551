"""Deductions from a pot other than rake (``FeeTaken`` without a seat), judged apart from it.

A room's summary line may take, besides the rake, a jackpot, bingo, fortune or tax drop
from the pot. Such a fee is not rake: the rake alone is judged against the rake's rate and
cap (``rake``), and the pot the winners share is the pot less the rake less the fees.
Whether a fee may be taken at all is a fee term (``rulebooks.poker.FeeTerms``): none of
the sources mentions such fees, so the rulebook states its choice (MO-97/2010 art.16: the
commission is the house's whole take, no fee allowed) or leaves it to the table
(PT-217/2007 n.º 7, 65; GG-2022 Política de taxas e de ancinho), whose declaration then
governs (``replayer.terms.fees_in_force``). Findings cite ``book.cite.fees``:

* no fee terms in force and a fee taken: ``terms_missing`` (the fee is accepted as
  recorded, never judged silently);
* a fee of a kind the terms do not allow: ``fee_not_allowed``, the rules' fee is 0;
* allowed fees above the terms' maximum (``max_bps`` of the pots, ``cap``) together:
  ``fee_not_allowed``, the rules' fees are that maximum (the latest fees cut first).

The rules' fees come out of the pots after the rake (``allocate``): a fee naming its pot
from that pot, the others from the main pot up, like an unindexed rake. A fee a player
pays the house outside the pot (``FeeTaken`` with a seat: EV cash-out risk, all-in
insurance premium) takes nothing from the pot and is only recorded.
"""

from __future__ import annotations

from typing import NamedTuple

from replayer.findings import FindingKind
from replayer.poker.betting import QUALITY, Issue
from replayer.rulebooks.poker import FeeTerms, PokerRulebook

_POT_INDEX = "schemas/poker_hand.avsc FeeTaken.pot_index"


class Fee(NamedTuple):
    """One ``FeeTaken`` from the pot: its kind, amount and pot (None: unindexed)."""

    kind: str
    amount: int
    pot_index: int | None


def expected_fees(
    book: PokerRulebook, terms: FeeTerms | None, fees: list[Fee], pots: int, issues: list[Issue]
) -> list[int]:
    """The fee the rules allow in place of each recorded one, in order; ``pots`` is the
    chips of every pot together. Appends a finding for each departure.

    Under MO-97/2010 art.16 no fee besides the commission may be taken:

    >>> from replayer.rulebooks.mo_97_2010 import OMAHA
    >>> issues = []
    >>> expected_fees(OMAHA, OMAHA.fees, [Fee("jackpot", 20, None)], 4_000, issues)
    [0]
    >>> [(str(i.kind), i.citation) for i in issues]
    [('fee_not_allowed', 'MO-97/2010 art.16')]
    >>> issues[0].reason
    'jackpot fee of 20 taken; the terms allow no jackpot fee'
    """
    recorded = [fee.amount for fee in fees]
    if not fees or not any(recorded):
        return recorded
    cite = book.cite.fees
    if terms is None:
        kinds = ", ".join(sorted({fee.kind for fee in fees}))
        issues.append(
            Issue(
                FindingKind.TERMS_MISSING,
                cite,
                f"fees of {sum(recorded)} ({kinds}) taken from the pot, but neither the "
                "rulebook nor the table's declared terms say which fees may be: the fees "
                "cannot be checked",
                None,
                sum(recorded),
            )
        )
        return recorded
    allowed: list[int] = []
    for fee in fees:
        if fee.kind in terms.kinds or not fee.amount:
            allowed.append(fee.amount)
            continue
        allowed.append(0)
        issues.append(
            Issue(
                FindingKind.FEE_NOT_ALLOWED,
                cite,
                f"{fee.kind} fee of {fee.amount} taken; the terms allow no {fee.kind} fee",
                {"at_most": 0},
                fee.amount,
                None,
                {"fee_kind": fee.kind, "allowed_kinds": sorted(terms.kinds)},
            )
        )
    bound = _bound(terms, pots)
    total = sum(allowed)
    if bound is not None and total > bound:
        issues.append(
            Issue(
                FindingKind.FEE_NOT_ALLOWED,
                cite,
                f"fees of {total} above the most the terms allow, {bound}",
                {"at_most": bound},
                total,
            )
        )
        excess = total - bound
        for index in range(len(allowed) - 1, -1, -1):
            cut = min(excess, allowed[index])
            allowed[index] -= cut
            excess -= cut
    return allowed


def _bound(terms: FeeTerms, pots: int) -> int | None:
    bounds = [
        bound
        for bound in (
            terms.cap,
            None if terms.max_bps is None else pots * terms.max_bps // 10_000,
        )
        if bound is not None
    ]
    return min(bounds) if bounds else None


def allocate(
    fees: list[Fee], amounts: list[int], pot_sizes: list[int], issues: list[Issue]
) -> list[int]:
    """Fee per pot: ``amounts[i]`` (the rules' fee of ``fees[i]``) from the pot it names,
    else from the main pot up; no pot gives more than ``pot_sizes`` (its chips after the
    rake). A pot index no pot has is a data-quality issue (the fee is taken unindexed).

    >>> allocate([Fee("jackpot", 30, None)], [30], [20, 50], [])
    [20, 10]
    """
    per_pot = [0] * len(pot_sizes)
    unindexed = 0
    for fee, amount in zip(fees, amounts, strict=True):
        index = fee.pot_index
        if index is not None and not 0 <= index < len(pot_sizes):
            issues.append(
                Issue(
                    QUALITY,
                    _POT_INDEX,
                    f"fee from pot {index}, which the hand does not have",
                    list(range(len(pot_sizes))),
                    index,
                )
            )
            index = None
        if index is None:
            unindexed += amount
            continue
        take = min(amount, pot_sizes[index] - per_pot[index])
        per_pot[index] += take
        unindexed += amount - take
    for index, size in enumerate(pot_sizes):
        take = min(unindexed, size - per_pot[index])
        per_pot[index] += take
        unindexed -= take
    if unindexed:
        issues.append(
            Issue(QUALITY, _POT_INDEX, "fees larger than the pots after the rake", 0, unindexed)
        )
    return per_pot
