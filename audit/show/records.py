"""``casino-audit show`` for table declarations, incidents and suspected collusion
(a pair or ring of players: the detector's stored finding, its evidence hands and the
chips that went between the players in them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

from audit.show.collusion_hands import moves_between
from audit.show.common import (
    INDENT,
    Marks,
    clock,
    flag,
    heading,
    money,
    note,
    percent,
    row,
    safe,
    state,
    step,
)
from audit.show.model import BLANK, Line, Role
from audit.store import StoreReads
from audit.wording import show_command
from audit.wording.labels import RULEBOOK_LEFT_TO_SUBJECTS

FEATURES = {
    "flow": "chips flowing between them, against expectation",
    "fold": "folding to each other's bets",
    "soft": "avoiding confrontation heads-up",
    "whipsaw": "raise-reraise trapping a third player",
    "team": "winning together vs apart",
    "quiet": "heads-up pots checked down",
    "folds_ahead": "folding the better hand to each other's river bets",
    "strong_checks": "checking made hands that are ahead, heads-up",
}


# -------------------------------------------------------------- table declarations


def table_body(
    verdict: Any, events: Sequence[Mapping[str, Any]], numbers: Mapping[str, int]
) -> list[Line]:
    declared = sorted(
        (e for e in events if e.get("type") == "TableTermsDeclared"),
        key=lambda e: (str(e.get("effective_from")), e.get("sequence", 0)),
    )
    at: dict[Any, list[Any]] = {}
    for finding in verdict.findings:
        at.setdefault(finding.detail.get("sequence"), []).append(finding)
    marks = Marks(s for s in at if isinstance(s, int))
    lines = [
        heading(f"DECLARATIONS ({len(declared)}; each governs what starts from its effective time)")
    ]
    for n, record in enumerate(declared):
        sequence = record.get("sequence")
        found = at.get(sequence, [])
        lines += marks.at(
            sequence, ", ".join(f"{f.kind} (finding {numbers.get(f.finding_id)})" for f in found)
        )
        until = (
            f", superseded from {clock(declared[n + 1].get('effective_from'))}"
            if n + 1 < len(declared)
            else ", the latest"
        )
        lines.append(
            step(
                f"{INDENT}#{sequence} in force from {clock(record.get('effective_from'))}{until} "
                f"(declared {clock(record.get('occurred_at'))})"
            )
        )
        lines.append(state(f"{INDENT}     {terms(record)}"))
        for finding in found:
            lines.append(
                flag(
                    f"{INDENT}     ! {finding.kind}: see finding {numbers.get(finding.finding_id)}"
                )
            )
    lines += marks.rest("see the findings")
    return lines


def terms(record: Mapping[str, Any]) -> str:
    """One declaration's terms in words."""
    currency = record.get("currency")
    parts = [
        f"rulebook {safe(record.get('rulebook') or RULEBOOK_LEFT_TO_SUBJECTS)}",
        f"operator {safe(record.get('operator') or 'not named')}",
        f"game {safe(record.get('game') or '-')}",
        f"currency {safe(currency)}",
    ]
    low, high = record.get("rake_min_bps"), record.get("rake_max_bps")
    if low is not None:
        band = percent(low) if high in (None, low) else f"{percent(low)} to {percent(high)}"
        cap = ""
        if record.get("rake_cap") is not None:
            cap = f", capped at {money(record['rake_cap'], currency)}"
        elif record.get("rake_cap_big_blinds") is not None:
            cap = f", capped at {record['rake_cap_big_blinds']} big blinds"
        if cap:
            cap += f" per {safe(record.get('rake_cap_per') or 'hand')}"
        drop = ", no flop no drop" if record.get("no_flop_no_drop") else ""
        parts.append(f"rake {band} of each pot{cap}{drop}")
    for key, label in (("commission_bps", "commission"), ("cagnotte_bps", "cagnotte")):
        if record.get(key) is not None:
            parts.append(f"{label} {percent(record[key])}")
    if record.get("min_bet") is not None:
        limits = f"minimum bet {money(record['min_bet'], currency)}"
        if record.get("max_bet") is not None:
            limits += f", maximum {money(record['max_bet'], currency)}"
        parts.append(limits)
    if record.get("smallest_chip") is not None:
        parts.append(f"smallest chip {money(record['smallest_chip'], currency)}")
    return "; ".join(parts)


# ---------------------------------------------------------------------- incidents


def incident_body(
    events: Sequence[Mapping[str, Any]], unit: Mapping[str, Any] | None
) -> list[Line]:
    lines = [heading(f"EVENTS ({len(events)})")]
    for event in sorted(events, key=lambda e: e.get("sequence", 0)):
        kind = event.get("type")
        what = (
            "recorded"
            if kind == "IncidentRecorded"
            else "amended"
            if kind == "IncidentAmended"
            else safe(kind)
        )
        lines.append(
            step(f"{INDENT}#{event.get('sequence')} {clock(event.get('occurred_at'))}  {what}")
        )
        if event.get("kind"):
            lines.append(state(f"{INDENT}     kind {safe(event['kind'])}"))
        lines.append(
            state(
                f"{INDENT}     window {clock(event.get('window_start'))} .. "
                f"{clock(event.get('window_end'))}"
            )
        )
        for scope in ("tables", "games", "tournaments", "machines"):
            if event.get(scope):
                listed = ", ".join(safe(v) for v in event[scope])
                lines.append(state(f"{INDENT}     {scope}: {listed}"))
        for key in ("description", "reported_by", "reason"):
            if event.get(key):
                lines.append(state(f"{INDENT}     {key.replace('_', ' ')}: {safe(event[key])}"))
    lines += [BLANK, heading("INVESTIGATION (the latest stored)")]
    if unit is None:
        lines.append(
            note(
                f"{INDENT}none stored: run casino-audit incident investigate ID --as-of TIME "
                "--append-findings"
            )
        )
        return lines
    lines.append(
        row(
            f"{INDENT}as of {safe(unit.get('as_of'))}: {len(unit.get('findings') or ())} "
            f"finding(s) over {safe(unit.get('events_judged'))} events judged"
        )
    )
    subjects = sorted({str(f.get("subject")) for f in unit.get("findings") or ()})
    if subjects:
        lines.append(note(f"{INDENT}subjects with findings (each: casino-audit show ID):"))
        lines += [row(f"{INDENT}  {safe(s)}") for s in subjects]
    return lines


# ---------------------------------------------------------------------- collusion


def collusion_body(
    store: StoreReads,
    finding: Mapping[str, Any],
    nights: Sequence[tuple[str, Mapping[str, Any]]],
    numbers: Mapping[str, int],
) -> list[Line]:
    """Score, features, the nights that flagged it, evidence hands and the chip flow."""
    detail = finding.get("detail") or {}
    players = [str(p) for p in detail.get("players") or ()]
    threshold = (finding.get("expected") or {}).get("score_below")
    lines = [heading("SUSPICION (the latest night that flagged it)")]
    lines.append(
        row(
            f"{INDENT}score {safe(finding.get('recorded'))} (suspected at {safe(threshold)} or "
            f"more), over {safe(detail.get('shared_hands'))} shared hands"
        )
    )
    window = detail.get("window") or {}
    if window:
        lines.append(
            row(f"{INDENT}window: {safe(window.get('days'))} days to {safe(window.get('as_of'))}")
        )
    lines.append(row(f"{INDENT}players: {', '.join(safe(p) for p in players)}"))
    lines.append(
        row(f"{INDENT}features (z-scores: how far they depart from how each plays against others):")
    )
    for name, value in (detail.get("features") or {}).items():
        lines.append(row(f"{INDENT}  {FEATURES.get(name, safe(name)):<52} {safe(value)}"))
    lines.append(
        row(
            f"{INDENT}flagged on: "
            + ", ".join(f"{safe(day)} (score {safe(f.get('recorded'))})" for day, f in nights)
        )
    )
    lines += [BLANK, heading("WHAT WAS MEASURED, in words")]
    lines += [row(text) for text in measured_in_words(finding)]
    evidence = [str(h) for h in detail.get("evidence_hands") or ()]
    lines += [BLANK, heading(f"EVIDENCE HANDS ({len(evidence)}; the hands that weigh most)")]
    totals: dict[tuple[str, str, Any], Fraction] = {}
    seen: set[str] = set()
    for hand_id, events in store.iter_records("poker", evidence):
        seen.add(hand_id)
        flows, currency = chip_flow(events, players)
        for (winner, loser), amount in flows.items():
            key = (winner, loser, currency)
            totals[key] = totals.get(key, Fraction(0)) + amount
        said = (
            "; ".join(
                f"{safe(w)} won {money(round(a), currency)} from {safe(lo)}"
                for (w, lo), a in flows.items()
                if a
            )
            or "no chips between them"
        )
        lines.append(row(f"{INDENT}{safe(hand_id)}: {said}"))
        lines += [row(f"{INDENT}    {move}") for move in moves_between(events, players)]
        lines.append(Line(Role.LINK, f"{INDENT}    {show_command(hand_id)}", hand_id))
    missing = sorted(set(evidence) - seen)
    lines += [note(f"{INDENT}{safe(h)}: not in the store") for h in missing]
    lines += [
        BLANK,
        heading(
            "CHIP FLOW between the players over these hands (losses shared pro rata among the "
            "winners)"
        ),
    ]
    currencies = sorted({c for _, _, c in totals}, key=str)
    if not currencies:
        lines.append(note(f"{INDENT}none"))
    for currency in currencies:
        for a, b in combinations(players, 2):
            ab = totals.get((a, b, currency), Fraction(0))
            ba = totals.get((b, a, currency), Fraction(0))
            net = round(ab - ba)
            lines.append(
                row(
                    f"{INDENT}{safe(a)} won {money(round(ab), currency)} from {safe(b)}; "
                    f"{safe(b)} won {money(round(ba), currency)} from {safe(a)}: net "
                    f"{money(abs(net), currency)} to {safe(a if net >= 0 else b)}"
                )
            )
    return lines


#: Feature -> what a departure means, said of the two players.
DEPARTURES = {
    "flow": "lost chips to each other beyond what each wins or loses against everyone else",
    "fold": "folded to each other's bets more often than to other players' bets",
    "soft": "bet or raised against each other less often than against other players",
    "whipsaw": "re-raised each other with a third player caught between them more often "
    "than they re-raise other players",
    "team": "won more together than apart",
    "quiet": "checked down the pots they played heads-up more often than either does with "
    "other players",
    "folds_ahead": "folded the better hand (their cards as dealt) to each other's river bets "
    "more often than to other players' bets",
    "strong_checks": "checked a pair or better that was ahead, heads-up against each other, "
    "when they would bet it against other players",
}
#: z-scores at or above which a departure is said "clearly" (and at 2 "somewhat").
CLEARLY, SOMEWHAT = 3.0, 2.0


def measured_in_words(finding: Mapping[str, Any]) -> list[str]:
    """A collusion suspicion's measurements as sentences: over how many shared hands and
    which days, each behaviour that departs from how they play against everyone else,
    and what the score means."""
    detail = finding.get("detail") or {}
    players = " and ".join(safe(p) for p in detail.get("players") or ())
    window = detail.get("window") or {}
    features = detail.get("features") or {}
    said = []
    for name, value in sorted(features.items(), key=lambda kv: (-float(kv[1]), kv[0])):
        z = float(value)
        if name in DEPARTURES and z >= SOMEWHAT:
            how = "clearly" if z >= CLEARLY else "somewhat"
            said.append(f"they {how} {DEPARTURES[name]} ({z:.1f} standard deviations)")
    usual = [DEPARTURES[n] for n, v in features.items() if n in DEPARTURES and float(v) < SOMEWHAT]
    lines = [
        f"{INDENT}Over the {safe(detail.get('shared_hands'))} hands {players} played together "
        f"in the {safe(window.get('days'))} days to {safe(window.get('as_of'))}, each compared "
        "with how the same player plays against everyone else, beyond a tolerated margin:"
    ]
    lines += [f"{INDENT}- {sentence};" for sentence in said] or [
        f"{INDENT}- no single behaviour departs by 2 standard deviations or more;"
    ]
    if usual:
        lines.append(
            f"{INDENT}- otherwise as with anyone else ({len(usual)} of {len(features)} behaviours)."
        )
    seated = detail.get("seated_together")
    if isinstance(seated, int | float) and seated:
        lines.append(
            f"{INDENT}Seating (supporting evidence, never scored): they sat together in "
            f"{seated:.0%} of the hands of the one who played fewer."
        )
    threshold = (finding.get("expected") or {}).get("score_below")
    lines.append(
        f"{INDENT}Together this scores {safe(finding.get('recorded'))}, at or above "
        f"{safe(threshold)}, where a pair is suspected: grounds to review the evidence hands "
        "below, not proof of an agreement."
    )
    lines.append(
        f"{INDENT}Each behaviour's baseline is how the two play against everyone else: an "
        "honest pair departs from it by 0 on average, with a standard deviation of 1 (the "
        "sampling variance of the pair's hands and of the baseline's own estimate); the "
        "score is the root of the summed squares of the departures above 0."
    )
    return lines


def chip_flow(
    events: Sequence[Mapping[str, Any]], players: Sequence[str]
) -> tuple[dict[tuple[str, str], Fraction], Any]:
    """(winner, loser) -> chips the winner took from the loser in one hand, among
    ``players``: each player's net result (paid back minus put in), every loss shared
    among the winners in proportion to their wins; and the hand's currency."""
    start = next((e for e in events if e.get("type") == "HandStarted"), {})
    seats = {s.get("seat"): str(s.get("player_id")) for s in start.get("seats") or ()}
    put: dict[Any, int] = {}
    paid: dict[Any, int] = {}
    for event in events:
        if event.get("type") in ("BlindPosted", "ActionTaken"):
            put[event.get("seat")] = put.get(event.get("seat"), 0) + int(event.get("amount") or 0)
        elif event.get("type") in ("PotAwarded",):
            paid[event.get("seat")] = paid.get(event.get("seat"), 0) + int(event.get("amount") or 0)
    if any(e.get("type") in ("HandVoided", "HandReverted") for e in events):
        return {}, start.get("currency")
    net = {seats[s]: paid.get(s, 0) - put.get(s, 0) for s in seats}
    won = sum(v for v in net.values() if v > 0)
    flows: dict[tuple[str, str], Fraction] = {}
    for a, b in combinations(players, 2):
        for winner, loser in ((a, b), (b, a)):
            if won and net.get(winner, 0) > 0 and net.get(loser, 0) < 0:
                flows[(winner, loser)] = Fraction(-net[loser] * net[winner], won)
    return flows, start.get("currency")
