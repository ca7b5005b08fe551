"""A poker table session explained (``casino-audit show <table>@<first hand>``): its
hands in play order, how each follows the one before, and the break where chips went
missing highlighted (``replayer.sessions``; the verdict ``replay`` and the nightly store,
``audit.judging.table_sessions``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.show.common import (
    INDENT,
    clock,
    flag,
    heading,
    note,
    row,
    safe,
)
from audit.show.model import Line
from audit.store import StoreReads


def _hand_line(hand: str, start: Mapping[str, Any], how: str) -> str:
    seats = start.get("seats") or ()
    players = ", ".join(
        f"{safe(s.get('player_id'))} (seat {safe(s.get('seat'))})"
        for s in seats
        if isinstance(s, dict)
    )
    return (
        f"{INDENT}{safe(hand)}  {clock(start.get('occurred_at'))}  button seat "
        f"{safe(start.get('button'))}  {safe(how)}: {players}"
    )


def session_body(
    store: StoreReads,
    hands: Sequence[str],
    links: Sequence[str],
    found: Sequence[Mapping[str, Any]],
) -> list[Line]:
    """The session's hands in play order; a hand a finding names is flagged (``>>``)."""
    named: dict[str, list[int]] = {}
    for number, finding in enumerate(found, 1):
        for hand in (finding.get("detail") or {}).get("hands") or ():
            named.setdefault(str(hand), []).append(number)
    lines = [heading(f"HANDS: {len(hands)} in play order")]
    stored = store.records_of_many("poker", hands)  # one read, not one per hand
    for hand, how in zip(hands, links, strict=False):
        start = next((e for e in stored.get(hand) or () if e.get("type") == "HandStarted"), {})
        text = _hand_line(hand, start, how)
        if hand in named:
            numbers = ", ".join(str(n) for n in named[hand])
            lines.append(flag(f">> {text[len(INDENT) :]}  (finding {numbers})"))
        else:
            lines.append(row(text))
    if not found:
        lines.append(note(f"{INDENT}no chips missing between these hands"))
    return lines
