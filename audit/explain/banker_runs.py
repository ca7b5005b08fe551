"""``casino-audit show table:T``: a table's chemin de fer banker runs, the one
``banker_run`` kind (PT-217/2007 I.34, I.46: the garage rule judged across a banker's
consecutive coups, ``audit.judging.banker_runs``).

The page is its current verdict: the findings that verdict holds, the coups it judged in
play order (the verdict names them, ``rounds``: the night's coups at the table when the
nightly judged them, every stored coup when ``replay`` did), so a page reads those coups
and not the table's whole history; a table whose coups no verdict judged yet shows every
stored coup (``audit.show.banked.coups_at``). Its history is every stored verdict of
the subject, newest first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.current import Verdicts, current_of
from audit.grouping.subject_index import SubjectIndex
from audit.judging import BANKER_RUN, Inputs, is_coup, judge
from audit.show.banked import banker_run_body, coups_at, play_sorted
from audit.show.common import (
    adjudication_units,
    clock,
    fields,
    findings_section,
    history_section,
    latest_declaration,
    numbered,
    rows,
    safe,
)
from audit.show.model import Part
from audit.store import StoreReads

Coups = list[tuple[str, list[dict[str, Any]]]]

_SETTLED: dict[tuple[str, int, str], tuple[dict[str, int], bool]] = {}
_SETTLED_MAX = 200_000


def settled(round_id: str, events: Sequence[dict[str, Any]]) -> tuple[dict[str, int], bool]:
    """A coup's expected payouts by bet and whether it is void, as the replayer gives them
    from its events alone (the table's terms and conflicting versions change neither).

    Kept per (round, number of events, last event id): a subject's stored events are
    append-only, one per sequence, so these name its events; a banker-run page lists every
    coup at its table and would otherwise replay them all at each view."""
    key = (round_id, len(events), str(events[-1].get("event_id")) if events else "")
    kept = _SETTLED.get(key)
    if kept is None:
        verdict = judge(Inputs("banked", round_id, events))
        payouts = getattr(verdict, "expected_payouts", None) or {}
        kept = (dict(payouts), bool(getattr(verdict, "void", False)))
        if len(_SETTLED) >= _SETTLED_MAX:
            _SETTLED.clear()
        _SETTLED[key] = kept
    return kept


def judged_coups(
    store: StoreReads,
    table_id: str,
    verdict: Mapping[str, Any] | None,
    index: SubjectIndex | None = None,
) -> Coups:
    """The coups ``verdict`` judged (its ``rounds``), in play order; without a verdict
    naming them, every stored coup at the table (``coups_at``)."""
    judged = [str(r) for r in (verdict or {}).get("rounds") or ()]
    if not judged:
        return coups_at(store, table_id, index)
    stored = store.records_of_many("banked", judged)
    return play_sorted([(r, stored[r]) for r in judged if is_coup(stored.get(r) or [])])


def banker_run_part(
    store: StoreReads, subject: str, verdicts: Verdicts | None, index: SubjectIndex | None
) -> Part | None:
    """The banker runs ``subject`` (``table:T``) explained; None when neither a verdict
    nor a coup is stored for it."""
    table_id = subject.removeprefix("table:")
    units = adjudication_units(store, [(BANKER_RUN, subject)], verdicts)
    current = current_of(units)
    coups = judged_coups(store, table_id, current, index)
    if current is None and not coups:
        return None
    found = list(current.get("findings") or ()) if current else []
    numbers = numbered(found)
    first = coups[0][1][0] if coups else {}
    declared = latest_declaration(store.records_of("table", table_id))
    rulebook = current.get("rulebook") if current else first.get("rulebook")
    about: dict[str, Any] = {
        "subject_kind": BANKER_RUN,
        "rulebook": rulebook,
        "currency": first.get("currency"),
        "table": table_id,
        "players": {},
        "operator": declared.get("operator"),
        "started_at": first["occurred_at"].isoformat()
        if hasattr(first.get("occurred_at"), "isoformat")
        else None,
    }
    header = fields(
        [
            ("subject", safe(subject)),
            ("kind", "chemin de fer banker runs (the garage rule across coups)"),
            ("rulebook", safe(rulebook)),
            ("started at", clock(first.get("occurred_at")) if first else "unknown"),
            ("table", safe(table_id)),
            ("operator", safe(about["operator"]) if about["operator"] else None),
            ("currency", safe(about["currency"]) if about["currency"] else None),
        ],
    )
    return Part(
        f"CHEMIN DE FER BANKER RUNS {safe(subject)}",
        header,
        tuple(banker_run_body(coups, found, numbers, settled)),
        tuple(findings_section(rows(found, about), variant="chemin_de_fer")),
        tuple(history_section(units)),
    )
