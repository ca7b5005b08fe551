"""The nightly job's own facts in the store, beside the replayer's verdicts.

Everything the job concludes is an ``adjudication`` subject holding one
``HandAdjudicated`` record (the store's only adjudication record type), so
``casino-audit findings`` lists detector and data-quality findings with the replayer's:

- ``data_quality`` over ``<day>/<shard>``: the shard's failed expectations as findings,
  its check outcomes and the report's figures (``profile``);
- ``nightly`` over ``<day>/<shard>``: which verdicts the night's replay of the shard
  relied on (no findings of its own);
- ``collusion_state`` over ``<day>/<shard>``: the collusion detector's counts and sums over
  the shard's hands (``CollusionDetector.state``), merged over the window by the detector;
- one per detector (``collusion``, ``meters``) over ``<day>``: the detector's findings.

A unit's id is ``<kind>:<scope>|<replayer version>|<digest of its content>``: rerunning
a day with the same input stores nothing new; a rerun that concludes differently is a
new, later unit, and the latest unit of a (kind, scope) is the current one (as for
verdicts, ``audit.adjudicate.current_adjudications``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import date
from typing import Any

from audit.adjudicate import KIND as ADJUDICATION
from audit.judging import adjudication_record, adjudication_unit
from audit.store import AuditStore, SubjectRecords, canonical, record_digest
from replayer.findings import Finding, FindingKind

QUALITY, LEDGER, COLLUSION_STATE = "data_quality", "nightly", "collusion_state"


def unit(kind: str, scope: str, findings: Iterable[Finding], **content: Any) -> SubjectRecords:
    """The store unit of one conclusion of the nightly job (see the module docstring),
    identified by the digest of its own content."""
    record = adjudication_record(kind, scope, [f.to_record() for f in findings], **content)
    return adjudication_unit(record, record_digest([canonical(record)]))


def verdict_key(unit_id: str) -> tuple[str, str]:
    """(kind, scope) of a unit id ``kind:scope|version|digest``."""
    kind, _, rest = unit_id.partition(":")
    return kind, rest.rsplit("|", 2)[0]


def iter_days_units(
    store: AuditStore, days: Iterable[date], kinds: Iterable[str]
) -> Iterator[tuple[tuple[str, str], dict]]:
    """((kind, scope), current record) of the units of ``kinds`` whose scope is one of
    ``days``, in (kind, scope) order, read one at a time (a day's ledgers and detector
    states are never all in memory).

    Scans adjudication subject ids (batched reads of the store's index of subjects) and
    reads only the matching units.
    """
    kinds = list(kinds)
    prefixes = tuple(f"{kind}:{day.isoformat()}" for kind in kinds for day in days)
    latest: dict[tuple[str, str], str] = {}
    for unit_id in store.iter_subject_ids(ADJUDICATION):
        if unit_id.startswith(prefixes):
            latest[verdict_key(unit_id)] = unit_id
    ordered = sorted(latest.items())
    units = store.iter_records(ADJUDICATION, [uid for _, uid in ordered], batch=1)
    for (key, _), (_, records) in zip(ordered, units, strict=True):
        yield key, records[0]


def finding_of(record: dict[str, Any]) -> Finding:
    """A Finding back from its exported record (``Finding.to_record``)."""
    return Finding(
        FindingKind(record["kind"]),
        record["subject"],
        record["citation"],
        record["reason"],
        record.get("expected"),
        record.get("recorded"),
        record.get("difference"),
        record.get("detail") or {},
    )
