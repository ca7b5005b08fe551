"""PT-217/2007 n.º 124 (win the button) judged across a tournament table's hands.

"É permitida a realização de torneios na modalidade win the button, na qual, após a
primeira jogada, a mão é atribuída ao jogador que ganhou a anterior. Em caso de empate, a
mão é atribuída ao jogador que, de entre eles, se encontre posicionado imediatamente à
esquerda do marcador."

The format is the tournament's record's (``TournamentAnnounced.button``, schema v3). A
simulated win-the-button tournament (``simulate.tournament_tables``: the button moved by
the simulator's own showdown winners, never the replayer's reading) is clean; a button
planted elsewhere is found; ties are checked on hands written by hand against the text;
a rotating tournament is judged as before, and without the stored format the rotation
is judged as today; an older tournament file (v2, no format) still reads.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import fastavro
import pytest

from audit.families import SCHEMA_DIR, family_named
from audit.ingest.avro_files import write_events
from audit.ingest.avro_shape import to_avro
from audit.judging.table_sessions import judge_table_sessions
from audit.wording.labels import KIND_LABELS
from audit.wording.sentences import sentence
from replayer.findings import Finding, FindingKind
from replayer.poker.replay import adjudicate_hand
from replayer.rulebooks.citations import lookup
from replayer.sessions import adjudicate_session
from simulate.tournament_tables import announcement, play_tournament_tables

AT = datetime(2024, 3, 10, 14, tzinfo=UTC)
N124 = "PT-217/2007 n.º 124"
Hands = list[list[dict[str, Any]]]
Records = dict[tuple[str, str], list[dict[str, Any]]]


class Stored:
    """A store's reads over records given by (kind, subject)."""

    def __init__(self, records: Records) -> None:
        self.records = records

    def records_of(self, kind: str, subject_id: str) -> list[dict[str, Any]]:
        return list(self.records.get((kind, subject_id), ()))

    def records_of_many(
        self, kind: str, subject_ids: Sequence[str]
    ) -> dict[str, list[dict[str, Any]]]:
        return {s: self.records_of(kind, s) for s in subject_ids}


def stated(tournament: str, button: str) -> Stored:
    """A store holding the tournament's announcing event stating ``button``."""
    return Stored({("tournament", tournament): [announcement(tournament, AT, button)]})


def findings(hands: Hands, store: Stored | None = None) -> list[Finding]:
    return [f for _, v in judge_table_sessions(hands, store) for f in v.findings]


def winner_seats(hand: list[dict[str, Any]]) -> set[int]:
    return {e["seat"] for e in hand if e["type"] == "PotAwarded" and e["pot_index"] == 0}


def plant_wrong_button(hands: Hands, table: str) -> str:
    """The button of a hand at ``table`` (its previous hand won by one player, every
    stack carried) moved to a seat that is not the winner's: the planted hand's id."""
    at = [h for h in hands if h[0]["table_id"] == table]
    for before, after in itertools.pairwise(at):
        won, dealt = winner_seats(before), [s["seat"] for s in after[0]["seats"]]
        if len(won) == 1 and set(dealt) == {s["seat"] for s in before[0]["seats"]}:
            wrong = next(seat for seat in dealt if seat not in won)
            after[0]["button"] = wrong
            return str(after[0]["hand_id"])
    raise AssertionError("no hand to plant in")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pt_124_a_clean_win_the_button_tournament_raises_nothing(seed: int) -> None:
    tournament = f"wtb-{seed}"
    hands, _ = play_tournament_tables(seed, tournament, AT, button="win_the_button")
    assert [f for h in hands for f in adjudicate_hand(h).findings] == []
    judged = list(judge_table_sessions(hands, stated(tournament, "win_the_button")))
    assert [f for _, v in judged for f in v.findings] == []
    # each table is one session, whole: the button went to each winner, never rotated
    assert len(judged) == 2
    assert all("button" not in " ".join(v.links) for _, v in judged)
    own = [
        len([h for h in hands if h[0]["table_id"] == i.events[0]["table_id"]]) for i, _ in judged
    ]
    assert [v.links.count("consecutive") + 1 for _, v in judged] == own
    # the button did not simply rotate: the format is what chains these hands
    assert any(b[0]["button"] == a[0]["button"] for b, a in itertools.pairwise(hands))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pt_124_a_button_planted_away_from_the_winner_is_found(seed: int) -> None:
    tournament = f"wtb-{seed}"
    hands, _ = play_tournament_tables(seed, tournament, AT, button="win_the_button")
    planted = plant_wrong_button(hands, f"{tournament} table 1")
    (finding,) = findings(hands, stated(tournament, "win_the_button"))
    assert finding.kind is FindingKind.BUTTON_NOT_TO_WINNER
    assert finding.citation == N124 and lookup(N124) is not None
    assert finding.detail["hands"][1] == planted
    previous = next(h for h in hands if h[0]["hand_id"] == finding.detail["hands"][0])
    assert {finding.expected} == winner_seats(previous)
    row = {**finding.as_dict(), "kind": str(finding.kind)}
    assert "win-the-button" in sentence(row) and N124 in sentence(row)
    assert KIND_LABELS[FindingKind.BUTTON_NOT_TO_WINNER]


# -- ties, by hand ---------------------------------------------------------------------------

SEATS = (1, 3, 5)


def hand(
    number: int, button: int, stacks: tuple[int, ...], won: dict[int, int], ended: tuple[int, ...]
) -> list[dict[str, Any]]:
    """A stored hand at seats 1, 3, 5 of table ``T`` of tournament ``wtb``: its start,
    the main pot's awards (seat -> chips) and its closing stacks."""
    hand_id = f"h{number}"
    at = AT + timedelta(minutes=number)
    events: list[dict[str, Any]] = [
        {
            "type": "HandStarted",
            "hand_id": hand_id,
            "table_id": "T",
            "tournament_id": "wtb",
            "occurred_at": at,
            "currency": "XXX",
            "small_blind": 50,
            "big_blind": 100,
            "button": button,
            "seats": [
                {"seat": s, "player_id": f"P{s}", "stack": c}
                for s, c in zip(SEATS, stacks, strict=True)
            ],
        }
    ]
    events += [
        {"type": "PotAwarded", "hand_id": hand_id, "seat": s, "amount": a, "pot_index": 0}
        for s, a in won.items()
    ]
    events.append({"type": "HandEnded", "hand_id": hand_id, "finishing_stacks": list(ended)})
    return events


@pytest.mark.parametrize(
    ("button", "expected"),
    [
        (5, 1),  # tied winners on seats 1 and 3, the marker on 5: seat 1 is next to its left
        (1, 3),  # the marker on 1 (a winner): the other winner, on 3, is left of it
        (3, 1),  # the marker on 3: clockwise 5, then 1
    ],
)
def test_pt_124_a_tie_goes_to_the_winner_immediately_left_of_the_marker(
    button: int, expected: int
) -> None:
    # P1 and P3 split the main pot: 600 and 600 of 1,200
    first = hand(1, button, (1_000, 1_000, 1_000), {1: 600, 3: 600}, (1_200, 1_200, 600))
    stacks = (1_200, 1_200, 600)
    for seat in SEATS:
        events = [*first, *hand(2, seat, stacks, {seat: 300}, stacks)]
        verdict = adjudicate_session(events, related=[announcement("wtb", AT, "win_the_button")])
        kinds = [f.kind for f in verdict.findings]
        assert verdict.hands == ("h1", "h2")
        if seat == expected:
            assert kinds == []
        else:
            assert kinds == [FindingKind.BUTTON_NOT_TO_WINNER]
            assert verdict.findings[0].expected == expected
            assert verdict.findings[0].detail["winners"] == ["P1", "P3"]


def test_pt_124_hands_missing_between_break_the_session_never_a_finding() -> None:
    """A button away from the winner between hands that do not carry the stacks: a hand
    was played between (its winner unknown), so no session and no finding."""
    first = hand(1, 5, (1_000, 1_000, 1_000), {1: 1_200}, (1_800, 600, 600))
    later = hand(2, 3, (1_700, 700, 600), {3: 300}, (1_700, 700, 600))
    verdict = adjudicate_session(
        [*first, *later], related=[announcement("wtb", AT, "win_the_button")]
    )
    assert verdict.findings == ()
    assert verdict.links[1] == "the button skipped seats: hands missing between"


# -- a rotating tournament, and no stated format ----------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_a_rotating_tournament_is_judged_as_before(seed: int) -> None:
    tournament = f"rot-{seed}"
    hands, _ = play_tournament_tables(seed, tournament, AT)
    before = [(i.subject, v.links, v.findings) for i, v in judge_table_sessions(hands)]
    stored = stated(tournament, "rotating")
    after = [(i.subject, v.links, v.findings) for i, v in judge_table_sessions(hands, stored)]
    assert after == before


def test_without_the_stored_format_the_rotation_is_judged_as_today() -> None:
    """A win-the-button tournament whose announcing event is not stored: its buttons read
    as rotating (GG rulebook: a button off the rotation breaks the session), no finding."""
    hands, _ = play_tournament_tables(1, "wtb-1", AT, button="win_the_button")
    judged = [v for _, v in judge_table_sessions(hands, Stored({}))]
    assert [f for v in judged for f in v.findings] == []
    assert all(len(v.hands) < 24 for v in judged)  # cut where the button did not rotate


# -- the schema: v3 states the format, v2 files still read --------------------------------------

TOURNAMENT = family_named("tournament")


def test_a_tournament_file_of_schema_v2_reads_and_v3_states_the_button(
    tmp_path: Path, store_url: str
) -> None:
    from audit.ingest.pipeline import ingest
    from audit.store import AuditStore

    v2 = json.loads((SCHEMA_DIR / "history" / "tournament.v2.avsc").read_text())
    assert v2["version"] == 2 and TOURNAMENT.version == 3
    assert TOURNAMENT.later_optional_fields == {"final_table_seats", "button"}
    old = tmp_path / "old.avro"
    event = {k: v for k, v in announcement("old", AT).items() if k != "button"}
    with old.open("wb") as out:
        fastavro.writer(
            out, fastavro.parse_schema(v2), [to_avro(event, namespace=TOURNAMENT.namespace)]
        )
    new = tmp_path / "new.avro"
    write_events(new, TOURNAMENT, [announcement("new", AT, "win_the_button")])
    store = AuditStore(store_url)
    try:
        assert ingest(store, [old, new]).quarantined == 0
        (stored_old,) = store.records_of("tournament", "old")
        (stored_new,) = store.records_of("tournament", "new")
    finally:
        store.close()
    assert "button" not in stored_old
    assert stored_new["button"] == "win_the_button"


# -- through the one judging path: replay, the nightly, a bundle -------------------------------


def _win_the_button_day(folder: Path) -> str:
    """A win-the-button tournament's hands (one button planted away from its winner) and
    its announcing event, written as a day's input files: the planted hand's id."""
    from audit.ingest.avro_files import write_events as write

    hands, _ = play_tournament_tables(2, "wtb-day", AT, button="win_the_button")
    planted = plant_wrong_button(hands, "wtb-day table 1")
    poker = [event for h in hands for event in h]
    write(folder / "poker-wtb-day.avro", family_named("poker"), poker)
    write(
        folder / "tournament-wtb-day.avro",
        TOURNAMENT,
        [announcement("wtb-day", AT, "win_the_button")],
    )
    return planted


def test_pt_124_replay_and_a_bundle_judge_the_button_with_the_stored_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from audit.evidence.check import verify_bundle
    from audit.ingest.pipeline import ingest
    from audit.judging import current_findings, replay
    from audit.store import AuditStore
    from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
    from tests.bundles import bundle_from_store

    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    planted = _win_the_button_day(tmp_path)
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        ingest(store, sorted(tmp_path.glob("*.avro")))
        replay(store)
        (row,) = list(current_findings(store, "button_not_to_winner"))
        assert row["detail"]["hands"][1] == planted and row["citation"] == N124
        assert list(current_findings(store, "button_not_rotated")) == []
        assert replay(store).adjudications_stored == 0
        bundle = bundle_from_store(store, row["subject"])
    finally:
        store.close()
    assert ("tournament", "wtb-day") in {(g["kind"], g["subject"]) for g in bundle["inputs"]}
    report = verify_bundle(bundle, load_public_key(public))
    assert report.ok, report.problems


def test_pt_124_the_nightly_judges_the_button_as_replay_does(tmp_path: Path) -> None:
    from audit.judging import current_findings, replay
    from audit.store import AuditStore
    from pipelines.nightly.steps import run_nightly

    folder = tmp_path / "in" / AT.date().isoformat()
    folder.mkdir(parents=True)
    planted = _win_the_button_day(folder)
    url = f"sqlite:///{tmp_path / 'store.db'}"
    run_nightly(url, tmp_path / "in", AT.date(), tmp_path / "out")
    store = AuditStore(url)
    try:
        (row,) = list(current_findings(store, "button_not_to_winner"))
        assert row["detail"]["hands"][1] == planted
        assert replay(store).adjudications_stored == 0
    finally:
        store.close()
