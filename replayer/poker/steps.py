"""The step-by-step replay: each event with the table's state right after it (``Step``).

A step names the event, the seat it concerns, a one-line text (``wording.step_text``),
the street, the pot, the stacks and the seat due to act, and lists the findings the event
raised. Findings of the settlement go under the step of the hand's outcome (HandEnded,
HandVoided, HandReverted), else under the last step.
"""

from __future__ import annotations

from collections.abc import Sequence

from replayer.events import HeldEvent
from replayer.findings import Finding
from replayer.poker.betting import Betting
from replayer.poker.board import Board
from replayer.poker.table import Table
from replayer.poker.verdict import Step
from replayer.poker.wording import step_text

_OUTCOMES = ("HandEnded", "HandVoided", "HandReverted")


class StepLog:
    """The steps of one hand, in event order."""

    __slots__ = ("board", "steps", "table")

    def __init__(self, table: Table, board: Board) -> None:
        self.table = table
        self.board = board
        self.steps: list[Step] = []

    def record(
        self, event: HeldEvent, seat: int | None, betting: Betting, raised: Sequence[Finding]
    ) -> None:
        """Add the step of ``event``, applied, with the findings it raised."""
        table = self.table
        nxt = betting.next
        self.steps.append(
            Step(
                sequence=event.get("sequence"),
                event_type=str(event.get("type")),
                seat=seat,
                text=step_text(event),
                street=self.board.street(betting.round),
                pot=sum(betting.put) + betting.house,
                stacks=tuple(
                    zip(
                        table.seats_sorted,
                        map(betting.stack.__getitem__, table.by_seat),
                        strict=True,
                    )
                ),
                to_act=table.seat_of[nxt] if nxt >= 0 else None,
                findings=tuple(raised),
            )
        )

    def outcome_index(self) -> int | None:
        """Index of the step settlement findings go under (None: no step recorded)."""
        steps = self.steps
        for index in range(len(steps) - 1, -1, -1):
            if steps[index].event_type in _OUTCOMES:
                return index
        return len(steps) - 1 if steps else None

    def attach(self, index: int, findings: Sequence[Finding]) -> None:
        """List ``findings`` under step ``index``, after the findings of its event."""
        step = self.steps[index]
        self.steps[index] = step._replace(findings=step.findings + tuple(findings))
