"""``casino-audit show`` for a poker hand: seats, every event with the state after it
(the replayer's steps, ``replayer.poker.verdict.Step``), the first divergence, and the
settlement the rules give against the one recorded, in the hand's currency."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.show.common import FIRST, INDENT, Marks, cards, clock, money, safe, signed
from replayer.poker.wording import words


class Hand:
    """One hand's people and money, for its lines: the ``Voice`` its events are said in."""

    def __init__(self, events: Sequence[Mapping[str, Any]], players: Mapping[str, str]):
        self.events = {e.get("sequence"): e for e in events}
        first = next((e for e in events if e.get("type") == "HandStarted"), {})
        self.first = first
        self.currency = first.get("currency")
        self.players = dict(players)

    def seat(self, seat: Any) -> str:
        name = self.players.get(str(seat))
        return f"seat {safe(seat)} ({safe(name)})" if name else f"seat {safe(seat)}"

    def money(self, amount: Any) -> str:
        return money(amount, self.currency)

    def cards(self, values: Any) -> str:
        return cards(values)

    def safe(self, value: Any) -> str:
        return safe(value)

    def describe(self, event: Mapping[str, Any]) -> str:
        """One event in words, amounts in the hand's currency, players named
        (``replayer.poker.wording``)."""
        return words(event, self)


def poker_body(
    inputs: Any, verdict: Any, players: Mapping[str, str], numbers: Mapping[str, int]
) -> list[str]:
    """Seats, steps with the first divergence marked, settlement."""
    hand = Hand(inputs.events, players)
    lines = ["SEATS (at the start of the hand)"]
    button = hand.first.get("button")
    for seated in hand.first.get("seats") or ():
        mark = "  (button)" if seated.get("seat") == button else ""
        lines.append(
            f"{INDENT}{hand.seat(seated.get('seat')):<32} {hand.money(seated.get('stack'))}{mark}"
        )
    marks = Marks(step.sequence for step in verdict.steps if step.findings)
    lines += [
        "",
        "STEP BY STEP (each event; then the pot, the actor's chips behind, who acts next)",
    ]
    if not verdict.steps:
        if verdict.findings:
            first = min(hand.events, key=lambda s: s if isinstance(s, int) else 0, default=0)
            kinds = ", ".join(sorted({str(f.kind) for f in verdict.findings}))
            lines.append(f"{FIRST} at #{first}: {kinds} (the hand could not be judged)")
        lines.append(f"{INDENT}the hand could not be replayed step by step: see the findings")
    for step in verdict.steps:
        event = hand.events.get(step.sequence, {})
        ids = [numbers.get(f.finding_id) for f in step.findings]
        settle = any(f.detail.get("event") == "settlement" for f in step.findings)
        where = "settlement" if settle else step.street
        kinds = ", ".join(sorted({str(f.kind) for f in step.findings}))
        lines += marks.at(step.sequence, f"{kinds} ({where}; finding {_list(ids)} below)")
        state = [f"pot {hand.money(step.pot)}"]
        stacks = dict(step.stacks)
        if step.seat in stacks:
            state.append(f"seat {safe(step.seat)} has {hand.money(stacks[step.seat])} behind")
        if step.to_act is not None:
            state.append(f"next: seat {safe(step.to_act)}")
        lines.append(
            f"{INDENT}#{step.sequence:<3} {clock(event.get('occurred_at'), date=False)} "
            f"{step.street:<8} {hand.describe(event)}"
        )
        if _changes_state(event):
            lines.append(f"{INDENT}{'':<23}{' | '.join(state)}")
        for finding in step.findings:
            lines.append(
                f"{INDENT}{'':<23}! {finding.kind}: see finding {numbers.get(finding.finding_id)}"
            )
    lines += ["", *settlement(hand, verdict)]
    return lines


def _changes_state(event: Mapping[str, Any]) -> bool:
    """Whether the pot, a stack or the turn to act moves at this event."""
    kind = event.get("type")
    return kind in ("BlindPosted", "ActionTaken") or (
        kind == "CardsDealt" and event.get("target") == "board"
    )


def _list(values: Sequence[Any]) -> str:
    return ", ".join(str(v) for v in values if v is not None) or "-"


def settlement(hand: Hand, verdict: Any) -> list[str]:
    """Per seat: what he put in, what the rules pay him, what was recorded, what is owed."""
    lines = ["SETTLEMENT (what the rules pay each seat vs what was recorded)"]
    expected = dict(verdict.expected_payouts)
    recorded = dict(verdict.recorded_payouts)
    put = dict(verdict.contributions)
    seats = sorted(set(expected) | set(recorded) | set(put))
    if not seats:
        return [*lines, f"{INDENT}not judged: see the findings"]
    for seat in seats:
        due, paid = expected.get(seat, 0), recorded.get(seat)
        text = (
            f"{INDENT}{hand.seat(seat)}: put in {hand.money(put.get(seat, 0))}; "
            f"the rules pay {hand.money(due)}, recorded {hand.money(paid)}"
        )
        if paid is not None and paid != due and not verdict.determined:
            text += ": the rules' share cannot be told (a pot cannot be judged: see the findings)"
        elif paid is not None and paid != due:
            if due > paid:
                text += f": {hand.money(due - paid)} owed to the player"
            else:
                text += f": overpaid by {hand.money(paid - due)}"
        lines.append(text)
    lines.append(
        f"{INDENT}rake: the rules allow {hand.money(verdict.expected_rake)}, recorded "
        f"{hand.money(verdict.recorded_rake)}"
        + (
            f" ({signed(verdict.recorded_rake - verdict.expected_rake, hand.currency)})"
            if verdict.recorded_rake != verdict.expected_rake
            else ""
        )
    )
    fees, allowed = verdict.recorded_fees, verdict.expected_fees
    if fees or allowed:
        lines.append(
            f"{INDENT}fees other than rake: the rules allow {hand.money(allowed)}, recorded "
            f"{hand.money(fees)}"
            + (f" ({signed(fees - allowed, hand.currency)})" if fees != allowed else "")
        )
    for seat, chips in sorted(verdict.cashouts.items()):
        lines.append(
            f"{INDENT}{hand.seat(seat)}: paid a cash-out of {hand.money(chips)} by the house "
            "outside the pot (not a pot payout)"
        )
    for seat, chips in sorted(verdict.paid_outside.items()):
        lines.append(
            f"{INDENT}{hand.seat(seat)}: paid the house {hand.money(chips)} outside the pot "
            "(cash-out risk, insurance)"
        )
    if verdict.house_retained:
        lines.append(
            f"{INDENT}kept by the house under the odd-chip rule: "
            f"{hand.money(verdict.house_retained)}"
        )
    for pot in verdict.pots:
        name = "main pot" if pot.index == 0 else f"side pot {pot.index}"
        won = (
            "cannot be judged"
            if pot.winners is None
            else "won by " + ", ".join(hand.seat(s) for s in pot.winners)
        )
        lines.append(
            f"{INDENT}{name}: {hand.money(pot.amount)} (rake {hand.money(pot.rake)}), {won}"
        )
    if hand.first and not verdict.conserved and recorded:
        taken = "rake and fees" if verdict.recorded_fees else "rake"
        lines.append(f"{INDENT}the recorded payouts and {taken} do not add up to the chips put in")
    return lines


__all__ = ["Hand", "poker_body", "settlement"]
