"""What people do in the console, appended to the store as evidence.

* ``SubjectViewed`` (``access`` subjects): a user looked at a subject's stored events
  (its page, its evidence bundle, an incident's investigation), and when;
* ``FindingSignedOff`` (``sign_off`` subjects): an investigator's decision on a finding
  (``accepted``, ``disputed`` or ``escalated``) with a note;
* ``IncidentNoteRecorded`` (``incident_note`` subjects): an investigator's note on an
  incident;
* ``SessionEnded`` (``access`` subjects): one console session ended (signed out, or
  replaced by signing in again), named by its digest (``console.security.Session.ref``);
* ``SessionsRevoked`` (``access`` subjects): an admin ended every session of a user begun
  until then (a cookie captured earlier is refused from then on).

Each fact is its own small subject (id: UTC time plus a random suffix) holding one
record, so concurrent requests never contend for one aggregate's next version, and every
fact is in the same hash chain as the events it is about. Free text is bounded
(``MAX_NOTE``); it is stored as typed and escaped wherever shown.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from audit.store import AuditStore, SubjectRecords

ACCESS, SIGN_OFF, NOTE = "access", "sign_off", "incident_note"
DECISIONS = ("accepted", "disputed", "escalated")
VIEWS = ("subject", "evidence", "incident")
MAX_NOTE = 2000


class TrailError(ValueError):
    """A decision or note that cannot be recorded (the message is safe to show)."""


def _fact_id(now: datetime) -> str:
    return f"{now.astimezone(UTC):%Y%m%dT%H%M%S.%fZ}-{secrets.token_hex(8)}"


def seal(store: AuditStore) -> None:
    """Sign a checkpoint over what the console just wrote, when this process holds the
    signing key (``serve --sign-key``, ``CASINO_AUDIT_SIGNING_KEY``). Without it nothing
    is written: an unsigned checkpoint after signed ones reads as stripped signatures;
    the console's events are covered by the next signed checkpoint (ingest, replay,
    nightly or ``casino-audit checkpoint``), and until then ``verify --public-key`` and
    the overview name them as its own unsigned trail, never as an alarm
    (``audit.store.unsigned_tail``, ``console.readmodel.signatures``)."""
    if store.signing_key is not None:
        store.checkpoint()


def _append(store: AuditStore, kind: str, now: datetime, record: dict[str, Any]) -> None:
    unit = SubjectRecords(kind, _fact_id(now), [{"sequence": 0, **record}], source="console")
    store.append([unit])
    seal(store)


def record_view(
    store: AuditStore, user: str, subject: str, view: str, now: datetime | None = None
) -> None:
    """Append ``SubjectViewed``: ``user`` was shown ``subject``'s events on ``view``."""
    if view not in VIEWS:
        raise TrailError(f"unknown view {view!r}")
    now = now or datetime.now(UTC)
    record = {"type": "SubjectViewed", "occurred_at": now, "user": user, "subject": subject}
    _append(store, ACCESS, now, {**record, "view": view})


def _note(note: str) -> str:
    text = note.strip()
    if len(text) > MAX_NOTE:
        raise TrailError(f"a note has at most {MAX_NOTE} characters")
    return text


def record_sign_off(
    store: AuditStore,
    user: str,
    *,
    finding_id: str,
    subject: str,
    decision: str,
    note: str,
    now: datetime | None = None,
) -> None:
    """Append ``FindingSignedOff``: who decided what about which finding, and why."""
    if decision not in DECISIONS:
        raise TrailError(f"a decision is one of {', '.join(DECISIONS)}")
    text = _note(note)
    if not text:
        raise TrailError("a sign-off needs a note saying why")
    now = now or datetime.now(UTC)
    record = {
        "type": "FindingSignedOff",
        "occurred_at": now,
        "user": user,
        "finding_id": finding_id,
        "subject": subject,
        "decision": decision,
        "note": text,
    }
    _append(store, SIGN_OFF, now, record)


def record_note(
    store: AuditStore, user: str, *, incident_id: str, note: str, now: datetime | None = None
) -> None:
    """Append ``IncidentNoteRecorded``: an investigator's note on an incident."""
    text = _note(note)
    if not text:
        raise TrailError("the note is empty")
    now = now or datetime.now(UTC)
    record = {
        "type": "IncidentNoteRecorded",
        "occurred_at": now,
        "user": user,
        "incident_id": incident_id,
        "note": text,
    }
    _append(store, NOTE, now, record)


def record_session_ended(
    store: AuditStore, user: str, session: str, why: str, now: datetime | None = None
) -> None:
    """Append ``SessionEnded``: ``user``'s session ``session`` (its digest) ended."""
    now = now or datetime.now(UTC)
    record = {"type": "SessionEnded", "occurred_at": now, "user": user, "session": session}
    _append(store, ACCESS, now, {**record, "why": why})


def record_sessions_revoked(
    store: AuditStore, user: str, *, by: str, now: datetime | None = None
) -> None:
    """Append ``SessionsRevoked``: every session of ``user`` begun until ``now`` ends."""
    now = now or datetime.now(UTC)
    record = {"type": "SessionsRevoked", "occurred_at": now, "user": user, "by": by}
    _append(store, ACCESS, now, record)
