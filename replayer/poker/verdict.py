"""What ``adjudicate_hand`` returns: the verdict, its pots and its step-by-step replay."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from replayer.findings import Finding
from replayer.frozen import rebuilt_by_init


class Step(NamedTuple):
    """One recorded event and the state right after it (``casino-audit hand ID``).

    A named tuple: one per event, so it must be cheap to build."""

    sequence: int | None
    """As recorded; None when the event has none (a data-quality finding)."""
    event_type: str
    seat: int | None
    text: str
    street: str
    pot: int
    stacks: tuple[tuple[int, int], ...]
    """(seat, chips behind) for every seat, in seat order."""
    to_act: int | None
    """Seat whose action is due next, None when no action is due."""
    findings: tuple[Finding, ...]


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot as the rulebook settles it; seats, not positions.

    A dataclass, not a named tuple: its ``index`` field would shadow ``tuple.index``."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...] | None
    """None when the pot cannot be judged (undisclosed cards, incomplete board)."""
    rake: int
    shares: tuple[tuple[int, int], ...]
    """(seat, chips) paid from this pot, in seat order."""
    retained: int
    """Chips of this pot the house keeps under the odd-chip rule (GG-2022)."""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


@dataclass(frozen=True, slots=True)
class HandVerdict:
    """The rulebook's outcome of one hand and every departure from it."""

    hand_id: str
    rulebook_id: str | None
    findings: tuple[Finding, ...]
    expected_payouts: dict[int, int]
    """Seat -> chips the hand should pay back to the player (pot shares, uncalled bets,
    refunds of a void hand), minor units."""
    recorded_payouts: dict[int, int]
    """Seat -> chips the operator paid back (PotAwarded summed, or derived from
    HandEnded.finishing_stacks)."""
    contributions: dict[int, int]
    """Seat -> chips the player put in during the hand, as recorded."""
    expected_rake: int
    recorded_rake: int
    house_retained: int
    pots: tuple[PotResult, ...]
    steps: tuple[Step, ...]
    conserved: bool
    """The operator's books balance: recorded payouts + recorded rake + recorded fees
    from the pots == contributions."""
    determined: bool
    """Every chip's destination could be judged (False: see the data_quality finding)."""
    expected_fees: int = 0
    """Fees other than rake the rules allow from the pots (jackpot, ...), minor units."""
    recorded_fees: int = 0
    """Fees other than rake recorded from the pots (FeeTaken without a seat)."""
    cashouts: dict[int, int] = field(default_factory=dict)
    """Seat -> chips the house paid the player outside the pot (CashoutPaid): not a
    payout, not in ``recorded_payouts``."""
    paid_outside: dict[int, int] = field(default_factory=dict)
    """Seat -> chips the player paid the house outside the pot (FeeTaken with a seat:
    EV cash-out risk, insurance premium)."""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)
