"""Evidence bundles, checked without any store (``casino-audit verify-evidence``).

A bundle (``audit.evidence.bundle.build_bundle`` makes them; one JSON file) holds

* ``subject``: kind and id;
* ``events``: the subject's stored rows exactly as stored (each: notification id,
  aggregate id, version, topic, the stored state text, or base64 when not text, chain
  link ``chain_prev`` / ``chain_hash``), the aggregate's opening event first; a packed row
  (``audit.store.packing``) holds several events, which the check decodes from its
  bytes (the proof is over the rows);
* ``inputs``: the other stored events the verdict depends on, by subject (a poker
  table's declared terms, a satellite's target tournament), in the same form;
* ``verdict``: the subject's current verdict unit, its stored events in the same form;
* ``rulebook``: the rulebook judged under and each cited rule with its summary;
* ``proof``: a signed checkpoint and the proof that every event above is in the store's
  history up to it (``audit.evidence.proof_check``: Merkle inclusion or hash chain).

A shoe (``shoe:T:S``) and a poker table session (``<table>@<first hand>``) have no events
of their own either (``REJUDGE``): a shoe's ``inputs`` are its rounds and its table's
declarations, a session's its hands, and the verdict is judged again from them
(``audit.judging.judge_shoe``, ``judge_table_sessions``).

A collusion suspicion (subject kind ``collusion``, ``pair:A|B``) has no events of its own:
its ``verdict`` is the night's detector unit holding it, its ``inputs`` the evidence
hands it names; the check is that they are stored, named by the suspicion and proven,
not a recomputed score (that needs every hand of the window).

``verify_bundle`` checks, with the public key only: each event belongs to the subject it
claims (deterministic aggregate ids, versions in order, topics matching records); the
proof and the checkpoint's signature; and then judges the bundled events again through
the one judging path (``audit.judging.gather`` over the bundle's records, then
``judge``): the verdict must be the stored one, finding for finding, with the same input
digest, under the same replayer version. Any changed byte fails one of these.

What a bundle cannot prove is said with every report (``EvidenceReport.notes``): the
verdict is the current one *as of the bundle's checkpoint* (a newer verdict on the
subject, stored after that checkpoint, is not in an older bundle: the current one is
on the console or in ``casino-audit show``), and ``made_at`` / ``made_by`` are what the
console wrote when it made the file, outside the signature: claims, not proof. The bundle
says so itself (``"unauthenticated": ["made_at", "made_by"]``, ``UNAUTHENTICATED``; a
bundle made before carries no such field and is read as if it did; one listing other
fields is refused), and every report repeats it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from eventsourcing.persistence import DatetimeAsISO, DecimalAsStr, UUIDAsHex
from eventsourcing.utils import get_topic

from audit.evidence.proof_check import (
    ProofError,
    ProofResult,
    check_proof,
    only_fields,
    row_state,
)
from audit.judging import (
    BANKER_RUN,
    SHOE,
    STORED_KINDS,
    TABLE_SESSION,
    EvidencePart,
    Inputs,
    TermsBook,
    findings_json,
    gather,
    is_coup,
    judge,
    judge_banker_run,
    judge_shoe,
    judge_table_sessions,
    shoe_of,
    shoe_subject,
    subject_kind,
)
from audit.store import (
    FIRST_RECORD_VERSION,
    SUBJECT_CLASSES,
    OrjsonTranscoder,
    PackedRowError,
    expand_row,
    subject_uuid,
)
from audit.wording import show_command
from replayer import REPLAYER_VERSION
from replayer.rulebooks.citations import summary_line

FORMAT = "casino-audit evidence bundle"
FORMAT_VERSION = 1
UNAUTHENTICATED = ("made_at", "made_by")
BUNDLE_FIELDS = frozenset(
    {"format", "format_version", *UNAUTHENTICATED, "unauthenticated", "subject", "events",
     "inputs", "verdict", "rulebook", "replayer_version", "proof"}
)  # fmt: skip
"""Every top-level field a bundle holds (``audit.evidence.bundle``): any other is refused,
never ignored."""
"""The bundle's fields no signature covers: the bundle lists them (``unauthenticated``)
and every report says they are claims, not proof."""
VERDICT_KIND = "adjudication"
SUSPICION = "collusion"
"""The subject kind of a collusion suspicion's bundle (no events of its own)."""
SUSPECTS = ("pair:", "ring:")
"""How the ids of collusion suspicions begin."""


class BundleError(ValueError):
    """The bundle does not hold together; the message says where."""


@dataclass
class EvidenceReport:
    """What a bundle proves (``proven``), what fails (``problems``) and what it cannot
    prove (``notes``: see the module docstring)."""

    proven: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.proven)


def _transcoder() -> OrjsonTranscoder:
    """The store's transcoder, as ``AuditStore`` registers it (no store needed)."""
    transcoder = OrjsonTranscoder()
    for transcoding in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO()):
        transcoder.register(transcoding)
    return transcoder


def _records(kind: str, subject: str, events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The records of one aggregate's bundled events, after checking they are its own:
    its aggregate id, versions 1..n, its opening event, each record's topic."""
    cls = SUBJECT_CLASSES.get(kind)
    if cls is None:
        raise BundleError(f"unknown subject kind {kind!r}")
    aggregate = subject_uuid(kind, subject).hex
    where = f"{kind} subject {subject!r}"
    if not events:
        raise BundleError(f"no stored events of {where}")
    decode = _transcoder().decode_record
    records: list[dict[str, Any]] = []
    for version, (originator, stored_version, topic, state) in enumerate(_unpacked(events), 1):
        if originator != aggregate or stored_version != version:
            raise BundleError(f"event {version} of {where} is not that subject's (id or version)")
        if version == 1:
            opened = orjson.loads(state)
            if topic != get_topic(cls.Opened) or opened.get("subject_id") != subject:
                raise BundleError(f"the opening event of {where} is not its own")
            continue
        record = decode(state)
        if topic != cls.record_topic(str(record.get("type"))):
            raise BundleError(f"event {version} of {where}: its topic does not match its record")
        if int(record.get("sequence", -1)) + FIRST_RECORD_VERSION != version:
            raise BundleError(f"event {version} of {where}: sequence and version disagree")
        records.append(record)
    return records


def _unpacked(events: Sequence[Mapping[str, Any]]) -> list[tuple[Any, int, str, bytes]]:
    """(aggregate id, version, topic, state) of each event the bundled rows hold: a
    packed row's events each (``audit.store.packing``), decoded from its exact bytes."""
    try:
        return [
            (event.get("originator_id"), version, topic, state)
            for event in events
            for version, topic, state in expand_row(
                event.get("originator_id"),
                int(event.get("version", -1)),
                str(event.get("topic")),
                row_state(event),
            )
        ]
    except PackedRowError as error:
        raise BundleError(str(error)) from None


class _Bundled:
    """The bundle's records, read the way ``audit.judging.gather`` reads a store (its
    ``RecordReads``)."""

    def __init__(self, records: Mapping[tuple[str, str], list[dict[str, Any]]]):
        self._records = records

    def records_of(self, kind: str, subject_id: str) -> list[dict[str, Any]]:
        return list(self._records.get((kind, subject_id), ()))

    def records_of_many(
        self, kind: str, subject_ids: Sequence[str]
    ) -> dict[str, list[dict[str, Any]]]:
        return {s: list(self._records[kind, s]) for s in subject_ids if (kind, s) in self._records}


def _verdict(bundle: Mapping[str, Any], kind: str, subject: str) -> tuple[str, dict[str, Any]]:
    section = bundle.get("verdict") or {}
    unit = str(section.get("unit") or "")
    if not unit:
        raise BundleError("the bundle holds no stored verdict")
    [record] = _records(VERDICT_KIND, unit, section.get("events") or ()) or [{}]
    expected = f"{kind}:{subject}|{record.get('replayer_version')}|{record.get('input_digest')}"
    if record.get("kind") != kind or record.get("subject") != subject or unit != expected:
        raise BundleError(f"verdict unit {unit!r} is not a verdict on this subject")
    return unit, record


def _rejudged(
    kind: str,
    subject: str,
    records: list[dict[str, Any]],
    inputs: Mapping[tuple[str, str], list[dict[str, Any]]],
    stored: dict[str, Any],
) -> str:
    """Judge the bundled events again; the statement of what matched, or BundleError."""
    _same_replayer(stored)
    judged = gather(_Bundled(inputs), kind, subject, records)
    return _recomputed(judged, judge(judged), stored)


def _same_replayer(stored: dict[str, Any]) -> None:
    version = stored.get("replayer_version")
    if version != REPLAYER_VERSION:
        raise BundleError(
            f"the verdict was made by replayer {version}; this checker runs replayer "
            f"{REPLAYER_VERSION} and cannot recompute it"
        )


def _recomputed(judged: Inputs, verdict: Any, stored: dict[str, Any]) -> str:
    """The verdict judged again against the stored one; what matched, or BundleError."""
    version = stored.get("replayer_version")
    rulebook = getattr(verdict, "rulebook_id", None)
    findings = findings_json(verdict)
    if judged.digest(rulebook) != stored.get("input_digest"):
        raise BundleError("the bundled events and inputs are not the ones the verdict judged")
    if findings != stored.get("findings") or rulebook != stored.get("rulebook"):
        raise BundleError("the stored verdict is not what the replayer gives for these events")
    if stored.get("events_judged") != len(judged.events):
        raise BundleError("the stored verdict counts a different number of events")
    kinds = ", ".join(sorted({f["kind"] for f in findings})) or "none"
    return (
        f"the verdict is what replayer {version} gives for them (recomputed): rulebook "
        f"{rulebook or 'none'}, {len(findings)} finding(s): {kinds}; inputs digest "
        f"{stored.get('input_digest')}"
    )


def _citations(bundle: Mapping[str, Any], stored: dict[str, Any]) -> str:
    section = bundle.get("rulebook") or {}
    if section.get("id") != stored.get("rulebook"):
        raise BundleError("the bundle's rulebook is not the verdict's")
    cited = sorted(
        {str(f.get("citation")) for f in stored.get("findings") or () if f.get("citation")}
    )
    listed = [(c.get("citation"), c.get("summary")) for c in section.get("citations") or ()]
    if listed != [(c, summary_line(c)) for c in cited]:
        raise BundleError("the bundle's citations or their summaries are not the catalogue's")
    return f"{len(cited)} cited rule(s), each with the catalogue's summary"


def _inclusion(
    kind: str,
    subject: str,
    events: Sequence[Mapping[str, Any]],
    proven: Sequence[Mapping[str, Any]],
    unit: str,
    result: ProofResult,
) -> str:
    """What the proof showed, in words."""
    cp = result.checkpoint
    ids = sorted(int(e["notification_id"]) for e in events)
    inputs = len(proven) - len(events)
    others = f", the {inputs} stored row(s) of its inputs" if inputs else ""
    return (
        f"these {len(_unpacked(events))} stored events ({len(events)} row(s)) of {kind} subject "
        f"{subject} (notifications "
        f"{ids[0]}..{ids[-1]}){others} and its verdict unit {unit} are in the store's history "
        f"up to checkpoint {cp.notification_id} ({cp.event_count} rows, head "
        f"{cp.chain_hash.hex()}), signed by key {cp.key_id or '(unnamed)'} at "
        f"{result.head_time} ({result.method})"
    )


def _unproven(bundle: Mapping[str, Any], kind: str, subject: str, result: ProofResult) -> list[str]:
    """What a proven bundle still does not show (see the module docstring)."""
    cp = result.checkpoint
    return [
        f"this is the {kind} subject's verdict as of checkpoint {cp.notification_id} "
        f"({result.head_time}); a newer verdict stored after it would not be in this "
        f"bundle: see the current one with `{show_command(subject)}` or on the console",
        claims(bundle),
    ]


#: Each section's fields (``audit.evidence.bundle``): any other is refused, never ignored.
SECTION_FIELDS = (
    ("subject", frozenset({"kind", "id"})),
    ("rulebook", frozenset({"id", "citations"})),
    ("verdict", frozenset({"unit", "events"})),
)


def _sections(bundle: Mapping[str, Any]) -> None:
    """Every section of ``bundle`` holds only the fields the product writes."""
    for name, allowed in SECTION_FIELDS:
        only_fields(bundle.get(name) or {}, allowed, f"the bundle's {name}")
    for citation in (bundle.get("rulebook") or {}).get("citations") or ():
        only_fields(citation, frozenset({"citation", "summary"}), "a cited rule")
    for group in bundle.get("inputs") or ():
        only_fields(group, frozenset({"kind", "subject", "events"}), "an input group")


def claims(bundle: Mapping[str, Any]) -> str:
    """The note on the fields no signature covers (``UNAUTHENTICATED``)."""
    return (
        f"made_at {str(bundle.get('made_at'))[:40]!r} and made_by "
        f"{str(bundle.get('made_by'))[:80]!r} are unauthenticated: the console's claims, "
        "outside the signature, not proven"
    )


def _suspicion(bundle: Mapping[str, Any], subject: str, public_key: Ed25519PublicKey) -> list[str]:
    """What a collusion suspicion's bundle proves: its evidence hands are stored hands, the
    night's detector unit holds the suspicion naming exactly them, all in the signed
    history; the cited rule is the catalogue's."""
    hands: dict[str, list[dict[str, Any]]] = {}
    proven: list[Mapping[str, Any]] = []
    for group in bundle.get("inputs") or ():
        if group.get("kind") != "poker":
            raise BundleError(f"a suspicion's evidence is poker hands, not {group.get('kind')!r}")
        hands[str(group["subject"])] = _records("poker", str(group["subject"]), group["events"])
        proven += group["events"]
    section = bundle.get("verdict") or {}
    unit = str(section.get("unit") or "")
    [record] = _records(VERDICT_KIND, unit, section.get("events") or ()) or [{}]
    if record.get("kind") != SUSPICION or not unit.startswith(f"{SUSPICION}:"):
        raise BundleError(f"unit {unit!r} is not a collusion detector's unit")
    found = [f for f in record.get("findings") or () if f.get("subject") == subject]
    if not found:
        raise BundleError(f"the detector unit {unit!r} holds no suspicion on {subject}")
    detail = found[0].get("detail") or {}
    if sorted(hands) != sorted(str(h) for h in detail.get("evidence_hands") or ()):
        raise BundleError("the bundled hands are not the evidence hands the suspicion names")
    citation = str(found[0].get("citation") or "")
    listed = [(c.get("citation"), c.get("summary")) for c in bundle["rulebook"]["citations"]]
    if listed != [(citation, summary_line(citation))]:
        raise BundleError("the bundle's citation or its summary is not the catalogue's")
    result = check_proof(bundle.get("proof") or {}, [*proven, *section["events"]], public_key)
    cp = result.checkpoint
    return [
        f"the nightly detector's suspicion on {subject} (score {found[0].get('recorded')} over "
        f"{detail.get('shared_hands')} shared hands, window of "
        f"{(detail.get('window') or {}).get('days')} days to {record.get('subject')}) is stored "
        f"in unit {unit}, and its {len(hands)} evidence hand(s) are stored hands; all are in "
        f"the store's history up to checkpoint {cp.notification_id} ({cp.event_count} rows), "
        f"signed by key {cp.key_id or '(unnamed)'} at {result.head_time} ({result.method})",
        f"the cited rule is the catalogue's: {summary_line(citation)}",
    ]


def _rejudged_shoe(
    subject: str, inputs: Mapping[tuple[str, str], list[dict[str, Any]]]
) -> tuple[Inputs, Any]:
    """A shoe judged again from its bundled rounds (and its table's declarations)."""
    rounds = [records for (kind, _), records in inputs.items() if kind == "banked"]
    keys = {shoe_of(records) for records in rounds}
    if len(keys) != 1 or shoe_subject(keys.pop() or ("", "")) != subject:
        raise BundleError(f"the bundled rounds are not the rounds of shoe {subject}")
    shoe = shoe_of(rounds[0])
    assert shoe is not None  # checked above
    return judge_shoe(shoe, rounds, TermsBook(_Bundled(inputs)))


def _rejudged_session(
    subject: str, inputs: Mapping[tuple[str, str], list[dict[str, Any]]]
) -> tuple[Inputs, Any]:
    """A poker table session judged again from its bundled hands: they must make that one
    session, whole (``audit.judging.judge_table_sessions``)."""
    hands = [records for (kind, _), records in inputs.items() if kind == "poker"]
    for judged, verdict in judge_table_sessions(hands, _Bundled(inputs)):
        if judged.subject == subject and len(verdict.hands) == len(hands):
            return judged, verdict
    raise BundleError(f"the bundled hands are not the hands of session {subject}")


Rejudge = Callable[[str, Mapping[tuple[str, str], list[dict[str, Any]]]], tuple[Inputs, Any]]
"""(subject, the bundled records by (kind, subject)) -> (its inputs, its verdict)."""


def _rejudged_banker_run(
    subject: str, inputs: Mapping[tuple[str, str], list[dict[str, Any]]]
) -> tuple[Inputs, Any]:
    """A table's chemin de fer banker runs judged again from the coups its verdict
    judged (``audit.judging.judge_banker_run``): each a coup at that table (and its
    table's declarations)."""
    table = subject.removeprefix("table:")
    coups = [records for (kind, _), records in inputs.items() if kind == "banked"]
    if not coups or any(
        not is_coup(coup) or str(coup[0].get("table_id")) != table for coup in coups
    ):
        raise BundleError(f"the bundled rounds are not chemin de fer coups at table {table}")
    return judge_banker_run(table, coups, TermsBook(_Bundled(inputs)))


REJUDGE: dict[str, Rejudge] = {
    SHOE: _rejudged_shoe,
    BANKER_RUN: _rejudged_banker_run,
    TABLE_SESSION: _rejudged_session,
}
"""Subject kinds judged across other subjects (``audit.judging.judged_across``; their
bundle's inputs, in words and what it cannot prove: ``SubjectKind.evidence``) -> how
their bundled inputs are judged again."""


def _evidence(kind: str) -> EvidencePart:
    """The evidence part of a kind judged across others (``SubjectKind.evidence``)."""
    record = subject_kind(kind)
    assert record is not None and record.evidence is not None  # every kind in REJUDGE
    return record.evidence


def _across(
    bundle: Mapping[str, Any], kind: str, subject: str, public_key: Ed25519PublicKey
) -> list[str]:
    """What the bundle of a subject judged across others proves: its inputs (a shoe's
    rounds and its table's declarations, a session's hands) are stored and in the signed
    history with its verdict, and the verdict is what the replayer gives for them."""
    inputs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    proven: list[Mapping[str, Any]] = []
    for group in bundle.get("inputs") or ():
        key = (str(group["kind"]), str(group["subject"]))
        inputs[key] = _records(*key, group.get("events") or ())
        proven += group.get("events") or ()
    noun = _evidence(kind).noun
    judged, verdict = REJUDGE[kind](subject, inputs)
    unit, stored = _verdict(bundle, kind, subject)
    result = check_proof(
        bundle.get("proof") or {}, [*proven, *bundle["verdict"]["events"]], public_key
    )
    _same_replayer(stored)
    count = sum(1 for (group_kind, _) in inputs if group_kind not in ("table", "tournament"))
    cp = result.checkpoint
    return [
        f"the {count} stored {noun}(s) of {kind.replace('_', ' ')} {subject} and its "
        f"verdict unit {unit} are in the store's history up to checkpoint "
        f"{cp.notification_id} ({cp.event_count} rows), signed by key "
        f"{cp.key_id or '(unnamed)'} at {result.head_time} ({result.method})",
        _recomputed(judged, verdict, stored),
        _citations(bundle, stored),
    ]


def verify_bundle(bundle: Mapping[str, Any], public_key: Ed25519PublicKey) -> EvidenceReport:
    """Check a bundle (see the module docstring); never raises for a bad bundle."""
    report = EvidenceReport()
    try:
        if bundle.get("format") != FORMAT or bundle.get("format_version") != FORMAT_VERSION:
            raise BundleError("not a casino-audit evidence bundle (version 1)")
        unknown = sorted(str(k) for k in bundle if k not in BUNDLE_FIELDS)
        if unknown:
            raise BundleError(f"fields a bundle does not hold: {str(unknown)[:200]}")
        _sections(bundle)
        marked = bundle.get("unauthenticated", list(UNAUTHENTICATED))  # older bundles: none
        if marked != list(UNAUTHENTICATED):
            raise BundleError(
                f"the bundle's unauthenticated fields are {str(marked)[:80]}, not "
                f"{list(UNAUTHENTICATED)}: altered"
            )
        kind, subject = str(bundle["subject"]["kind"]), str(bundle["subject"]["id"])
        if kind == SUSPICION:
            report.proven += _suspicion(bundle, subject, public_key)
            report.notes += [
                "the score is computed over every hand the pair shared in the window, which "
                "this bundle does not hold: it is stored, not recomputed here; the evidence "
                "hands are the ones that weigh most",
                claims(bundle),
            ]
            return report
        if kind in REJUDGE:
            report.proven += _across(bundle, kind, subject, public_key)
            report.notes += [_evidence(kind).note, claims(bundle)]
            return report
        events = list(bundle.get("events") or ())
        records = _records(kind, subject, events)
        inputs: dict[tuple[str, str], list[dict[str, Any]]] = {(kind, subject): records}
        proven = list(events)
        for group in bundle.get("inputs") or ():
            key = (str(group["kind"]), str(group["subject"]))
            inputs[key] = _records(*key, group.get("events") or ())
            proven += group.get("events") or ()
        unit, stored = _verdict(bundle, kind, subject)
        if bundle.get("replayer_version") != stored.get("replayer_version"):
            raise BundleError("the bundle's replayer version is not the verdict's")
        verdict_events = list(bundle["verdict"]["events"])
        result = check_proof(bundle.get("proof") or {}, [*proven, *verdict_events], public_key)
        report.proven.append(_inclusion(kind, subject, events, proven, unit, result))
        if kind in STORED_KINDS:
            report.proven.append(_rejudged(kind, subject, records, inputs, stored))
        else:
            report.proven.append(
                f"the verdict is stored as above; a {kind} verdict reads other subjects from "
                "the store, so it is not recomputed here"
            )
        report.proven.append(_citations(bundle, stored))
        report.notes += _unproven(bundle, kind, subject, result)
    except (BundleError, ProofError) as error:
        report.problems.append(str(error))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as error:
        report.problems.append(f"the bundle is malformed: {error!r}"[:300])
    return report
