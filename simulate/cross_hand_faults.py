"""Faults planted across a simulated tournament's hands (issue 38 item 2), each with the
finding kinds the replayer must raise for it (``CROSS_HAND_FAULTS``):

* ``chips_left_tournament``: a whole chip count (every player still in) inserted between
  two busting hands, a few thousand chips short of what the entries brought (MO-97/2010
  art.4(2)): ``tournament_chips_unbalanced``;
* ``counted_after_elimination``: a later hand's count naming a player already eliminated,
  with chips: ``elimination_contradicts_chips``;
* ``entry_played_by_another``: a later hand's count naming, beside a player still in,
  one who never entered (PT-217/2007 n.º 117: the entry is personal):
  ``entry_not_personal``;
* ``deal_shares_more``: the last few players end a freezeout or bounty tournament by a
  deal (schema v2 ``DealAgreed``) sharing more than the prizes left, and are paid what
  it says (PT-217/2007 n.º 119): ``deal_outside_rules``;
* ``disqualified_paid``: a player in the money disqualified (``PlayerSanctioned``) just
  before his elimination, and paid his place's prize all the same (n.º 122):
  ``mispaid_prize``;
* ``stakes_kept``: a new player sells 30% and 20% of his entry, withdraws it before the
  start (schema v2 ``PlayerUnregistered``) and is refunded the whole price himself, the
  backers nothing (GG-2022 Política de apostas em torneios): ``refund_mismatch``;
* ``late_entry_after_itm``: a new player's entry after the last elimination, when no more
  players are in than places paid (GG-2022 Política de torneios): ``late_entry_after_itm``
  (his never being eliminated also makes the completed tournament's winner unknown, a
  ``data_quality`` finding, scored apart).

The planted event goes in at the moment of the event it follows; the events are then
numbered again (``envelope.renumbered``). ``plant_cross_hand`` plants the kinds in
turn, each once before any twice (``CROSS_HAND_KINDS``), from a stream of its own, so the
tournaments' other faults and their draws are unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from simulate.envelope import renumbered
from simulate.manifest import PlantedFault

FlatEvent = dict[str, Any]
Planted = tuple[list[FlatEvent], dict[str, Any]]

CHIPS_LEFT = "chips_left_tournament"
COUNTED_AFTER_ELIMINATION = "counted_after_elimination"
LATE_ENTRY = "late_entry_after_itm"
ANOTHER_PLAYS = "entry_played_by_another"
DEAL_SHARES_MORE = "deal_shares_more"
DISQUALIFIED_PAID = "disqualified_paid"
STAKES_KEPT = "stakes_kept"
CROSS_HAND_FAULTS: dict[str, tuple[str, ...]] = {
    CHIPS_LEFT: ("tournament_chips_unbalanced",),
    COUNTED_AFTER_ELIMINATION: ("elimination_contradicts_chips",),
    LATE_ENTRY: ("late_entry_after_itm",),
    ANOTHER_PLAYS: ("entry_not_personal",),
    DEAL_SHARES_MORE: ("deal_outside_rules",),
    DISQUALIFIED_PAID: ("mispaid_prize",),
    STAKES_KEPT: ("refund_mismatch",),
}
CROSS_HAND_KINDS = tuple(CROSS_HAND_FAULTS)


def _in_after(events: list[FlatEvent]) -> list[tuple[int, list[str]]]:
    """(index, the players in just after it) for the last elimination of each busting
    hand, in order."""
    playing: list[str] = []
    after = []
    for index, event in enumerate(events):
        if event["type"] == "PlayerRegistered":
            playing.append(str(event["player_id"]))
        elif event["type"] == "PlayerEliminated":
            playing.remove(str(event["player_id"]))
            following = events[index + 1] if index + 1 < len(events) else {}
            same_hand = following.get("hand_id") == event["hand_id"]
            if not (following.get("type") == "PlayerEliminated" and same_hand):
                after.append((index, list(playing)))
    return after


def _insert(events: list[FlatEvent], index: int, body_type: str, **body: Any) -> list[FlatEvent]:
    """``events`` with one more after ``events[index]``, at its time, numbered again."""
    before = events[index]
    field = "tournament_id"
    event = {
        "event_id": "",
        field: before[field],
        "sequence": 0,
        "occurred_at": before["occurred_at"],
        "type": body_type,
        **body,
    }
    return renumbered(field, [*events[: index + 1], event, *events[index + 1 :]])


def _counts(chips: dict[str, int]) -> list[dict[str, Any]]:
    return [{"player_id": p, "chips": c, "seat_from_button": None} for p, c in chips.items()]


def chips_left(events: list[FlatEvent], rng: random.Random) -> Planted | None:
    """A whole count between two busting hands, ``short`` chips under the entries'."""
    announced = events[0]
    entries = sum(e["type"] == "PlayerRegistered" for e in events)
    total = entries * int(announced["starting_chips"])
    moments = [(i, p) for i, p in _in_after(events) if len(p) >= 2]
    if not moments:
        return None
    index, playing = rng.choice(moments[:-1] or moments)
    cuts = sorted(rng.sample(range(1, total // 25), len(playing) - 1))
    stacks = [25 * (b - a) for a, b in zip([0, *cuts], [*cuts, total // 25], strict=True)]
    short = min(stacks[0] - 25, 25 * rng.randint(20, 200))
    if short <= 0:
        return None
    chips = dict(zip(playing, stacks, strict=True))
    chips[playing[0]] -= short
    hand = f"{events[index]['hand_id']}+1"
    planted = _insert(events, index, "ChipCountRecorded", counts=_counts(chips), hand_id=hand)
    return planted, {"hand_id": hand, "player_id": playing[0], "short": short}


def counted_after_elimination(events: list[FlatEvent], rng: random.Random) -> Planted | None:
    """A later hand's count naming an eliminated player with chips, beside one still in."""
    moments = [(i, p) for i, p in _in_after(events) if p]
    if len(moments) < 2:
        return None
    index, playing = rng.choice(moments[1:])
    out = str(events[moments[0][0]]["player_id"])
    chips = {out: 25 * rng.randint(40, 400), playing[0]: 25 * rng.randint(40, 400)}
    hand = f"{events[index]['hand_id']}+1"
    planted = _insert(events, index, "ChipCountRecorded", counts=_counts(chips), hand_id=hand)
    return planted, {"hand_id": hand, "player_id": out}


def another_plays(events: list[FlatEvent], rng: random.Random) -> Planted | None:
    """A later hand's count naming a stranger in the seat of a player still in."""
    moments = [(i, p) for i, p in _in_after(events) if len(p) >= 2]
    if not moments:
        return None
    index, playing = rng.choice(moments)
    seat_of, other = playing[0], playing[1]
    stranger = f"{seat_of}-substitute"
    chips = {stranger: 25 * rng.randint(40, 400), other: 25 * rng.randint(40, 400)}
    hand = f"{events[index]['hand_id']}+1"
    planted = _insert(events, index, "ChipCountRecorded", counts=_counts(chips), hand_id=hand)
    return planted, {"hand_id": hand, "player_id": stranger, "entry_of": seat_of}


def late_entry(events: list[FlatEvent], rng: random.Random) -> Planted | None:
    """A new player's entry right after the last elimination, in the money."""
    paid = len(events[0]["payouts"])
    moments = _in_after(events)
    if not moments or not 0 < len(moments[-1][1]) <= paid:
        return None
    registered = [e for e in events if e["type"] == "PlayerRegistered"]
    model = rng.choice(registered)
    player = f"{model['player_id']}-late"
    body = {k: model[k] for k in ("buy_in", "fee", "bounty", "paid_with", "stakes")}
    entry = f"{model['entry_id']}-late"
    planted = _insert(
        events, moments[-1][0], "PlayerRegistered", player_id=player, entry_id=entry, **body
    )
    return planted, {"player_id": player, "entry_id": entry}


def deal_shares_more(events: list[FlatEvent], rng: random.Random) -> Planted | None:
    """After a busting hand leaving 2-4 players, a deal ends the tournament: each is paid
    an equal share of the prizes left plus ``over`` to the first."""
    payouts = [int(p) for p in events[0]["payouts"]]
    moments = [(i, p) for i, p in _in_after(events) if 2 <= len(p) <= min(4, len(payouts))]
    if events[0].get("satellite_for") or not moments:
        return None
    index, playing = rng.choice(moments)
    at = events[index]["occurred_at"]
    kept = [e for e in events if e["occurred_at"] <= at]
    left = sum(payouts[: len(playing)])
    amounts = [left // len(playing)] * len(playing)
    amounts[0] += left - sum(amounts)
    over = 100 * rng.randint(1, 20)
    amounts[0] += over
    field, later = "tournament_id", at + (events[index + 1]["occurred_at"] - at) / 2
    tail: list[FlatEvent] = [
        {
            "type": "DealAgreed",
            "shares": [
                {"player_id": p, "amount": a} for p, a in zip(playing, amounts, strict=True)
            ],
        },
        *(
            {"type": "PrizePaid", "player_id": p, "place": None, "amount": a, "kind": "cash"}
            for p, a in zip(playing, amounts, strict=True)
        ),
        {"type": "TournamentCompleted"},
    ]
    dated = [
        {"event_id": "", field: events[0][field], "sequence": 0, "occurred_at": later, **e}
        for e in tail
    ]
    return renumbered(field, [*kept, *dated]), {"players": playing, "over": over}


def disqualified_paid(events: list[FlatEvent], rng: random.Random) -> Planted | None:
    """A player eliminated in the money is disqualified just before; his prize stands."""
    paid = {str(e["player_id"]) for e in events if e["type"] == "PrizePaid" and e.get("place")}
    if events[0].get("satellite_for"):
        return None
    chosen = [
        i
        for i, e in enumerate(events)
        if e["type"] == "PlayerEliminated"
        and str(e["player_id"]) in paid
        and events[i - 1].get("hand_id") != e["hand_id"]  # first out of its hand
    ]
    if not chosen:
        return None
    index = rng.choice(chosen)
    player = str(events[index]["player_id"])
    sanction = {"player_id": player, "sanction": "disqualified", "reason": "collusion"}
    planted = _insert(events, index - 1, "PlayerSanctioned", **sanction)
    return planted, {"player_id": player}


def stakes_kept(events: list[FlatEvent], rng: random.Random) -> Planted | None:
    """A staked entry withdrawn before the start, its whole price refunded to the seller."""
    start = next(i for i, e in enumerate(events) if e["type"] == "TournamentStarted")
    model = next(e for e in events if e["type"] == "PlayerRegistered")
    seller, entry = f"{model['player_id']}-seller", f"{model['entry_id']}-staked"
    backers = [f"{seller}-backer-{n}" for n in (1, 2)]
    price = sum(int(model[k]) for k in ("buy_in", "fee", "bounty"))
    stakes = [
        {"backer_id": b, "share_bps": bps} for b, bps in zip(backers, (3_000, 2_000), strict=True)
    ]
    body = {k: model[k] for k in ("buy_in", "fee", "bounty", "paid_with")}
    planted = _insert(
        events,
        start - 1,
        "PlayerRegistered",
        player_id=seller,
        entry_id=entry,
        stakes=stakes,
        **body,
    )
    planted = _insert(planted, start, "PlayerUnregistered", player_id=seller, entry_id=entry)
    planted = _insert(
        planted, start + 1, "RefundPaid", player_id=seller, amount=price, component="other"
    )
    return planted, {"player_id": seller, "entry_id": entry, "backers": backers}


PLANTERS: dict[str, Callable[[list[FlatEvent], random.Random], Planted | None]] = {
    CHIPS_LEFT: chips_left,
    COUNTED_AFTER_ELIMINATION: counted_after_elimination,
    LATE_ENTRY: late_entry,
    ANOTHER_PLAYS: another_plays,
    DEAL_SHARES_MORE: deal_shares_more,
    DISQUALIFIED_PAID: disqualified_paid,
    STAKES_KEPT: stakes_kept,
}


def plant_cross_hand(
    events: list[FlatEvent], planted: Sequence[str], rng: random.Random
) -> tuple[list[FlatEvent], PlantedFault | None]:
    """The tournament with a kind planted: of the kinds planted least so far (``planted``,
    the day's faults' kinds: each kind once before any twice), the first in
    ``CROSS_HAND_KINDS`` order that the tournament has a place for; else untouched."""
    order = sorted(CROSS_HAND_KINDS, key=lambda k: (planted.count(k), CROSS_HAND_KINDS.index(k)))
    for kind in order:
        result = PLANTERS[kind](events, rng)
        if result is not None:
            planted_events, detail = result
            subject = str(events[0]["tournament_id"])
            return planted_events, PlantedFault(kind, subject, CROSS_HAND_FAULTS[kind], detail)
    return events, None
