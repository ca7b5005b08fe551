"""Signed checkpoints: a rewritten history with a recomputed chain is still caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.store import AuditStore
from audit.store.chain import GENESIS, chain_links
from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
from cli.main import main
from tests.store_tamper import execute
from tests.test_store import hand


def rewrite_history(store_url: str, victim: int) -> None:
    """What an attacker with database access can do: alter an event, then recompute every
    hash after it and the checkpoint, so that the chain alone looks intact."""
    execute(store_url, "UPDATE {t} SET state = {p} WHERE {id} = {p}", (b'{"forged":1}', victim))
    rows = execute(
        store_url,
        "SELECT {id}, originator_id, originator_version, topic, state FROM {t} ORDER BY {id}",
    )
    from audit.store.chain import originator_hex

    links = chain_links(GENESIS, ((originator_hex(r[1]), r[2], r[3], bytes(r[4])) for r in rows))
    head = GENESIS
    for (notification_id, *_), link in zip(rows, links, strict=True):
        prev, new = link[4], link[5]
        execute(
            store_url,
            "UPDATE {t} SET chain_prev = {p}, chain_hash = {p} WHERE {id} = {p}",
            (prev, new, notification_id),
        )
        head = new
    table = "chain_checkpoints" if store_url.startswith("sqlite") else "{t}_checkpoints"
    execute(store_url, f"UPDATE {table} SET chain_hash = {{p}}", (head,))


def test_signature_catches_a_recomputed_chain(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    store = AuditStore(store_url)
    store.append([hand("t/1"), hand("t/2")])
    checkpoint = store.checkpoint()
    assert checkpoint is not None and len(checkpoint.signature) == 64
    key = load_public_key(public)
    report = store.verify(key)
    assert report.ok and report.signatures_checked == 1 and report.unsigned_checkpoints == 0

    rewrite_history(store_url, 3)
    assert store.verify().ok  # the chain alone cannot tell
    report = store.verify(key)
    assert not report.ok and "not signed by this key" in report.problem


def test_cli_keygen_checkpoint_and_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = f"sqlite:///{tmp_path / 's.db'}"
    AuditStore(store).append([hand("t/1")])
    assert main(["keygen", str(tmp_path / "k")]) == 0
    assert (
        main(
            [
                "--store",
                store,
                "checkpoint",
                "--sign-key",
                str(tmp_path / "k" / "checkpoint-signing.key"),
            ]
        )
        == 0
    )
    assert "signed by key" in capsys.readouterr().out
    assert (
        main(
            [
                "--store",
                store,
                "verify",
                "--public-key",
                str(tmp_path / "k" / "checkpoint-signing.pub"),
            ]
        )
        == 0
    )
    assert "signatures: 1 valid, 0 checkpoint(s) unsigned" in capsys.readouterr().out
    assert main(["--store", store, "verify", "--public-key", str(tmp_path / "nope.pub")]) == 2
