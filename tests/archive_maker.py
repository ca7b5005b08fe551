"""Genuine retention archives made without PostgreSQL, for the archive tests and the
archive fuzz tier: a SQLite store of small hands with three signed tree heads, written
by the product's own ``audit.store.archive.write_archive`` from genesis or from the first
head (with its frontier) through the last."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pytest

from audit.store import SIGNING_KEY_ENV, AuditStore, generate_keypair
from audit.store.archive import write_archive
from tests.audit.store.test_store import hand


@dataclass(frozen=True)
class Archives:
    """Archive bytes (``whole``: genesis to the last head; ``later``: after the first
    head), the heads' notification ids and the public key's file."""

    whole: bytes
    later: bytes
    heads: tuple[int, ...]
    public_key: Path


def make_archives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Archives:
    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    store = AuditStore(f"sqlite:///{tmp_path / 'archive-source.db'}")
    try:
        for i in range(3):
            store.append([hand(f"a/{i}/{n}") for n in range(4)])
            store.checkpoint()
        recorder = store.chained
        checkpoints = sorted(recorder.checkpoints(), key=lambda c: c.notification_id)
        heads = tuple(c.notification_id for c in checkpoints)
        first = recorder.checkpoint_at(heads[0])
        out: list[bytes] = []
        for start in (None, first):
            after = start.notification_id if start is not None else 0
            buffer = io.BytesIO()
            rows = (r for r in recorder.iter_chain_rows(heads[-1]) if r.notification_id > after)
            write_archive(buffer, start, heads[-1], checkpoints, rows)
            out.append(buffer.getvalue())
    finally:
        store.close()
    return Archives(out[0], out[1], heads, public)
