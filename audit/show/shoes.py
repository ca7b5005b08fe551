"""``casino-audit show shoe:T:S``: a shoe's rounds in play order, judged whole.

The shoe is judged through the one judging path (``audit.judging.judge_shoe``, the
verdict ``replay`` and the nightly store): the header says how it was opened (decks, cut
card, burnt cards), each round one line (time, cards drawn, the shoe's count after it, a
void, the cut card coming out), the first round a finding points at marked, then the
findings in words and every stored verdict of the shoe.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.grouping.subject_index import SubjectIndex
from audit.judging import (
    SHOE,
    TermsBook,
    Verdicts,
    context,
    current_of,
    findings_json,
    judge_shoe,
    rounds_of_shoe,
    shoe_of,
)
from audit.show.common import (
    INDENT,
    Marks,
    adjudication_units,
    cards,
    clock,
    fields,
    findings_section,
    flag,
    heading,
    history_section,
    numbered,
    rows,
    safe,
    step,
)
from audit.show.model import Line, Part
from audit.store import StoreReads
from replayer.casino.record import VOID_TYPES
from replayer.casino.shoes import play_order


def shoe_part(
    store: StoreReads,
    subject: str,
    verdicts: Verdicts | None = None,
    index: SubjectIndex | None = None,
) -> Part | None:
    """The shoe ``subject`` explained; None when no stored round was dealt from it (its
    rounds found through ``index`` when given, ``rounds_of_shoe``)."""
    units = adjudication_units(store, [(SHOE, subject)], verdicts)
    dealt = rounds_of_shoe(store, subject, index, current_of(units))
    if not dealt:
        return None
    key = shoe_of(dealt[0])
    assert key is not None  # rounds_of_shoe keeps rounds dealt from a shoe
    inputs, verdict = judge_shoe(key, dealt, TermsBook(store))
    found = findings_json(verdict)
    numbers = numbered(found)
    about = {"subject_kind": SHOE, "rulebook": verdict.rulebook_id, **context(inputs)}
    ordered = sorted(dealt, key=play_order)
    opened = next((e for r in ordered for e in r if e.get("type") == "ShoeOpened"), None)
    header = fields(
        [
            ("subject", safe(subject)),
            ("kind", "shoe (its rounds judged together)"),
            ("rulebook", safe(verdict.rulebook_id)),
            ("started at", clock(ordered[0][0].get("occurred_at"))),
            ("table", safe(key[0])),
            ("shoe", safe(key[1])),
            ("operator", safe(about["operator"]) if about.get("operator") else None),
            ("opened", _opened(opened)),
            (
                "counted",
                f"{verdict.rounds} round(s), {verdict.voided} voided, "
                f"{verdict.cards_drawn} card(s) drawn",
            ),
        ]
    )
    return Part(
        f"SHOE {safe(subject)}",
        header,
        tuple(_body(ordered, found, numbers, opened)),
        tuple(findings_section(rows(found, about))),
        tuple(history_section(units)),
    )


def _opened(opened: Mapping[str, Any] | None) -> str:
    if opened is None:
        return "not recorded (judged on the rulebook's decks)"
    cut = opened.get("cut_card_from_end")
    burnt = opened.get("burnt") or ()
    return (
        f"{safe(opened.get('decks'))} decks, cut card "
        + (f"{safe(cut)} cards from the end" if cut is not None else "not recorded")
        + (f", burnt {cards(burnt)}" if burnt else ", none burnt")
    )


def _body(
    ordered: Sequence[Sequence[Mapping[str, Any]]],
    found: Sequence[Mapping[str, Any]],
    numbers: Mapping[str, int],
    opened: Mapping[str, Any] | None,
) -> list[Line]:
    """Each round: time, cards, the count after it, void, cut card; flagged rounds."""
    flagged: dict[str, list[Mapping[str, Any]]] = {}
    for finding in found:
        flagged.setdefault(str(finding.get("subject")), []).append(finding)
    order = {str(r[0].get("round_id")): n for n, r in enumerate(ordered)}
    marks = Marks(order.get(s) for s in flagged)
    lines = [heading(f"ROUNDS IN PLAY ORDER ({len(ordered)}; voided rounds' cards count too)")]
    out = len(opened.get("burnt") or ()) if opened else 0
    for n, events in enumerate(ordered):
        round_id = str(events[0].get("round_id"))
        dealt = [e.get("card") for e in events if e.get("type") == "CardDealt"]
        out += len(dealt)
        hits = flagged.get(round_id, [])
        why = ", ".join(
            f"{f.get('kind')} (finding {numbers.get(str(f.get('finding_id')))})" for f in hits
        )
        lines += marks.at(n, why, where=f"round {safe(round_id)}")
        marks_text = "".join(
            text
            for present, text in (
                (any(e.get("type") in VOID_TYPES for e in events), "; voided"),
                (any(e.get("type") == "CutCardDrawn" for e in events), "; the cut card came out"),
                (any(e.get("type") == "ShoeEnded" for e in events), "; the shoe ended"),
            )
            if present
        )
        lines.append(
            step(
                f"{INDENT}{safe(round_id)}  {clock(events[0].get('occurred_at'))}  "
                f"{cards(dealt)}; {out} card(s) out of the shoe{marks_text}"
            )
        )
        lines += [
            flag(
                f"{INDENT}{'':<4}! {safe(f.get('kind'))}: see finding "
                f"{numbers.get(str(f.get('finding_id')))}"
            )
            for f in hits
        ]
    lines += marks.rest("a finding on a round not stored here")
    return lines
