"""A subject's inputs: everything one verdict depends on (``audit.judging.path``).

* ``events``: the subject's own stored events;
* ``terms``: the ``TableTermsDeclared`` record in force at its start, or None;
* ``related``: other stored events the rules need (a satellite's target tournament);
* ``conflicts``: versions of its events the operator sent that differ from the stored
  ones (``audit.ingest.conflicts``).

Their digest (``Inputs.digest``) is the verdict unit's identity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from audit.store import bytes_digest, canonical_bytes


@dataclass(frozen=True)
class Inputs:
    """Everything one verdict depends on (see the module docstring)."""

    kind: str
    subject: str
    events: Sequence[dict[str, Any]]
    terms: dict[str, Any] | None = None
    related: Sequence[dict[str, Any]] = field(default_factory=tuple)
    conflicts: Sequence[dict[str, Any]] = field(default_factory=tuple)

    def digest(self, rulebook: str | None) -> str:
        """Digest of every input and the rulebook judged under (the verdict's identity)."""
        parts = [canonical_bytes(r) for r in self.events]
        terms = canonical_bytes(self.terms) if self.terms is not None else b"none"
        parts.append(b"terms:" + terms)
        parts.extend(b"related:" + canonical_bytes(r) for r in self.related)
        parts.extend(b"conflict:" + canonical_bytes(r) for r in self.conflicts)
        parts.append(f"rulebook:{rulebook}".encode())
        return bytes_digest(parts)
