"""``casino-audit show`` for a poker hand: seats, every event with the state after it
(the replayer's steps, ``replayer.poker.verdict.Step``), the first divergence, and the
settlement the rules give against the one recorded, in the hand's currency."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.show_common import FIRST, INDENT, Marks, cards, clock, money, safe, signed

_BLINDS = {
    "small_blind": "the small blind",
    "big_blind": "the big blind",
    "straddle": "a straddle",
    "ante": "an ante",
    "bring_in": "the bring-in",
    "dead_small_blind": "a dead small blind",
    "dead_big_blind": "a dead big blind",
    "missed_big_blind": "a missed big blind",
}
_ACTIONS = {"fold": "folds", "check": "checks", "call": "calls", "bet": "bets", "raise": "raises"}
_FEES = {
    "jackpot": "a jackpot fee",
    "bingo": "a bingo fee",
    "fortune": "a fortune fee",
    "tax": "a tax",
    "insurance": "an all-in insurance premium",
    "cashout_risk": "an EV cash-out risk premium",
    "other": "a fee",
}


class Hand:
    """One hand's people and money, for its lines."""

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

    def describe(self, event: Mapping[str, Any]) -> str:
        """One event in words, amounts in the hand's currency, players named."""
        kind = event.get("type")
        who = self.seat(event.get("seat"))
        amount = event.get("amount")
        if kind == "HandStarted":
            small, big = self.money(event.get("small_blind")), self.money(event.get("big_blind"))
            blinds = f"blinds {small}/{big}"
            if event.get("ante"):
                blinds += f", ante {self.money(event.get('ante'))}"
            button = event.get("button")
            at = f", button at seat {safe(button)}" if button is not None else ""
            count = len(event.get("seats") or ())
            return f"the hand starts: {count} players, {safe(event.get('variant'))}, {blinds}{at}"
        if kind == "BlindPosted":
            what = _BLINDS.get(str(event.get("kind")), safe(event.get("kind")))
            return f"{who} posts {what} of {self.money(amount)}"
        if kind == "ActionTaken":
            verb = _ACTIONS.get(str(event.get("action")), safe(event.get("action")))
            if event.get("action") == "raise":
                return f"{who} raises, putting in {self.money(amount)}"
            return f"{who} {verb} {self.money(amount)}" if amount else f"{who} {verb}"
        if kind == "CardsDealt":
            target = event.get("target")
            if target == "hole":
                return f"{who} is dealt {cards(event.get('cards'))}"
            if target == "burn":
                return f"a card is burnt: {cards(event.get('cards'))}"
            return f"board: {cards(event.get('cards'))}"
        if kind == "CardsShown":
            if event.get("mucked") or not event.get("cards"):
                return f"{who} mucks (cards not shown)"
            return f"{who} shows {cards(event.get('cards'))}"
        if kind == "PotAwarded":
            index = event.get("pot_index")
            pot = (
                ""
                if index is None
                else (" from the main pot" if index == 0 else f" from side pot {index}")
            )
            return f"{who} is paid {self.money(amount)}{pot}"
        if kind == "RakeTaken":
            return f"the house takes {self.money(amount)} rake"
        if kind == "FeeTaken":
            what = _FEES.get(str(event.get("kind")), f"a {safe(event.get('kind'))} fee")
            if event.get("seat") is None:
                return f"the house takes {what} of {self.money(amount)} from the pot (not rake)"
            return f"{who} pays the house {what} of {self.money(amount)}, outside the pot"
        if kind == "BoardRun":
            return f"run {safe(event.get('run'))} of the board (run more than once after an all-in)"
        if kind == "CashoutPaid":
            return (
                f"{who} is paid a cash-out of {self.money(amount)} by the house, outside the "
                "pot (not a pot payout)"
            )
        if kind == "HouseMoneyAdded":
            return (
                f"the house adds {self.money(amount)} of its own money to the pot "
                f"({safe(event.get('promotion'))}; no player's chips)"
            )
        if kind == "HandEnded":
            return "the hand ends"
        if kind == "HandVoided":
            return f"the hand is declared void: {safe(event.get('reason'))}"
        if kind == "HandReverted":
            incident = event.get("incident_id")
            why = f" (incident {safe(incident)})" if incident else ""
            return f"the hand is reverted: {safe(event.get('reason'))}{why}"
        if kind == "DeckRevealed":
            return f"the deck order is revealed ({len(event.get('order') or ())} cards)"
        return safe(kind)


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
