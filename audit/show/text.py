"""``casino-audit show`` as text: an ``Explanation`` (``audit.show.model``) printed line by
line, as the command line shows it. Each part is its title and header fields, its
story, its findings and its verdict history, a blank line between them; parts are
separated by a blank line."""

from __future__ import annotations

from collections.abc import Sequence

from audit.show.common import INDENT
from audit.show.model import Explanation, Field, Line, Part, PokerStory, Settlement, Unjudged

STEP_INDENT = f"{INDENT}{'':<23}"
"""Where a poker step's state and flags start (under the step's words)."""


def explanation_lines(explanation: Explanation) -> list[str]:
    """Every part's lines, a blank line between two parts."""
    out: list[str] = []
    for part in explanation.parts:
        out += ([""] if out else []) + part_lines(part)
    return out


def part_lines(part: Part | Unjudged) -> list[str]:
    if isinstance(part, Unjudged):
        return [part.title, f"{INDENT}cannot be judged: {part.reason}"]
    story = poker_lines(part.story) if isinstance(part.story, PokerStory) else texts(part.story)
    return [
        *header_lines(part.title, part.fields),
        "",
        *story,
        "",
        *texts(part.findings),
        "",
        *texts(part.history),
    ]


def texts(lines: Sequence[Line]) -> list[str]:
    return [line.text for line in lines]


def header_lines(title: str, fields: Sequence[Field]) -> list[str]:
    """A title line, then one ``label  value`` line per field (``-`` when unknown)."""
    width = max((len(f.label) for f in fields), default=0)
    return [title, *(f"{INDENT}{f.label:<{width}}  {f.value or '-'}" for f in fields)]


def poker_lines(story: PokerStory) -> list[str]:
    """Seats, step by step (the first divergence marked), the settlement."""
    lines = ["SEATS (at the start of the hand)"]
    for seat in story.seats:
        mark = "  (button)" if seat.button else ""
        lines.append(f"{INDENT}{seat.label:<32} {seat.stack}{mark}")
    lines += [
        "",
        "STEP BY STEP (each event; then the pot, the actor's chips behind, who acts next)",
        *texts(story.unreplayed),
    ]
    for street in story.streets:
        for action in street.actions:
            if action.divergence:
                lines.append(action.divergence)
            lines.append(
                f"{INDENT}#{action.sequence:<3} {action.time} {action.street:<8} {action.words}"
            )
            if action.state is not None:
                lines.append(f"{STEP_INDENT}{action.state}")
            lines += [f"{STEP_INDENT}! {f.kind}: see finding {f.number}" for f in action.flags]
    return [*lines, "", *settlement_lines(story.settlement)]


def settlement_lines(settlement: Settlement) -> list[str]:
    """Per seat what the rules pay vs what was recorded; rake and fees; the pots."""
    lines = ["SETTLEMENT (what the rules pay each seat vs what was recorded)"]
    if not settlement.judged:
        return [*lines, f"{INDENT}not judged: see the findings"]
    for payout in settlement.payouts:
        lines.append(
            f"{INDENT}{payout.label}: put in {payout.put_in}; the rules pay {payout.expected}, "
            f"recorded {payout.recorded}" + (f": {payout.difference}" if payout.difference else "")
        )
    for charge in settlement.charges:
        lines.append(
            f"{INDENT}{charge.what}: the rules allow {charge.allowed}, recorded {charge.recorded}"
            + (f" ({charge.difference})" if charge.difference else "")
        )
    lines += [f"{INDENT}{said}" for said in settlement.outside]
    for pot in settlement.pots:
        won = "cannot be judged" if pot.winners is None else "won by " + ", ".join(pot.winners)
        lines.append(f"{INDENT}{pot.name}: {pot.amount} (rake {pot.rake}), {won}")
    if settlement.balance:
        lines.append(f"{INDENT}{settlement.balance}")
    return lines
