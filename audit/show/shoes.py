"""``casino-audit show shoe:T:S``: a shoe's rounds in play order, judged whole (the page is
composed, and the shoe judged, by ``audit.explain.shoes``).

The header says how the shoe was opened (decks, cut card, burnt cards: ``opened_words``);
the story (``shoe_body``) is each round one line (time, cards drawn, the shoe's count
after it, a void, the cut card coming out), the first round a finding points at marked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.show.common import INDENT, Marks, cards, clock, flag, heading, safe, step
from audit.show.model import Line
from replayer.casino.record import VOID_TYPES


def opened_words(opened: Mapping[str, Any] | None) -> str:
    """How a shoe was opened (its ``ShoeOpened``: decks, cut card, burnt cards)."""
    if opened is None:
        return "not recorded (judged on the rulebook's decks)"
    cut = opened.get("cut_card_from_end")
    burnt = opened.get("burnt") or ()
    return (
        f"{safe(opened.get('decks'))} decks, cut card "
        + (f"{safe(cut)} cards from the end" if cut is not None else "not recorded")
        + (f", burnt {cards(burnt)}" if burnt else ", none burnt")
    )


def shoe_body(
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
