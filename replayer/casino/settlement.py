"""Settlement: what each bet should have returned, compared with what was returned.

A game's adjudication says, for every bet whose fate the rules determine, the amount to be
handed back on it (stake included, commission withheld), the commission, and the article
that fixes them. ``compare`` sets that against the record:

* in a settled round, any difference is ``mispaid_bet`` (payout or commission);
* in a void round every stake is due back: a shortfall is ``void_hand_not_refunded``,
  an excess ``refund_mismatch``.

Rules common to the tables live here too: a bet accepted after "no more bets" is an
``illegal_action`` and its stake is due back; a bet outside the table limits is an
``illegal_action`` but, having been accepted, is settled as placed (the limits say a
bet *may* be rejected, GG-2022 live II 2.1.7, III 2.1.4, IV 2.1.5). A bet recorded after the
event that closes betting but not flagged as late is a past-posted bet, judged by its
place in the sequence (``past_posting.py``); its stake is due back like a late bet's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from replayer.casino.record import Bet, RoundRecord
from replayer.findings import Finding, FindingKind
from replayer.frozen import rebuilt_by_init


@dataclass(frozen=True, slots=True)
class Expected:
    """What a bet should have returned, and why."""

    amount: int
    citation: str
    basis: str
    commission: int = 0

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


@dataclass(slots=True)
class GameJudgement:
    """A game's judgement of a round that was not declared void.

    ``expected`` holds the bets whose settlement the rules determine (a bet missing from
    it could not be judged, e.g. the shoe ran short of the cards a reconstruction needs).
    ``void`` is ``(citation, reason)`` when the game's own rules void the round.
    """

    findings: list[Finding] = field(default_factory=list)
    expected: dict[str, Expected] = field(default_factory=dict)
    cagnotte: Expected | None = None
    outcome: dict[str, Any] = field(default_factory=dict)
    void: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class GameSpec:
    """How one game is judged: its articles for the common rules and its adjudicator."""

    late_bet_citation: str
    limits_citation: str
    void_citation: str
    malfunction_citation: str
    adjudicate: Callable[[RoundRecord, Any, list[Bet]], GameJudgement]
    hand_total: Callable[[Sequence[str]], int] | None = None  # for the step-by-step view
    limited_bet_types: frozenset[str] | None = None  # None: every bet type
    # Past posting (``past_posting.py``): the events whose first occurrence closes betting,
    # the article that closes it, and the bets the rules still take after it (None: none).
    closes_betting: tuple[str, ...] = ("CardDealt",)
    past_post_citation: str = ""  # empty: ``late_bet_citation``
    open_after_close: Callable[[RoundRecord, Bet], bool] | None = None
    # The round's declared terms (RoundOpened) against the rulebook: findings (None: none).
    terms_findings: Callable[[RoundRecord, Any], list[Finding]] | None = None


def betting_findings(record: RoundRecord, spec: GameSpec) -> list[Finding]:
    """Late bets and bets outside the table limits (``illegal_action``)."""
    assert record.opened is not None
    findings = []
    low, high = record.opened["min_bet"], record.opened.get("max_bet")
    for bet in record.bets.values():
        if bet.late:
            findings.append(
                Finding(
                    FindingKind.ILLEGAL_ACTION,
                    record.round_id,
                    spec.late_bet_citation,
                    f"bet {bet.bet_id} accepted after 'no more bets'; it must be withdrawn",
                    expected="rejected",
                    recorded="accepted",
                    detail={"bet_id": bet.bet_id, "sequence": bet.sequence},
                )
            )
        limited = spec.limited_bet_types is None or bet.bet_type in spec.limited_bet_types
        if limited and (bet.amount < low or (high is not None and bet.amount > high)):
            findings.append(
                Finding(
                    FindingKind.ILLEGAL_ACTION,
                    record.round_id,
                    spec.limits_citation,
                    f"bet {bet.bet_id} of {bet.amount} is outside the table limits",
                    expected={"min": low, "max": high},
                    recorded=bet.amount,
                    detail={"bet_id": bet.bet_id, "sequence": bet.sequence},
                )
            )
    return findings


def stakes_back(bets: Mapping[str, Bet], citation: str, basis: str) -> dict[str, Expected]:
    """Every stake returned in full."""
    return {bet_id: Expected(bet.amount, citation, basis) for bet_id, bet in bets.items()}


def compare(record: RoundRecord, expected: Mapping[str, Expected], void: bool) -> list[Finding]:
    """Findings where the recorded returns and commissions depart from ``expected``."""
    findings = []
    for bet_id, due in expected.items():
        bet = record.bets[bet_id]
        returned = record.returned(bet_id)
        if returned != due.amount:
            findings.append(_return_finding(record, bet, due, returned, void))
        commission = record.commission.get(bet_id, 0)
        if commission != due.commission:
            findings.append(
                Finding(
                    FindingKind.MISPAID_BET,
                    record.round_id,
                    due.citation,
                    f"commission on bet {bet_id} is {commission}, expected {due.commission}"
                    f" ({due.basis})",
                    expected=due.commission,
                    recorded=commission,
                    difference=commission - due.commission,
                    detail={"bet_id": bet_id, "component": "commission"},
                )
            )
    return findings


def _return_finding(
    record: RoundRecord, bet: Bet, due: Expected, returned: int, void: bool
) -> Finding:
    if void and returned < due.amount:
        kind, what = FindingKind.VOID_HAND_NOT_REFUNDED, "void round: stake not refunded"
    elif void:
        kind, what = FindingKind.REFUND_MISMATCH, "void round: more than the stake returned"
    else:
        kind, what = FindingKind.MISPAID_BET, "wrong payout"
    return Finding(
        kind,
        record.round_id,
        due.citation,
        f"{what} on bet {bet.bet_id} ({bet.bet_type} {bet.amount}): returned {returned}, "
        f"expected {due.amount} ({due.basis})",
        expected=due.amount,
        recorded=returned,
        difference=returned - due.amount,
        detail={"bet_id": bet.bet_id, "player_id": bet.player_id, "component": "payout"},
    )
