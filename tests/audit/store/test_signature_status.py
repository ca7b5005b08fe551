"""The overview's signature status in plain words (``console.readmodel.signatures``), on real
stores of both backends: an unsigned store is "not signed" (neutral), an inspector's
clicks never raise an alarm, and only a missing or wrong signature where one should be
does (the console's verification worker, ``console.readmodel.chainwatch.verify_store``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from audit.store import AuditStore
from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
from console.auth.trail import record_note, record_sign_off, record_view
from console.readmodel.chainwatch import verify_store
from console.readmodel.signatures import ALARM, NEUTRAL, OK, SignatureStatus
from tests.audit.store.test_store import hand


@pytest.fixture
def keys(tmp_path: Path) -> tuple[Path, bytes]:
    private, public = generate_keypair(tmp_path / "keys")
    raw = load_public_key(public).public_bytes(Encoding.Raw, PublicFormat.Raw)
    return private, raw


def _status(store_url: str, public: bytes) -> SignatureStatus:
    report, _, _, status, _ = verify_store(store_url, public)
    assert report.ok and status is not None
    return status


def _signed_store(store_url: str, private: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        patch.setenv(SIGNING_KEY_ENV, str(private))
        store = AuditStore(store_url)
        store.append([hand("t/1"), hand("t/2")])
        assert store.checkpoint() is not None
        store.close()


def test_an_unsigned_store_is_not_signed_not_tampered(store_url: str, keys) -> None:
    _, public = keys
    store = AuditStore(store_url)
    store.append([hand("t/1")])
    store.checkpoint()  # no signing key configured
    store.close()
    status = _status(store_url, public)
    assert status.level == NEUTRAL and status.headline == "not signed"
    assert status.detail.startswith("not signed: no signing key configured")
    for tamper_words in ("stripped", "deleted", "replaced", "NOT COVERED"):
        assert tamper_words not in status.detail + status.headline


def test_an_inspectors_clicks_never_turn_a_signed_store_red(
    store_url: str, keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    private, public = keys
    _signed_store(store_url, private, monkeypatch)
    assert _status(store_url, public) == SignatureStatus(
        OK, "covered", "1 signature(s) valid, covering every event"
    )
    store = AuditStore(store_url)  # the console without the signing key
    assert store.signing_key is None
    for n in range(3):
        record_view(store, "ines", "t/1", "subject")
        record_view(store, "ines", f"t/{n}", "evidence")
    record_sign_off(
        store, "ivo", finding_id="f1", subject="t/1", decision="accepted", note="checked"
    )
    record_note(store, "ivo", incident_id="inc-1", note="refunds checked")
    store.close()
    status = _status(store_url, public)
    assert status.level == OK and status.headline == "covered"
    assert "later event(s) are this console's access trail" in status.detail


def test_other_events_after_the_last_signature_are_not_covered(
    store_url: str, keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    private, public = keys
    _signed_store(store_url, private, monkeypatch)
    store = AuditStore(store_url)
    record_view(store, "ines", "t/1", "subject")
    store.append([hand("t/3")])  # a hand appended with no signed checkpoint after it
    store.close()
    status = _status(store_url, public)
    assert status.level == ALARM and status.headline == "NOT COVERED"
    assert "event(s) after the last signed checkpoint" in status.detail
    assert "access trail" not in status.detail


def test_an_unsigned_checkpoint_after_a_signed_one_is_a_missing_signature(
    store_url: str, keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    private, public = keys
    _signed_store(store_url, private, monkeypatch)
    store = AuditStore(store_url)
    store.append([hand("t/3")])
    store.checkpoint()  # unsigned: written without the key
    store.close()
    status = _status(store_url, public)
    assert status.level == ALARM and status.headline == "SIGNATURE MISSING"
    assert status.detail.startswith("signature missing where one was before")


def test_a_signature_by_another_key_does_not_verify(
    store_url: str, keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    private, _ = keys
    _signed_store(store_url, private, monkeypatch)
    _, other = generate_keypair(tmp_path / "other")
    other_raw = load_public_key(other).public_bytes(Encoding.Raw, PublicFormat.Raw)
    status = _status(store_url, other_raw)
    assert status.level == ALARM and status.headline == "SIGNATURE INVALID"
