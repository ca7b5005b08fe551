"""An evidence bundle as the tests make one from a store (made by ``tests``, at a fixed
time), so each test says only which subject it bundles."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from audit.evidence.bundle import build_bundle
from audit.evidence.treecache import TreeCache
from audit.judging import StoreVerdicts
from audit.store import AuditStore

MADE_AT = datetime(2024, 5, 3, tzinfo=UTC)


def bundle_from_store(store: AuditStore, subject: str) -> dict[str, Any]:
    """The evidence bundle of ``subject`` built from ``store`` and its current verdicts."""
    return build_bundle(
        store, StoreVerdicts(store), subject, made_by="tests", made_at=MADE_AT, trees=TreeCache()
    )
