"""Faults planted in simulated tournaments, each with the finding kinds the replayer must
raise for it (``TOURNAMENT_FAULTS``): places swapped in a same-hand elimination, a wrong
cash prize, a bounty not split or paid to each, a satellite's extra seat not converted or
converted with its fee. A planter returns the faulty events and the fault's detail, or
None when the tournament offers no place for that fault.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from simulate.manifest import PlantedFault

FlatEvent = dict[str, Any]
Planted = tuple[list[FlatEvent], dict[str, Any]]
Planter = Callable[[list[FlatEvent], random.Random], Planted | None]

SAME_HAND_PLACES_SWAPPED = "same_hand_places_swapped"
BOUNTY_NOT_SPLIT = "bounty_not_split"
BOUNTY_PAID_TO_EACH = "bounty_paid_to_each"
EXTRA_SEAT_NOT_CONVERTED = "extra_seat_not_converted"
EXTRA_SEAT_FEE_INCLUDED = "extra_seat_fee_included"
WRONG_CASH_PRIZE = "wrong_cash_prize"
#: Fault kind -> the finding kinds the replayer always raises for it (a planter may add
#: more: ``ALSO``).
TOURNAMENT_FAULTS: dict[str, tuple[str, ...]] = {
    SAME_HAND_PLACES_SWAPPED: ("wrong_place",),
    WRONG_CASH_PRIZE: ("mispaid_prize",),
    BOUNTY_NOT_SPLIT: ("mispaid_bounty",),
    BOUNTY_PAID_TO_EACH: ("mispaid_bounty",),
    EXTRA_SEAT_NOT_CONVERTED: ("mispaid_prize",),
    EXTRA_SEAT_FEE_INCLUDED: ("mispaid_prize",),
}
#: Format -> the faults its tournaments can offer a place for.
OFFERED: dict[str, tuple[str, ...]] = {
    "freezeout": (SAME_HAND_PLACES_SWAPPED, WRONG_CASH_PRIZE),
    "bounty": (SAME_HAND_PLACES_SWAPPED, BOUNTY_NOT_SPLIT, BOUNTY_PAID_TO_EACH, WRONG_CASH_PRIZE),
    "satellite": (SAME_HAND_PLACES_SWAPPED, EXTRA_SEAT_NOT_CONVERTED, EXTRA_SEAT_FEE_INCLUDED),
}


def plant_pending(
    clean: list[FlatEvent], fmt: str, pending: list[str], rng: random.Random
) -> tuple[list[FlatEvent], PlantedFault | None]:
    """The tournament with the first pending fault its format offers and it has a place
    for (removed from ``pending``), and that fault; else the clean tournament."""
    for kind in pending:
        if kind not in OFFERED[fmt]:
            continue
        result = PLANTERS[kind](clean, rng)
        if result is not None:
            pending.remove(kind)
            events, detail = result
            subject = str(clean[0]["tournament_id"])
            findings = tuple(sorted({*TOURNAMENT_FAULTS[kind], *detail.pop(ALSO, ())}))
            detail = {"format": fmt, **detail}
            return events, PlantedFault(kind, subject, findings, detail)
    return clean, None


def _changed(events: list[FlatEvent], changes: dict[int, dict[str, Any]]) -> list[FlatEvent]:
    """``events`` with the fields ``changes`` gives for a sequence number replaced."""
    return [{**e, **changes[e["sequence"]]} if e["sequence"] in changes else e for e in events]


def _of_type(events: list[FlatEvent], body_type: str) -> list[FlatEvent]:
    return [event for event in events if event["type"] == body_type]


#: A planted detail's key for finding kinds the fault raises beyond its kind's own.
ALSO = "also"


def _swap_places(events: list[FlatEvent], rng: random.Random) -> Planted | None:
    """The best and worst placed of one same-hand elimination swap places; the prizes
    follow the recorded places, so when the two places pay differently (announced
    ``payouts``, not a satellite) each is also a mispaid prize (PT-217/2007 II n.º 115)."""
    by_hand: dict[str, list[FlatEvent]] = {}
    for event in _of_type(events, "PlayerEliminated"):
        by_hand.setdefault(str(event["hand_id"]), []).append(event)
    hands = [busted for busted in by_hand.values() if len(busted) > 1]
    if not hands:
        return None
    busted = rng.choice(hands)
    best, worst = busted[0], busted[-1]
    other = {best["player_id"]: worst["player_id"], worst["player_id"]: best["player_id"]}
    changes = {
        best["sequence"]: {"place": worst["place"]},
        worst["sequence"]: {"place": best["place"]},
    }
    for prize in _of_type(events, "PrizePaid"):
        if prize["place"] in (best["place"], worst["place"]):
            changes[prize["sequence"]] = {"player_id": other[prize["player_id"]]}
    detail: dict[str, Any] = {
        "hand_id": best["hand_id"],
        "players": [best["player_id"], worst["player_id"]],
        "places": [best["place"], worst["place"]],
    }
    payouts = [] if events[0].get("satellite_for") else list(events[0]["payouts"])
    prizes = [payouts[p - 1] if p <= len(payouts) else 0 for p in detail["places"]]
    if prizes[0] != prizes[1]:
        detail[ALSO] = ["mispaid_prize"]
    return _changed(events, changes), detail


def _wrong_cash_prize(events: list[FlatEvent], rng: random.Random) -> Planted | None:
    """One place's cash prize paid short by a few dollars (PT-217/2007 II n.º 115)."""
    cash = [p for p in _of_type(events, "PrizePaid") if p["kind"] == "cash"]
    if not cash:
        return None
    prize = rng.choice(cash)
    short = min(int(prize["amount"]), 100 * rng.randint(1, 5))
    detail = {"player_id": prize["player_id"], "place": prize["place"], "short": short}
    return _changed(events, {prize["sequence"]: {"amount": prize["amount"] - short}}), detail


def _split_bounty(paid: Callable[[int, int], int]) -> Planter:
    """A planter paying the ``n``-th winner of a split bounty ``paid(bounty, n)``."""

    def planter(events: list[FlatEvent], rng: random.Random) -> Planted | None:
        awards: dict[str, list[FlatEvent]] = {}
        for event in _of_type(events, "BountyAwarded"):
            awards.setdefault(str(event["eliminated_player_id"]), []).append(event)
        splits = [split for split in awards.values() if len(split) > 1]
        if not splits:
            return None
        split = rng.choice(splits)
        bounty = int(events[0]["bounty"])
        changes = {a["sequence"]: {"amount": paid(bounty, n)} for n, a in enumerate(split)}
        detail = {
            "eliminated_player_id": split[0]["eliminated_player_id"],
            "winners": [a["player_id"] for a in split],
            "paid": [paid(bounty, n) for n in range(len(split))],
        }
        return _changed(events, changes), detail

    return planter


def _extra_seat(kind: str) -> Planter:
    """A planter paying one extra seat (due: T$ of the target's entry minus its fee) as a
    ``kind`` prize of the target's full entry, fee included."""

    def planter(events: list[FlatEvent], rng: random.Random) -> Planted | None:
        extra = [p for p in _of_type(events, "PrizePaid") if p["kind"] == "tournament_money"]
        if not extra:
            return None
        prize = rng.choice(extra)
        entry = int(events[0]["payouts"][0])  # a satellite pays a seat's price per seat
        detail = {"player_id": prize["player_id"], "due": prize["amount"], "paid": entry}
        return _changed(events, {prize["sequence"]: {"kind": kind, "amount": entry}}), detail

    return planter


#: Fault kind -> planter(clean events, rng) -> (faulty events, detail), or None when the
#: tournament offers no place for it.
PLANTERS: dict[str, Planter] = {
    SAME_HAND_PLACES_SWAPPED: _swap_places,
    WRONG_CASH_PRIZE: _wrong_cash_prize,
    BOUNTY_NOT_SPLIT: _split_bounty(lambda bounty, n: 0 if n else bounty),
    BOUNTY_PAID_TO_EACH: _split_bounty(lambda bounty, n: bounty),
    EXTRA_SEAT_NOT_CONVERTED: _extra_seat("satellite_seat"),
    EXTRA_SEAT_FEE_INCLUDED: _extra_seat("tournament_money"),
}
