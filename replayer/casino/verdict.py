"""What adjudicating a round returns: findings, expectations and the step-by-step view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from replayer.events import FlatEvent
from replayer.findings import Finding
from replayer.frozen import rebuilt_by_init


@dataclass(frozen=True, slots=True)
class RoundStep:
    """One event and the table's state after it, with the findings raised at it."""

    sequence: int
    event: FlatEvent
    state: Mapping[str, Any]
    findings: tuple[Finding, ...] = ()

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


@dataclass(frozen=True, slots=True)
class RoundVerdict:
    """The replayer's judgement of one banked round.

    ``expected_payouts`` maps each bet whose settlement the rules determine to the amount
    due back on it (stake included, commission withheld; a refund in a void round);
    ``expected_commissions`` the commission due on each of those bets; ``outcome`` the
    rebuilt result (hands and winner, the pocket, or why the round is void).
    """

    round_id: str
    rulebook_id: str | None
    game: str | None
    findings: tuple[Finding, ...]
    steps: tuple[RoundStep, ...]
    expected_payouts: Mapping[str, int]
    expected_commissions: Mapping[str, int]
    expected_cagnotte: int | None
    outcome: Mapping[str, Any]
    void: bool

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)
