"""The nightly job's own facts in the store, beside the replayer's verdicts.

Everything the job concludes is an ``adjudication`` subject holding one
``VerdictRecorded`` record (the store's only adjudication record type), so
``casino-audit findings`` lists detector and data-quality findings with the replayer's:

- ``data_quality`` over ``<day>/<family>/<partition>`` (or, for an input file that
  cannot be read in full, ``<day>/<input file>``): the failed expectations as findings,
  its check outcomes and the report's figures (``profile``);
- ``intake`` over ``<day>/<partition>/<family>/<input file>``: the subjects an input file
  names that fall in a partition (``pipelines.nightly.intake``), what the night judges;
- the *ledger* (kind ``nightly``, ``LEDGER``) over ``<day>/<family>/<partition>``: which
  verdicts the night's judging of a partition relied on (no findings of its own);
- ``collusion_state`` over ``<day>/poker/<partition>``: the collusion detector's counts
  and sums over the partition's hands (``CollusionDetector.state``), merged over the
  window by the detector;
- one per detector (``collusion``, ``meters``) over ``<day>``: the detector's findings.

A unit's id is ``<kind>:<scope>|<replayer version>|<digest of its content>`` (its record
type under its first name, ``HandAdjudicated``: ``audit.store.first_named``): rerunning
a day with the same input stores nothing new, before or after the rename; a rerun that
concludes differently is a new, later unit, and the latest unit of a (kind, scope) is
the current one (the one rule for verdicts, ``audit.judging.current``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import date
from typing import Any

from audit.judging import KIND as ADJUDICATION
from audit.judging import adjudication_record, adjudication_unit, current_units
from audit.store import AuditStore, SubjectRecords, canonical, first_named, record_digest
from replayer.findings import Finding, FindingKind

QUALITY, COLLUSION_STATE, INTAKE = "data_quality", "collusion_state", "intake"
DETECTORS = ("collusion", "meters")
"""The kinds of the night's detector units (over ``<day>``), which the report and the
console's list of nights read."""
LEDGER = "nightly"
"""The kind of a partition's *ledger*, the one name of that unit: its kind keeps the
name it was first stored under, ``nightly``, since stored unit ids
(``nightly:<day>/...``) and every lookup by kind use it."""

UnitLookup = Callable[[str], Iterable[str]]
"""prefix -> the ids of the stored adjudication units that start with it (a prefix is
``<kind>:<day>``), in the order stored (oldest first): an index's answer to what
``iter_days_units`` otherwise finds by scanning every adjudication subject id (the
console passes its read model's, ``console.readmodel.queries.unit_ids_with_prefix``)."""


def unit(kind: str, scope: str, findings: Iterable[Finding], **content: Any) -> SubjectRecords:
    """The store unit of one conclusion of the nightly job (see the module docstring),
    identified by the digest of its own content."""
    record = adjudication_record(kind, scope, [f.to_record() for f in findings], **content)
    return adjudication_unit(record, record_digest([canonical(first_named(record))]))


def iter_days_units(
    store: AuditStore,
    days: Iterable[date],
    kinds: Iterable[str],
    unit_ids: UnitLookup | None = None,
    within: str = "",
) -> Iterator[tuple[tuple[str, str], dict[str, Any]]]:
    """((kind, scope), current record) of the units of ``kinds`` whose scope is one of
    ``days`` (or, with ``within``, starts ``<day>/<within>``), in (kind, scope) order,
    read one at a time (a day's ledgers and detector states are never all in memory).

    Finds the units' ids with ``unit_ids`` (an index: one lookup per kind and day) or,
    without it, by scanning the adjudication subject ids (batched reads of the store's
    index of subjects), and reads only the matching units.
    """
    days, kinds = list(days), list(kinds)
    below = f"/{within}" if within else ""
    prefixes = tuple(dict.fromkeys(f"{k}:{d.isoformat()}{below}" for k in kinds for d in days))
    if unit_ids is None:
        found: Iterable[str] = (
            uid for uid in store.iter_subject_ids(ADJUDICATION) if uid.startswith(prefixes)
        )
    else:
        found = (uid for prefix in prefixes for uid in unit_ids(prefix) if uid.startswith(prefix))
    ordered = sorted(current_units(found).items())  # found in the order stored
    units = store.iter_records(ADJUDICATION, [uid for _, uid in ordered], batch=1)
    for (key, _), (_, records) in zip(ordered, units, strict=True):
        yield key, records[0]


def stored_unit_ids(store: AuditStore, kinds: Iterable[str]) -> list[str]:
    """The ids of the stored units of ``kinds``, in the order stored: one scan of the
    stored units' ids, keeping only those (a night's few units of a kind, not its
    verdicts)."""
    wanted = tuple(f"{kind}:" for kind in kinds)
    return [uid for uid in store.iter_subject_ids(ADJUDICATION) if uid.startswith(wanted)]


def unit_lookup(ids: Sequence[str]) -> UnitLookup:
    """A ``UnitLookup`` over unit ids found once (``stored_unit_ids``, or a night's
    intakes, ``pipelines.nightly.intake.day_intakes``): for steps that read units of
    several kinds or days, which ``iter_days_units`` without an index would find by one
    scan each. It answers for the store as scanned: nothing stored since is found."""
    return lambda prefix: [uid for uid in ids if uid.startswith(prefix)]


def scanned_units(store: AuditStore, kinds: Iterable[str]) -> UnitLookup:
    """A ``UnitLookup`` over one scan of the stored units' ids, keeping those of
    ``kinds`` (``unit_lookup`` over ``stored_unit_ids``)."""
    return unit_lookup(stored_unit_ids(store, kinds))


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
