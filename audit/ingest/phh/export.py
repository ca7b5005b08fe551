"""Stored poker hands written out as PHH (phh-std), so anyone can re-check them in PokerKit.

``hand_phh(events)`` is pure: one hand's flat events (``schemas/poker_hand.avsc``) to the
TOML text of one PHH record. ``export_hands`` writes a store's hands to a ``.phhs`` file
(one ``[N]`` section per hand) or, for a single ``--subject``, a ``.phh`` file.

Mapping (the inverse of ``audit.ingest.phh``):

* players ``p1..pn`` in position order: clockwise from the first seat left of the
  button, the button last (heads-up: p1 the big blind, p2 the button and small blind);
  standard ``seats`` and ``seat_count`` keep the real seat numbers;
* ``antes`` and ``blinds_or_straddles`` per player (PHH arrays are reversed heads-up, as
  PokerKit reads them); a dead blind is dead money, so it is written as that player's
  ante, and ``_forced_bets`` lists every forced bet PHH has no word for;
* actions: ``d dh pN CARDS`` (``????`` undisclosed), ``d db CARDS``, ``pN f``, ``pN cc``,
  ``pN cbr X`` (X the player's total on the street), ``pN sm CARDS`` / ``pN sm``; burns
  are not written (PHH has none);
* amounts in major units of ``currency`` (chips: ``phh_money.CHIP_MINOR_UNITS`` minor units),
  exact decimals; ``finishing_stacks`` what each player holds after the hand: the
  recorded stack the pot left him plus what the house paid him outside the pot (a
  cash-out, ``_cashouts``) less what he paid it (a cash-out's fee, the pot a cashed-out
  player won, an insurance premium: ``_fees`` with a player); so a PHH reader replaying
  the actions gets the pot's stacks, and those plus ``_cashouts`` less the players'
  ``_fees`` are ``finishing_stacks``; a room's tournament hand (currency
  ``CHIPS``, whole chips) in chips without a ``currency``, its header's level as PHH's
  ``level`` (an integer: ``III`` is 3) and its tournament as ``_tournament``;
* fixed-limit hold'em (``FT``) with PHH's ``small_bet`` and ``big_bet`` (the stored
  ``min_bet`` is the small bet, the big bet twice it) instead of ``min_bet``;
* the time as standard ``year``/``month``/``day``/``time``/``time_zone`` (UTC) when known.

Our ``_``-prefixed fields (README, "PHH import") for what PHH lacks: ``_hand_id``,
``_table``, ``_tournament``, ``_rulebook``, ``_smallest_chip``, ``_rake``, ``_fees`` (kind,
amount, seat per fee), ``_runs`` (the board cards of runs 2.. when run twice, one string per run),
``_cashouts`` (``pN AMOUNT``), ``_forced_bets`` (``pN KIND AMOUNT``), ``_voided``,
``_house_money`` (promotion and amount of the money the house put into the pot, e.g.
GGPoker's Cash Drop: PHH has no word for it, so a PHH reader sees a pot short by it, and
PokerKit cannot replay such a hand: a pot-limit raise sized by the house's money is over
its pot, and the winner's finishing stack holds money no player put in).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from audit.grouping.tournament_hands import level_number, level_of, tournament_of
from audit.ingest.notation.amounts import Money, money_of
from audit.notation.money import CHIPS, TOURNAMENT_CHIPS

Event = Mapping[str, Any]
_DEAD = ("dead_small_blind", "dead_big_blind")
_UNUSUAL = ("missed_big_blind", "bring_in", *_DEAD)


def _toml(value: Any) -> str:
    """A TOML value: strings JSON-escaped (a subset of TOML basic strings), lists inline."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, _Number | int):
        return str(value)
    if isinstance(value, dt.time):
        return value.isoformat()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {_toml(item)}" for key, item in value.items()) + "}"
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007F")


@dataclass(frozen=True)
class _Number:
    """An amount already written as a TOML number (``10112.5``, ``0.05``)."""

    text: str

    def __str__(self) -> str:
        return self.text


class _Hand:
    """One hand's events, the player order and the money, for writing its PHH."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.events = sorted(events, key=lambda e: e["sequence"])
        self.start = self.events[0]
        currency = self.start["currency"]
        self.money: Money = (
            Money(TOURNAMENT_CHIPS, 1)
            if currency == TOURNAMENT_CHIPS
            else money_of(None if currency == CHIPS else currency)
        )
        seats = sorted(s["seat"] for s in self.start["seats"])
        button = self.start.get("button")
        if button is not None:
            seats = [s for s in seats if s > button] + [s for s in seats if s <= button]
        self.order = seats
        self.player = {seat: f"p{index + 1}" for index, seat in enumerate(seats)}
        self.count = len(seats)

    def amount(self, minor: int) -> _Number:
        return _Number(self.money.major(minor))

    def per_player(self, values: Mapping[int, int]) -> list[_Number]:
        """A per-player array in PHH order (reversed heads-up, as PokerKit reads it)."""
        row = [self.amount(values.get(seat, 0)) for seat in self.order]
        return row[::-1] if self.count == 2 else row


def hand_phh(events: Sequence[Event]) -> str:
    """The PHH text of one hand (see the module docstring)."""
    hand = _Hand(events)
    start = hand.start
    written = _Written(hand, {"variant": start["variant"]}, dict.fromkeys(hand.order, 0))
    for event in hand.events[1:]:
        writer = WRITERS.get(event["type"])
        if writer is not None and not isinstance(writer, NotWritten):
            writer(written, event)
    fields = written.fields
    stacks = {s["seat"]: s["stack"] for s in start["seats"]}
    fields["antes"] = hand.per_player(written.antes)
    fields["blinds_or_straddles"] = hand.per_player(written.blinds)
    if start["variant"] == "FT":  # the small bet; the big bet is twice it
        fields["small_bet"] = hand.amount(start["min_bet"])
        fields["big_bet"] = hand.amount(2 * start["min_bet"])
    else:
        fields["min_bet"] = hand.amount(start["min_bet"])
    fields["starting_stacks"] = [hand.amount(stacks[s]) for s in hand.order]
    fields["actions"] = written.actions
    fields["players"] = [
        next(p["player_id"] for p in start["seats"] if p["seat"] == s) for s in hand.order
    ]
    fields["seats"] = list(hand.order)
    if written.finishing:
        held = {s: written.finishing[s] + written.outside.get(s, 0) for s in hand.order}
        fields["finishing_stacks"] = [hand.amount(held[s]) for s in hand.order]
    if start["currency"] not in (CHIPS, TOURNAMENT_CHIPS):
        fields["currency"] = start["currency"]
    level = level_of(str(start.get("source") or ""))
    if level is not None:
        fields["level"] = level_number(level)
    fields |= _time(start)
    fields |= _ours(hand, written.rake, written.forced, written.extra)
    return "".join(f"{key} = {_toml(value)}\n" for key, value in fields.items())


@dataclass
class _Written:
    """What a hand's events, read in order, have put into its PHH so far."""

    hand: _Hand
    fields: dict[str, Any]
    street: dict[int, int]
    """Seat -> chips put in on the current street (a ``cbr`` amount is the street's total)."""
    antes: dict[int, int] = field(default_factory=dict)
    blinds: dict[int, int] = field(default_factory=dict)
    forced: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    extra: dict[str, list[Any]] = field(
        default_factory=lambda: {"_fees": [], "_runs": [], "_cashouts": [], "_house_money": []}
    )
    run: int = 0
    rake: int = 0
    finishing: dict[int, int] = field(default_factory=dict)
    """Seat -> its recorded finishing stack (the chips the pot left it)."""
    outside: dict[int, int] = field(default_factory=dict)
    """Seat -> chips settled with the house outside the pot: cash-outs paid to it, less
    the fees it paid (a cash-out's fee, the pot a cashed-out player won passed to the
    house, an insurance premium)."""


def _blind_posted(written: _Written, event: Event) -> None:
    """A live blind or straddle, or dead money written as an ante; unusual ones listed."""
    seat, hand = event["seat"], written.hand
    live = event["kind"] not in ("ante", *_DEAD)
    target = written.blinds if live else written.antes
    target[seat] = target.get(seat, 0) + event["amount"]
    written.street[seat] += event["amount"] if live else 0
    if event["kind"] in _UNUSUAL:
        written.forced.append(f"{hand.player[seat]} {event['kind']} {hand.amount(event['amount'])}")


def _cards_dealt(written: _Written, event: Event) -> None:
    """Hole and board cards; a board of run 2.. goes to ``_runs``; burns are not written."""
    if event["target"] == "hole":
        written.actions.append(
            f"d dh {written.hand.player[event['seat']]} {''.join(event['cards'])}"
        )
    elif event["target"] == "board":
        written.street = dict.fromkeys(written.street, 0)
        if written.run > 1:
            written.extra["_runs"][-1] += "".join(event["cards"])
        else:
            written.actions.append(f"d db {''.join(event['cards'])}")


def _board_run(written: _Written, event: Event) -> None:
    if event["run"] > written.run and event["run"] > 1:
        written.extra["_runs"].append("")
    written.run = max(written.run, event["run"])


def _action_taken(written: _Written, event: Event) -> None:
    written.actions.append(_action(written.hand, event, written.street))


def _cards_shown(written: _Written, event: Event) -> None:
    shown = "".join(event["cards"]) if not event["mucked"] else ""
    written.actions.append(f"{written.hand.player[event['seat']]} sm {shown}".rstrip())


def _rake_taken(written: _Written, event: Event) -> None:
    written.rake += event["amount"]


def _fee_taken(written: _Written, event: Event) -> None:
    hand = written.hand
    payer = None if event.get("seat") is None else hand.player[event["seat"]]
    if event.get("seat") is not None:
        written.outside[event["seat"]] = written.outside.get(event["seat"], 0) - event["amount"]
    fee = {"kind": event["kind"], "amount": hand.amount(event["amount"])}
    written.extra["_fees"].append(fee | ({"player": payer} if payer else {}))


def _cashout_paid(written: _Written, event: Event) -> None:
    hand = written.hand
    written.outside[event["seat"]] = written.outside.get(event["seat"], 0) + event["amount"]
    written.extra["_cashouts"].append(
        f"{hand.player[event['seat']]} {hand.amount(event['amount'])}"
    )


def _house_money_added(written: _Written, event: Event) -> None:
    added = {"promotion": event["promotion"], "amount": written.hand.amount(event["amount"])}
    written.extra["_house_money"].append(added)


def _hand_ended(written: _Written, event: Event) -> None:
    """The finishing stacks, when recorded, in player order (recorded in
    ``HandStarted.seats`` order: ``schemas/poker_hand.avsc``)."""
    if not event.get("finishing_stacks"):
        return
    seats = (s["seat"] for s in written.hand.start["seats"])
    written.finishing = dict(zip(seats, event["finishing_stacks"], strict=False))


def _hand_void(written: _Written, event: Event) -> None:
    """HandVoided or HandReverted: ``_voided``, the type and the reason."""
    written.fields["_voided"] = f"{event['type']}: {event.get('reason', '')}"


@dataclass(frozen=True)
class NotWritten:
    """A record type whose events add nothing to the PHH, and why."""

    why: str


Writer = Callable[[_Written, Event], None]

WRITERS: dict[str, Writer | NotWritten] = {
    "HandStarted": NotWritten(
        "the hand's first event is the PHH header (variant, stacks, blinds, time); "
        "the replay judges a second one"
    ),
    "BlindPosted": _blind_posted,
    "CardsDealt": _cards_dealt,
    "ActionTaken": _action_taken,
    "CardsShown": _cards_shown,
    "PotAwarded": NotWritten(
        "PHH has no payouts: a reader derives them from the actions and the cards shown"
    ),
    "RakeTaken": _rake_taken,
    "HandEnded": _hand_ended,
    "HandVoided": _hand_void,
    "HandReverted": _hand_void,
    "DeckRevealed": NotWritten("PHH has no deck order"),
    "FeeTaken": _fee_taken,
    "BoardRun": _board_run,
    "CashoutPaid": _cashout_paid,
    "HouseMoneyAdded": _house_money_added,
}
"""Record type -> what its events write into the PHH (every type of the poker schema)."""


def _action(hand: _Hand, event: Event, street: dict[int, int]) -> str:
    seat, action, chips = event["seat"], event["action"], event["amount"]
    player = hand.player[seat]
    street[seat] += chips
    if action == "fold":
        return f"{player} f"
    if action in ("check", "call"):
        return f"{player} cc"
    return f"{player} cbr {hand.amount(street[seat])}"


def _time(start: Event) -> dict[str, Any]:
    if not start.get("start_time_known", True):
        return {}
    at: dt.datetime = start["occurred_at"].astimezone(dt.UTC)
    return {
        "year": at.year,
        "month": at.month,
        "day": at.day,
        "time": at.time().replace(tzinfo=None),
        "time_zone": "UTC",
    }


def _ours(hand: _Hand, rake: int, forced: list[str], extra: dict[str, list[Any]]) -> dict[str, Any]:
    start = hand.start
    fields: dict[str, Any] = {"_hand_id": start["hand_id"], "_table": start["table_id"]}
    if tournament := tournament_of(start):
        fields["_tournament"] = tournament
    if start.get("rulebook"):
        fields["_rulebook"] = start["rulebook"]
    default_chip = (
        hand.money.minor_per_major if start["currency"] in (CHIPS, TOURNAMENT_CHIPS) else 1
    )
    if start["smallest_chip"] != default_chip:
        fields["_smallest_chip"] = hand.amount(start["smallest_chip"])
    if rake:
        fields["_rake"] = hand.amount(rake)
    if forced:
        fields["_forced_bets"] = forced
    return fields | {key: value for key, value in extra.items() if value}


@dataclass
class ExportSummary:
    """What an export wrote."""

    hands: int = 0
    path: Path | None = None


def in_period(events: Sequence[Event], since: dt.date | None, until: dt.date | None) -> bool:
    """Whether the hand started on a day in ``since..until`` (inclusive, UTC)."""
    if since is None and until is None:
        return True
    start = min(events, key=lambda e: e["sequence"])
    if not start.get("start_time_known", True):
        return False
    day = start["occurred_at"].astimezone(dt.UTC).date()
    return (since is None or day >= since) and (until is None or day <= until)


def write_phh(hands: Iterable[Sequence[Event]], out: Path) -> ExportSummary:
    """Write hands to ``out``: one hand to a ``.phh``, else ``[N]`` sections of a ``.phhs``."""
    summary = ExportSummary(path=out)
    with out.open("w", encoding="utf-8") as stream:
        for events in hands:
            summary.hands += 1
            text = hand_phh(events)
            if out.suffix == ".phh":
                stream.write(text)
            else:
                stream.write(f"[{summary.hands}]\n{text}\n")
    return summary
