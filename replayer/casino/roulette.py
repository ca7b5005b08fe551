"""Single-zero roulette (GG-2022 live IV): the spin and the settlement of the layout.

A spin is valid only when the ball completes at least three revolutions (IV 3.1.1); a
shorter spin voids the round, like a malfunction (IV 2.1.6), and every stake is due back.
A valid spin settles each bet "strictly by its position on the layout" (IV 2.1.3): a
covered pocket pays the odds of IV 2.2 plus the stake, anything else loses.

Bets close at "no more bets" (IV 2.1.1), at the latest when the ball is spun (IV 2.1.5).
The record marks the spin only by its result: a bet recorded after the SpinResult is
past-posted (``past_posting.py``) and withdrawn, its stake due back.
"""

from __future__ import annotations

from replayer.casino.record import Bet, RoundRecord
from replayer.casino.roulette_layout import bet_numbers
from replayer.casino.settlement import Expected, GameJudgement, GameSpec
from replayer.findings import Finding, FindingKind
from replayer.rulebooks.casino import RouletteRules

SPIN = "GG-2022 live IV 3.1.1"
PAYS = "GG-2022 live IV 2.2"
LAYOUT = "GG-2022 live IV 1.1, 2.1.3"


def adjudicate(record: RoundRecord, rules: RouletteRules, bets: list[Bet]) -> GameJudgement:
    """Check the spin, then settle every live bet on its pocket."""
    result = GameJudgement()
    spins = record.of_type("SpinResult")
    if len(spins) != 1:
        result.findings.append(_quality(record, f"{len(spins)} spin results; a round has one"))
        return result
    spin = spins[0]
    pocket, revolutions = spin["pocket"], spin["ball_revolutions"]
    result.outcome = {"pocket": pocket, "ball_revolutions": revolutions}
    if not 0 <= pocket < rules.pockets:
        result.findings.append(_quality(record, f"pocket {pocket} is not on the wheel"))
        return result
    if revolutions < rules.min_ball_revolutions:
        result.void = (
            SPIN,
            f"the ball made {revolutions} revolutions, fewer than "
            f"{rules.min_ball_revolutions}: no valid spin",
        )
        return result
    for bet in bets:
        covered = bet_numbers(bet.bet_type, bet.numbers, rules.zero_trios_as_streets)
        if covered is None:
            result.findings.append(
                _quality(
                    record,
                    f"bet {bet.bet_id}: numbers {list(bet.numbers)} are not a legal "
                    f"{bet.bet_type!r} bet on the layout",
                    bet,
                )
            )
            continue
        odds = rules.pays[bet.bet_type]
        if pocket in covered:
            due = Expected(
                bet.amount * (odds + 1), PAYS, f"{pocket} wins a {bet.bet_type} at {odds}:1"
            )
        else:
            due = Expected(0, PAYS, f"{pocket} is not covered by the {bet.bet_type}")
        result.expected[bet.bet_id] = due
    return result


def _quality(record: RoundRecord, reason: str, bet: Bet | None = None) -> Finding:
    detail = {} if bet is None else {"bet_id": bet.bet_id, "sequence": bet.sequence}
    return Finding(FindingKind.DATA_QUALITY, record.round_id, LAYOUT, reason, detail=detail)


SPEC = GameSpec(
    late_bet_citation="GG-2022 live IV 2.1.1, 2.1.5",
    limits_citation="GG-2022 live IV 2.1.4-2.1.5",
    void_citation="GG-2022 live IV 2.1.6, 3.1.1",
    malfunction_citation="GG-2022 live IV 2.1.6",
    adjudicate=adjudicate,
    closes_betting=("SpinResult",),
)
