"""``casino-audit show`` for a banked round (every event with the table's state after it,
the outcome the rules rebuild, each bet due vs returned) and for a chemin de fer banker
run (``table:T``: the coups in order with banker, bank, stakes won and garage taken)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from audit.grouping.subject_index import SubjectIndex
from audit.show.banked_events import GAMES, bet_name, describe
from audit.show.common import (
    INDENT,
    Marks,
    cards,
    clock,
    flag,
    heading,
    money,
    row,
    safe,
    signed,
    state,
    step,
)
from audit.show.model import BLANK, Line
from audit.store import StoreReads

_MONEY_STATE = ("staked", "paid", "refunded", "commission", "cagnotte")
_MONEY_EVENTS = ("BetPlaced", "PayoutMade", "RefundPaid", "CommissionTaken", "CagnotteTaken")


def round_kind(first: Mapping[str, Any]) -> str:
    """A banked round in words, by its game (its ``RoundOpened``)."""
    return f"banked round ({GAMES.get(str(first.get('game')), safe(first.get('game')))})"


def round_body(
    verdict: Any, events: Sequence[Mapping[str, Any]], numbers: Mapping[str, int]
) -> list[Line]:
    """Bets, steps with the first divergence marked, outcome and settlement per bet."""
    opened = next((e for e in events if e.get("type") == "RoundOpened"), {})
    currency = opened.get("currency")
    bets = {e.get("bet_id"): e for e in events if e.get("type") == "BetPlaced"}
    lines = [heading(f"BETS ({len(bets)})")]
    for bet in bets.values():
        lines.append(
            row(
                f"{INDENT}bet {safe(bet.get('bet_id'))}: {safe(bet.get('player_id'))} "
                f"{money(bet.get('amount'), currency)} on {bet_name(bet)}"
                + (" (after 'no more bets')" if bet.get("after_no_more_bets") else "")
            )
        )
    marks = Marks(_anchor(verdict, f, events) for f in verdict.findings)
    lines += [BLANK, heading("STEP BY STEP (each event, then the table's state after it)")]
    for one in verdict.steps:
        event = one.event
        lines += marks.at(one.sequence, _why(marks, verdict, events, numbers))
        lines.append(
            step(
                f"{INDENT}#{one.sequence:<3} {clock(event.get('occurred_at'), date=False)}  "
                f"{describe(event, currency)}"
            )
        )
        after = _state(one.state, event, currency)
        if after:
            lines.append(state(f"{INDENT}{'':<15}{after}"))
        for finding in one.findings:
            lines.append(
                flag(
                    f"{INDENT}{'':<15}! {finding.kind}: see finding "
                    f"{numbers.get(finding.finding_id)}"
                )
            )
    lines += marks.rest(_why(marks, verdict, events, numbers))
    lines += [
        BLANK,
        heading("OUTCOME (as the rules rebuild it)"),
        row(f"{INDENT}{_outcome(verdict)}"),
    ]
    lines += [BLANK, *_per_bet(verdict, events, bets, currency)]
    return lines


def _state(state: Mapping[str, Any], event: Mapping[str, Any], currency: str | None) -> str:
    kind = event.get("type")
    if kind == "CardDealt":
        to = event.get("to")
        label = f"hand {event.get('hand')}" if to == "hand" else str(to)
        held = (state.get("cards") or {}).get(label, [])
        total = (state.get("totals") or {}).get(label)
        return f"{safe(label)}: {cards(held)}" + (f" (total {total})" if total is not None else "")
    if kind == "SpinResult":
        return f"pocket {safe(state.get('pocket'))}"
    if kind in ("RoundVoided", "RoundMalfunction"):
        return "status: void"
    if kind not in _MONEY_EVENTS:
        return ""
    parts = [
        f"{name} {money(state.get(name), currency)}" for name in _MONEY_STATE if state.get(name)
    ]
    return "so far: " + ", ".join(parts) if parts else ""


def _anchor(verdict: Any, finding: Any, events: Sequence[Mapping[str, Any]]) -> int | None:
    """The event a finding points at: its sequence, else the last payment on its bet,
    else the round's last event (settlement)."""
    sequence = finding.detail.get("sequence")
    if isinstance(sequence, int):
        return sequence
    bet = finding.detail.get("bet_id")
    paid = [
        e.get("sequence")
        for e in events
        if e.get("bet_id") == bet
        and e.get("type") in ("PayoutMade", "RefundPaid", "CommissionTaken")
    ]
    if paid:
        return paid[-1]
    return verdict.steps[-1].sequence if verdict.steps else None


def _why(
    marks: Marks, verdict: Any, events: Sequence[Mapping[str, Any]], numbers: Mapping[str, int]
) -> str:
    hits = [f for f in verdict.findings if _anchor(verdict, f, events) == marks.first]
    said = ", ".join(f"{f.kind} (finding {numbers.get(f.finding_id)})" for f in hits)
    settled = any(_settlement(f, events) for f in hits)
    return said + (
        " at settlement: the payment the rules require is missing or wrong" if settled else ""
    )


def _settlement(finding: Any, events: Sequence[Mapping[str, Any]]) -> bool:
    """A finding on what was (not) paid at the end, rather than on one event."""
    detail = finding.detail
    if isinstance(detail.get("sequence"), int):
        return False
    bet = detail.get("bet_id")
    return not any(
        e.get("bet_id") == bet and e.get("type") in ("PayoutMade", "RefundPaid", "CommissionTaken")
        for e in events
    )


_OUTCOME_WORDS: dict[tuple[str, Any], str] = {
    ("banco", True): "banco: one ponto staked the whole bank (PT-217/2007 I.45)",
    ("banco", False): "no banco: the pontos' stakes covered the bank",
    ("winner", None): "no winner: the coup was not completed",
}
"""Outcome values said in words (no Python literal such as ``False`` reaches a person)."""


def _outcome_value(key: str, value: Any) -> str:
    """One entry of a rebuilt outcome, in words."""
    words = _OUTCOME_WORDS.get((key, value)) if isinstance(value, bool | None) else None
    label = safe(key.replace("_", " "))
    if words is not None:
        return words
    if key == "winner":
        return f"the {safe(value)} wins" if value != "tie" else "a tie"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return f"{label} {cards(value)}"
    if isinstance(value, Mapping):
        return "; ".join(
            _outcome_value(f"{key.removesuffix('s')} {k}", v) for k, v in value.items()
        )
    if isinstance(value, bool):
        return f"{label}: {'yes' if value else 'no'}"
    if value is None:
        return f"{label}: none"
    return f"{label} {safe(value)}"


def _outcome(verdict: Any) -> str:
    outcome = dict(verdict.outcome or {})
    if verdict.void:
        return f"void: every stake is owed back ({safe(outcome.get('void', ''))})".replace(
            " ()", ""
        )
    if not outcome:
        return "not rebuilt (see the findings)"
    return "; ".join(_outcome_value(str(key), value) for key, value in outcome.items())


def _per_bet(
    verdict: Any,
    events: Sequence[Mapping[str, Any]],
    bets: Mapping[Any, Mapping[str, Any]],
    currency: str | None,
) -> list[Line]:
    lines = [heading("SETTLEMENT PER BET (due back under the rules vs returned as recorded)")]
    returned: dict[Any, int] = {}
    commission: dict[Any, int] = {}
    for e in events:
        if e.get("type") in ("PayoutMade", "RefundPaid"):
            returned[e.get("bet_id")] = returned.get(e.get("bet_id"), 0) + int(e.get("amount") or 0)
        elif e.get("type") == "CommissionTaken":
            commission[e.get("bet_id")] = commission.get(e.get("bet_id"), 0) + int(
                e.get("amount") or 0
            )
    for bet_id, bet in bets.items():
        due = verdict.expected_payouts.get(bet_id)
        got = returned.get(bet_id, 0)
        text = f"{INDENT}bet {safe(bet_id)} ({safe(bet.get('player_id'))}): "
        if due is None:
            text += (
                f"returned {money(got, currency)}; not determined by the rules "
                "(withdrawn or not judged)"
            )
        else:
            text += f"due {money(due, currency)}, returned {money(got, currency)}"
            if got != due:
                text += (
                    f": {money(due - got, currency)} owed to the player"
                    if due > got
                    else f": overpaid by {money(got - due, currency)}"
                )
        fee = verdict.expected_commissions.get(bet_id)
        if fee or commission.get(bet_id):
            taken = commission.get(bet_id, 0)
            text += f"; commission due {money(fee or 0, currency)}, taken {money(taken, currency)}"
        lines.append(row(text))
    if verdict.expected_cagnotte is not None:
        taken = sum(int(e.get("amount") or 0) for e in events if e.get("type") == "CagnotteTaken")
        lines.append(
            row(
                f"{INDENT}cagnotte: due {money(verdict.expected_cagnotte, currency)}, taken "
                f"{money(taken, currency)}"
            )
        )
    return lines


# ------------------------------------------------------------------ banker runs


def coups_at(
    store: StoreReads, table_id: str, index: SubjectIndex | None = None
) -> list[tuple[str, list[dict[str, Any]]]]:
    """The table's stored chemin de fer coups, in start order (as the garage rule reads
    them, ``replayer.casino.garage``); the table's rounds found by ``index`` (by default
    a scan of the stored rounds, ``audit.grouping.subject_index``), read from the store."""
    stored: Iterable[tuple[str, list[dict[str, Any]]]] = (
        store.iter_subjects("banked")
        if index is None
        else store.records_of_many("banked", index.subjects_at("banked", table_id)).items()
    )
    found = [
        (subject, records)
        for subject, records in stored
        if records
        and str(records[0].get("table_id")) == table_id
        and records[0].get("game") == "chemin_de_fer"
    ]
    return play_sorted(found)


def play_sorted(
    coups: Iterable[tuple[str, list[dict[str, Any]]]],
) -> list[tuple[str, list[dict[str, Any]]]]:
    """Coups in play order: by start, then round id."""
    return sorted(coups, key=lambda item: (_start(item[1]), item[0]))


def _start(records: Sequence[Mapping[str, Any]]) -> Any:
    when = records[0].get("occurred_at")
    return when.timestamp() if isinstance(when, datetime) else 0.0


Settled = Callable[[str, Sequence[dict[str, Any]]], tuple[dict[str, int], bool]]
"""(a coup's id, its events) -> its expected payouts by bet and whether it is void, as the
replayer gives them (``audit.explain.banker_runs.settled``)."""


def banker_run_body(
    coups: Sequence[tuple[str, list[dict[str, Any]]]],
    findings: Sequence[Mapping[str, Any]],
    numbers: Mapping[str, int],
    settled: Settled,
) -> list[Line]:
    """Each coup: banker, bank played, stakes, result, stakes won, bank after, garage;
    each coup settled by ``settled``."""
    flagged: dict[str, list[Mapping[str, Any]]] = {}
    for finding in findings:
        flagged.setdefault(str(finding.get("subject")), []).append(finding)
    order = {subject: n for n, (subject, _) in enumerate(coups)}
    marks = Marks(order.get(s) for s in flagged)
    lines = [
        heading(
            f"COUPS IN ORDER ({len(coups)}; the garage is what the banker takes out of the bank)"
        )
    ]
    previous: dict[str, Any] | None = None
    for n, (round_id, events) in enumerate(coups):
        currency = events[0].get("currency")
        bank = next(
            (e for e in events if e.get("type") == "BetPlaced" and e.get("bet_type") == "bank"),
            None,
        )
        payouts, void = settled(round_id, events)
        hits = flagged.get(round_id, [])
        why = ", ".join(
            f"{f.get('kind')} (finding {numbers.get(str(f.get('finding_id')))})" for f in hits
        )
        lines += marks.at(n, why, where=f"coup {safe(round_id)}")
        at = clock(events[0].get("occurred_at"))
        if bank is None:
            lines.append(
                step(f"{INDENT}{safe(round_id)}  {at}  no single bank bet: the run is broken")
            )
            previous = None
            continue
        pontos = sum(
            int(e.get("amount") or 0)
            for e in events
            if e.get("type") == "BetPlaced" and e.get("bet_type") == "ponto"
        )
        staked = int(bank.get("amount") or 0)
        after = payouts.get(str(bank.get("bet_id")), staked)
        result = (
            "void" if void else "won" if after > staked else "tie" if after == staked else "lost"
        )
        banker = bank.get("player_id")
        same_run = previous if previous is not None and previous["banker"] == banker else None
        garage = ""
        if same_run is not None and staked < same_run["after"]:
            garage = f"; garage taken {money(same_run['after'] - staked, currency)}"
        elif same_run is None:
            garage = "; a new banker's run starts"
        won_coups = (same_run["wins"] if same_run is not None else 0) + (result == "won")
        lines.append(
            step(
                f"{INDENT}{safe(round_id)}  {at}  banker {safe(bank.get('player_id'))} plays "
                f"{money(staked, currency)} against stakes of {money(pontos, currency)}: {result}"
                + (
                    f", stakes won {money(min(pontos, staked), currency)}"
                    if result == "won"
                    else ""
                )
                + f"; bank after {money(after, currency)}{garage}; won coups in the run {won_coups}"
            )
        )
        for finding in hits:
            lines.append(
                flag(
                    f"{INDENT}{'':<4}! {finding.get('kind')}: see finding "
                    f"{numbers.get(str(finding.get('finding_id')))} (allowed: "
                    + ", ".join(money(v, currency) for v in finding.get("expected") or ())
                    + f"; played {money(finding.get('recorded'), currency)}"
                    + (
                        f", {signed(finding['difference'], currency)}"
                        if isinstance(finding.get("difference"), int)
                        else ""
                    )
                    + ")"
                )
            )
        previous = {"banker": bank.get("player_id"), "after": after, "wins": won_coups}
    lines += marks.rest("a finding on a coup not stored here")
    return lines
