"""Punto banco (GG-2022 live II): the third-card tableau and the settlement of a coup.

Tableau (II 3.5.1), after the four first cards:

* a natural 8 or 9 on either side: both stand;
* player: draws on 0-5, stands on 6-7;
* player stood: banker draws on 0-5, stands on 6-7;
* player drew: banker 0-2 draws; 3 draws unless the player's third card is 8; 4 draws on
  2-7; 5 on 4-7; 6 on 6-7; 7 stands. (The copy's "2-3-4-4-5-6-7" for a banker 4 is a typo
  for 2-7, RULES.md.)

Settlement (II 2.1.2-2.1.5, 2.2): player 1:1; banker 1:1 less the commission on the
amount won; tie 8:1; on a tie the player and banker bets are returned.

Declared terms (II 2.2): the commission is "5% of the amount won". A round may declare its
rate (RoundOpened.commission_bps); the rule's 5% is the most the house may charge, so a
declared rate above it is a ``terms_outside_rulebook`` finding (declared vs allowed) and
the coup is judged at the rule's 5%: whatever was withheld beyond it is owed to the
player, a ``mispaid_bet`` on the commission and on the payout. A declared rate within the
rule (5% or less) is the rate the coup is judged by; none declared, the rule's. The table
limits (min_bet, max_bet) are the house's to show (II 2.1.7): no rule bounds them.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from replayer.casino.cards import baccarat_points, baccarat_total
from replayer.casino.coup import (
    BANKER,
    PLAYER,
    Coup,
    deal_finding,
    initial_side,
    is_natural,
    rebuild,
)
from replayer.casino.record import Bet, RoundRecord
from replayer.casino.settlement import Expected, GameJudgement, GameSpec
from replayer.findings import Finding, FindingKind
from replayer.rulebooks.casino import PuntoBancoRules

TABLEAU = "GG-2022 live II 3.5.1"
DEAL = "GG-2022 live II 3.4.3"
PAYOUTS = "GG-2022 live II 2.2"
TIE_RETURNS = "GG-2022 live II 2.1.5"

#: Banker total -> values of the player's third card on which the banker draws (II 3.5.1).
BANKER_DRAWS_ON: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
}


def player_draws(player_total: int) -> bool:
    """Player draws on 0-5, stands on 6-7 (II 3.5.1)."""
    return player_total <= 5


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Banker's third card by the tableau; ``player_third`` None when the player stood."""
    if player_third is None:
        return banker_total <= 5
    return player_third in BANKER_DRAWS_ON.get(banker_total, frozenset())


def next_side(player: Sequence[int], banker: Sequence[int]) -> str | None:
    """Which hand takes the next card in punto banco, None once the coup is complete."""
    first = initial_side(player, banker)
    if first is not None or len(banker) == 3 or is_natural(player) or is_natural(banker):
        return first
    if len(player) == 2 and player_draws(baccarat_total(player)):
        return PLAYER
    player_third = player[2] if len(player) == 3 else None
    return BANKER if banker_draws(baccarat_total(banker), player_third) else None


def adjudicate(record: RoundRecord, rules: PuntoBancoRules, bets: list[Bet]) -> GameJudgement:
    """Rebuild the coup by the tableau and settle every live bet on it."""
    result = GameJudgement()
    dealt = record.of_type("CardDealt")
    shoe = [event["card"] for event in dealt]
    recorded = [event["to"] for event in dealt]
    coup = rebuild(shoe, next_side)
    finding = deal_finding(record.round_id, recorded, coup, shoe, (DEAL, TABLEAU))
    if finding is not None:
        result.findings.append(finding)
    result.outcome = coup.as_outcome()
    if not coup.complete:
        return result
    commission_bps = commission_rate(record, rules)
    for bet in bets:
        due = _settle(bet, coup, rules, commission_bps)
        if due is None:
            result.findings.append(
                Finding(
                    FindingKind.DATA_QUALITY,
                    record.round_id,
                    "GG-2022 live II 2.1.1",
                    f"bet {bet.bet_id} has type {bet.bet_type!r}; punto banco takes player, "
                    "banker and tie",
                    detail={"bet_id": bet.bet_id, "sequence": bet.sequence},
                )
            )
        else:
            result.expected[bet.bet_id] = due
    return result


def commission_rate(record: RoundRecord, rules: PuntoBancoRules) -> int:
    """The banker commission a coup is judged by, in basis points (II 2.2): the declared
    rate when within the rule's, else (or when none is declared) the rule's."""
    declared: int | None = record.opened.get("commission_bps") if record.opened else None
    if declared is None:
        return rules.commission_bps
    return min(declared, rules.commission_bps)


def terms_findings(record: RoundRecord, rules: PuntoBancoRules) -> list[Finding]:
    """A declared commission above the rule's rate (II 2.2) is ``terms_outside_rulebook``."""
    opened = record.opened
    declared = opened.get("commission_bps") if opened is not None else None
    if opened is None or declared is None or declared <= rules.commission_bps:
        return []
    return [
        Finding(
            FindingKind.TERMS_OUTSIDE_RULEBOOK,
            record.round_id,
            rules.commission_citation,
            f"the round declares a banker commission of {declared} bps; {rules.id} allows at "
            f"most {rules.commission_bps} bps of the amount won: judged at {rules.commission_bps}",
            expected={"commission_bps": rules.commission_bps},
            recorded={"commission_bps": declared},
            difference=declared - rules.commission_bps,
            detail={"sequence": opened["sequence"], "term": "commission_bps"},
        )
    ]


def _settle(bet: Bet, coup: Coup, rules: PuntoBancoRules, commission_bps: int) -> Expected | None:
    winner, stake = coup.winner, bet.amount
    score = f"player {coup.player_total}, banker {coup.banker_total}"
    if bet.bet_type == "tie":
        if winner == "tie":
            return Expected(stake * (rules.tie_pays + 1), PAYOUTS, f"tie {score} pays 8:1")
        return Expected(0, "GG-2022 live II 2.1.4", f"no tie ({score}): tie bet loses")
    if bet.bet_type not in (PLAYER, BANKER):
        return None
    if winner == "tie":
        return Expected(stake, TIE_RETURNS, f"tie {score}: {bet.bet_type} bet returned")
    if winner != bet.bet_type:
        return Expected(0, "GG-2022 live II 2.1.2-2.1.3", f"{winner} wins {score}: bet loses")
    if winner == PLAYER:
        return Expected(2 * stake, PAYOUTS, f"player wins {score}: 1:1")
    commission = rules.commission_rounding.apply(Fraction(stake * commission_bps, 10_000))
    return Expected(
        2 * stake - commission,
        PAYOUTS,
        f"banker wins {score}: 1:1 less {commission_bps} bps commission "
        f"rounded {rules.commission_rounding}",
        commission=commission,
    )


SPEC = GameSpec(
    late_bet_citation="GG-2022 live II 2.1.6",
    limits_citation="GG-2022 live II 2.1.7",
    void_citation="GG-2022 live II 2.1.8",
    malfunction_citation="GG-2022 live II 2.1.8",
    adjudicate=adjudicate,
    hand_total=baccarat_points,
    terms_findings=terms_findings,
)
