"""``casino-audit show`` for a slot machine: its configurations (a mid-day
reconfiguration shown), its readings with clock times (UTC), the meter deltas between
readings against what the events add, rollovers and RAM clears, and where an identity
first fails (the ``meter_discrepancy``'s window)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
    signed,
    state,
    step,
)
from audit.show.model import BLANK, Line
from audit.wording.labels import METER_LABELS

COUNTS = frozenset({"games_played", "games_won"})
"""Meters that count games, not money."""
SHOWN = ("coin_in", "coin_out", "jackpot", "games_played", "drop")
"""Meters shown for every window; others only when they fail."""
_STATUS = {
    "reconciled": "reconciled",
    "discrepancy": "DISCREPANCY",
    "after_ram_clear": "reconciled from the RAM clear",
    "unexplained_ram_clear": "UNEXPLAINED RAM CLEAR: cannot be reconciled",
}


def _label(name: str) -> str:
    """A meter in plain words (``audit.wording.labels``), escaped for the terminal."""
    return METER_LABELS.get(name) or safe(name)


def amount(name: str, value: Any, currency: str | None) -> str:
    """A meter's value: games as a count, money in the machine's currency."""
    if not isinstance(value, int):
        return "-"
    if name in COUNTS or name not in METER_LABELS:
        return f"{value:,}"
    return money(value, currency)


def meter(name: str, value: Any, currency: str | None, *, sign: bool = False) -> str:
    plus = "+" if sign and isinstance(value, int) and value >= 0 else ""
    return f"{_label(name)} {plus}{amount(name, value, currency)}"


def slots_body(
    verdict: Any, events: Sequence[Mapping[str, Any]], numbers: Mapping[str, int]
) -> list[Line]:
    """Configurations, readings and windows with the first divergence marked, return."""
    by_sequence = {e.get("sequence"): e for e in events}
    configs = [e for e in events if e.get("type") == "MachineConfigured"]
    currency = configs[0].get("currency") if configs else None
    lines = [heading("CONFIGURATION")]
    previous: Mapping[str, Any] | None = None
    for config in configs:
        lines.append(row(f"{INDENT}{_configured(config, previous)}"))
        previous = config
    windows = {w.end_sequence: w for w in verdict.windows}
    failing: dict[int, list[Any]] = {}
    for finding in verdict.findings:
        sequence = finding.detail.get("sequence")
        if isinstance(sequence, int):
            failing.setdefault(sequence, []).append(finding)
    marks = Marks(failing)
    lines += [
        BLANK,
        heading(
            "READINGS (clock times UTC; meter deltas since the previous reading against what "
            "the events add)"
        ),
    ]
    games = 0
    for event in sorted(events, key=lambda e: e.get("sequence", 0)):
        sequence, kind = event.get("sequence"), event.get("type")
        if kind == "GamePlayed":
            games += 1
        if (
            kind not in ("MeterRead", "MachineReset", "MachineConfigured", *_JACKPOT_SHOWN)
            and sequence not in failing
        ):
            continue
        hits = failing.get(sequence, []) if sequence is not None else []
        lines += marks.at(sequence, _why(hits, windows.get(sequence), by_sequence, numbers))
        at = clock(event.get("occurred_at"), date=False)
        if kind == "MachineConfigured":
            if event is not configs[0]:
                lines.append(step(f"{INDENT}#{sequence:<5} {at}  reconfigured (see CONFIGURATION)"))
        elif kind == "MachineReset":
            what = (
                "RAM clear: meters restart at zero"
                if event.get("kind") == "ram_clear"
                else "power cycle"
            )
            lines.append(step(f"{INDENT}#{sequence:<5} {at}  {what} ({safe(event.get('reason'))})"))
        elif kind == "MeterRead":
            lines += _reading(event, windows.get(sequence), by_sequence, currency, games)
            games = 0
        else:
            said = _jackpot_words(event, currency) or safe(kind)
            lines.append(step(f"{INDENT}#{sequence:<5} {at}  {said}"))
        for finding in hits:
            lines.append(
                flag(
                    f"{INDENT}{'':<17}! {finding.kind}: see finding "
                    f"{numbers.get(finding.finding_id)}"
                )
            )
    lines += marks.rest(_why(failing.get(marks.first or 0, []), None, by_sequence, numbers))
    lines += [BLANK, *_returns(verdict, currency)]
    return lines


def _ratio(value: Any) -> str:
    return "-" if value is None else percent(round(value * 10_000))


def _returns(verdict: Any, currency: str | None) -> list[Line]:
    """The metered return, per configuration when the paytable changed, against the
    theoretical return (PT-217/2007 III.2)."""
    lines = [heading("RETURN (coin out and jackpots against coin in, over the reconciled spans)")]
    periods = getattr(verdict, "configurations", ()) or ()
    if verdict.actual_return is None:
        return [*lines, note(f"{INDENT}no wager metered over a reconciled span")]
    several = len(periods) > 1
    for period in periods if several else ():
        lines.append(
            row(
                f"{INDENT}paytable {safe(period.paytable_id)} (from #{period.sequence}): metered "
                f"{_ratio(period.actual_return)} over {period.games:,} games, coin in "
                f"{money(period.coin_in, currency)}; its theoretical return "
                f"{_ratio(period.theoretical_return)}"
            )
        )
    promised = "weighted by coin in, " if several else ""
    lines.append(
        row(
            f"{INDENT}{'overall: ' if several else ''}metered {_ratio(verdict.actual_return)} "
            f"over {verdict.games:,} games; theoretical ({promised}the paytable) "
            f"{_ratio(verdict.theoretical_return)}"
        )
    )
    return lines


def _configured(config: Mapping[str, Any], previous: Mapping[str, Any] | None) -> str:
    at = clock(config.get("occurred_at"))
    currency = config.get("currency")
    width = config.get("meter_width_digits")
    rolls = f" (they roll over at {10**width:,})" if isinstance(width, int) else ""
    text = (
        f"paytable {safe(config.get('paytable_id'))}, theoretical return "
        f"{percent(config.get('theoretical_return_bps'))}, denomination "
        f"{money(config.get('denomination'), currency)}, largest single win "
        f"{money(config.get('max_single_win'), currency)}, meters of {safe(width)} digits{rolls}"
    )
    if config.get("jackpot_rate_bps") is not None:
        linked = config.get("jackpot_linked") or ()
        text += (
            f", jackpot {safe(config.get('jackpot_pool'))} at "
            f"{percent(config.get('jackpot_rate_bps'))} of every wager"
            + (f" (superjackpot of {len(linked)} linked machines)" if linked else "")
        )
    if previous is None:
        return f"{at}  configured: {text}"
    changed = [
        f"{label} {_setting(key, previous, currency)} -> {_setting(key, config, currency)}"
        for key, label in _SETTINGS.items()
        if previous.get(key) != config.get(key)
    ]
    return f"{at}  RECONFIGURED (#{safe(config.get('sequence'))}): " + (
        "; ".join(changed) if changed else "same terms"
    )


_JACKPOT_SHOWN = ("JackpotLevelRead", "JackpotAwarded", "JackpotTransferred", "JackpotReceived")
"""Jackpot records shown whether or not a finding marks them (a deduction only then)."""
_JACKPOT_WORDS = {
    "JackpotContributed": "deducted {amount} to jackpot {pool}",
    "JackpotLevelRead": "jackpot {pool} reads {amount} held",
    "JackpotAwarded": "jackpot {pool} awarded: {amount}",
    "JackpotTransferred": "jackpot {pool}: {amount} moved to machine {to_machine} ({reason})",
    "JackpotReceived": "jackpot {pool}: {amount} received from machine {from_machine}",
    "ConfigurationApproved": "approval {approval}: paytable {paytable_id}, model {model}",
}
"""Record type -> how a jackpot record or an approval reads (PT-217/2007 III.3-6, III.8)."""


def _jackpot_words(event: Mapping[str, Any], currency: str | None) -> str | None:
    words = _JACKPOT_WORDS.get(str(event.get("type")))
    if words is None:
        return None
    fields = {k: safe(v) for k, v in event.items()}
    return words.format_map({**fields, "amount": money(event.get("amount"), currency)})


_SETTINGS = {
    "paytable_id": "paytable",
    "theoretical_return_bps": "theoretical return",
    "return_sd_bps": "return standard deviation",
    "denomination": "denomination",
    "max_single_win": "largest single win",
    "meter_width_digits": "meter digits",
    "rulebook": "rulebook",
    "currency": "currency",
}


def _setting(key: str, config: Mapping[str, Any], currency: str | None) -> str:
    value = config.get(key)
    if key.endswith("_bps"):
        return percent(value)
    if key in ("denomination", "max_single_win"):
        return money(value, currency)
    return safe(value)


def _since(window: Any, by_sequence: Mapping[Any, Mapping[str, Any]]) -> str:
    start = by_sequence.get(window.start_sequence, {})
    return f"since #{window.start_sequence} {clock(start.get('occurred_at'), date=False)}"


def _reading(
    event: Mapping[str, Any],
    window: Any,
    by_sequence: Mapping[Any, Mapping[str, Any]],
    currency: str | None,
    games: int,
) -> list[Line]:
    sequence = event.get("sequence")
    at = clock(event.get("occurred_at"), date=False)
    reason = safe(event.get("reason"))
    if window is None:
        meters = event.get("meters") or {}
        shown = ", ".join(meter(m, meters.get(m), currency) for m in SHOWN if m in meters)
        return [
            step(f"{INDENT}#{sequence:<5} {at}  reading ({reason}), no window closes here: {shown}")
        ]
    lines = [
        step(
            f"{INDENT}#{sequence:<5} {at}  reading ({reason}), {_since(window, by_sequence)}, "
            f"{games} game(s) recorded: {_STATUS.get(window.status, safe(window.status))}"
        )
    ]
    if window.metered:
        moved = ", ".join(
            meter(m, window.metered.get(m), currency, sign=True)
            for m in SHOWN
            if m in window.metered
        )
        lines.append(state(f"{INDENT}{'':<17}deltas: {moved}"))
    for name in sorted(window.metered):
        metered, added = window.metered[name], window.event_sums.get(name, 0)
        if metered != added:
            unexplained = metered - added
            diff = f"{unexplained:+,}" if name in COUNTS else signed(unexplained, currency)
            lines.append(
                state(
                    f"{INDENT}{'':<17}{_label(name)}: the meters advanced "
                    f"{amount(name, metered, currency)}, the events add "
                    f"{amount(name, added, currency)} (difference {diff})"
                )
            )
    for name in window.rollovers:
        lines.append(state(f"{INDENT}{'':<17}rollover: {_label(name)} wrapped past zero (counted)"))
    return lines


def _why(
    hits: Sequence[Any],
    window: Any,
    by_sequence: Mapping[Any, Mapping[str, Any]],
    numbers: Mapping[str, int],
) -> str:
    if not hits:
        return "see the findings"
    first = hits[0]
    span = first.detail.get("window")
    where = ""
    if isinstance(span, list) and len(span) == 2:
        start, end = (by_sequence.get(s, {}) for s in span)
        where = (
            f" in the window #{span[0]} {clock(start.get('occurred_at'))} .. "
            f"#{span[1]} {clock(end.get('occurred_at'))}"
        )
    kinds = ", ".join(f"{f.kind} (finding {numbers.get(f.finding_id)})" for f in hits)
    return f"{kinds}{where}"
