"""The console's read model: an in-memory SQLite index built from the store's events.

**A read model is rebuilt from events, never the source of truth.** It holds nothing the
store does not: at startup it reads the store's notifications of a few topics in order
(verdict and nightly units opened and recorded, as ``VerdictRecorded`` or, in stores
written before the rename, ``HandAdjudicated``; incidents opened, records quarantined,
console accounts, looks, sign-offs and notes), and on each request it asks the store for
its head (``max_notification_id``, one indexed query) and, when the head has moved,
projects only the notifications after the last one it saw. Dropping it loses nothing;
every page that shows evidence (a subject's events, its verdict, a bundle) reads the
store itself.

What it keeps:

* ``units``: the current verdict of every (kind, subject), by the one rule
  (``audit.judging.supersedes``: the unit stored last wins, applied to each verdict as
  it is projected, in notification order), with its context (table, operator,
  currency, players, start, a tournament hand's tournament) and the store id of the
  unit: the index of a table's rounds and a tournament's hands (``audit.grouping.subject_index``);
* ``unit_ids``: the id of every stored verdict unit, by (kind, subject) in the order
  stored (from each unit's ``Opened`` event), so a subject page finds its verdict history
  in O(subject), not by scanning every unit id (``audit.judging.Verdicts``), and a
  night's units are found by (kind, day) (``pipelines.night_units.UnitLookup``);
* ``findings``: every current finding as the row ``audit.judging.current_findings``
  yields (the finding plus its verdict's context), indexed for filters and keyset
  pagination (``console.readmodel.queries``); a new verdict on a subject replaces its rows;
* nights (days with nightly units), incidents, the quarantine count, users, the access
  trail, sign-offs and incident notes;
* ``ended_sessions`` and ``revocations``: the sessions signed out, and per user the
  time until which every session was revoked (``console.auth.trail``).

Thread-safe: one lock around the connection (FastAPI runs page functions in threads).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import orjson
from eventsourcing.utils import get_topic

from audit.judging import finding_about, supersedes, unit_subject
from audit.store import (
    TRAIL_TOPICS,
    VERDICT_RECORD,
    AccessTrail,
    Adjudication,
    AuditStore,
    ConsoleUser,
    Incident,
    IncidentNote,
    QuarantinedRecord,
    SignOff,
    originator_hex,
)
from audit.wording import player_named
from pipelines.night_units import COLLUSION_STATE, DETECTORS, INTAKE, LEDGER, QUALITY

BATCH = 2000
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
BOOKKEEPING = frozenset({LEDGER, COLLUSION_STATE, INTAKE})
"""Nightly units that record what a night relied on: nights, not subjects."""
NIGHT_KINDS = frozenset({LEDGER, QUALITY, *DETECTORS})

T = TypeVar("T")
T_VERDICTS = Adjudication.record_topics(VERDICT_RECORD)
T_UNIT = get_topic(Adjudication.Opened)
T_INCIDENT = get_topic(Incident.Opened)
T_QUARANTINE = get_topic(QuarantinedRecord.event_class("RecordQuarantined"))
T_USER_ADDED = get_topic(ConsoleUser.event_class("UserAdded"))
T_USER_DISABLED = get_topic(ConsoleUser.event_class("UserDisabled"))
T_USER_APPROVED = get_topic(ConsoleUser.event_class("UserApproved"))
T_VIEWED = get_topic(AccessTrail.event_class("SubjectViewed"))
T_SIGNED = get_topic(SignOff.event_class("FindingSignedOff"))
T_NOTE = get_topic(IncidentNote.event_class("IncidentNoteRecorded"))
T_SESSION_ENDED = get_topic(AccessTrail.event_class("SessionEnded"))
T_REVOKED = get_topic(AccessTrail.event_class("SessionsRevoked"))
TOPICS = (
    T_UNIT,
    *T_VERDICTS,
    T_INCIDENT,
    T_QUARANTINE,
    T_USER_ADDED,
    T_USER_DISABLED,
    T_USER_APPROVED,
    T_VIEWED,
    T_SIGNED,
    T_NOTE,
    T_SESSION_ENDED,
    T_REVOKED,
)

SELECTED = (*TOPICS, *(topic for topic in TRAIL_TOPICS if topic not in TOPICS))
"""What a refresh reads: the topics projected, and the rest of the console's access trail
(its subjects' ``Opened`` events), only counted (``events_generation``)."""

SCHEMA = """
CREATE TABLE units (key TEXT PRIMARY KEY, kind TEXT, subject TEXT, rulebook TEXT,
  table_id TEXT, operator TEXT, currency TEXT, started TEXT, day TEXT, findings INTEGER,
  originator TEXT, notification INTEGER, version TEXT, digest TEXT, tournament TEXT);
CREATE INDEX units_subject ON units (subject);
CREATE INDEX units_table ON units (table_id, kind, started);
CREATE INDEX units_tournament ON units (tournament);
CREATE TABLE unit_ids (notification INTEGER PRIMARY KEY, kind TEXT, subject TEXT,
  unit_id TEXT);
CREATE INDEX unit_ids_key ON unit_ids (kind, subject, notification);
CREATE TABLE unit_players (key TEXT, player TEXT);
CREATE INDEX unit_players_player ON unit_players (player);
CREATE INDEX unit_players_key ON unit_players (key);
CREATE TABLE findings (seq INTEGER PRIMARY KEY, key TEXT, finding_id TEXT, kind TEXT,
  subject TEXT, subject_kind TEXT, rulebook TEXT, currency TEXT, table_id TEXT,
  operator TEXT, started TEXT, day TEXT, citation TEXT, row BLOB);
CREATE INDEX findings_key ON findings (key);
CREATE INDEX findings_subject ON findings (subject);
CREATE INDEX findings_id ON findings (finding_id);
CREATE INDEX findings_started ON findings (started, seq);
CREATE INDEX findings_kind ON findings (kind, seq);
CREATE INDEX findings_day ON findings (day, seq);
CREATE TABLE finding_players (seq INTEGER, player TEXT);
CREATE INDEX finding_players_player ON finding_players (player, seq);
CREATE INDEX finding_players_seq ON finding_players (seq);
CREATE TABLE nights (day TEXT PRIMARY KEY);
CREATE TABLE incidents (id TEXT PRIMARY KEY, notification INTEGER);
CREATE TABLE users (name TEXT PRIMARY KEY, role TEXT, password_hash TEXT, added_at TEXT,
  added_by TEXT, disabled_at TEXT, disabled_by TEXT, needs_approval INTEGER,
  approved_by TEXT);
CREATE TABLE access (seq INTEGER PRIMARY KEY, at TEXT, user TEXT, subject TEXT, view TEXT);
CREATE INDEX access_subject ON access (subject, seq);
CREATE TABLE signoffs (seq INTEGER PRIMARY KEY, at TEXT, user TEXT, finding_id TEXT,
  subject TEXT, decision TEXT, note TEXT);
CREATE INDEX signoffs_finding ON signoffs (finding_id, seq);
CREATE TABLE notes (seq INTEGER PRIMARY KEY, at TEXT, user TEXT, incident TEXT, note TEXT);
CREATE INDEX notes_incident ON notes (incident, seq);
CREATE TABLE ended_sessions (session TEXT PRIMARY KEY);
CREATE TABLE revocations (user TEXT, until TEXT);
CREATE INDEX revocations_user ON revocations (user);
"""


def unit_key(kind: str, subject: str) -> str:
    """The read model's key of a (kind, subject) verdict."""
    return f"{kind}\x1f{subject}"


def _when(value: Any) -> str:
    """A stored time as ISO text: records keep datetimes as transcoded objects."""
    if isinstance(value, dict) and "_data_" in value:
        return str(value["_data_"])
    return "" if value is None else str(value)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _players(row: dict[str, Any]) -> set[str]:
    """Every player a finding row names: the verdict's seats, a bet's or pair's players
    (a banked seat label per table, ``audit.wording.player_named``)."""
    found = {player_named(row, p) for p in (row.get("players") or {}).values() if p}
    stated = row.get("detail")
    detail = stated if isinstance(stated, dict) else {}
    if detail.get("player_id"):
        found.add(player_named(row, detail["player_id"]))
    found.update(str(p) for p in detail.get("players") or () if isinstance(p, str))
    return found


class ReadModel:
    """The index (see the module docstring); ``refresh`` brings it up to the store's head."""

    def __init__(self, store: AuditStore):
        self.store = store
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.db.executescript(SCHEMA)
        self.lock = threading.RLock()
        self.position = 0
        """The last notification id projected (every earlier one is in the model)."""
        self.generation = 0
        """How many verdict units were projected: changes when findings may have."""
        self.events_generation = 0
        """Changes whenever a refresh finds events other than the console's own access
        trail (``audit.store.TRAIL_TOPICS``: looks, sessions), or cannot tell: a
        key for what is computed from stored events (``console.readmodel.investigations``), which a
        reader's looks never change."""
        self.quarantined = 0
        self._kept: dict[str, tuple[int, Any]] = {}
        self.refresh()

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock, for queries (``console.readmodel.queries``)."""
        with self.lock:
            yield self.db

    def per_generation(self, name: str, compute: Callable[[], T]) -> T:
        """``compute()``'s answer about the findings, kept until the next verdict unit is
        projected (``generation``: findings change only then), as the model itself is
        rebuilt from events; callers must not change what it returns."""
        with self.lock:
            kept = self._kept.get(name)
            if kept is None or kept[0] != self.generation:
                kept = self._kept[name] = (self.generation, compute())
            return kept[1]

    def head(self) -> int:
        return int(self.store.recorder.max_notification_id() or 0)

    def refresh(self) -> bool:
        """Project the notifications stored since the last refresh; True if any."""
        head = self.head()
        if head <= self.position:
            return False
        recorder: Any = self.store.recorder
        with self.lock:
            start, trail = self.position, 0
            while self.position < head:
                page = recorder.select_notifications(
                    self.position + 1, BATCH, stop=head, topics=SELECTED
                )
                with self.db:
                    for notification in page:
                        if notification.topic in TOPICS:
                            self._apply(notification)
                trail += len({n.id for n in page if n.topic in TRAIL_TOPICS})  # rows
                if len(page) < BATCH:
                    self.position = head
                else:
                    self.position = page[-1].id
            if trail != head - start:  # other events (or a gap in the ids: cannot tell)
                self.events_generation += 1
        return True

    def _apply(self, notification: Any) -> None:
        topic = notification.topic
        state = orjson.loads(notification.state)
        if topic == T_UNIT:
            unit_id = str(state["subject_id"])
            self.db.execute(
                "INSERT INTO unit_ids VALUES (?, ?, ?, ?)",
                (notification.id, *unit_subject(unit_id), unit_id),
            )
        elif topic in T_VERDICTS:
            self._verdict(state["record"], notification)
        elif topic == T_INCIDENT:
            self.db.execute(
                "INSERT OR IGNORE INTO incidents VALUES (?, ?)",
                (str(state["subject_id"]), notification.id),
            )
        elif topic == T_QUARANTINE:
            self.quarantined += 1
        elif topic in (T_USER_ADDED, T_USER_DISABLED, T_USER_APPROVED):
            self._user(state["record"])
        else:
            self._fact(topic, state["record"])

    def _verdict(self, record: dict[str, Any], notification: Any) -> None:
        kind, subject = str(record.get("kind")), str(record.get("subject"))
        self.generation += 1
        scope_day = subject[:10] if DAY.fullmatch(subject[:10]) else ""
        if kind in NIGHT_KINDS and scope_day:
            self.db.execute("INSERT OR IGNORE INTO nights VALUES (?)", (scope_day,))
        if kind in BOOKKEEPING and not record.get("findings"):
            return
        key = unit_key(kind, subject)
        held = self.db.execute("SELECT notification FROM units WHERE key = ?", (key,)).fetchone()
        if not supersedes(notification.id, held[0] if held else None):
            return
        self.db.execute(
            "DELETE FROM finding_players WHERE seq IN (SELECT seq FROM findings WHERE key = ?)",
            (key,),
        )
        self.db.execute("DELETE FROM findings WHERE key = ?", (key,))
        self.db.execute("DELETE FROM unit_players WHERE key = ?", (key,))
        about = finding_about(kind, record.get("rulebook"), record.get("context"))
        started = _text(about.get("started_at"))
        day = started[:10] if DAY.fullmatch(started[:10]) else scope_day
        findings = list(record.get("findings") or ())
        self.db.execute(
            "INSERT OR REPLACE INTO units VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                key, kind, subject, _text(about["rulebook"]), _text(about["table"]),
                _text(about["operator"]), _text(about["currency"]), started, day,
                len(findings), originator_hex(notification.originator_id), notification.id,
                _text(record.get("replayer_version")), _text(record.get("input_digest")),
                _text((record.get("context") or {}).get("tournament")),
            ),
        )  # fmt: skip
        self.db.executemany(
            "INSERT INTO unit_players VALUES (?, ?)",
            [
                (key, p)
                for p in sorted({player_named(about, p) for p in about["players"].values() if p})
            ],
        )
        for finding in findings:
            row = {**finding, **about}
            cursor = self.db.execute(
                "INSERT INTO findings (key, finding_id, kind, subject, subject_kind, rulebook, "
                "currency, table_id, operator, started, day, citation, row) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    key, _text(finding.get("finding_id")), _text(finding.get("kind")),
                    _text(finding.get("subject")), kind, _text(about["rulebook"]),
                    _text(about["currency"]), _text(about["table"]), _text(about["operator"]),
                    started, day, _text(finding.get("citation")), orjson.dumps(row),
                ),
            )  # fmt: skip
            self.db.executemany(
                "INSERT INTO finding_players VALUES (?, ?)",
                [(cursor.lastrowid, p) for p in sorted(_players(row))],
            )

    def _user(self, record: dict[str, Any]) -> None:
        if record.get("type") == "UserAdded":
            self.db.execute(
                "INSERT OR REPLACE INTO users VALUES (?,?,?,?,?,NULL,NULL,?,NULL)",
                (
                    _text(record.get("user")),
                    _text(record.get("role")),
                    _text(record.get("password_hash")),
                    _when(record.get("occurred_at")),
                    _text(record.get("added_by")),
                    record.get("needs_approval") is True,
                ),
            )
        elif record.get("type") == "UserApproved":
            self.db.execute(
                "UPDATE users SET approved_by = ? WHERE name = ?",
                (_text(record.get("approved_by")), _text(record.get("user"))),
            )
        else:
            self.db.execute(
                "UPDATE users SET disabled_at = ?, disabled_by = ? WHERE name = ?",
                (
                    _when(record.get("occurred_at")),
                    _text(record.get("disabled_by")),
                    _text(record.get("user")),
                ),
            )

    def _fact(self, topic: str, record: dict[str, Any]) -> None:
        at, user = _when(record.get("occurred_at")), _text(record.get("user"))
        if topic == T_VIEWED:
            self.db.execute(
                "INSERT INTO access (at, user, subject, view) VALUES (?,?,?,?)",
                (at, user, _text(record.get("subject")), _text(record.get("view"))),
            )
        elif topic == T_SIGNED:
            self.db.execute(
                "INSERT INTO signoffs (at, user, finding_id, subject, decision, note) "
                "VALUES (?,?,?,?,?,?)",
                (
                    at,
                    user,
                    _text(record.get("finding_id")),
                    _text(record.get("subject")),
                    _text(record.get("decision")),
                    _text(record.get("note")),
                ),
            )
        elif topic == T_SESSION_ENDED:
            self.db.execute(
                "INSERT OR IGNORE INTO ended_sessions VALUES (?)", (_text(record.get("session")),)
            )
        elif topic == T_REVOKED:
            self.db.execute("INSERT INTO revocations VALUES (?, ?)", (user, at))
        elif topic == T_NOTE:
            self.db.execute(
                "INSERT INTO notes (at, user, incident, note) VALUES (?,?,?,?)",
                (at, user, _text(record.get("incident_id")), _text(record.get("note"))),
            )
