"""Aggregates: one per audited subject (a hand, a round, a machine, a tournament, ...).

A subject is opened once (version 1) and then records the family's events, each as a
domain event named after its Avro record type (``PokerHand.ActionTaken``,
``SlotMachine.MeterRead``, ...) carrying the flat event (``replayer.events``). The
record at envelope ``sequence`` n is aggregate version n + 2, so the operator's own
numbering makes ingest idempotent. Findings and quarantined records are subjects too,
so every fact lives in the same append-only, hash-chained store.

A record type renamed after records were stored under its old name
(``RENAMED_RECORD_TYPES``) keeps those records readable: their rows are never rewritten
(the hash chain covers their topic and state), so their old topic is registered as an
alias of the new event class, and their records keep naming the old type.
"""

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event
from eventsourcing.utils import get_topic, register_topic

from audit.families import FAMILIES

ID_NAMESPACE = uuid5(NAMESPACE_URL, "urn:casino-audit:subject")
FIRST_RECORD_VERSION = 2


def subject_uuid(kind: str, subject_id: str) -> UUID:
    """Deterministic aggregate id of a subject: the same subject is always the same id."""
    return uuid5(ID_NAMESPACE, f"{kind}:{subject_id}")


class Subject(Aggregate):
    """An audited subject: its id and its records in order."""

    KIND = "subject"  # the subject kind; also the family name for event families

    class Recorded(Aggregate.Event):
        """One fact about the subject, as a flat event."""

        record: dict[str, Any]

        def apply(self, aggregate: "Subject") -> None:
            aggregate.records.append(self.record)

    if TYPE_CHECKING:

        class Opened(Aggregate.Created):
            """What ``@event("Opened")`` below makes at class creation, for the type
            checker: every ``<Kind>.Opened`` subclasses ``Subject.Opened``."""

            subject_id: str

            def __init__(
                self,
                *,
                originator_id: UUID,
                originator_version: int,
                timestamp: datetime,
                originator_topic: str,
                subject_id: str,
            ) -> None: ...

    @event("Opened")
    def __init__(self, subject_id: str):
        self.subject_id = subject_id
        self.records: list[dict[str, Any]] = []

    @classmethod
    def event_class(cls, record_type: str) -> type["Subject.Recorded"]:
        """The domain event class for a record type of this subject's family (made at
        import by ``_declare_record_events``)."""
        event_cls: type[Subject.Recorded] = getattr(cls, record_type)
        return event_cls

    @classmethod
    def record_topic(cls, record_type: str) -> str:
        """The topic a record of ``record_type`` is stored under: its event class's, or,
        for a type renamed since (``RENAMED_RECORD_TYPES``), the old topic its rows keep."""
        if record_type in RENAMED_RECORD_TYPES.get(cls, {}):
            return f"{get_topic(cls)}.{record_type}"
        return get_topic(cls.event_class(record_type))

    @classmethod
    def record_topics(cls, record_type: str) -> tuple[str, ...]:
        """Every topic records of ``record_type`` are stored under: its own, then those of
        the old names renamed to it (what a reader filtering on topics must accept)."""
        old = (o for o, new in RENAMED_RECORD_TYPES.get(cls, {}).items() if new == record_type)
        return (cls.record_topic(record_type), *map(cls.record_topic, old))


class PokerHand(Subject):
    KIND = "poker"


class CasinoRound(Subject):
    KIND = "banked"


class SlotMachine(Subject):
    KIND = "slots"


class Tournament(Subject):
    KIND = "tournament"


class Incident(Subject):
    KIND = "incident"


class TableTerms(Subject):
    """A table's declared terms over time (``TableTermsDeclared``)."""

    KIND = "table"


class QuarantinedRecord(Subject):
    """A rejected input record, kept whole with where it came from and why."""

    KIND = "quarantine"


class VersionConflict(Subject):
    """The versions of a subject's events that differ from the stored one, or from each
    other within one ingest (``VersionConflicted``, one record per received version;
    subject id ``<kind>:<subject id>``): the operator sent two stories."""

    KIND = "conflict"


class Adjudication(Subject):
    """A verdict unit (``VerdictRecorded``): the replayer's verdict on one subject's events
    for one replayer version, or one of the nightly job's or an investigation's own
    conclusions (``audit.judging.adjudication_record``)."""

    KIND = "adjudication"


VERDICT_RECORD = "VerdictRecorded"
"""The record type of every verdict unit, whatever its kind (hand, round, machine,
tournament, table, incident or nightly conclusion); stored before as ``HandAdjudicated``."""


class ConsoleUser(Subject):
    """An inspector console account (``console.auth.accounts``): ``UserAdded`` (name, role,
    argon2 hash: never a password in clear; whether a second admin must approve it),
    ``UserApproved``, ``UserDisabled``."""

    KIND = "console_user"


class AccessTrail(Subject):
    """One look at a subject's events in the console (``SubjectViewed``: who, which
    subject, when, which page), or the end of sessions (``SessionEnded``: one session,
    signed out; ``SessionsRevoked``: every session of a user begun until then); one
    aggregate per fact, so facts never contend."""

    KIND = "access"


class SignOff(Subject):
    """An investigator's decision on a finding (``FindingSignedOff``: who, when, which
    finding, accepted/disputed/escalated, note); one aggregate per decision."""

    KIND = "sign_off"


class IncidentNote(Subject):
    """An investigator's note on an incident (``IncidentNoteRecorded``); one per note."""

    KIND = "incident_note"


SUBJECT_CLASSES: dict[str, type[Subject]] = {
    cls.KIND: cls
    for cls in (
        PokerHand,
        CasinoRound,
        SlotMachine,
        Tournament,
        Incident,
        TableTerms,
        QuarantinedRecord,
        VersionConflict,
        Adjudication,
        ConsoleUser,
        AccessTrail,
        SignOff,
        IncidentNote,
    )
}

INTERNAL_RECORD_TYPES = {
    QuarantinedRecord: ("RecordQuarantined",),
    VersionConflict: ("VersionConflicted",),
    Adjudication: (VERDICT_RECORD,),
    ConsoleUser: ("UserAdded", "UserDisabled", "UserApproved"),
    AccessTrail: ("SubjectViewed", "SessionEnded", "SessionsRevoked"),
    SignOff: ("FindingSignedOff",),
    IncidentNote: ("IncidentNoteRecorded",),
}

RENAMED_RECORD_TYPES: dict[type[Subject], Mapping[str, str]] = {
    Adjudication: {"HandAdjudicated": VERDICT_RECORD},
}
"""Per subject class, old record type -> the type it goes by now. Rows stored under the
old name stay as they are; their topic resolves to the new event class."""

_FIRST_NAMES = {
    new: old for renames in RENAMED_RECORD_TYPES.values() for old, new in renames.items()
}


def first_named(record: Mapping[str, Any]) -> Mapping[str, Any]:
    """``record`` with its type under the name it was first stored as: how a record is
    compared and digested, so that a record of a renamed type is the same event, and
    digests to the same unit id, as the one stored before the rename."""
    old = _FIRST_NAMES.get(record.get("type", ""))
    return record if old is None else {**record, "type": old}


def _declare_record_events(cls: type["Subject"], names: tuple[str, ...]) -> None:
    """Give ``cls`` one past-tense event class per record type (topic ``Cls.Name``)."""
    for name in names:
        if name in cls.__dict__:
            continue
        event_cls = type(
            name,
            (cls.Recorded,),
            {"__module__": cls.__module__, "__qualname__": f"{cls.__qualname__}.{name}"},
        )
        setattr(cls, name, event_cls)


for _kind, _family in FAMILIES.items():
    if _family.schema_path.exists():
        _declare_record_events(SUBJECT_CLASSES[_kind], _family.record_names)
for _cls, _names in INTERNAL_RECORD_TYPES.items():
    _declare_record_events(_cls, _names)
for _cls, _renames in RENAMED_RECORD_TYPES.items():
    for _old, _new in _renames.items():
        register_topic(_cls.record_topic(_old), _cls.event_class(_new))
