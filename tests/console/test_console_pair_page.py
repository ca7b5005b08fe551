"""A suspected pair's console page: its evidence hands are links to their pages and
evidence bundles, its verdict history is the detector's, as ``show`` says (never
"1 stored verdict (current)" above and "No stored verdict" below), it says in words what
was measured, cites only the collusion rule, and its own evidence bundle (the night's
detector unit and the evidence hands) is proven offline. Both backends."""

from __future__ import annotations

import base64
import copy
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from audit.evidence.check import verify_bundle
from audit.store import AuditStore
from audit.store.packing import pack_events, unpack
from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
from console.app import create_app
from console.auth.accounts import add_user
from pipelines.night_units import unit
from replayer.findings import Finding, FindingKind
from tests.audit.store.test_store import hand
from tests.console_store import FAST_HASHER, PASSWORD, VERIFIER, TestClient, sign_in

DAY = date(2025, 3, 1)
PAIR = "pair:p1|p2"
HANDS = ["t/1", "t/2"]
PAGE = "/subjects/" + quote(PAIR, safe="")


def store_suspected_pair(store: AuditStore) -> None:
    """Two hands and the night's detector unit suspecting ``PAIR`` over them, under a
    checkpoint (signed when a signing key is configured)."""
    store.append([hand(h) for h in HANDS])
    suspicion = Finding(
        FindingKind.COLLUSION_SUSPECTED,
        PAIR,
        "GG-2022 política de conluio (Política de desconexões)",
        "collusion score 7.10 over 140 shared hands (strongest: fold z=6.00)",
        expected={"score_below": 5.5},
        recorded=7.1,
        difference=1.6,
        detail={
            "players": ["p1", "p2"],
            "features": {"flow": 2.0, "fold": 6.0, "soft": 1.0, "whipsaw": 0.0, "team": 3.0},
            "shared_hands": 140,
            "evidence_hands": HANDS,
            "window": {"as_of": DAY.isoformat(), "days": 30},
        },
    )
    store.append([unit("collusion", DAY.isoformat(), [suspicion], figures={})])
    store.checkpoint()


@pytest.fixture
def client(store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """An inspector signed in on a store with two hands and the night's detector unit
    suspecting the pair over them, under a signed checkpoint; yields (client, public key)."""
    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    store = AuditStore(store_url)
    store_suspected_pair(store)
    add_user(
        store, "ines", "inspector", PASSWORD, by="tests", needs_approval=False, hasher=FAST_HASHER
    )
    store.close()
    app = create_app(store_url, hasher=FAST_HASHER, chain_executor=VERIFIER)
    with TestClient(app, follow_redirects=False) as client:
        assert sign_in(client, "ines").status_code == 303
        yield client, load_public_key(public)


def test_a_pairs_evidence_hands_are_links_and_its_history_is_one(client: Any) -> None:
    client, _ = client
    page = client.get(PAGE).text
    for evidence in HANDS:
        url = "/subjects/" + quote(evidence, safe="")
        assert f'<a href="{url}">{evidence}</a>' in page
        assert f'<a href="{url}/evidence">evidence bundle</a>' in page
        assert client.get(f"{url}/evidence").status_code == 200
    assert "casino-audit show t/1" not in page  # a link, not a shell command
    assert "1 stored verdict(s)" in page and "No stored verdict" not in page
    assert "chat" not in page and "emoji" not in page  # only the rule that applies
    assert "GG-2022 Política de conluio — Collusion" in page


def test_a_pairs_page_says_what_was_measured_in_words(client: Any) -> None:
    client, _ = client
    page = client.get(PAGE).text
    assert "WHAT WAS MEASURED, in words" in page
    assert "Over the 140 hands p1 and p2 played together in the 30 days to 2025-03-01" in page
    assert (
        "they clearly folded to each other&#39;s bets more often than to other players&#39; "
        "bets (6.0 standard deviations)" in page
    )
    assert "they clearly won more together than apart (3.0 standard deviations)" in page
    assert "they somewhat lost chips to each other" in page  # flow z=2.0
    assert "otherwise as with anyone else (2 of 5 behaviours)" in page
    assert "Together this scores 7.1, at or above 5.5, where a pair is suspected" in page


def test_a_pairs_evidence_bundle_proves_the_suspicion_and_its_hands(client: Any) -> None:
    client, key = client
    page = client.get(PAGE).text
    assert f'href="{PAGE}/evidence">Evidence bundle (the suspicion and its evidence hands)' in page
    response = client.get(PAGE + "/evidence")
    assert response.status_code == 200, response.text[:300]
    bundle = response.json()
    assert bundle["subject"] == {"kind": "collusion", "id": PAIR}
    assert [g["subject"] for g in bundle["inputs"]] == HANDS
    report = verify_bundle(bundle, key)
    assert report.ok, report.problems
    assert report.proven[0].startswith(
        f"the nightly detector's suspicion on {PAIR} (score 7.1 over 140 shared hands, window "
        "of 30 days to 2025-03-01) is stored in unit collusion:2025-03-01|"
    )
    assert "its 2 evidence hand(s) are stored hands" in report.proven[0]
    assert "Collusion" in report.proven[1]
    assert any("not recomputed" in note for note in report.notes)

    short = copy.deepcopy(bundle)
    del short["inputs"][1]  # a hand the suspicion names left out
    assert "not the evidence hands" in " ".join(verify_bundle(short, key).problems)
    changed = copy.deepcopy(bundle)
    [row] = changed["verdict"]["events"]  # the unit's packed row: its Opened and its verdict
    events = unpack(row["originator_id"], row["version"], base64.b64decode(row["state_b64"]))
    assert b"7.1" in events[1][2]
    altered = [(topic, state.replace(b"7.1", b"9.1", 1)) for _, topic, state in events]
    row["state_b64"] = base64.b64encode(pack_events(altered)).decode()
    assert not verify_bundle(changed, key).ok  # the stored suspicion altered
    other = copy.deepcopy(bundle)
    other["subject"]["id"] = "pair:p1|p3"
    assert "holds no suspicion on pair:p1|p3" in " ".join(verify_bundle(other, key).problems)
