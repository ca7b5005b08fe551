"""``casino-audit show`` for a poker hand, as data (``audit.show.model.PokerStory``):
seats, every event with the state after it (the replayer's steps,
``replayer.poker.verdict.Step``) street by street, the first divergence, and the
settlement the rules give against the one recorded, in the hand's currency."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.grouping.subject_index import SubjectIndex
from audit.grouping.tournament_hands import level_of, tournament_of, tournament_stored
from audit.show.common import (
    FIRST,
    INDENT,
    Marks,
    cards,
    cards_of,
    clock,
    money,
    note,
    safe,
    signed,
)
from audit.show.model import (
    Action,
    Charge,
    Flag,
    Line,
    Payout,
    PokerStory,
    Pot,
    Role,
    Seat,
    Settlement,
    Street,
)
from audit.store import StoreReads
from replayer.poker.wording import words


class HandVoice:
    """One hand's people and money, for its lines: the ``Voice`` its events are said in
    (what ``show`` tells of a hand; the hand being replayed is ``replayer.poker.hand.Hand``)."""

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


def hand_kind(first: Mapping[str, Any]) -> str:
    """A poker hand in words, by its variant (its ``HandStarted``)."""
    return f"poker hand ({safe(first.get('variant'))})"


def hand_tournament(
    store: StoreReads, subject: str, first: Mapping[str, Any], index: SubjectIndex | None
) -> list[tuple[str, Any]]:
    """A tournament hand's tournament, whether that tournament is stored (``show
    TOURNAMENT`` then explains it), and its level; nothing for a cash-game hand."""
    tournament = tournament_of(first)
    if tournament is None:
        return []
    stored = "stored: show it" if tournament_stored(store, tournament) else "not in the store"
    level = level_of(str(first.get("source") or ""))
    return [
        ("tournament", f"{safe(tournament)} ({stored})"),
        ("level", safe(level) if level else None),
    ]


def poker_body(
    inputs: Any, verdict: Any, players: Mapping[str, str], numbers: Mapping[str, int]
) -> PokerStory:
    """Seats, the actions street by street with the first divergence marked, settlement."""
    hand = HandVoice(inputs.events, players)
    marks = Marks(step.sequence for step in verdict.steps if step.findings)
    unreplayed: list[Line] = []
    first = marks.first
    if not verdict.steps:
        if verdict.findings:
            first = min(hand.events, key=lambda s: s if isinstance(s, int) else 0, default=0)
            kinds = ", ".join(sorted({str(f.kind) for f in verdict.findings}))
            unreplayed.append(
                Line(
                    Role.DIVERGENCE, f"{FIRST} at #{first}: {kinds} (the hand could not be judged)"
                )
            )
        unreplayed.append(
            note(f"{INDENT}the hand could not be replayed step by step: see the findings")
        )
    actions = [_action(hand, step, marks, numbers) for step in verdict.steps]
    return PokerStory(
        seats=_seats(hand),
        streets=_streets(actions),
        unreplayed=tuple(unreplayed),
        settlement=settlement(hand, verdict),
        first_divergence=first if isinstance(first, int) else None,
    )


def _seats(hand: HandVoice) -> tuple[Seat, ...]:
    """The seats at the start of the hand, with the hole cards dealt to each."""
    holes: dict[Any, list[Any]] = {}
    for event in hand.events.values():
        if event.get("type") == "CardsDealt" and event.get("target") == "hole":
            holes.setdefault(event.get("seat"), []).extend(event.get("cards") or ())
    return tuple(
        Seat(
            seat=safe(seated.get("seat")),
            label=hand.seat(seated.get("seat")),
            player=_player(hand, seated.get("seat")),
            stack=hand.money(seated.get("stack")),
            button=seated.get("seat") == hand.first.get("button"),
            hole=cards_of(holes.get(seated.get("seat"))),
        )
        for seated in hand.first.get("seats") or ()
    )


def _player(hand: HandVoice, seat: Any) -> str | None:
    name = hand.players.get(str(seat))
    return safe(name) if name else None


def _action(hand: HandVoice, step: Any, marks: Marks, numbers: Mapping[str, int]) -> Action:
    """One step of the replay: the event, the state after it, its findings."""
    event = hand.events.get(step.sequence, {})
    ids = [numbers.get(f.finding_id) for f in step.findings]
    settle = any(f.detail.get("event") == "settlement" for f in step.findings)
    where = "settlement" if settle else step.street
    kinds = ", ".join(sorted({str(f.kind) for f in step.findings}))
    mark = marks.at(step.sequence, f"{kinds} ({where}; finding {_list(ids)} below)")
    state = [f"pot {hand.money(step.pot)}"]
    stacks = dict(step.stacks)
    if step.seat in stacks:
        state.append(f"seat {safe(step.seat)} has {hand.money(stacks[step.seat])} behind")
    if step.to_act is not None:
        state.append(f"next: seat {safe(step.to_act)}")
    seat = event.get("seat")
    doing = event.get("action") or event.get("kind") or event.get("target")
    return Action(
        sequence=step.sequence,
        time=clock(event.get("occurred_at"), date=False),
        street=safe(step.street),
        kind=safe(event.get("type")),
        seat=None if seat is None else safe(seat),
        player=_player(hand, seat) if seat is not None else None,
        action=None if doing is None else safe(doing),
        amount=hand.money(event["amount"]) if event.get("amount") else None,
        cards=cards_of(event.get("cards")),
        words=hand.describe(event),
        state=" | ".join(state) if _changes_state(event) else None,
        flags=tuple(Flag(str(f.kind), numbers.get(f.finding_id)) for f in step.findings),
        divergence=mark[0].text if mark else None,
    )


def _streets(actions: Sequence[Action]) -> tuple[Street, ...]:
    """The actions in order, grouped into runs on one street."""
    runs: list[list[Action]] = []
    for action in actions:
        if runs and runs[-1][0].street == action.street:
            runs[-1].append(action)
        else:
            runs.append([action])
    return tuple(
        Street(
            run[0].street,
            tuple(
                c for a in run if a.kind == "CardsDealt" and a.action == "board" for c in a.cards
            ),
            tuple(run),
        )
        for run in runs
    )


def _changes_state(event: Mapping[str, Any]) -> bool:
    """Whether the pot, a stack or the turn to act moves at this event."""
    kind = event.get("type")
    return kind in ("BlindPosted", "ActionTaken") or (
        kind == "CardsDealt" and event.get("target") == "board"
    )


def _list(values: Sequence[Any]) -> str:
    return ", ".join(str(v) for v in values if v is not None) or "-"


def settlement(hand: HandVoice, verdict: Any) -> Settlement:
    """Per seat: what he put in, what the rules pay him, what was recorded, what is owed;
    the rake and fees allowed vs taken; money outside the pots; the pots."""
    expected = dict(verdict.expected_payouts)
    recorded = dict(verdict.recorded_payouts)
    put = dict(verdict.contributions)
    seats = sorted(set(expected) | set(recorded) | set(put))
    if not seats:
        return Settlement(False, (), (), (), (), None)
    return Settlement(
        judged=True,
        payouts=tuple(
            _payout(hand, verdict, seat, expected.get(seat, 0), recorded.get(seat), put)
            for seat in seats
        ),
        charges=_charges(hand, verdict),
        outside=_outside(hand, verdict),
        pots=tuple(_pot(hand, pot) for pot in verdict.pots),
        balance=_balance(hand, verdict, recorded),
    )


def _payout(
    hand: HandVoice, verdict: Any, seat: Any, due: int, paid: int | None, put: Mapping[Any, int]
) -> Payout:
    difference = None
    if paid is not None and paid != due and not verdict.determined:
        difference = "the rules' share cannot be told (a pot cannot be judged: see the findings)"
    elif paid is not None and paid != due:
        difference = (
            f"{hand.money(due - paid)} owed to the player"
            if due > paid
            else f"overpaid by {hand.money(paid - due)}"
        )
    return Payout(
        seat=safe(seat),
        label=hand.seat(seat),
        put_in=hand.money(put.get(seat, 0)),
        expected=hand.money(due),
        recorded=hand.money(paid),
        difference=difference,
    )


def _charges(hand: HandVoice, verdict: Any) -> tuple[Charge, ...]:
    """The rake, and fees other than rake when there are any, allowed vs recorded."""
    charges = [("rake", verdict.expected_rake, verdict.recorded_rake)]
    if verdict.recorded_fees or verdict.expected_fees:
        charges.append(("fees other than rake", verdict.expected_fees, verdict.recorded_fees))
    return tuple(
        Charge(
            what,
            hand.money(allowed),
            hand.money(taken),
            signed(taken - allowed, hand.currency) if taken != allowed else None,
        )
        for what, allowed, taken in charges
    )


def _outside(hand: HandVoice, verdict: Any) -> tuple[str, ...]:
    """Money the house moved outside the pots."""
    said = [
        f"{hand.seat(seat)}: paid a cash-out of {hand.money(chips)} by the house "
        "outside the pot (not a pot payout)"
        for seat, chips in sorted(verdict.cashouts.items())
    ]
    said += [
        f"{hand.seat(seat)}: paid the house {hand.money(chips)} outside the pot "
        "(cash-out risk, insurance)"
        for seat, chips in sorted(verdict.paid_outside.items())
    ]
    if verdict.house_retained:
        said.append(
            f"kept by the house under the odd-chip rule: {hand.money(verdict.house_retained)}"
        )
    return tuple(said)


def _pot(hand: HandVoice, pot: Any) -> Pot:
    return Pot(
        name="main pot" if pot.index == 0 else f"side pot {pot.index}",
        amount=hand.money(pot.amount),
        rake=hand.money(pot.rake),
        eligible=tuple(hand.seat(s) for s in pot.eligible),
        winners=None if pot.winners is None else tuple(hand.seat(s) for s in pot.winners),
    )


def _balance(hand: HandVoice, verdict: Any, recorded: Mapping[Any, int]) -> str | None:
    if hand.first and not verdict.conserved and recorded:
        taken = "rake and fees" if verdict.recorded_fees else "rake"
        return f"the recorded payouts and {taken} do not add up to the chips put in"
    return None


__all__ = ["HandVoice", "poker_body", "settlement"]
