"""``casino-audit show shoe:T:S``: a shoe's page, its rounds in play order judged whole.

The shoe is judged through the one judging path (``audit.judging.judge_shoe``, the
verdict ``replay`` and the nightly store): the header says how it was opened (decks, cut
card, burnt cards), each round one line (time, cards drawn, the shoe's count after it, a
void, the cut card coming out), the first round a finding points at marked, then the
findings in words and every stored verdict of the shoe (the header's and the story's words:
``audit.show.shoes``).
"""

from __future__ import annotations

from audit.current import Verdicts, current_of
from audit.grouping.subject_index import SubjectIndex
from audit.judging import (
    SHOE,
    TermsBook,
    context,
    findings_json,
    judge_shoe,
    rounds_of_shoe,
    shoe_of,
)
from audit.show.common import (
    adjudication_units,
    clock,
    fields,
    findings_section,
    history_section,
    numbered,
    rows,
    safe,
)
from audit.show.model import Part
from audit.show.shoes import opened_words, shoe_body
from audit.store import StoreReads
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
            ("opened", opened_words(opened)),
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
        tuple(shoe_body(ordered, found, numbers, opened)),
        tuple(findings_section(rows(found, about))),
        tuple(history_section(units)),
    )
