"""Evidence bundles: one JSON file with a subject's stored events, its verdict and the
proof linking them to a signed checkpoint (format and checker: ``audit.evidence.check``).

``build_bundle`` gathers, from the store itself (never the read model's copies):

* the subject's aggregate rows, exactly as stored (state text, chain link, notification
  id; a packed row, ``audit.store.packing``, holds its events inside), and those of the
  inputs its verdict depends on (``audit.judging.gather``: a poker table's declarations,
  a satellite's target tournament);
* its current verdict unit's rows (``audit.judging.Verdicts`` says which unit is
  current: the read model's index in the console, a scan of the store otherwise);
* the rulebook and each cited rule's summary (``replayer.rulebooks.citations``);
* a collusion suspicion (``pair:A|B``), which has no events of its own: the night's
  detector unit holding it and the evidence hands it names (``suspicion_bundle``);
* a shoe (``shoe:T:S``) or a poker table session (``<table>@<first hand>``), which have
  none either: a shoe's rounds and its table's declarations, a session's hands (its
  kind's ``SubjectKind.evidence``);
* a proof (``audit.evidence.proofs``): Merkle inclusion proofs to the latest signed tree head
  when the store's checkpoints carry tree roots (``audit.store.merkle``), else the hash
  chain from the first proven row to the first signed checkpoint after the last one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import orjson

from audit.evidence.chainrows import rows_of
from audit.evidence.check import FORMAT, FORMAT_VERSION, SUSPECTS, SUSPICION, UNAUTHENTICATED
from audit.evidence.proofs import event_json, prove
from audit.evidence.treecache import TreeCache
from audit.families import family_named
from audit.ingest.conflicts import KIND as CONFLICTS
from audit.ingest.conflicts import conflict_key
from audit.judging import KIND as ADJUDICATION
from audit.judging import (
    STORED_KINDS,
    Verdicts,
    gather,
    judged_across,
    opening,
    subject_kind,
)
from audit.show import collusion_nights
from audit.store import AuditStore, ChainRow, expand_row, subject_uuid
from replayer import REPLAYER_VERSION
from replayer.rulebooks.citations import summary_line

INCIDENT = "incident"
KINDS = (*STORED_KINDS, INCIDENT)
"""Kinds of stored subjects a bundle can hold (``audit.judging.STORED_KINDS`` and
incidents; detector subjects have no events)."""


class NoEvidence(LookupError):
    """Nothing stored under that subject id (the message is safe to show)."""


def stored_kind(store: AuditStore, subject: str, kind: str | None = None) -> str:
    """The kind of a stored subject (the first of ``KINDS`` holding it, or ``kind``)."""
    for candidate in (kind,) if kind else KINDS:
        if candidate in KINDS and store.records_of(candidate, subject):
            return candidate
    raise NoEvidence(f"no stored events of a subject {subject!r}")


def _input_groups(
    store: AuditStore, kind: str, subject: str, records: list[dict[str, Any]]
) -> list[tuple[str, str]]:
    """(kind, subject) of each other aggregate the verdict's inputs come from."""
    groups: list[tuple[str, str]] = []
    record = subject_kind(kind)
    if record is not None and record.declared:  # its table's declarations (SubjectKind)
        first = opening(kind, records) or {}
        table = first.get("table_id") or (subject if record.own_table else None)
        if table is not None and store.records_of("table", str(table)):
            groups.append(("table", str(table)))
    if record is not None and record.related is not None:  # a satellite's target; the
        inputs = gather(store, kind, subject, records)  # machines a jackpot links or moves to
        key = family_named(kind).subject_key
        groups += [
            (kind, other) for other in dict.fromkeys(str(r.get(key)) for r in inputs.related)
        ]
    key = conflict_key(kind, subject)
    if store.records_of(CONFLICTS, key):  # versions the operator sent besides these
        groups.append((CONFLICTS, key))
    return groups


def _rows(store: AuditStore, kind: str, subject: str) -> list[ChainRow]:
    return rows_of(store, subject_uuid(kind, subject).hex)


def _citations(record: Mapping[str, Any]) -> list[dict[str, str]]:
    cited = sorted({str(f["citation"]) for f in record.get("findings") or () if f.get("citation")})
    return [{"citation": c, "summary": summary_line(c)} for c in cited]


def suspicion_bundle(
    store: AuditStore,
    verdicts: Verdicts,
    subject: str,
    *,
    made_by: str,
    made_at: datetime,
    trees: TreeCache,
    proof: str = "auto",
) -> dict[str, Any]:
    """The evidence bundle of a collusion suspicion (``pair:A|B`` or ``ring:…``), which has
    no events of its own: the night's detector unit that holds the latest suspicion (its
    ``verdict``), each evidence hand it names with its stored events (its ``inputs``),
    the cited rule and the proof of them all (``audit.evidence.check`` checks it)."""
    nights = collusion_nights(store, subject, verdicts)
    if not nights:
        raise NoEvidence(f"no stored suspicion on {subject!r}")
    finding, (unit_id, record) = nights[max(nights)]
    verdict_rows = rows_of(store, subject_uuid(ADJUDICATION, unit_id).hex)
    hands = [str(h) for h in (finding.get("detail") or {}).get("evidence_hands") or ()]
    groups = [(h, _rows(store, "poker", h)) for h in hands]
    groups = [(h, rows) for h, rows in groups if rows]
    citation = str(finding.get("citation") or "")
    return _bundle(
        store,
        {"kind": SUSPICION, "id": subject},
        events=[],
        inputs=[("poker", h, rows) for h, rows in groups],
        verdict=(unit_id, verdict_rows),
        rulebook={
            "id": None,
            "citations": [{"citation": citation, "summary": summary_line(citation)}],
        },
        replayer_version=record.get("replayer_version", REPLAYER_VERSION),
        made=(made_by, made_at),
        trees=trees,
        proof=proof,
    )


def _verdict_record(store: AuditStore, rows: Sequence[ChainRow]) -> tuple[str, dict[str, Any]]:
    """(unit id, record) of a verdict unit's stored rows (empty when not two events)."""
    events = [
        state
        for row in rows
        for _, _, state in expand_row(
            row.originator_id, row.originator_version, row.topic, row.state
        )
    ]
    if len(events) != 2:
        return "", {}
    return str(orjson.loads(events[0]).get("subject_id")), store.transcoder.decode_record(events[1])


def _across_kind(verdicts: Verdicts, subject: str, kind: str | None) -> str | None:
    """The kind judged across others that ``subject`` names (``audit.judging.judged_across``)
    and has a stored verdict of (a hand id may hold an ``@`` too), or ``kind`` when it is
    one of them."""
    for across in judged_across(subject):
        if kind == across or (kind is None and verdicts.current_unit(across, subject)):
            return across
    return None


def build_bundle(
    store: AuditStore,
    verdicts: Verdicts,
    subject: str,
    *,
    kind: str | None = None,
    made_by: str,
    made_at: datetime,
    trees: TreeCache,
    proof: str = "auto",
) -> dict[str, Any]:
    """The evidence bundle of a stored subject (see the module docstring); ``proof`` is
    ``auto``, ``merkle`` or ``hash-chain``; ``trees`` keeps the Merkle tree between
    bundles (``audit.evidence.treecache``). A collusion suspicion's bundle:
    ``suspicion_bundle``."""
    if subject.startswith(SUSPECTS) and kind in (None, SUSPICION):
        return suspicion_bundle(
            store, verdicts, subject, made_by=made_by, made_at=made_at, trees=trees, proof=proof
        )
    across = _across_kind(verdicts, subject, kind)
    if across is None:
        kind = stored_kind(store, subject, kind)
        events = _rows(store, kind, subject)
    else:
        kind, events = across, []
    current = verdicts.current_unit(kind, subject)
    if across is not None and not current:
        raise NoEvidence(f"no stored {kind.replace('_', ' ')} verdict on {subject!r}")
    verdict_rows = rows_of(store, subject_uuid(ADJUDICATION, current).hex) if current else []
    unit_id, record = _verdict_record(store, verdict_rows)
    if across is None:
        groups = _input_groups(store, kind, subject, store.records_of(kind, subject))
    else:  # a subject judged across others: its inputs are what its verdict judged
        part = subject_kind(kind)
        groups = part.evidence.inputs(store, subject, record) if part and part.evidence else []
        if not groups:
            raise NoEvidence(f"no stored inputs of {subject!r}")
    return _bundle(
        store,
        {"kind": kind, "id": subject},
        events=events,
        inputs=[(k, s, _rows(store, k, s)) for k, s in groups],
        verdict=(unit_id, verdict_rows),
        rulebook={"id": record.get("rulebook"), "citations": _citations(record)},
        replayer_version=record.get("replayer_version", REPLAYER_VERSION),
        made=(made_by, made_at),
        trees=trees,
        proof=proof,
    )


def _bundle(
    store: AuditStore,
    subject: dict[str, str],
    *,
    events: Sequence[ChainRow],
    inputs: Sequence[tuple[str, str, Sequence[ChainRow]]],
    verdict: tuple[str, Sequence[ChainRow]],
    rulebook: dict[str, Any],
    replayer_version: Any,
    made: tuple[str, datetime],
    trees: TreeCache,
    proof: str,
) -> dict[str, Any]:
    """The bundle's one layout, and its proof over every row it carries (the subject's
    events, each input's events, the verdict unit's)."""
    unit_id, verdict_rows = verdict
    proven = [*events, *(r for _, _, rows in inputs for r in rows), *verdict_rows]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "made_at": made[1].isoformat(),
        "made_by": made[0],
        "unauthenticated": list(UNAUTHENTICATED),
        "subject": subject,
        "events": [event_json(r) for r in events],
        "inputs": [
            {"kind": k, "subject": s, "events": [event_json(r) for r in rows]}
            for k, s, rows in inputs
        ],
        "verdict": {"unit": unit_id, "events": [event_json(r) for r in verdict_rows]},
        "rulebook": rulebook,
        "replayer_version": replayer_version,
        "proof": prove(store, proven, trees, proof),
    }
