"""The clock: an action a player took after his time ran out.

GG-2022 Política de limite de tempo de jogo: "Os jogadores que não agirem dentro do
limite de tempo estabelecido terão sua mão automaticamente dobrada"; Política de banco de
horas: a time bank gives extra time, and "aqueles que não agirem antes que o banco de
tempo se esgote automaticamente desistirão de sua mão"; Política de desconexões de
torneios: out of time, "sua mão será dobrada se estiver enfrentando ação ou poderá ser
verificada se não estiver enfrentando ação". Once a player's time and bank have run out,
the record may show him only a fold, or a check (a check is legal only when he faces no
bet, which the betting replay judges).

The text sets no number: the limit "varia por mesa, por variante de jogo e/ou por
estágio de jogo". The time to act and the largest time bank are therefore named
parameters of the rulebook (``rulebooks.poker.ActionClock``), and an action is late only
when it came after both: how much of his bank a player spent in earlier hands is not in one hand's
records, so a smaller bank is never presumed.

A player's time runs from the event just before his action (the previous action, a card
dealt, a blind posted) to his action, by the events' own ``occurred_at``. The importers
of room text and PHH stamp every event of a hand with its start (those files hold no
per-action time), so such a hand's events share one time and it is not judged
(``times_recorded``): nothing is judged from a default.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from itertools import pairwise

from replayer.events import HeldEvent
from replayer.findings import Finding, FindingKind
from replayer.rulebooks.poker import ActionClock

TIMED_OUT = frozenset({"fold", "check"})
"""What the room does for a player out of time: folds him, or checks when he faces no bet."""


def times_recorded(ordered: Sequence[HeldEvent]) -> bool:
    """Whether the hand's events carry their own times (more than one distinct
    ``occurred_at``), rather than one stamp an importer gave them all."""
    return len({e.get("occurred_at") for e in ordered}) > 1


def late_actions(
    hand_id: str, clock: ActionClock | None, ordered: Sequence[HeldEvent]
) -> list[Finding]:
    """``acted_out_of_time`` for each action other than a fold or a check that came
    after ``clock.longest`` (none without a clock, or without per-event times).

    >>> from datetime import UTC
    >>> t0 = datetime(2025, 1, 1, tzinfo=UTC)
    >>> clock = ActionClock(timedelta(seconds=30), timedelta(seconds=60), "GG-2022")
    >>> events = [
    ...     {"type": "BlindPosted", "sequence": 1, "occurred_at": t0, "seat": 2},
    ...     {"type": "ActionTaken", "sequence": 2, "occurred_at": t0 + timedelta(seconds=95),
    ...      "seat": 3, "action": "raise", "amount": 40},
    ... ]
    >>> [f.detail["seat"] for f in late_actions("h", clock, events)]
    [3]
    >>> late_actions("h", clock, [{**e, "occurred_at": t0} for e in events])
    []
    """
    if clock is None or not times_recorded(ordered):
        return []
    findings = []
    for before, event in pairwise(ordered):
        if event.get("type") != "ActionTaken" or event.get("action") in TIMED_OUT:
            continue
        then, now = before.get("occurred_at"), event.get("occurred_at")
        if not isinstance(then, datetime) or not isinstance(now, datetime):
            continue
        if now - then > clock.longest:
            findings.append(_late(hand_id, clock, event, now - then))
    return findings


def _late(hand_id: str, clock: ActionClock, event: HeldEvent, took: timedelta) -> Finding:
    seat, action = event.get("seat"), str(event.get("action"))
    amount = event.get("amount")
    return Finding(
        FindingKind.ACTED_OUT_OF_TIME,
        hand_id,
        clock.citation,
        f"seat {seat} took {took.total_seconds():g} s to {action}: past the "
        f"{clock.limit.total_seconds():g} s to act and a time bank of at most "
        f"{clock.time_bank.total_seconds():g} s, his hand is folded (checked when he "
        "faces no bet)",
        expected=sorted(TIMED_OUT),
        recorded=action,
        detail={
            "seat": seat,
            "sequence": event.get("sequence"),
            "amount": amount if isinstance(amount, int) else 0,
            "seconds": took.total_seconds(),
            "limit_seconds": clock.limit.total_seconds(),
            "time_bank_seconds": clock.time_bank.total_seconds(),
        },
    )
