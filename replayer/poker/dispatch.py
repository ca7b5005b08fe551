"""What each event kind of ``schemas/poker_hand.avsc`` does to a hand: ``HANDLERS``.

A handler applies one event to the ``Hand``; one of an event naming a seat
(``SEATED_HANDLERS``) is given the seat's position, the others (``HANDLERS``) return the
seat the event concerns (None: no seat). Betting events go through the betting state
machine (``betting``), board cards through the board schedule (``board``); cards,
awards, rake and the outcome are recorded for the settlement. An event naming a seat not
dealt in, a second HandStarted or an unknown event type is a data-quality issue and
changes nothing.

Poker v3 events: ``FeeTaken`` from the pot is judged at the settlement (``fees``); one a
player pays outside the pot, and ``CashoutPaid`` (the house pays a player outside the
pot), touch no pot and are only recorded, after a check that the hand is all-in.
Poker v5's ``HouseMoneyAdded`` (the house's own money put into the pot, GGPoker's Cash
Drop) is dead money of the main pot: the pots settle the players' chips plus it.
``BoardRun`` before the first PotAwarded starts a run's board (``board.start_run``);
after it, it labels the awards that follow and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from replayer.events import HeldEvent
from replayer.poker.betting import QUALITY, Issue
from replayer.poker.fees import Fee
from replayer.poker.hand import SCHEMA, Hand
from replayer.rulebooks.poker import PLAYER_PAID_FEE_KINDS

Handler = Callable[[Hand, HeldEvent], int | None]
SeatedHandler = Callable[[Hand, HeldEvent, int], None]


def apply(hand: Hand, event: HeldEvent) -> int | None:
    """Apply one event to the hand; the seat it concerns, or None.

    An event that names a seat (``SEATED_HANDLERS``) is applied given the seat's
    position, and skipped when the seat was not dealt in (``Hand.position_of`` records
    that issue); its seat is returned either way."""
    kind = event.get("type")
    if isinstance(kind, str):
        seated = SEATED_HANDLERS.get(kind)
        if seated is not None:
            seat: int = event["seat"]
            pos = hand.position_of(seat)
            if pos is not None:
                seated(hand, event, pos)
            return seat
        handler = HANDLERS.get(kind)
        if handler is not None:
            return handler(hand, event)
    hand.issues.append(Issue(QUALITY, SCHEMA, f"unknown event type {kind!r}", None, kind))
    return None


def _action_taken(hand: Hand, event: HeldEvent, pos: int) -> None:
    """A voluntary action, judged by the betting state machine (``Betting.act``)."""
    hand.board.before_action(hand.betting, hand.issues)
    action = event["action"]
    amount = int(event["amount"])
    hand.betting.act(pos, action, amount, hand.issues)


def _blind_posted(hand: Hand, event: HeldEvent, pos: int) -> None:
    """A forced bet (``Betting.post``)."""
    amount = int(event["amount"])
    hand.betting.post(pos, event["kind"], amount, hand.issues)


def _cards_dealt(hand: Hand, event: HeldEvent) -> int | None:
    """Hole cards open the first betting round unless board cards are due first."""
    target = event["target"]
    cards = list(event.get("cards") or ())
    if target == "hole":
        seat = event.get("seat")
        pos = hand.position_of(seat)
        if pos is not None:
            hand.holes[pos].extend(cards)
        if not hand.board.needed:
            hand.betting.start_round(0)
        return seat
    if target == "burn":
        hand.board.burns.extend(cards)
    elif target == "board":
        hand.board.deal(cards, hand.betting, hand.table.seat_of, hand.issues)
    else:
        hand.issues.append(
            Issue(QUALITY, f"{SCHEMA} DealTarget", f"unknown deal target {target!r}", None, target)
        )
    return None


def _cards_shown(hand: Hand, event: HeldEvent, pos: int) -> None:
    """Cards shown at the showdown; no cards, or ``mucked``, is a muck.

    Fewer cards than the game deals is a muck too: the dealer judges only the
    combinations tabled (PT-217/2007 n.º 64, "as combinações descobertas"), so a hand not
    wholly shown concedes, as the rooms' own summaries write it ("shows [Ah As]" of four
    omaha cards, then "mucked [Ah As]"); showing the whole hand afterwards undoes that.
    """
    cards = list(event.get("cards") or [])
    if event.get("mucked") or not cards:
        hand.mucked[pos] = True
        return
    dealt = hand.book.hole_cards
    before = hand.shown.get(pos)
    hand.shown[pos] = cards
    if len(cards) < dealt:
        hand.mucked[pos] = True
    elif before is not None and len(before) < dealt:
        hand.mucked[pos] = False


def _pot_awarded(hand: Hand, event: HeldEvent, pos: int) -> None:
    """Chips the operator paid a seat, per pot when the event names it."""
    amount = int(event["amount"])
    hand.awards[pos] += amount
    hand.awarded = True
    index = event.get("pot_index")
    if index is not None:
        key = (int(index), pos)
        hand.awards_by_pot[key] = hand.awards_by_pot.get(key, 0) + amount


def _rake_taken(hand: Hand, event: HeldEvent) -> int | None:
    hand.rake_recorded += int(event["amount"])
    return None


def _fee_taken(hand: Hand, event: HeldEvent) -> int | None:
    """A deduction that is not rake: from the pot (no seat) or paid by a player outside it."""
    kind = str(event["kind"])
    amount = int(event["amount"])
    seat: int | None = event.get("seat")
    if amount < 0:
        hand.issues.append(
            Issue(QUALITY, f"{SCHEMA} FeeTaken.amount", "a negative fee", "at least 0", amount)
        )
        return seat
    if seat is None:
        if kind in PLAYER_PAID_FEE_KINDS:
            hand.issues.append(
                Issue(
                    QUALITY,
                    f"{SCHEMA} FeeTaken.seat",
                    f"a {kind} fee is paid by a player, but no seat is named: taken from the pot",
                    "a seat",
                    None,
                )
            )
        index = event.get("pot_index")
        hand.fees.append(Fee(kind, amount, None if index is None else int(index)))
        return None
    pos = hand.position_of(seat)
    if pos is None:
        return seat
    if kind not in PLAYER_PAID_FEE_KINDS and kind != "other":
        hand.issues.append(
            Issue(
                QUALITY,
                f"{SCHEMA} FeeTaken.seat",
                f"a {kind} fee comes from the pot, but a seat is named: recorded as paid "
                "outside the pot",
                None,
                seat,
            )
        )
    _all_in(hand, pos, "FeeTaken.seat", f"pays a {kind} fee")
    hand.paid_outside.append((pos, kind, amount))
    return seat


def _cashout_paid(hand: Hand, event: HeldEvent, pos: int) -> None:
    """The house paid a player outside the pot (EV cash-out, insurance): not a payout."""
    amount = _positive_amount(hand, event, "CashoutPaid.amount", "a cash-out of no money")
    _all_in(hand, pos, "CashoutPaid.seat", "is paid a cash-out")
    hand.cashouts.append((pos, amount))


def _house_money_added(hand: Hand, event: HeldEvent) -> int | None:
    """The house put money into the pot (a promotion): the main pot's dead money."""
    amount = _positive_amount(hand, event, "HouseMoneyAdded.amount", "house money of no amount")
    if amount > 0:
        hand.betting.house += amount
    return None


def _positive_amount(hand: Hand, event: HeldEvent, field: str, words: str) -> int:
    """The event's ``amount``; one that is not more than 0 is a data-quality issue on
    ``field`` (money paid or put in outside the betting is never nothing or negative)."""
    amount = int(event["amount"])
    if amount <= 0:
        hand.issues.append(Issue(QUALITY, f"{SCHEMA} {field}", words, "more than 0", amount))
    return amount


def _all_in(hand: Hand, pos: int, field: str, what: str) -> None:
    """A cash-out or insurance needs a player still in a hand that is all-in: no other
    player still in has chips behind, so no more betting can follow. The player covering
    an all-in may cash out too (PokerStars: ``… cashed out the hand`` by the caller with
    chips behind)."""
    betting = hand.betting
    others = [
        p for p in range(betting.n) if p != pos and not betting.folded[p] and betting.stack[p] > 0
    ]
    if betting.folded[pos] or (betting.stack[pos] > 0 and others):
        state = "folded" if betting.folded[pos] else f"{betting.stack[pos]} chips behind"
        hand.issues.append(
            Issue(
                QUALITY,
                f"{SCHEMA} {field}",
                f"{what} but is not all-in ({state})",
                "all-in",
                state,
            )
        )


def _board_run(hand: Hand, event: HeldEvent) -> int | None:
    """Run ``run`` of the board (1, 2, ...): its board cards, or its awards, follow."""
    run = event["run"]
    if isinstance(run, bool) or not isinstance(run, int) or run < 1:
        hand.issues.append(
            Issue(QUALITY, f"{SCHEMA} BoardRun.run", "runs are numbered from 1", "1, 2, ...", run)
        )
        return None
    if hand.awarded:
        return None
    betting = hand.betting
    able = [p for p in range(len(betting.stack)) if not betting.folded[p] and betting.stack[p] > 0]
    if hand.board.common is None and (len(able) > 1 or betting.pending()):
        hand.issues.append(
            Issue(
                QUALITY,
                f"{SCHEMA} BoardRun.run",
                "the board is run again while players can still bet",
                "every player but one all-in",
                [hand.table.seat_of[p] for p in able],
            )
        )
    hand.board.start_run(run)
    return None


def _hand_ended(hand: Hand, event: HeldEvent) -> int | None:
    """The outcome; finishing stacks, when recorded, must name every seat listed."""
    hand.ended = True
    stacks = list(event.get("finishing_stacks") or [])
    if stacks:
        listed = hand.table.listed
        if len(stacks) == len(listed):
            hand.finishing = [int(chips) for chips in stacks]
        else:
            hand.issues.append(
                Issue(
                    QUALITY,
                    f"{SCHEMA} HandEnded.finishing_stacks",
                    "finishing stacks do not match the seats",
                    len(listed),
                    len(stacks),
                )
            )
    return None


def _hand_void(hand: Hand, event: HeldEvent) -> int | None:
    """HandVoided or HandReverted: every chip put in is owed back (``settlement``)."""
    hand.void = str(event.get("type"))
    return None


def _deck_revealed(hand: Hand, event: HeldEvent) -> int | None:
    hand.revealed = (list(event["order"]), str(event["salt"]))
    return None


def _hand_started(hand: Hand, event: HeldEvent) -> int | None:
    """The first event deals the hand (``hand.open_hand``); any other HandStarted is wrong."""
    if event is not hand.opening:
        hand.issues.append(Issue(QUALITY, SCHEMA, "a second HandStarted", None, event.get("type")))
    return None


SEATED_HANDLERS: dict[str, SeatedHandler] = {
    "ActionTaken": _action_taken,
    "BlindPosted": _blind_posted,
    "CardsShown": _cards_shown,
    "PotAwarded": _pot_awarded,
    "CashoutPaid": _cashout_paid,
}
"""Handlers of the events that name a seat, given its position (see ``apply``)."""

HANDLERS: dict[str, Handler] = {
    "CardsDealt": _cards_dealt,
    "RakeTaken": _rake_taken,
    "HandEnded": _hand_ended,
    "HandVoided": _hand_void,
    "HandReverted": _hand_void,
    "DeckRevealed": _deck_revealed,
    "HandStarted": _hand_started,
    "FeeTaken": _fee_taken,
    "BoardRun": _board_run,
    "HouseMoneyAdded": _house_money_added,
}
"""Handlers of the other events: the seat the event concerns, or None."""
