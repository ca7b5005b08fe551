"""A hand's stakes against the table's minimum and maximum (``PokerRulebook.table_limits``).

PT-217/2007 ties a table's stakes to its limits: the small blind is half the table
minimum (n.º 82), the big blind the minimum (n.º 83); no bet is below the minimum the
house fixed (n.º 20) nor above the maximum (n.º 19). The minimum is the declared
``TableTermsDeclared.min_bet`` in force at the hand's start, else the hand's own
``HandStarted.min_bet``; the maximum is the declared ``max_bet`` (none declared: no
maximum to judge); a hand with neither a declared minimum nor one of its own (``min_bet``
0) is not judged here. Each departure is ``illegal_action`` citing its article. A
declaration itself is judged by ``replayer.terms`` (``TableLimits.minimum_share_issue``,
n.º 20: the minimum from 20% to 40% of the maximum).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from replayer.findings import FindingKind
from replayer.poker.betting import Issue
from replayer.poker.table import Table
from replayer.rulebooks.poker import TableLimits

_AGGRESSIVE = frozenset({"bet", "raise"})


class Stakes(NamedTuple):
    """The limits one hand is judged against."""

    rules: TableLimits
    minimum: int
    maximum: int | None


def hand_stakes(
    rules: TableLimits | None, start: Mapping[str, Any], terms: Mapping[str, Any] | None
) -> Stakes | None:
    """The hand's stakes, or None when its rulebook ties no stake to the limits.

    >>> from replayer.rulebooks.pt_217_2007 import LIMITS
    >>> hand_stakes(LIMITS, {"min_bet": 2}, {"min_bet": 4, "max_bet": 10})[1:]
    (4, 10)
    >>> hand_stakes(LIMITS, {"min_bet": 2}, None)[1:]
    (2, None)
    """
    if rules is None:
        return None
    declared = terms or {}
    minimum = declared.get("min_bet")
    maximum = declared.get("max_bet")
    if minimum is None and not start["min_bet"]:
        return None  # a minimum of 0 states none: nothing to tie the stakes to
    return Stakes(
        rules,
        int(start["min_bet"]) if minimum is None else int(minimum),
        None if maximum is None else int(maximum),
    )


def opening_issues(stakes: Stakes, table: Table) -> list[Issue]:
    """The hand's blinds and minimum bet against the table minimum (n.º 20, 82, 83).

    >>> from replayer.rulebooks.pt_217_2007 import LIMITS
    >>> from replayer.poker.table import seat_table
    >>> seats = [{"seat": s, "player_id": f"p{s}", "stack": 100} for s in (1, 2, 3, 4)]
    >>> start = {"seats": seats, "button": 4, "smallest_chip": 1, "big_blind": 100,
    ...          "min_bet": 100, "small_blind": 100}
    >>> issues = opening_issues(Stakes(LIMITS, 100, None), seat_table(start))
    >>> [(issue.citation, issue.reason) for issue in issues]
    [('PT-217/2007 n.º 82', 'small blind of 100; half the table minimum is 50')]
    """
    rules, minimum = stakes.rules, stakes.minimum
    checks = (  # (article, forced bet, amount, times the amount makes the minimum, rule)
        (rules.small_blind, "small blind", table.small_blind, 2, "half the table minimum"),
        (rules.big_blind, "big blind", table.big_blind, 1, "the table minimum"),
    )
    issues = []
    for citation, what, amount, times, rule in checks:
        if citation is None or amount * times == minimum:
            continue
        owed = minimum // times if minimum % times == 0 else f"{minimum}/{times}"
        field = what.replace(" ", "_")
        issues.append(
            Issue(
                FindingKind.ILLEGAL_ACTION,
                citation,
                f"{what} of {amount}; {rule} is {owed}",
                {field: owed},
                {field: amount},
            )
        )
    if table.min_bet < minimum:
        issues.append(
            Issue(
                FindingKind.ILLEGAL_ACTION,
                rules.minimum_share,
                f"the hand's minimum bet of {table.min_bet} is below the table minimum of "
                f"{minimum}",
                {"min_bet_at_least": minimum},
                {"min_bet": table.min_bet},
            )
        )
    return issues


def action_issues(stakes: Stakes, event: Mapping[str, Any]) -> list[Issue]:
    """A bet or raise putting in more than the table maximum (n.º 19; n.º 21, how the
    maximum is fixed, is cut from the copy: the chips one action puts in are bounded)."""
    maximum = stakes.maximum
    if maximum is None or event.get("action") not in _AGGRESSIVE:
        return []
    amount = event.get("amount")
    if not isinstance(amount, int) or amount <= maximum:
        return []
    return [
        Issue(
            FindingKind.ILLEGAL_ACTION,
            stakes.rules.within,
            f"{event['action']} of {amount} above the table maximum of {maximum}",
            {"at_most": maximum},
            {"amount": amount},
        )
    ]
