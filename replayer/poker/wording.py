"""Each record type of ``schemas/poker_hand.avsc`` in words: ``DESCRIBERS``, one per type.

An event is said two ways, both by its type's ``Describer``: ``step`` is the replay's
terse line (``Step.text``: raw seats, minor units, the record's own codes), ``words`` the
reader's sentence (``casino-audit show``), naming players, money and cards through a
``Voice`` that the caller supplies (the audit layer knows the players and the currency,
and makes every record text safe to print). A new record type is put into words here,
once, and ``tests/pipelines/test_event_tables.py`` fails until it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from replayer.events import FlatEvent


class Voice(Protocol):
    """How the reader's sentence names what an event mentions."""

    def seat(self, seat: Any) -> str: ...

    def money(self, amount: Any) -> str: ...

    def cards(self, cards: Any) -> str: ...

    def safe(self, value: Any) -> str: ...


class Describer(NamedTuple):
    """The two texts of one record type."""

    step: Callable[[FlatEvent], str]
    words: Callable[[FlatEvent, Voice], str]


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


def step_text(event: FlatEvent) -> str:
    """The replay's line of ``event`` (its type name when no describer knows it)."""
    describer = DESCRIBERS.get(str(event.get("type")))
    return describer.step(event) if describer else str(event.get("type"))


def words(event: FlatEvent, voice: Voice) -> str:
    """The reader's sentence of ``event`` (its type name, made safe, when unknown)."""
    describer = DESCRIBERS.get(str(event.get("type")))
    return describer.words(event, voice) if describer else voice.safe(event.get("type"))


def _raw_cards(event: FlatEvent) -> str:
    return " ".join(map(str, event.get("cards") or ()))


def _hand_started_words(event: FlatEvent, voice: Voice) -> str:
    small, big = voice.money(event.get("small_blind")), voice.money(event.get("big_blind"))
    blinds = f"blinds {small}/{big}"
    if event.get("ante"):
        blinds += f", ante {voice.money(event.get('ante'))}"
    button = event.get("button")
    at = f", button at seat {voice.safe(button)}" if button is not None else ""
    count = len(event.get("seats") or ())
    return f"the hand starts: {count} players, {voice.safe(event.get('variant'))}, {blinds}{at}"


def _blind_posted_words(event: FlatEvent, voice: Voice) -> str:
    what = _BLINDS.get(str(event.get("kind")), voice.safe(event.get("kind")))
    return f"{voice.seat(event.get('seat'))} posts {what} of {voice.money(event.get('amount'))}"


def _action_taken_step(event: FlatEvent) -> str:
    seat, action, amount = event.get("seat"), event.get("action"), event.get("amount")
    return f"seat {seat} {action} {amount}" if amount else f"seat {seat} {action}"


def _action_taken_words(event: FlatEvent, voice: Voice) -> str:
    who, amount = voice.seat(event.get("seat")), event.get("amount")
    verb = _ACTIONS.get(str(event.get("action")), voice.safe(event.get("action")))
    if event.get("action") == "raise":
        return f"{who} raises, putting in {voice.money(amount)}"
    return f"{who} {verb} {voice.money(amount)}" if amount else f"{who} {verb}"


def _cards_dealt_step(event: FlatEvent) -> str:
    target = event.get("target")
    if target == "hole":
        return f"seat {event.get('seat')} dealt {_raw_cards(event)}"
    return f"{target} {_raw_cards(event)}"


def _cards_dealt_words(event: FlatEvent, voice: Voice) -> str:
    target = event.get("target")
    if target == "hole":
        return f"{voice.seat(event.get('seat'))} is dealt {voice.cards(event.get('cards'))}"
    if target == "burn":
        return f"a card is burnt: {voice.cards(event.get('cards'))}"
    return f"board: {voice.cards(event.get('cards'))}"


def _cards_shown_step(event: FlatEvent) -> str:
    shown = _raw_cards(event)
    if shown and not event.get("mucked"):
        return f"seat {event.get('seat')} shows {shown}"
    return f"seat {event.get('seat')} mucks"


def _cards_shown_words(event: FlatEvent, voice: Voice) -> str:
    who = voice.seat(event.get("seat"))
    if event.get("mucked") or not event.get("cards"):
        return f"{who} mucks (cards not shown)"
    return f"{who} shows {voice.cards(event.get('cards'))}"


def _pot_awarded_words(event: FlatEvent, voice: Voice) -> str:
    index = event.get("pot_index")
    pot = (
        "" if index is None else (" from the main pot" if index == 0 else f" from side pot {index}")
    )
    return f"{voice.seat(event.get('seat'))} is paid {voice.money(event.get('amount'))}{pot}"


def _fee_taken_step(event: FlatEvent) -> str:
    seat = event.get("seat")
    paid = "from the pot" if seat is None else f"paid by seat {seat}"
    return f"{event.get('kind')} fee {event.get('amount')} {paid}"


def _fee_taken_words(event: FlatEvent, voice: Voice) -> str:
    what = _FEES.get(str(event.get("kind")), f"a {voice.safe(event.get('kind'))} fee")
    amount = voice.money(event.get("amount"))
    if event.get("seat") is None:
        return f"the house takes {what} of {amount} from the pot (not rake)"
    return f"{voice.seat(event.get('seat'))} pays the house {what} of {amount}, outside the pot"


def _cashout_paid_words(event: FlatEvent, voice: Voice) -> str:
    return (
        f"{voice.seat(event.get('seat'))} is paid a cash-out of "
        f"{voice.money(event.get('amount'))} by the house, outside the pot (not a pot payout)"
    )


def _house_money_added_words(event: FlatEvent, voice: Voice) -> str:
    return (
        f"the house adds {voice.money(event.get('amount'))} of its own money to the pot "
        f"({voice.safe(event.get('promotion'))}; no player's chips)"
    )


def _ended_step(event: FlatEvent) -> str:
    """HandVoided or HandReverted: the type and the reason."""
    return f"{event.get('type')}: {event.get('reason', '')}"


def _hand_reverted_words(event: FlatEvent, voice: Voice) -> str:
    incident = event.get("incident_id")
    why = f" (incident {voice.safe(incident)})" if incident else ""
    return f"the hand is reverted: {voice.safe(event.get('reason'))}{why}"


DESCRIBERS: dict[str, Describer] = {
    "HandStarted": Describer(
        lambda e: f"hand started ({len(e.get('seats') or ())} players)", _hand_started_words
    ),
    "BlindPosted": Describer(
        lambda e: f"seat {e.get('seat')} posts {e.get('kind')} {e.get('amount')}",
        _blind_posted_words,
    ),
    "CardsDealt": Describer(_cards_dealt_step, _cards_dealt_words),
    "ActionTaken": Describer(_action_taken_step, _action_taken_words),
    "CardsShown": Describer(_cards_shown_step, _cards_shown_words),
    "PotAwarded": Describer(
        lambda e: f"seat {e.get('seat')} awarded {e.get('amount')}", _pot_awarded_words
    ),
    "RakeTaken": Describer(
        lambda e: f"rake {e.get('amount')}",
        lambda e, voice: f"the house takes {voice.money(e.get('amount'))} rake",
    ),
    "HandEnded": Describer(lambda e: "hand ended", lambda e, voice: "the hand ends"),
    "HandVoided": Describer(
        _ended_step,
        lambda e, voice: f"the hand is declared void: {voice.safe(e.get('reason'))}",
    ),
    "HandReverted": Describer(_ended_step, _hand_reverted_words),
    "DeckRevealed": Describer(
        lambda e: "deck revealed",
        lambda e, voice: f"the deck order is revealed ({len(e.get('order') or ())} cards)",
    ),
    "FeeTaken": Describer(_fee_taken_step, _fee_taken_words),
    "BoardRun": Describer(
        lambda e: f"board run {e.get('run')}",
        lambda e, voice: (
            f"run {voice.safe(e.get('run'))} of the board (run more than once after an all-in)"
        ),
    ),
    "CashoutPaid": Describer(
        lambda e: f"seat {e.get('seat')} cash-out {e.get('amount')} paid outside the pot",
        _cashout_paid_words,
    ),
    "HouseMoneyAdded": Describer(
        lambda e: f"house adds {e.get('amount')} to the pot ({e.get('promotion')})",
        _house_money_added_words,
    ),
}
"""Record type -> its ``Describer`` (every type of the poker schema's union)."""
