"""The session at a poker table (issue 38): which hands are consecutive, chips that vanish
between them, the room's record disagreeing with itself, the button's rotation.

The hands are built as a table plays them (``walk``: blinds posted, everyone folds to the
big blind), carried from one to the next by their own results; faults are planted by
``simulate.session_faults`` (a stack lowered at a hand's start and end, the hand legal on
its own). Room-shaped text is written by ``tests.room_text_writer`` and read back by the
importer. Real public room files are measured by ``test_real_room_files`` from the folder
``CASINO_AUDIT_ROOM_FILES`` names (never committed).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from audit.ingest.limits import Limits
from audit.ingest.room_text.reader import iter_text_units
from audit.store import SubjectRecords
from replayer.poker.replay import adjudicate_hand
from replayer.sessions import adjudicate_session, table_sessions
from replayer.sessions.chaining import Link
from simulate.session_faults import plant_chip_removal, removals, tables_of
from tests.console_store import console_store, make_client
from tests.poker_sim import HandBuilder
from tests.room_text_writer import write, write_file

__all__ = ["console_store", "make_client"]  # fixtures used here

AT = datetime(2024, 3, 10, 18, 0, tzinfo=UTC)
GG = "gg-2022-cash-holdem"


def walk(
    number: int,
    stacks: dict[int, int],
    button: int,
    *,
    at: datetime,
    rulebook: str | None = GG,
    names: dict[int, str] | None = None,
) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """One hand folded to the big blind, and the stacks it leaves."""
    seats = sorted(stacks)
    after = [s for s in seats if s > button] + [s for s in seats if s <= button]
    small, big = after[0], after[1]
    hand = HandBuilder(
        rulebook=rulebook,
        stacks=stacks,
        button=button,
        blinds=(5, 10),
        at=at,
        hand_id=f"t/{number}",
    )
    hand.post(small, "small_blind", 5).post(big, "big_blind", 10)
    for seat in [*after[2:], small]:
        hand.act(seat, "fold")
    hand.award(big, 5).award(big, 10, pot_index=0)
    left = {**stacks, small: stacks[small] - 5, big: stacks[big] + 5}
    hand.end([left[s] for s in seats])
    events = hand.events
    if names:
        start = events[0]
        start["seats"] = [{**s, "player_id": names[s["seat"]]} for s in start["seats"]]
    return events, left


def table(
    count: int = 5,
    stacks: dict[int, int] | None = None,
    *,
    gap: timedelta = timedelta(seconds=40),
    rulebook: str | None = GG,
) -> list[list[dict[str, Any]]]:
    """``count`` consecutive hands at one table, the button passing each hand."""
    stacks = stacks or {1: 1000, 3: 1500, 4: 800, 6: 2000}
    seats = sorted(stacks)
    hands = []
    button = seats[0]
    for n in range(count):
        events, stacks = walk(n, stacks, button, at=AT + n * gap, rulebook=rulebook)
        hands.append(events)
        button = ([s for s in seats if s > button] + seats)[0]
    return hands


def judged(hands: Sequence[Sequence[dict[str, Any]]]) -> list[Any]:
    """Every finding of the sessions of one table's hands."""
    found = []
    for session in table_sessions(hands):
        ids = {h.hand_id for h in session.hands}
        events = [e for hand in hands if hand[0]["hand_id"] in ids for e in hand]
        found += adjudicate_session(events).findings
    return found


def test_each_built_hand_is_legal_on_its_own() -> None:
    for hand in table():
        assert adjudicate_hand(hand).findings == ()


def test_consecutive_hands_are_one_session_and_raise_nothing() -> None:
    hands = table()
    sessions = table_sessions(hands)
    assert len(sessions) == 1 and len(sessions[0].hands) == 5
    assert judged(hands) == []


def test_file_order_never_decides_play_order() -> None:
    hands = table()
    assert judged(list(reversed(hands))) == []
    (session,) = table_sessions(list(reversed(hands)))
    assert [h.hand_id for h in session.hands] == [f"t/{n}" for n in range(5)]


def test_chips_removed_between_hands_name_player_hands_amount_and_article() -> None:
    hands = table()
    planted = plant_chip_removal(hands[2], "p4", 300)
    assert planted is not None and adjudicate_hand(planted).findings == ()  # legal alone
    hands[2] = planted
    (finding,) = judged(hands)
    assert finding.kind == "chips_vanished"
    assert finding.citation == "GG-2022 Poker Regras"
    assert finding.detail["player"] == "p4" and finding.detail["hands"] == ["t/1", "t/2"]
    assert (finding.expected - finding.recorded, finding.difference) == (300, -300)


def test_without_a_rulebook_the_records_own_arithmetic_is_cited() -> None:
    hands = table(rulebook=None)
    hands[3] = plant_chip_removal(hands[3], "p1", 100) or []
    (finding,) = judged(hands)
    assert (finding.kind, finding.citation) == ("chips_vanished", "casino-audit chip continuity")


def test_a_top_up_is_no_finding() -> None:
    hands = table()
    start = hands[-1][0]
    start["seats"] = [{**s, "stack": s["stack"] + 500} for s in start["seats"]]
    end = hands[-1][-1]
    end["finishing_stacks"] = [x + 500 for x in end["finishing_stacks"]]
    assert judged(hands) == []


@pytest.mark.parametrize(
    ("change", "link"),
    [
        ("gap", Link.GAP),
        ("stakes", Link.STAKES),
        ("button skipped", Link.BUTTON_SKIPPED),
    ],
)
def test_hands_not_consecutive_by_the_data_are_not_compared(change: str, link: Link) -> None:
    hands = table(3)
    later = hands[2][0]
    if change == "gap":
        for event in hands[2]:
            event["occurred_at"] += timedelta(minutes=10)
    elif change == "stakes":
        later["big_blind"] = 20
    else:
        later["button"] = 6  # two seats on: a hand missing between
    hands[2] = plant_chip_removal(hands[2], "p3", 200) or []
    sessions = table_sessions(hands)
    assert [s.links[0] for s in sessions] == [Link.FIRST, link]
    assert judged(hands) == []


def test_a_fast_fold_pool_is_not_a_session() -> None:
    hands = []
    for n in range(6):  # one table name, new players every hand but the hero
        names = {1: "hero", 3: f"a{n}", 4: f"b{n}", 6: f"c{n}"}
        events, _ = walk(
            n, {1: 1000, 3: 900, 4: 800, 6: 700}, 1, at=AT + n * timedelta(seconds=20), names=names
        )
        hands.append(events)
    hands[3] = plant_chip_removal(hands[3], "hero", 300) or []
    assert all(s.links == (Link.POOL,) for s in table_sessions(hands))
    assert judged(hands) == []


@pytest.mark.parametrize(
    ("rulebook", "article"),
    [
        ("mo-97-2010-omaha", "MO-97/2010 art.1(2)"),
        ("pt-217-2007-holdem", "PT-217/2007 n.º 29"),
        (GG, None),  # the house rules state no rotation: not judged
    ],
    ids=["mo", "pt", "gg"],
)
def test_a_button_that_stays_put_is_a_rotation_finding_where_the_text_says_so(
    rulebook: str, article: str | None
) -> None:
    hands = table(3, rulebook=rulebook)
    hands[2][0]["button"] = hands[1][0]["button"]
    found = [(f.kind, f.citation) for f in judged(hands) if f.kind == "button_not_rotated"]
    assert found == ([("button_not_rotated", article)] if article else [])


def test_a_pot_paid_whole_with_no_rake_line_is_the_room_disagreeing_with_itself() -> None:
    hands = table(3)
    # the big blind of hand 1 (seat 6) collected the pot; the room's next hand shows him
    # 1 less: a rake its record of hand 1 never took
    start = hands[2][0]
    start["seats"] = [{**s, "stack": s["stack"] - (s["seat"] == 6)} for s in start["seats"]]
    hands[2][-1]["finishing_stacks"] = [
        x - (s["seat"] == 6)
        for x, s in zip(hands[2][-1]["finishing_stacks"], start["seats"], strict=True)
    ]
    (finding,) = judged(hands)
    assert finding.kind == "record_contradicts_itself"
    assert finding.citation == "casino-audit room record consistency"


def test_the_same_hands_give_the_same_verdict() -> None:
    events = [e for hand in table() for e in hand]
    assert adjudicate_session(events) == adjudicate_session(list(reversed(events)))


# -- room text ------------------------------------------------------------------------------


@pytest.mark.parametrize("room", ["pokerstars", "ggpoker"])
def test_room_text_sessions_read_back_and_planted_removals_are_found(
    tmp_path: Path, room: str
) -> None:
    hands = table(6)
    texts = [write(hand, room, str(1000 + n)) for n, hand in enumerate(hands)]
    path = tmp_path / "hands.txt"
    path.write_text(write_file(list(reversed(texts))), encoding="utf-8")  # file order reversed
    units = [u for u in iter_text_units(path, (), Limits(), header_zone="UTC")]
    read = {u.subject_id: u.records for u in units if isinstance(u, SubjectRecords)}
    assert len(read) == 6 and judged(list(read.values())) == []
    planted = list(removals(read))
    assert len(planted) == 5
    for removal, order, changed in planted:
        events = [e for h in order for e in (changed if h == removal.after else read[h])]
        (finding,) = adjudicate_session(events).findings
        assert finding.kind == "chips_vanished" and finding.difference == -removal.amount
        assert finding.detail["hands"] == [removal.before, removal.after]


# -- real public room files -----------------------------------------------------------------

ROOM_FILES = "CASINO_AUDIT_ROOM_FILES"


def test_real_room_files() -> None:
    """Real room files: untouched, no chips vanish; every planted removal is found."""
    folder = os.environ.get(ROOM_FILES)
    if not folder or not Path(folder).is_dir():
        pytest.skip(f"no folder of real room files: set {ROOM_FILES} (looked at {folder!r})")
    hands: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(Path(folder).rglob("*.txt")):
        for u in iter_text_units(path, (), Limits(), header_zone="UTC"):
            if isinstance(u, SubjectRecords):
                hands.setdefault(u.subject_id, u.records)
    clean = [f for ids in tables_of(hands).values() for f in judged([hands[h] for h in ids])]
    carried = {"chips_vanished", "tournament_chips_vanished", "tournament_chips_appeared"}
    assert [f for f in clean if f.kind in carried] == []  # cash and tournament tables
    planted = found = 0
    for removal, order, changed in removals(hands):
        planted += 1
        events = [e for h in order for e in (changed if h == removal.after else hands[h])]
        findings = [f for f in adjudicate_session(events).findings if f.kind == "chips_vanished"]
        found += [f.detail["hands"] for f in findings] == [[removal.before, removal.after]]
    assert found == planted > 0


# -- through the one judging path -----------------------------------------------------------


def test_replay_stores_each_session_verdict_once(tmp_path: Path, store_url: str) -> None:
    from audit.ingest.pipeline import ingest
    from audit.judging import current_findings, replay
    from audit.store import AuditStore

    hands = table(4)
    hands[2] = plant_chip_removal(hands[2], "p6", 400) or []
    path = tmp_path / "hands.txt"
    texts = [write(hand, "pokerstars", str(2000 + n)) for n, hand in enumerate(hands)]
    path.write_text(write_file(texts), encoding="utf-8")
    store = AuditStore(store_url)
    ingest(store, [path], header_zone="UTC")
    first = replay(store)
    assert first.subjects["table_session"] == 1
    (row,) = list(current_findings(store, "chips_vanished"))
    assert row["subject"] == "pokerstars/t@pokerstars/2000"
    assert row["detail"]["hands"] == ["pokerstars/2001", "pokerstars/2002"]
    assert row["difference"] == -400 and row["citation"] == "casino-audit chip continuity"
    assert replay(store).adjudications_stored == 0  # the same hands, the same verdict


def test_show_lists_the_sessions_hands_with_the_break_flagged(tmp_path: Path) -> None:
    from audit.explain import show_lines
    from audit.ingest.pipeline import ingest
    from audit.judging import current_findings, replay
    from audit.store import AuditStore
    from audit.wording import owed_totals

    hands = table(4)
    hands[2] = plant_chip_removal(hands[2], "p6", 400) or []
    path = tmp_path / "hands.txt"
    texts = [write(hand, "pokerstars", str(3000 + n)) for n, hand in enumerate(hands)]
    path.write_text(write_file(texts), encoding="utf-8")
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    ingest(store, [path], header_zone="UTC")
    replay(store)
    lines = show_lines(store, "pokerstars/t@pokerstars/3000") or []
    flagged = [line for line in lines if line.lstrip().startswith(">>")]
    assert [line.split()[1] for line in flagged] == ["pokerstars/3001", "pokerstars/3002"]
    assert any("EUR 4.00 taken off the table" in line for line in lines)
    totals = owed_totals(current_findings(store))
    assert totals.players["p6"]["EUR"].to_player == 400


# -- simulated days -------------------------------------------------------------------------


def _simulated(tmp_path: Path, fault_rate: float) -> tuple[list[Any], Any]:
    from datetime import date

    from audit.ingest.avro_files import read_events
    from simulate import generate_day

    manifest = generate_day(
        5, date(2025, 3, 1), hands=800, tables=8, out=tmp_path, fault_rate=fault_rate
    )
    hands: dict[str, list[dict[str, Any]]] = {}
    for name in manifest.input_files:
        for event in read_events(tmp_path / name):
            hands.setdefault(event["hand_id"], []).append(event)
    found = [f for ids in tables_of(hands).values() for f in judged([hands[h] for h in ids])]
    return found, manifest


def test_a_clean_simulated_day_raises_no_session_finding(tmp_path: Path) -> None:
    found, manifest = _simulated(tmp_path, 0.0)
    assert manifest.faults == [] and found == []


def test_chips_taken_in_a_simulated_day_are_each_found(tmp_path: Path) -> None:
    found, manifest = _simulated(tmp_path, 0.03)
    planted = {
        (f.detail["player"], *f.detail["hands"], f.detail["amount"])
        for f in manifest.faults
        if f.kind == "chips_removed_between_hands"
    }
    got = {
        (f.detail["player"], *f.detail["hands"], -f.difference)
        for f in found
        if f.kind == "chips_vanished"
    }
    assert len(planted) >= 5 and got == planted
    assert {f.kind for f in found} == {"chips_vanished"}


def test_a_session_over_midnight_is_judged_once_by_the_night_it_closes(
    tmp_path: Path, store_url: str
) -> None:
    """Hands from 23:58 to 00:02: the first night leaves the open session, the second
    judges it whole, with the same verdict unit ``replay`` stores."""
    from datetime import date

    from audit.families import family_named
    from audit.judging import current_findings, replay
    from audit.store import AuditStore
    from pipelines.nightly.steps import run_nightly
    from simulate.avro_out import write_input_file

    first_day, second_day = date(2024, 3, 10), date(2024, 3, 11)
    start = datetime(2024, 3, 10, 23, 58, tzinfo=UTC)
    stacks = {1: 1000, 3: 1500, 4: 800, 6: 2000}
    hands, button = [], 1
    for n in range(5):
        events, stacks = walk(n, stacks, button, at=start + n * timedelta(minutes=1))
        hands.append(events)
        button = ([s for s in sorted(stacks) if s > button] + sorted(stacks))[0]
    hands[4] = plant_chip_removal(hands[4], "p3", 250) or []
    inputs = tmp_path / "in"
    for day, part in ((first_day, hands[:2]), (second_day, hands[2:])):
        (inputs / day.isoformat()).mkdir(parents=True)
        events = [e for hand in part for e in hand]
        write_input_file(
            inputs / day.isoformat() / "poker.avro", family_named("poker"), events, stream_id="s"
        )
    run_nightly(store_url, inputs, first_day, tmp_path / "out")
    store = AuditStore(store_url)
    assert list(current_findings(store, "chips_vanished")) == []  # still open at midnight
    run_nightly(store_url, inputs, second_day, tmp_path / "out")
    (row,) = list(current_findings(store, "chips_vanished"))
    assert row["subject"] == "t@t/0" and row["detail"]["hands"] == ["t/3", "t/4"]
    assert replay(store).adjudications_stored == 0  # replay's verdict is the night's


def test_the_console_page_of_a_session_lists_its_hands_with_the_break(
    console_store: Any, make_client: Any
) -> None:
    from urllib.parse import quote

    from audit.judging import current_findings
    from audit.store import AuditStore

    store = AuditStore(console_store.url)
    try:
        row = next(iter(current_findings(store, "chips_vanished")))
    finally:
        store.close()
    page = make_client("inspector").get("/subjects/" + quote(row["subject"], safe=""))
    assert page.status_code == 200
    text = page.text
    assert "POKER TABLE SESSION" in text and "Verdict history" in text
    assert all(hand in text for hand in row["detail"]["hands"])
    assert "&gt;&gt; " in text and "taken off the table" in text


def test_a_sessions_evidence_bundle_is_judged_again_without_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session has no events of its own: its bundle holds its hands as stored and its
    verdict; ``verify_bundle`` judges the session again from them, offline, and a hand left
    out (or a byte changed) fails."""
    import copy

    from audit.evidence.check import verify_bundle
    from audit.ingest.pipeline import ingest
    from audit.judging import replay
    from audit.store import AuditStore
    from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
    from tests.bundles import bundle_from_store

    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    hands = table(4)
    hands[2] = plant_chip_removal(hands[2], "p6", 400) or []
    path = tmp_path / "hands.txt"
    texts = [write(hand, "pokerstars", str(2000 + n)) for n, hand in enumerate(hands)]
    path.write_text(write_file(texts), encoding="utf-8")
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        ingest(store, [path], header_zone="UTC")
        replay(store)
        store.checkpoint()
        bundle = bundle_from_store(store, "pokerstars/t@pokerstars/2000")
    finally:
        store.close()
    key = load_public_key(public)
    assert bundle["subject"] == {"kind": "table_session", "id": "pokerstars/t@pokerstars/2000"}
    assert [g["subject"] for g in bundle["inputs"]] == [f"pokerstars/{2000 + n}" for n in range(4)]
    report = verify_bundle(bundle, key)
    assert report.ok, report.problems
    assert "recomputed" in report.proven[1] and "chips_vanished" in report.proven[1]
    short = copy.deepcopy(bundle)
    del short["inputs"][-1]
    assert not verify_bundle(short, key).ok
