"""``casino-audit show`` for a tournament: what was announced (the payouts table), the
entries, the places, bounties and prizes as recorded against what the rules give (the
findings' expected values), and the first divergence."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.grouping.subject_index import SubjectIndex
from audit.grouping.tournament_hands import hands_of
from audit.show.common import INDENT, Marks, clock, heading, money, note, row, safe, step
from audit.show.model import BLANK, Line
from audit.store import StoreReads


def tournament_kind(first: Mapping[str, Any]) -> str:
    """A tournament in words, by its name (its ``TournamentAnnounced``)."""
    return f"tournament {safe(first.get('name'))}"


def tournament_hands(
    store: StoreReads, subject: str, first: Mapping[str, Any], index: SubjectIndex | None
) -> list[tuple[str, Any]]:
    """A tournament's hands in the store (``show HAND`` explains each)."""
    hands = hands_of(store, subject, index)
    return [("hands", ", ".join(safe(h) for h in hands) if hands else "none stored")]


def _ordinal(place: Any) -> str:
    if not isinstance(place, int):
        return safe(place)
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def _chips(value: Any) -> str:
    """A chip count in words, with thousands separators."""
    return f"{_count(value)} chips" if isinstance(value, int) else safe(value)


_NOT_MONEY = {
    "tournament_chips_unbalanced": _chips,
    "elimination_contradicts_chips": _chips,
    "late_entry_after_itm": safe,
    "entry_not_personal": safe,
}
"""Kinds whose expected value is chips, places or words, never money (``continuity``)."""
_WORDS = (list, str)
"""Expected values in words (a deal's parties, the final table's size): never money."""


_AGREED = ("DealAgreed", "PlayerSanctioned", "PlayerUnregistered")


def _agreed(event: Mapping[str, Any], cash: Any) -> str:
    """A deal (PT-217/2007 n.º 119), a sanction (n.º 122) or an entry withdrawn before the
    start (GG-2022 staking) in words."""
    if event.get("type") == "PlayerUnregistered":
        return f"{safe(event.get('player_id'))} withdraws {safe(event.get('entry_id'))}"
    if event.get("type") == "DealAgreed":
        shares = "; ".join(
            f"{safe(s.get('player_id'))} {cash(s.get('amount'))}" for s in event.get("shares") or ()
        )
        return f"a deal ends the tournament: {shares}"
    reason = f" ({safe(event['reason'])})" if event.get("reason") else ""
    return f"{safe(event.get('player_id'))} is {safe(event.get('sanction'))}{reason}"


def _count(value: Any) -> str:
    """A count (chips, entries) with thousands separators; anything else as it is."""
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else safe(value)


def _implicated(finding: Any, events: Sequence[Mapping[str, Any]]) -> int | None:
    """The event a tournament finding is about (its sequence)."""
    detail = finding.detail
    sequence = detail.get("sequence")
    if isinstance(sequence, int):
        return sequence
    player = detail.get("player_id")
    kind = str(finding.kind)
    for event in events:
        type_ = event.get("type")
        about = (event.get("player_id"), event.get("hand_id"), event.get("eliminated_player_id"))
        if (
            (kind == "wrong_place" and type_ == "PlayerEliminated")
            and about[:2] == (player, detail.get("hand_id"))
        ) or (
            (kind == "mispaid_bounty" and type_ == "BountyAwarded")
            and (about[0], about[2]) == (player, detail.get("eliminated_player_id"))
        ):
            return event.get("sequence")
        if kind == "mispaid_prize" and type_ == "PrizePaid" and about[0] == player:
            return event.get("sequence")
    ends = [
        e.get("sequence")
        for e in events
        if e.get("type") in ("TournamentCompleted", "TournamentCancelled")
    ]
    if ends:
        return ends[-1]
    return events[-1].get("sequence") if events else None


def tournament_body(
    verdict: Any, events: Sequence[Mapping[str, Any]], numbers: Mapping[str, int]
) -> list[Line]:
    ordered = sorted(events, key=lambda e: e.get("sequence", 0))
    announced = next((e for e in ordered if e.get("type") == "TournamentAnnounced"), {})
    currency = announced.get("currency")

    def cash(value: Any) -> str:
        return money(value, currency)

    at_event: dict[Any, list[Any]] = {}
    for finding in verdict.findings:
        at_event.setdefault(_implicated(finding, ordered), []).append(finding)
    marks = Marks(s for s in at_event if s is not None)
    lines = [heading("ANNOUNCED")]
    price = f"buy-in {cash(announced.get('buy_in'))} + fee {cash(announced.get('fee'))}"
    if announced.get("bounty"):
        price += f" + bounty {cash(announced.get('bounty'))}"
    lines.append(
        row(
            f"{INDENT}{price}; guarantee {cash(announced.get('guarantee'))}; "
            f"starting chips {_count(announced.get('starting_chips'))}"
        )
    )
    if announced.get("satellite_for"):
        lines.append(
            row(f"{INDENT}satellite: its places win seats in {safe(announced['satellite_for'])}")
        )
    payouts = list(announced.get("payouts") or ())
    lines.append(
        row(
            f"{INDENT}payouts: "
            + (
                "; ".join(f"{_ordinal(n)} {cash(v)}" for n, v in enumerate(payouts, 1))
                or "none fixed in advance"
            )
        )
    )
    withdrawn = {e.get("entry_id") for e in ordered if e.get("type") == "PlayerUnregistered"}
    entries = [
        e
        for e in ordered
        if e.get("type") == "PlayerRegistered" and e.get("entry_id") not in withdrawn
    ]
    collected = sum(int(e.get("buy_in") or 0) + int(e.get("bounty") or 0) for e in entries)
    lines.append(
        row(f"{INDENT}entries: {len(entries)}, prize pool and bounties collected {cash(collected)}")
    )

    def expected(event: Mapping[str, Any]) -> str:
        found = at_event.get(event.get("sequence"), [])
        parts = []
        for f in found:
            want = f.expected
            if str(f.kind) == "wrong_place":
                want = _ordinal(want)
            elif str(f.kind) in _NOT_MONEY:
                want = _NOT_MONEY[str(f.kind)](want)
            elif isinstance(want, _WORDS):
                want = safe(", ".join(want) if isinstance(want, list) else want)
            elif isinstance(want, Mapping):
                want = f"{safe(want.get('kind'))} {cash(want.get('amount'))}"
            else:
                want = cash(want)
            parts.append(f"the rules: {want} ({f.kind}, finding {numbers.get(f.finding_id)})")
        return "   <- " + "; ".join(parts) if parts else ""

    def emit(event: Mapping[str, Any], text: str) -> None:
        sequence = event.get("sequence")
        found = at_event.get(sequence, [])
        why = ", ".join(f"{f.kind} (finding {numbers.get(f.finding_id)})" for f in found)
        lines.extend(marks.at(sequence, why))
        at = clock(event.get("occurred_at"), date=False)
        lines.append(step(f"{INDENT}#{sequence:<4} {at}  {text}{expected(event)}"))

    started = next((e["sequence"] for e in ordered if e.get("type") == "TournamentStarted"), None)
    late = [
        e
        for e in entries
        if (started is not None and e.get("sequence", 0) > started) or e.get("sequence") in at_event
    ]
    if late:
        lines += [BLANK, heading("ENTRIES AFTER THE START (late registration, re-entries)")]
        for event in late:
            emit(event, f"{safe(event.get('player_id'))} enters ({safe(event.get('entry_id'))})")
    counts = [e for e in ordered if e.get("type") == "ChipCountRecorded"]
    if counts:
        lines += [BLANK, heading("CHIP COUNTS (chips at the start of a hand)")]
        for event in counts:
            held = {safe(c.get("player_id")): c.get("chips") for c in event.get("counts") or ()}
            total = sum(v for v in held.values() if isinstance(v, int))
            named = ", ".join(f"{p} {_chips(c)}" for p, c in held.items())
            emit(event, f"hand {safe(event.get('hand_id'))}: {total:,} chips in all ({named})")
    agreed = [e for e in ordered if e.get("type") in _AGREED]
    if agreed:
        lines += [BLANK, heading("DEALS, SANCTIONS AND WITHDRAWN ENTRIES")]
        for event in agreed:
            emit(event, _agreed(event, cash))
    sections = (
        ("PLACES (eliminations in order, as recorded)", "PlayerEliminated"),
        ("BOUNTIES", "BountyAwarded"),
        ("PRIZES", "PrizePaid"),
        ("REFUNDS", "RefundPaid"),
    )
    for title, type_ in sections:
        chosen = [e for e in ordered if e.get("type") == type_]
        if not chosen and type_ == "RefundPaid":
            continue
        lines += [BLANK, heading(title)]
        for event in chosen:
            who = safe(event.get("player_id"))
            if type_ == "PlayerEliminated":
                facts = [f"hand {safe(event['hand_id'])}"] if event.get("hand_id") else []
                if event.get("chips_at_hand_start") is not None:
                    facts.append(f"{event['chips_at_hand_start']:,} chips at the start of the hand")
                if event.get("seat_from_button") is not None:
                    facts.append(f"seat {event['seat_from_button']} from the button")
                emit(
                    event,
                    f"{who} finishes {_ordinal(event.get('place'))}"
                    + (f" ({', '.join(facts)})" if facts else ""),
                )
            elif type_ == "BountyAwarded":
                emit(
                    event,
                    f"{who} is paid {cash(event.get('amount'))} for eliminating "
                    f"{safe(event.get('eliminated_player_id'))}",
                )
            elif type_ == "PrizePaid":
                place = f" for {_ordinal(event['place'])} place" if event.get("place") else ""
                due = (
                    payouts[event["place"] - 1]
                    if isinstance(event.get("place"), int) and 0 < event["place"] <= len(payouts)
                    else None
                )
                table = f" (payouts table: {cash(due)})" if due is not None else ""
                emit(
                    event,
                    f"{who} is paid {cash(event.get('amount'))} "
                    f"{safe(event.get('kind'))}{place}{table}",
                )
            else:
                emit(
                    event,
                    f"{who} is refunded {cash(event.get('amount'))} "
                    f"({safe(event.get('component'))})",
                )
        if not chosen:
            lines.append(note(f"{INDENT}none recorded"))
    for event in ordered:
        if event.get("type") in ("TournamentCompleted", "TournamentCancelled"):
            what = (
                "completed"
                if event["type"] == "TournamentCompleted"
                else f"cancelled: {safe(event.get('reason'))}"
            )
            lines.append(BLANK)
            emit(event, f"the tournament is {what}")
    unpaid = [f for f in verdict.findings if _implicated(f, ordered) is None]
    lines += marks.rest(
        ", ".join(f"{f.kind} (finding {numbers.get(f.finding_id)})" for f in unpaid)
    )
    return lines
