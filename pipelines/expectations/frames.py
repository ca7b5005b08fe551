"""Pandas frames built from flat events (stored events of a part of the night), shaped
for the expectation suites.

Each frame has one row per thing an expectation judges (an event, a hand, a card) and a
``subject`` column naming the hand, round or machine, so a failed row becomes a finding
about that subject. Derived columns (``start_known``, ``unaccounted`` ...) hold the facts
the suites check; they are computed here, in plain Python, so the suites stay
declarative.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

Frames = dict[str, pd.DataFrame]
END_TYPES = ("HandEnded", "HandVoided", "HandReverted")
#: A hand voided or reverted returns every chip put in: whether it did is the replayer's
#: ``void_hand_not_refunded`` (MO art.9(2), PT n.º 69), so it is not also counted here as
#: chips gone missing (one fault, one finding), even when a ``HandEnded`` closes it.
_UNDONE = ("HandVoided", "HandReverted")
ROUND_OUTCOMES = ("CardDealt", "SpinResult", "RoundVoided", "RoundMalfunction", "PayoutMade")
EVENT_COLUMNS = ("subject", "event_id", "sequence", "type", "amount")
_POKER_EVENT_COLUMNS = ("seat", "start_known", "seat_known")


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _frame(columns: dict[str, list[Any]], names: Sequence[str]) -> pd.DataFrame:
    """A frame from its columns (about twice as fast as from one dict per row, with the
    same dtypes); with no rows, its columns are of object dtype as a frame of no rows'."""
    return pd.DataFrame(columns if columns["subject"] else None, columns=list(names))


def _event_columns(events: Sequence[dict[str, Any]], subject_key: str) -> dict[str, list[Any]]:
    """The ``EVENT_COLUMNS`` of ``events``, column by column (``_frame``)."""
    return {
        "subject": [str(e.get(subject_key, "")) for e in events],
        "event_id": [str(e.get("event_id", "")) for e in events],
        "sequence": [e.get("sequence") for e in events],
        "type": [str(e.get("type", "")) for e in events],
        "amount": [_int_or_none(e.get("amount")) for e in events],
    }


def poker_frames(events: Sequence[dict[str, Any]]) -> Frames:
    """``events``, ``hands``, ``cards`` and ``known_cards`` (not '??') of poker events."""
    starts = {e["hand_id"]: e for e in events if e.get("type") == "HandStarted"}
    columns = _event_columns(events, "hand_id")
    seats: list[int | None] = []
    start_known: list[bool] = []
    seat_known: list[bool] = []
    hands: dict[str, dict[str, Any]] = {}
    dealt_in = {hand: [s["seat"] for s in start["seats"]] for hand, start in starts.items()}
    cards: list[dict[str, str]] = []
    for subject, event in zip(columns["subject"], events, strict=True):
        start = starts.get(subject)
        seat = _int_or_none(event.get("seat"))
        seats.append(seat)
        start_known.append(start is not None)
        seat_known.append(seat is None or seat in dealt_in.get(subject, ()))
        if event.get("type") == "CardsDealt":
            cards.extend({"subject": subject, "card": str(c)} for c in event["cards"])
        if start is not None:
            hand = hands.get(subject)
            if hand is None:  # a hand's totals start at its first event
                hand = hands[subject] = _new_hand(start)
            _tally(hand, event)
    columns |= {"seat": seats, "start_known": start_known, "seat_known": seat_known}
    return {
        "events": _frame(columns, [*EVENT_COLUMNS, *_POKER_EVENT_COLUMNS]),
        "hands": pd.DataFrame(
            [{"subject": h, **_settle(v)} for h, v in hands.items()], columns=_HAND_COLUMNS
        ),
        "cards": pd.DataFrame(cards, columns=["subject", "card"]),
        "known_cards": pd.DataFrame(
            [c for c in cards if c["card"] != "??"], columns=["subject", "card"]
        ),
    }


_HAND_COLUMNS = [
    "subject",
    "table_id",
    "end_type",
    "unaccounted",
    "odd_chips_allowed",
    "rake",
    "big_blind",
    "min_stack",
]


def _new_hand(start: dict[str, Any]) -> dict[str, Any]:
    stacks = [int(s["stack"]) for s in start["seats"]]
    return {
        "table_id": str(start.get("table_id", "")),
        "big_blind": int(start.get("big_blind") or 0),
        "players": len(stacks),
        "smallest_chip": int(start.get("smallest_chip") or 1),
        "start_total": sum(stacks),
        "min_stack": min(stacks, default=0),
        "put_in": 0,
        "awarded": 0,
        "rake": 0,
        "end_type": "",
        "finishing": None,
    }


def _tally(hand: dict[str, Any], event: dict[str, Any]) -> None:
    kind = event.get("type")
    amount = _int_or_none(event.get("amount")) or 0
    if kind in ("BlindPosted", "ActionTaken"):
        hand["put_in"] += amount
    elif kind == "PotAwarded":
        hand["awarded"] += amount
    elif kind == "RakeTaken":
        hand["rake"] += amount
    elif kind in END_TYPES:
        if hand["end_type"] not in _UNDONE:  # a void hand's closing HandEnded keeps it void
            hand["end_type"] = kind
        if kind == "HandEnded" and event.get("finishing_stacks"):
            hand["finishing"] = sum(int(s) for s in event["finishing_stacks"])


def _settle(hand: dict[str, Any]) -> dict[str, Any]:
    """Chips of one ended hand not accounted for; missing when the hand was not settled.

    With recorded closing stacks the table's chips must equal the opening ones less the
    rake; without them, what was put in must equal what was awarded plus the rake. Some
    rulebooks let the house keep the odd chips of a split pot (GG-2022): fewer than one
    smallest chip per player dealt in (``odd_chips_allowed``).
    """
    unaccounted: int | None = None
    if hand["end_type"] == "HandEnded":
        if hand["finishing"] is not None:
            unaccounted = hand["start_total"] - hand["finishing"] - hand["rake"]
        elif hand["awarded"]:
            unaccounted = hand["put_in"] - hand["awarded"] - hand["rake"]
    return {
        "table_id": hand["table_id"],
        "end_type": hand["end_type"],
        "unaccounted": unaccounted,
        "odd_chips_allowed": hand["players"] * hand["smallest_chip"] - 1,
        "rake": hand["rake"],
        "big_blind": hand["big_blind"],
        "min_stack": hand["min_stack"],
    }


def banked_frames(events: Sequence[dict[str, Any]]) -> Frames:
    """``events``, ``rounds`` and ``cards`` frames of banked-game events."""
    opened = {e["round_id"] for e in events if e.get("type") == "RoundOpened"}
    bets = {
        (e["round_id"], e["bet_id"]): e["player_id"] for e in events if e.get("type") == "BetPlaced"
    }
    columns = _event_columns(events, "round_id")
    start_known: list[bool] = []
    bet_known: list[bool] = []
    player_matches: list[bool] = []
    outcomes: dict[str, str] = {}
    cards: list[dict[str, str]] = []
    for subject, event in zip(columns["subject"], events, strict=True):
        start_known.append(subject in opened)
        bet_id = event.get("bet_id")
        kind = event.get("type")
        bet_known.append(kind == "BetPlaced" or bet_id is None or (subject, bet_id) in bets)
        player = event.get("player_id")
        player_matches.append(
            kind == "BetPlaced" or player is None or bets.get((subject, bet_id), player) == player
        )
        if kind == "CardDealt":
            cards.append({"subject": subject, "card": str(event["card"])})
        if subject in opened:
            outcomes.setdefault(subject, "")
            if kind in ROUND_OUTCOMES:
                outcomes[subject] = outcomes[subject] or str(kind)
    columns |= {
        "start_known": start_known,
        "bet_known": bet_known,
        "player_matches": player_matches,
    }
    return {
        "events": _frame(columns, [*EVENT_COLUMNS, "start_known", "bet_known", "player_matches"]),
        "rounds": pd.DataFrame(
            [{"subject": s, "outcome": o} for s, o in outcomes.items()],
            columns=["subject", "outcome"],
        ),
        "cards": pd.DataFrame(cards, columns=["subject", "card"]),
    }


def slots_frames(events: Sequence[dict[str, Any]]) -> Frames:
    """``events`` and ``meters`` frames of slot-machine events."""
    configured: set[str] = set()
    columns = _event_columns(events, "machine_id")
    start_known: list[bool] = []
    meters: list[dict[str, Any]] = []
    for subject, event in zip(columns["subject"], events, strict=True):
        if event.get("type") == "MachineConfigured":
            configured.add(subject)
        start_known.append(subject in configured)
        for name, value in (event.get("meters") or {}).items():
            meters.append({"subject": subject, "meter": name, "value": value})
    columns |= {
        "start_known": start_known,
        "wager": [_int_or_none(e.get("wager")) for e in events],
        "win": [_int_or_none(e.get("win")) for e in events],
    }
    return {
        "events": _frame(columns, [*EVENT_COLUMNS, "start_known", "wager", "win"]),
        "meters": pd.DataFrame(meters, columns=["subject", "meter", "value"]),
    }


def _named_players(event: dict[str, Any]) -> list[str]:
    """Players an event says played in the tournament (a RefundPaid may name a backer)."""
    if event.get("type") == "ChipCountRecorded":
        return [str(count["player_id"]) for count in event.get("counts") or ()]
    if event.get("type") in ("PlayerEliminated", "BountyAwarded", "PrizePaid"):
        named = (event.get("player_id"), event.get("eliminated_player_id"))
        return [str(player) for player in named if player is not None]
    return []


def tournament_frames(events: Sequence[dict[str, Any]]) -> Frames:
    """``events`` frame of tournament events: ``start_known`` (announced) and
    ``player_known`` (every player it names registered in the tournament)."""
    announced = {e["tournament_id"] for e in events if e.get("type") == "TournamentAnnounced"}
    registered = {
        (e["tournament_id"], str(e["player_id"]))
        for e in events
        if e.get("type") == "PlayerRegistered"
    }
    columns = _event_columns(events, "tournament_id")
    subjects = columns["subject"]
    columns["start_known"] = [subject in announced for subject in subjects]
    columns["player_known"] = [
        all((subject, player) in registered for player in _named_players(event))
        for subject, event in zip(subjects, events, strict=True)
    ]
    return {"events": _frame(columns, [*EVENT_COLUMNS, "start_known", "player_known"])}


FRAME_BUILDERS: dict[str, Callable[[Sequence[dict[str, Any]]], Frames]] = {
    "poker": poker_frames,
    "banked": banked_frames,
    "slots": slots_frames,
    "tournament": tournament_frames,
}
