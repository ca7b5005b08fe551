"""``casino-audit show ID`` (alias ``hand ID``): any stored subject explained for an
inspector who is not a programmer.

The subject is looked up in every event family (poker hand, banked round, slot machine,
tournament, table declarations, incident); ``pair:A|B`` (or ``ring:A|B|C``) is a
suspected collusion the nightly detector stored, ``table:T`` the chemin de fer banker
runs at table T (``audit.explain.banker_runs``), ``shoe:T:S`` the rounds table T dealt
from shoe S (``audit.explain.shoes``), ``<table>@<first hand>`` a poker table session
(``audit.explain.sessions``). Each family's
subject is judged through the one judging path
(``audit.judging.judge_stored``: the verdict ``replay`` stores), then explained
(``explanation``: data, ``audit.show.model``) as

* a header: subject, kind, rulebook, start, table or machine, operator, currency;
* its story, told by its kind's record (``SubjectKind.shown``: a function of
  ``audit.show.poker``, ``banked``, ``slots``, ``tournament`` or ``records``, with what
  the kind adds to the header), with the first point where expected and recorded part ways marked
  (a ``Role.DIVERGENCE`` line, printed ``>>> first divergence ...``);
* its findings in words (``audit.wording.sentence``) with each rule's summary
  (``replayer.rulebooks.citations.summary_line``), and for ``no_rulebook`` the
  ``--rulebook`` that would judge it;
* its verdict history: every stored adjudication of the subject, newest first.

``show_lines`` prints it (``audit.show.text``) for the command line; the console
renders it with templates. Money is written in the subject's currency
(``audit.notation.money.format_money``); every name is passed through
``audit.wording.terminal_safe``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from audit.current import Verdicts, current_of
from audit.explain.banker_runs import banker_run_part
from audit.explain.sessions import session_part
from audit.explain.shoes import shoe_part
from audit.grouping.subject_index import SubjectIndex
from audit.judging import (
    BANKER_RUN,
    SHOE,
    STORED_KINDS,
    SUBJECT_KINDS,
    TABLE_SESSION,
    Inputs,
    context,
    findings_json,
    judge_stored,
    judged_across,
    opening,
    started_at,
)
from audit.show.common import (
    adjudication_units,
    clock,
    collusion_nights,
    fields,
    findings_section,
    history_section,
    numbered,
    rows,
    safe,
)
from audit.show.model import Explanation, Part, Unjudged
from audit.show.records import collusion_body, incident_body
from audit.show.text import explanation_lines
from audit.store import StoreReads
from replayer.rulebooks.citations import resolve
from replayer.verdict import Verdict

INCIDENT = "incident"


def show_lines(
    store: StoreReads, subject_id: str, verdicts: Verdicts | None = None
) -> list[str] | None:
    """The lines explaining ``subject_id`` (``explanation`` as text); None when no such
    subject is stored."""
    explained = explanation(store, subject_id, verdicts)
    return None if explained is None else explanation_lines(explained)


def explanation(
    store: StoreReads,
    subject_id: str,
    verdicts: Verdicts | None = None,
    index: SubjectIndex | None = None,
) -> Explanation | None:
    """``subject_id`` explained, one part per family it is stored under; None when no
    such subject is stored. ``verdicts`` finds its verdict units
    (``audit.judging.Verdicts``; by default a scan of every stored unit id), ``index`` a
    table's coups and a tournament's hands (``audit.grouping.subject_index``; by default a scan)."""
    parts: list[Part | Unjudged] = []
    for kind in STORED_KINDS:
        try:
            judged = judge_stored(store, kind, subject_id, with_steps=True)
        except (KeyError, TypeError, ValueError, IndexError) as error:
            title = SUBJECT_KINDS[kind].title
            parts.append(Unjudged(f"{title} {safe(subject_id)}", safe(error)))
            continue
        if judged is not None:
            parts.append(_judged(store, kind, subject_id, *judged, verdicts, index))
    events = store.records_of(INCIDENT, subject_id)
    if events:
        parts.append(_incident(store, subject_id, events, verdicts))
    if not parts and subject_id.startswith(("pair:", "ring:")):
        parts += [part for part in [_collusion(store, subject_id, verdicts)] if part]
    across: dict[str, Callable[[], Part | None]] = {
        BANKER_RUN: lambda: banker_run_part(store, subject_id, verdicts, index),
        TABLE_SESSION: lambda: session_part(store, subject_id, verdicts),
        SHOE: lambda: shoe_part(store, subject_id, verdicts, index),
    }
    for kind in judged_across(subject_id):
        if not parts:
            parts += [part for part in [across[kind]()] if part]
    if not parts:
        return None
    return Explanation(safe(subject_id), tuple(parts))


def _judged(
    store: StoreReads,
    kind: str,
    subject: str,
    inputs: Inputs,
    verdict: Verdict,
    verdicts: Verdicts | None,
    index: SubjectIndex | None,
) -> Part:
    about = {"subject_kind": kind, "rulebook": verdict.rulebook_id, **context(inputs)}
    record = SUBJECT_KINDS[kind]
    shown = record.shown
    if shown is None:
        raise TypeError(f"the kind {kind} has no show story (SubjectKind.shown)")
    first = opening(kind, inputs.events) or {}
    variant = first.get("variant") or first.get("game") or shown.variant
    when = started_at(kind, inputs.events)
    what = shown.what(first) if shown.what else record.noun
    if shown.setting:
        setting = shown.setting(inputs.events)
        variant, when = setting.variant, setting.started_at
        about["currency"] = about.get("currency") or setting.currency
        about["operator"] = about.get("operator") or setting.operator
    findings = findings_json(verdict)
    numbers = numbered(findings)
    header = fields(
        [
            ("subject", safe(subject)),
            ("kind", what),
            ("rulebook", _rulebook_words(verdict.rulebook_id, findings, record.no_rulebook)),
            ("started at", clock(when) if when else "unknown"),
            (record.place, safe(about.get("table"))),
            ("operator", safe(about.get("operator")) if about.get("operator") else None),
            ("currency", safe(about.get("currency")) if about.get("currency") else None),
            *(shown.more(store, subject, first, index) if shown.more else ()),
        ],
    )
    story = shown.story(inputs, verdict, about, numbers)
    units = adjudication_units(store, [(kind, subject)], verdicts)
    return Part(
        f"{record.title} {safe(subject)}",
        header,
        story,
        tuple(findings_section(rows(findings, about), variant=variant, at=when)),
        tuple(history_section(units, judged_digest=inputs.digest(verdict.rulebook_id))),
    )


def _rulebook_words(
    rulebook: str | None, findings: Sequence[Mapping[str, Any]], unnamed: str
) -> str:
    """The rulebook a verdict names; without one (a tournament's own rules are its
    announcement), the texts its findings cite, never "none" beside a citation; else
    what its kind says of a verdict with none (``unnamed``)."""
    if rulebook:
        return safe(rulebook)
    sources = sorted(
        {a.source for f in findings for a in resolve(str(f.get("citation") or "")) if a.source}
    )
    if sources:
        return "no rulebook id; its findings cite " + ", ".join(safe(s) for s in sources)
    return unnamed


def _incident(
    store: StoreReads,
    subject: str,
    events: Sequence[Mapping[str, Any]],
    verdicts: Verdicts | None,
) -> Part:
    ordered = sorted(events, key=lambda e: e.get("sequence", 0))
    state: dict[str, Any] = {}
    for event in ordered:
        state.update({k: v for k, v in event.items() if v not in (None, [], "")})
    units = adjudication_units(store, [(INCIDENT, subject)], verdicts)
    unit = current_of(units)
    findings = list(unit.get("findings") or ()) if unit else []
    tables = ", ".join(safe(t) for t in state.get("tables") or ()) or None
    about = {
        "subject_kind": INCIDENT,
        "rulebook": None,
        "table": None,
        "started_at": state["window_start"].isoformat()
        if hasattr(state.get("window_start"), "isoformat")
        else None,
        **((unit or {}).get("context") or {}),
    }
    header = fields(
        [
            ("subject", safe(subject)),
            ("kind", f"incident ({safe(state.get('kind'))})"),
            ("rulebook", "each subject in flight under its own"),
            ("started at", clock(state.get("window_start"))),
            ("tables", tables),
            ("operator", None),
            ("currency", None),
        ],
    )
    found = [row for f in findings for row in rows([f], {**about, **_about(store, f)})]
    return Part(
        f"INCIDENT {safe(subject)}",
        header,
        tuple(incident_body(ordered, unit)),
        tuple(findings_section(found)),
        tuple(history_section(units)),
    )


def _about(store: StoreReads, finding: Mapping[str, Any]) -> dict[str, Any]:
    """Who and what an incident's finding is about: its subject's own context (currency,
    table, players), read from the stored events of the first kind that can be in flight
    (``SubjectKind.in_flight``) holding it."""
    subject = str(finding.get("subject"))
    for kind in (name for name, record in SUBJECT_KINDS.items() if record.in_flight):
        events = store.records_of(kind, subject)
        if events:
            return {"subject_kind": kind, **context(Inputs(kind, subject, events))}
    return {}


def _collusion(store: StoreReads, subject: str, verdicts: Verdicts | None) -> Part | None:
    """The latest stored suspicion on a pair (or ring), from the nightly detector's units."""
    by_night = collusion_nights(store, subject, verdicts)
    if not by_night:
        return None
    nights = sorted(by_night.items(), reverse=True)
    finding = nights[0][1][0]
    numbers = numbered([finding])
    about = {"subject_kind": "collusion", **(nights[0][1][1][1].get("context") or {})}
    detail = finding.get("detail") or {}
    header = fields(
        [
            ("subject", safe(subject)),
            ("kind", "collusion (nightly detector)"),
            ("rulebook", "the citation below"),
            (
                "started at",
                f"window of {safe((detail.get('window') or {}).get('days'))} days "
                f"to {safe(nights[0][0])}",
            ),
            ("players", ", ".join(safe(p) for p in detail.get("players") or ())),
            ("operator", None),
            ("currency", None),
        ],
    )
    return Part(
        f"COLLUSION SUSPECTED {safe(subject)}",
        header,
        tuple(collusion_body(store, finding, [(day, f) for day, (f, _) in nights], numbers)),
        tuple(findings_section(rows([finding], about))),
        tuple(history_section([unit for _, unit in by_night.values()])),
    )
