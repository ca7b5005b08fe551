"""Console accounts: users with a role and an argon2 password hash, stored as events.

Each account is a ``console_user`` subject (``audit.store.subjects.ConsoleUser``) whose
records are ``UserAdded`` (name, role, argon2id hash, who added it, whether it needs a
second admin's approval), ``UserApproved`` (which admin, when) and ``UserDisabled`` (who,
when). A password is never stored, logged or printed: only its argon2 hash
(``argon2.PasswordHasher``, salted, memory-hard). Nothing is updated: disabling is a new
event, and a disabled name cannot be added again (its history stays readable).

Roles (``ROLES``), each a set of permissions (``PERMISSIONS``):

* ``inspector``: reads every page, exports findings and evidence bundles;
* ``investigator``: reads, and records incident notes and sign-offs of findings;
* ``admin``: reads, and manages users and sees the access trail. An admin does not sign
  off findings: whoever creates accounts cannot also decide what a finding means.

**Separation of duties.** An admin who adds an account knows its password, so an
investigator or admin account added in the console (``needs_approval``) only reads until
a second admin approves it (``approve_user``): never the admin who added it, and only an
admin who may manage (itself approved, or added outside the console). An admin therefore
cannot add an investigator and sign off findings as it, nor add an admin to approve its
own accounts. Accounts added with ``casino-audit user add`` (by whoever holds the store's
credentials, outside the console) and accounts stored before approvals existed need no
approval. ``permissions_of`` is the one place the rule is applied.

``casino-audit user add NAME --role R [--password-file F]``, ``user list``,
``user disable NAME`` (the commands are in ``cli.console``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from audit.store import AuditStore, SubjectRecords
from console.auth.trail import record_sessions_revoked, seal

KIND = "console_user"
ROLES = ("inspector", "investigator", "admin")
READ, DECIDE, MANAGE = "read", "decide", "manage"
PERMISSIONS: Mapping[str, frozenset[str]] = {
    "inspector": frozenset({READ}),
    "investigator": frozenset({READ, DECIDE}),
    "admin": frozenset({READ, MANAGE}),
}
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")
MIN_PASSWORD = 12
MAX_PASSWORD = 1024


class AccountError(ValueError):
    """An account operation cannot be done; the message says why (safe to show)."""


@dataclass(frozen=True, slots=True)
class User:
    """An account as its events leave it."""

    name: str
    role: str
    password_hash: str
    added_at: str
    added_by: str
    disabled_at: str | None = None
    disabled_by: str | None = None
    needs_approval: bool = False
    approved_by: str | None = None

    @property
    def enabled(self) -> bool:
        return self.disabled_at is None

    @property
    def pending(self) -> bool:
        """Added in the console and not yet approved by a second admin."""
        return self.needs_approval and not self.approved_by

    def can(self, permission: str) -> bool:
        return self.enabled and permission in permissions_of(self.role, self.pending)


def permissions_of(role: str, pending: bool) -> frozenset[str]:
    """What an account may do: its role's permissions, or only ``READ`` while it awaits a
    second admin's approval (see the module docstring)."""
    granted = PERMISSIONS.get(role, frozenset())
    return granted & {READ} if pending else granted


def password_hasher() -> PasswordHasher:
    """The production hasher: argon2id with argon2-cffi's (RFC 9106 low-memory) defaults."""
    return PasswordHasher()


def fold(records: Iterable[Mapping[str, Any]]) -> User | None:
    """The account its records describe (None before a ``UserAdded``)."""
    user: User | None = None
    for record in records:
        at = _iso(record.get("occurred_at"))
        if record.get("type") == "UserAdded":
            user = User(
                str(record["user"]),
                str(record["role"]),
                str(record["password_hash"]),
                at,
                str(record.get("added_by") or ""),
                needs_approval=record.get("needs_approval") is True,
            )
        elif record.get("type") == "UserDisabled" and user is not None:
            user = replace(user, disabled_at=at, disabled_by=str(record.get("disabled_by") or ""))
        elif record.get("type") == "UserApproved" and user is not None:
            user = replace(user, approved_by=str(record.get("approved_by") or ""))
    return user


def _iso(value: Any) -> str:
    return value.isoformat() if isinstance(value, datetime) else str(value or "")


def all_users(store: AuditStore) -> list[User]:
    """Every account in the store, in the order added."""
    users = [fold(records) for _, records in store.iter_subjects(KIND)]
    return [u for u in users if u is not None]


def check_name(name: str) -> str:
    if not NAME.fullmatch(name):
        raise AccountError(
            "a user name is 1 to 64 of A-Z a-z 0-9 . _ @ -, starting with a letter or digit"
        )
    return name


def check_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def add_user(
    store: AuditStore,
    name: str,
    role: str,
    password: str,
    *,
    by: str,
    needs_approval: bool,
    hasher: PasswordHasher | None = None,
    now: datetime | None = None,
) -> User:
    """Store a new account (``UserAdded``); refused when the name is taken or invalid.
    ``needs_approval``: an investigator or admin account only reads until a second admin
    approves it (accounts added in the console; see the module docstring)."""
    check_name(name)
    if role not in ROLES:
        raise AccountError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
    check_password(password)
    if store.records_of(KIND, name):
        raise AccountError(f"user {name!r} already exists (a disabled name is not reused)")
    record = {
        "type": "UserAdded",
        "sequence": 0,
        "occurred_at": now or datetime.now(UTC),
        "user": name,
        "role": role,
        "password_hash": (hasher or password_hasher()).hash(password),
        "added_by": by,
        "needs_approval": needs_approval and role != "inspector",
    }
    _append(store, SubjectRecords(KIND, name, [record], source="console"))
    user = fold([record])
    assert user is not None
    return user


def disable_user(store: AuditStore, name: str, *, by: str, now: datetime | None = None) -> User:
    """Disable an account (``UserDisabled``): it can no longer sign in, and its sessions
    end at their next request."""
    records = store.records_of(KIND, name)
    user = fold(records)
    if user is None:
        raise AccountError(f"no user {name!r}")
    if not user.enabled:
        raise AccountError(f"user {name!r} is already disabled")
    record = {
        "type": "UserDisabled",
        "sequence": len(records),
        "occurred_at": now or datetime.now(UTC),
        "user": name,
        "disabled_by": by,
    }
    _append(store, SubjectRecords(KIND, name, [record], source="console"))
    disabled = fold([*records, record])
    assert disabled is not None
    return disabled


def approve_user(store: AuditStore, name: str, *, by: User, now: datetime | None = None) -> User:
    """``UserApproved``: admin ``by`` vouches that ``name`` is someone else; refused when
    ``by`` added the account, is the account, may not manage, or nothing awaits approval."""
    records = store.records_of(KIND, name)
    user = fold(records)
    if user is None:
        raise AccountError(f"no user {name!r}")
    if not user.pending or not user.enabled:
        raise AccountError(f"user {name!r} awaits no approval")
    if by.name in (user.added_by, user.name) or not by.can(MANAGE):
        raise AccountError(
            f"user {name!r} must be approved by an admin other than {user.added_by!r}, who added it"
        )
    record = {
        "type": "UserApproved",
        "sequence": len(records),
        "occurred_at": now or datetime.now(UTC),
        "user": name,
        "approved_by": by.name,
    }
    _append(store, SubjectRecords(KIND, name, [record], source="console"))
    approved = fold([*records, record])
    assert approved is not None
    return approved


def revoke_sessions(store: AuditStore, name: str, *, by: str, now: datetime | None = None) -> None:
    """End every session of account ``name`` begun until ``now`` (``SessionsRevoked``)."""
    if fold(store.records_of(KIND, name)) is None:
        raise AccountError(f"no user {name!r}")
    record_sessions_revoked(store, name, by=by, now=now)


def _append(store: AuditStore, unit: SubjectRecords) -> None:
    result = store.append([unit])
    if result.conflicts:
        raise AccountError(f"user {unit.subject_id!r} changed meanwhile: try again")
    seal(store)


_DUMMY_HASH: list[str] = []


def password_matches(user: User | None, password: str, hasher: PasswordHasher) -> bool:
    """True when ``password`` is the enabled ``user``'s; an unknown or disabled user costs
    the same time (a dummy hash is checked), so timing does not tell names apart."""
    if user is None or not user.enabled:
        if not _DUMMY_HASH:
            _DUMMY_HASH.append(hasher.hash("not a password of anyone"))
        with contextlib.suppress(VerificationError, InvalidHashError):
            hasher.verify(_DUMMY_HASH[0], password)
        return False
    try:
        return hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
