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
  exact decimals; ``finishing_stacks`` as recorded; a room's tournament hand (currency
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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit.ingest.phh_money import CHIPS, TOURNAMENT_CHIPS, Money, money_of
from audit.tournament_hands import level_number, level_of, tournament_of

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
    fields: dict[str, Any] = {"variant": start["variant"]}
    antes: dict[int, int] = {}
    blinds: dict[int, int] = {}
    forced: list[str] = []
    actions: list[str] = []
    extra: dict[str, list[Any]] = {"_fees": [], "_runs": [], "_cashouts": [], "_house_money": []}
    street: dict[int, int] = dict.fromkeys(hand.order, 0)
    run = 0
    rake = 0
    for event in hand.events[1:]:
        kind, seat = event["type"], event.get("seat")
        if kind == "BlindPosted":
            poster: int = event["seat"]  # every forced bet has its seat
            live = event["kind"] not in ("ante", *_DEAD)
            target = blinds if live else antes
            target[poster] = target.get(poster, 0) + event["amount"]
            street[poster] += event["amount"] if live else 0
            if event["kind"] in _UNUSUAL:
                posted = hand.amount(event["amount"])
                forced.append(f"{hand.player[poster]} {event['kind']} {posted}")
        elif kind == "CardsDealt" and event["target"] == "hole":
            actions.append(f"d dh {hand.player[seat]} {''.join(event['cards'])}")
        elif kind == "CardsDealt" and event["target"] == "board":
            street = dict.fromkeys(street, 0)
            if run > 1:
                extra["_runs"][-1] += "".join(event["cards"])
            else:
                actions.append(f"d db {''.join(event['cards'])}")
        elif kind == "BoardRun":
            if event["run"] > run and event["run"] > 1:
                extra["_runs"].append("")
            run = max(run, event["run"])
        elif kind == "ActionTaken":
            actions.append(_action(hand, event, street))
        elif kind == "CardsShown":
            shown = "".join(event["cards"]) if not event["mucked"] else ""
            actions.append(f"{hand.player[seat]} sm {shown}".rstrip())
        elif kind == "RakeTaken":
            rake += event["amount"]
        elif kind == "FeeTaken":
            payer = None if event.get("seat") is None else hand.player[event["seat"]]
            fee = {"kind": event["kind"], "amount": hand.amount(event["amount"])}
            extra["_fees"].append(fee | ({"player": payer} if payer else {}))
        elif kind == "CashoutPaid":
            extra["_cashouts"].append(f"{hand.player[seat]} {hand.amount(event['amount'])}")
        elif kind == "HouseMoneyAdded":
            added = {"promotion": event["promotion"], "amount": hand.amount(event["amount"])}
            extra["_house_money"].append(added)
        elif kind == "HandEnded" and event.get("finishing_stacks"):
            by_seat = dict(
                zip(
                    sorted(s["seat"] for s in start["seats"]),
                    event["finishing_stacks"],
                    strict=False,
                )
            )
            fields["_finishing"] = [hand.amount(by_seat[s]) for s in hand.order]
        elif kind in ("HandVoided", "HandReverted"):
            fields["_voided"] = f"{kind}: {event.get('reason', '')}"
    stacks = {s["seat"]: s["stack"] for s in start["seats"]}
    fields["antes"] = hand.per_player(antes)
    fields["blinds_or_straddles"] = hand.per_player(blinds)
    if start["variant"] == "FT":  # the small bet; the big bet is twice it
        fields["small_bet"] = hand.amount(start["min_bet"])
        fields["big_bet"] = hand.amount(2 * start["min_bet"])
    else:
        fields["min_bet"] = hand.amount(start["min_bet"])
    fields["starting_stacks"] = [hand.amount(stacks[s]) for s in hand.order]
    fields["actions"] = actions
    fields["players"] = [
        next(p["player_id"] for p in start["seats"] if p["seat"] == s) for s in hand.order
    ]
    fields["seats"] = list(hand.order)
    if "_finishing" in fields:
        fields["finishing_stacks"] = fields.pop("_finishing")
    if start["currency"] not in (CHIPS, TOURNAMENT_CHIPS):
        fields["currency"] = start["currency"]
    level = level_of(str(start.get("source") or ""))
    if level is not None:
        fields["level"] = level_number(level)
    fields |= _time(start)
    fields |= _ours(hand, rake, forced, extra)
    return "".join(f"{key} = {_toml(value)}\n" for key, value in fields.items())


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
