"""What one evidence hand of a collusion suspicion shows, in words: the moves between the
suspected players that the detector weighs (``pipelines.detectors.collusion``), read
from the hand's own events.

* a fold to a partner's bet or raise (chip dumping, soft play: "fold rather than
  confront"), and, on the river with every card known, the better hand given up (chip
  dumping: the detector's ``folds_ahead``);
* a re-raise over a partner's bet or raise while a third player is still in the hand
  (whipsaw, the squeeze);
* a heads-up pot after the flop that neither bet into (soft play: checked down);
* a bet or raise into a partner heads-up (what soft players do not do).

The chip flow of the hand is said beside it (``records.chip_flow``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.show.common import safe
from replayer.poker.evaluator import best_any, describe


def moves_between(events: Sequence[Mapping[str, Any]], players: Sequence[str]) -> list[str]:
    """The moves between ``players`` in one hand (in order), as short sentences."""
    ordered = sorted(events, key=lambda e: int(e.get("sequence") or 0))
    start = next((e for e in ordered if e.get("type") == "HandStarted"), {})
    name = {s.get("seat"): str(s.get("player_id")) for s in start.get("seats") or ()}
    ours = set(players)
    live = set(name)
    aggressor: Any = None
    later = False
    heads_up: list[tuple[Any, bool]] = []
    said: list[str] = []
    holes: dict[Any, list[str]] = {}
    board: list[str] = []
    for event in ordered:
        kind = event.get("type")
        if kind == "CardsDealt" and event.get("target") == "board":
            later, aggressor = True, None
            board += [str(c) for c in event.get("cards") or ()]
        if kind == "CardsDealt" and event.get("target") == "hole":
            holes[event.get("seat")] = [str(c) for c in event.get("cards") or ()]
        if kind != "ActionTaken":
            continue
        seat, action = event.get("seat"), event.get("action")
        partner = aggressor is not None and aggressor != seat and aggressor in live
        pair = partner and {name.get(seat), name.get(aggressor)} <= ours
        if pair and action == "fold":
            better = _better(holes.get(seat), holes.get(aggressor), board)
            said.append(f"{safe(name[seat])} folded to {safe(name[aggressor])}'s bet{better}")
        if pair and action == "raise" and len(live) > 2:
            said.append(
                f"{safe(name[seat])} re-raised {safe(name[aggressor])} with a third player in"
            )
        if later and len(live) == 2 and {name.get(s) for s in live} <= ours and seat in live:
            heads_up.append((seat, action in ("bet", "raise")))
        if action == "fold":
            live.discard(seat)
        elif action in ("bet", "raise"):
            aggressor = seat
    if heads_up and not any(bet for _, bet in heads_up):
        said.append("heads-up after the flop, neither bet: checked down")
    elif heads_up:
        bettors = sorted({name[s] for s, bet in heads_up if bet})
        said.append(f"heads-up after the flop, {' and '.join(safe(b) for b in bettors)} bet")
    return said


def _better(mine: list[str] | None, theirs: list[str] | None, board: list[str]) -> str:
    """ ", holding the better hand (...)" when a river fold gave up the better of the two
    hands (every card known, hold'em), else ""."""
    if not mine or not theirs or len(mine) != 2 or len(theirs) != 2 or len(board) != 5:
        return ""
    try:
        ours, other = best_any(mine, board), best_any(theirs, board)
    except ValueError:  # a hidden or unreadable card
        return ""
    if ours <= other:
        return ""
    return f", holding the better hand ({describe(ours)} against {describe(other)})"
