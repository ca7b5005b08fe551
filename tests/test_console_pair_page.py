"""A suspected pair's console page: its evidence hands are links to their pages and
evidence bundles, and its verdict history is the detector's, as ``show`` says (never
"1 stored verdict (current)" above and "No stored verdict" below). Both backends."""

from __future__ import annotations

from datetime import date
from urllib.parse import quote

from audit.store import AuditStore
from console.accounts import add_user
from console.app import create_app
from pipelines.night_units import unit
from replayer.findings import Finding, FindingKind
from tests.console_store import FAST_HASHER, PASSWORD, VERIFIER, TestClient, sign_in
from tests.test_store import hand

DAY = date(2025, 3, 1)
PAIR = "pair:p1|p2"
HANDS = ["t/1", "t/2"]


def test_a_pairs_evidence_hands_are_links_and_its_history_is_one(store_url: str) -> None:
    store = AuditStore(store_url)
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
    add_user(store, "ines", "inspector", PASSWORD, by="tests", hasher=FAST_HASHER)
    store.close()
    app = create_app(store_url, hasher=FAST_HASHER, chain_executor=VERIFIER)
    with TestClient(app, follow_redirects=False) as client:
        assert sign_in(client, "ines").status_code == 303
        page = client.get("/subjects/" + quote(PAIR, safe="")).text
        for evidence in HANDS:
            url = "/subjects/" + quote(evidence, safe="")
            assert f'<a href="{url}">{evidence}</a>' in page
            assert f'<a href="{url}/evidence">evidence bundle</a>' in page
            assert client.get(f"{url}/evidence").status_code == 200
        assert "casino-audit show t/1" not in page  # a link, not a shell command
        assert "1 stored verdict(s)" in page and "No stored verdict" not in page
        assert "chat" not in page and "emoji" not in page  # only the rule that applies
