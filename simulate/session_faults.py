"""Chips taken off a poker table between two hands, planted so each hand stays legal on
its own (issue 38: the session at a table).

``plant_chip_removal`` lowers one player's starting stack in a hand, and his closing stack
by as much, taking only chips he never put in: the hand's own reconciliation still holds,
and only the session across hands (``replayer.sessions``) can see the chips that left.
``removals`` plants one removal, alone, in the later hand of each consecutive pair of a
table's sessions that offers one, saying what it planted (player, both hands, amount).
``take_chips`` takes chips off a simulated table between two hands once it has played
them (``simulate.day``: the play is unchanged, so every other planted fault and the
collusion figures stay as they were), scored on the later hand (``simulate.score``);
``leave_rake_out`` plants the room's record disagreeing with itself the same way (a pot
paid whole with no rake line, the next stacks net of a rake), and ``simulate.session_table``
a button that stays put (``button_stuck``: it needs the play). At a tournament's table
(``simulate.tournament_tables``) chips are taken (``TOURNAMENT_CHIPS_REMOVED``) or given
from nowhere (``TOURNAMENT_CHIPS_ADDED``) the same way (``shift_from``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from replayer.sessions import DEFAULT_RULES, table_sessions
from replayer.sessions.chaining import CHAINED, link
from replayer.sessions.hands import HandSummary, summarize
from simulate.manifest import PlantedFault

CHIPS_REMOVED = "chips_removed_between_hands"
TOURNAMENT_CHIPS_REMOVED = "tournament_chips_removed_between_hands"
TOURNAMENT_CHIPS_ADDED = "tournament_chips_added_between_hands"
RAKE_LEFT_OUT = "rake_left_out_of_record"
BUTTON_STUCK = "button_stuck"
BUTTON_PAST_WINNER = "button_past_the_winner"
SESSION_FAULTS: dict[str, tuple[str, ...]] = {
    CHIPS_REMOVED: ("chips_vanished",),
    TOURNAMENT_CHIPS_REMOVED: ("tournament_chips_vanished",),
    TOURNAMENT_CHIPS_ADDED: ("tournament_chips_appeared",),
    RAKE_LEFT_OUT: ("record_contradicts_itself",),
    BUTTON_STUCK: ("button_not_rotated",),
    BUTTON_PAST_WINNER: ("button_not_to_winner",),
}
"""Fault kind -> the finding kinds the session judge must raise for it."""
TAKEN: dict[str, int] = {CHIPS_REMOVED: 1, TOURNAMENT_CHIPS_REMOVED: 1, TOURNAMENT_CHIPS_ADDED: -1}
"""Fault kind -> +1: chips taken off the player's stacks, -1: given to them."""
RAKE_SHARE = 20
"""``rake_left_out_of_record`` takes 1/20 (5%, GGPoker's rate) of what the first hand
paid the player: within the unrecorded-rake bound of ``replayer.sessions.continuity``."""

FlatEvent = dict[str, Any]


@dataclass(frozen=True)
class PlantedRemoval:
    """One planted removal: who lost how much between which two hands."""

    player: str
    before: str
    after: str
    amount: int


def _put_in(events: Sequence[Mapping[str, Any]], seat: int) -> int:
    return sum(
        int(e.get("amount") or 0)
        for e in events
        if e.get("type") in ("BlindPosted", "ActionTaken") and e.get("seat") == seat
    )


def plant_chip_removal(
    events: Sequence[Mapping[str, Any]], player: str, amount: int
) -> list[FlatEvent] | None:
    """The hand with ``amount`` fewer chips for ``player`` at its start and its end (a
    negative amount: more), or None when he has not that many chips he never put in."""
    start = next(e for e in events if e.get("type") == "HandStarted")
    seats = list(start["seats"])
    index = next((i for i, s in enumerate(seats) if s["player_id"] == player), None)
    if index is None or amount == 0:
        return None
    seat = seats[index]
    if int(seat["stack"]) - _put_in(events, int(seat["seat"])) <= amount:
        return None
    planted: list[FlatEvent] = []
    for event in events:
        copy = dict(event)
        if copy.get("type") == "HandStarted":
            copy["seats"] = [
                {**s, "stack": int(s["stack"]) - amount} if i == index else dict(s)
                for i, s in enumerate(seats)
            ]
        elif copy.get("type") == "HandEnded" and copy.get("finishing_stacks"):
            stacks = list(copy["finishing_stacks"])
            stacks[index] = int(stacks[index]) - amount
            copy["finishing_stacks"] = stacks
        planted.append(copy)
    return planted


def _candidates(before: HandSummary, after: HandSummary) -> list[tuple[str, int]]:
    """Players carried at the same seat with no top-up, and a quarter of the later hand's
    stack: those the first hand paid nothing first (nothing there reads as a rake)."""
    carried = []
    for now in after.seats:
        left = before.seat_of(now.player)
        if left is not None and left.seat == now.seat and now.stack == left.end:
            carried.append((left.collected > 0, now.player, now.stack // 4))
    return [(player, amount) for _, player, amount in sorted(carried)]


def tables_of(hands: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, list[str]]:
    """Table -> its hands' ids (in the order given)."""
    tables: dict[str, list[str]] = {}
    for hand, events in hands.items():
        start = next((e for e in events if e.get("type") == "HandStarted"), None)
        if start is not None:
            tables.setdefault(str(start.get("table_id")), []).append(hand)
    return tables


def removals(
    hands: Mapping[str, Sequence[Mapping[str, Any]]],
) -> Iterator[tuple[PlantedRemoval, list[str], list[FlatEvent]]]:
    """For each consecutive pair of every table's cash sessions that offers one: a removal
    planted alone in its later hand, with the session's hand ids and the later hand's
    planted events (the session judged with them in place must find it, as
    ``chips_vanished``; a tournament's is ``tournament_chips_vanished``)."""
    for _, ids in sorted(tables_of(hands).items()):
        for session in table_sessions([hands[h] for h in ids]):
            if session.hands[0].tournament_id is not None:
                continue
            order = [h.hand_id for h in session.hands]
            for before, after in pairwise(session.hands):
                for player, amount in _candidates(before, after):
                    changed = plant_chip_removal(hands[after.hand_id], player, amount)
                    if changed is not None:
                        planted = PlantedRemoval(player, before.hand_id, after.hand_id, amount)
                        yield planted, order, changed
                        break


def _behind(events: Sequence[Mapping[str, Any]], player: str) -> tuple[int, int] | None:
    """(seat, chips the player never put in) in one hand (None: not dealt in)."""
    start = next(e for e in events if e.get("type") == "HandStarted")
    seat = next((s for s in start["seats"] if s["player_id"] == player), None)
    if seat is None:
        return None
    return int(seat["seat"]), int(seat["stack"]) - _put_in(events, int(seat["seat"]))


def _run(hands: Sequence[list[FlatEvent]], index: int, player: str) -> list[int]:
    """The hands from ``index`` on that carry ``player``'s chips on at one seat, with no
    top-up: the hands a removal before ``index`` lowers."""
    run = [index]
    for later in range(index + 1, len(hands)):
        before, after = summarize(hands[later - 1]), summarize(hands[later])
        left = before.seat_of(player) if before else None
        now = after.seat_of(player) if after else None
        if left is None or now is None or left.seat != now.seat or now.stack != left.end:
            break
        run.append(later)
    return run


def _shift_run(
    hands: list[list[FlatEvent]], index: int, player: str, amount: int | None, sign: int
) -> int | None:
    """``player``'s chips lowered (``sign`` +1) or raised (-1) by ``amount`` (None: half
    the chips he never puts in) in every hand from ``index`` on that he plays at one seat
    with no top-up (changed in place); the amount, or None when he has not that much
    behind in one of them."""
    run = _run(hands, index, player)
    behind = min(b[1] for i in run if (b := _behind(hands[i], player)))
    amount = behind // 2 if amount is None else amount
    if amount <= 0 or amount >= behind:
        return None
    for i in run:
        hands[i] = plant_chip_removal(hands[i], player, sign * amount) or hands[i]
    return amount


def shift_from(hands: list[list[FlatEvent]], index: int, player: str, fault: str) -> int | None:
    """``player``'s stacks shifted from ``hands[index]`` on while he stays at his seat
    (one table's hands in play order, changed in place): half the chips he never puts in
    there, taken or given as ``fault`` says (``TAKEN``); that amount, None when none."""
    return _shift_run(hands, index, player, None, TAKEN[fault])


def _consecutive(
    hands: list[list[FlatEvent]], index: int
) -> tuple[HandSummary, HandSummary] | None:
    """The summaries of ``hands[index - 1]`` and ``hands[index]`` when the data makes them
    consecutive (``replayer.sessions.chaining``)."""
    before, after = summarize(hands[index - 1]), summarize(hands[index])
    if before is None or after is None or link(before, after, DEFAULT_RULES) not in CHAINED:
        return None
    return before, after


def _planted(
    kind: str, before: HandSummary, after: HandSummary, player: str, amount: int
) -> PlantedFault:
    detail = {"player": player, "hands": [before.hand_id, after.hand_id], "amount": amount}
    return PlantedFault(kind, after.hand_id, SESSION_FAULTS[kind], detail)


def take_chips(
    hands: list[list[FlatEvent]],
    index: int,
    rng: random.Random,
    fault: str = CHIPS_REMOVED,
    spared: frozenset[str] = frozenset(),
) -> PlantedFault | None:
    """Chips taken off the table between ``hands[index - 1]`` and ``hands[index]`` (one
    table's hands in play order, changed in place), from a player carried at one seat
    (none of ``spared``): half the chips he never puts in while he stays, taken from his
    stacks in every hand he plays on at that seat (the play is the same; each hand stays
    legal on its own); as many given to him instead where ``fault`` says so (``TAKEN``).
    None when the two hands are not consecutive by the data or no player can lose any."""
    pair = _consecutive(hands, index)
    players = [p for p, _ in _candidates(*pair) if p not in spared] if pair else []
    if pair is None or not players:
        return None
    player = rng.choice(players)
    amount = shift_from(hands, index, player, fault)
    return None if amount is None else _planted(fault, *pair, player, amount)


def leave_rake_out(
    hands: list[list[FlatEvent]], index: int, rng: random.Random
) -> PlantedFault | None:
    """The room's record disagreeing with itself (issue 38: older GGPoker files):
    ``hands[index - 1]`` records no rake and pays a player his pots whole, and his stacks
    from ``hands[index]`` on are net of a rake (``RAKE_SHARE`` of what it paid him), each
    hand legal on its own (``leave_rake_out`` changes them in place). None when the first
    hand records a rake, the two are not consecutive, or no paid player is carried on."""
    pair = _consecutive(hands, index)
    if pair is None or pair[0].rake_recorded:
        return None
    before, after = pair
    paid = [
        (s.player, s.collected // RAKE_SHARE)
        for s in before.seats
        if s.collected // RAKE_SHARE > 0 and any(p == s.player for p, _ in _candidates(*pair))
    ]
    if not paid:
        return None
    player, rake = rng.choice(paid)
    amount = _shift_run(hands, index, player, rake, 1)
    return None if amount is None else _planted(RAKE_LEFT_OUT, before, after, player, amount)


BETWEEN_HANDS: dict[
    str, Callable[[list[list[FlatEvent]], int, random.Random], PlantedFault | None]
] = {
    CHIPS_REMOVED: take_chips,
    RAKE_LEFT_OUT: leave_rake_out,
}
"""The session faults planted between two hands once a table has played them."""
