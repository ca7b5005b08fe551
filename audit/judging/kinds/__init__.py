"""Every kind of subject the judging path judges: one ``SubjectKind`` record each, in its
family's module (``poker``, ``banked``, ``slots``, ``tournament``, ``table``, and the kinds
judged across others: ``banker_run``, ``table_session``, ``shoe``).

Adding a family is adding its record module and its rules, and its record to
``SUBJECT_KINDS``; the judging path (``audit.judging.path``), replay, ``show`` and the
evidence bundles read the record and decide nothing by the kind's name.
"""

from __future__ import annotations

from audit.judging.kinds.banked import BANKED
from audit.judging.kinds.banker_run import BANKER_RUN, BANKER_RUNS
from audit.judging.kinds.poker import POKER
from audit.judging.kinds.record import EvidencePart, Feed, SubjectKind
from audit.judging.kinds.shoe import SHOE, SHOES
from audit.judging.kinds.slots import SLOTS
from audit.judging.kinds.table import TABLE
from audit.judging.kinds.table_session import SESSION, TABLE_SESSION
from audit.judging.kinds.tournament import TOURNAMENT
from replayer.verdict import Verdict

SUBJECT_KINDS: dict[str, SubjectKind[Verdict]] = {
    kind.name: kind
    for kind in (POKER, BANKED, SLOTS, TOURNAMENT, TABLE, BANKER_RUNS, SESSION, SHOES)
}
"""Kind name -> its record; the stored kinds in the order ``replay`` judges them, then the
kinds judged across others in the order ``show`` tries their id shapes."""
STORED_KINDS = tuple(name for name, kind in SUBJECT_KINDS.items() if kind.across is None)
"""The kinds with stored events of their own, judged one subject at a time."""


def subject_kind(name: str) -> SubjectKind[Verdict] | None:
    """The record of the kind ``name`` (None: no kind the judging path judges)."""
    return SUBJECT_KINDS.get(name)


def judged_across(subject: str) -> tuple[str, ...]:
    """The kinds judged across other subjects whose id shape ``subject`` has."""
    return tuple(
        name for name, kind in SUBJECT_KINDS.items() if kind.across and kind.across(subject)
    )


__all__ = [
    "BANKER_RUN",
    "SHOE",
    "STORED_KINDS",
    "SUBJECT_KINDS",
    "TABLE_SESSION",
    "EvidencePart",
    "Feed",
    "SubjectKind",
    "judged_across",
    "subject_kind",
]
