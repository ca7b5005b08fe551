"""Signed checkpoints: a rewritten history with a recomputed chain is still caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.store import AuditStore
from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
from cli.main import main
from tests.audit.store.test_store import hand
from tests.store_tamper import recompute_history


def rewrite_history(store_url: str, victim: int) -> None:
    """What an attacker with database access can do: alter an event, then recompute every
    hash after it and the checkpoint, so that the chain alone looks intact."""
    recompute_history(store_url, victim, lambda _: b'{"forged":1}', strip_signatures=False)


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

    rewrite_history(store_url, 2)
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
