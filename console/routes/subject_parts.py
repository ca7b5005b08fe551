"""What a subject page computes from the stored events, kept until the store changes.

A subject's explanation replays it (``audit.explain.explanation``: a slot machine's whole
stream of readings, a table's declarations, a session's hands), its verdict history and
links read the store: all pure functions of the stored events, so the page keeps them
per subject until the store holds events it did not before
(``console.readmodel.kept``: the console's own looks never count), and a view of a
subject already explained replays nothing. The stored events are shown
``EVENTS_SHOWN`` to a page, the latest first kept (``events_upto``: the page ending
before that position, with links to the older and newer ones): a page's HTML is
bounded by what it shows, not by the subject's history; the evidence bundle has them
all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from audit.evidence.bundle import KINDS
from audit.evidence.check import SUSPECTS
from audit.explain import explanation
from audit.judging import UnitKey, judged_across
from audit.show import adjudication_units, collusion_nights
from audit.show.model import Explanation
from console.readmodel.pagereads import PageReads
from console.readmodel.queries import ModelVerdicts
from console.routes.render import record_json
from console.routes.subject_links import SubjectLinks, subject_links
from console.runtime import Runtime

EVENTS_SHOWN = 100
"""Stored events of one kind shown on a subject page at a time (a slot machine's stream
grows by about 1,300 a day)."""


@dataclass(frozen=True, slots=True)
class StoredPage:
    """One kind's stored events on the page: ``shown`` (as JSON) are those at positions
    ``start`` to ``end`` (exclusive) of ``total``, in stored order."""

    shown: tuple[str, ...]
    start: int
    end: int
    total: int


@dataclass(frozen=True, slots=True)
class SubjectParts:
    """A subject page's parts that come from the store (see the module docstring)."""

    explanation: Explanation | None
    unexplained: str | None
    stored: Mapping[str, StoredPage]
    units: Sequence[tuple[str, Mapping[str, Any]]]
    links: SubjectLinks
    suspicion: bool


def subject_parts(rt: Runtime, subject: str, events_upto: int | None = None) -> SubjectParts:
    """The parts of ``subject``'s page: kept for the latest events (``events_upto`` None),
    made now for an older page of its events."""
    if events_upto is None:
        kept: SubjectParts = rt.subject_parts.of(subject, lambda: _made(rt, subject, None))
        return kept
    return _made(rt, subject, events_upto)


def _made(rt: Runtime, subject: str, events_upto: int | None) -> SubjectParts:
    verdicts = ModelVerdicts(rt.model)
    reads = PageReads(rt.store, subject, KINDS)  # what show and the page share
    explained: Explanation | None = None
    unexplained = None
    try:
        explained = explanation(reads, subject, verdicts, verdicts)
    except Exception as error:  # a record show cannot read: still show its events
        unexplained = f"cannot be explained step by step: {error!r}"[:300]
    stored = {kind: reads.records_of(kind, subject) for kind in KINDS}
    stored = {kind: records for kind, records in stored.items() if records}
    keys: list[UnitKey] = [(kind, subject) for kind in stored]
    keys += [(kind, subject) for kind in judged_across(subject)]
    units: Sequence[tuple[str, Mapping[str, Any]]] = adjudication_units(reads, keys, verdicts)
    suspicion = subject.startswith(SUSPECTS)
    if suspicion:  # the detector's units, as show lists them
        units = [unit for _, unit in collusion_nights(reads, subject, verdicts).values()]
    return SubjectParts(
        explained,
        unexplained,
        {kind: _page(records, events_upto) for kind, records in stored.items()},
        units,
        subject_links(rt.model, rt.store, subject),
        suspicion,
    )


def _page(records: Sequence[Mapping[str, Any]], upto: int | None) -> StoredPage:
    """The ``EVENTS_SHOWN`` records before position ``upto`` (None: the latest)."""
    end = len(records) if upto is None else min(max(upto, 0), len(records))
    start = max(0, end - EVENTS_SHOWN)
    if end == start and records:  # before the first: the first page
        start, end = 0, min(EVENTS_SHOWN, len(records))
    return StoredPage(tuple(record_json(r) for r in records[start:end]), start, end, len(records))
