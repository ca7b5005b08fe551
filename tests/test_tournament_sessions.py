"""A tournament's table judged across its hands (issue 38 item 2): a player's chips
continue from one hand to the next (MO-97/2010 art.4(2): no chips leave the table), and
none come in without a rebuy or add-on.

Simulated tournaments (``simulate.tournament_tables``: the replayer's own play, each hand
legal on its own) are the planting ground: every planted fall or rise is found with its
kind, on its pair of hands, and the untouched tables raise nothing. Real public room
text (the GGPoker tournament hand of ``tests.test_tournament_hands``) carried to a next
hand by its own summary is no finding, and the same stack lowered is one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from audit.ingest.room_text.lines import TOPPED_UP
from audit.judging.table_sessions import judge_table_sessions
from audit.wording.sentences import sentence
from replayer.findings import Finding, FindingKind
from replayer.poker.replay import adjudicate_hand
from replayer.sessions import adjudicate_session, table_sessions
from replayer.sessions.chaining import Link
from replayer.sessions.hands import REBUY_NOTE
from simulate.session_faults import SESSION_FAULTS, plant_chip_removal
from simulate.tournament_tables import play_tournament_tables

AT = datetime(2024, 3, 10, 14, tzinfo=UTC)
Hands = list[list[dict[str, Any]]]


def judged(hands: Hands) -> list[Finding]:
    """Every finding of every session among a tournament's ``hands``, through the path
    ``replay`` and the nightly take (``audit.judging.judge_table_sessions``)."""
    return [f for _, verdict in judge_table_sessions(hands) for f in verdict.findings]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_clean_tournament_raises_nothing_across_its_hands(seed: int) -> None:
    hands, planted = play_tournament_tables(seed, f"mtt-{seed}", AT)
    assert planted == []
    assert [f for h in hands for f in adjudicate_hand(h).findings] == []
    assert judged(hands) == []
    # the blinds rose and players moved between tables: neither breaks a session or is
    # read as chips leaving
    tables = {h[0]["table_id"] for h in hands}
    assert len({h[0]["big_blind"] for h in hands}) > 1
    assert all(len(table_sessions([h for h in hands if h[0]["table_id"] == t])) == 1 for t in tables)
    seen: dict[str, set[str]] = {}
    for hand in hands:
        for seat in hand[0]["seats"]:
            seen.setdefault(seat["player_id"], set()).add(hand[0]["table_id"])
    assert any(len(at) > 1 for at in seen.values())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_planted_chips_leaving_or_appearing_are_each_found(seed: int) -> None:
    hands, planted = play_tournament_tables(seed, f"mtt-{seed}", AT, fault_rate=0.3)
    assert {f.kind for f in planted} == set(SESSION_FAULTS) - {"chips_removed_between_hands"}
    assert [f for h in hands for f in adjudicate_hand(h).findings] == []  # legal alone
    found = {(f.detail["hands"][1], str(f.kind)) for f in judged(hands)}
    expected = {(f.subject, kind) for f in planted for kind in f.findings}
    assert found == expected
    for finding in judged(hands):
        fault = next(f for f in planted if f.subject == finding.detail["hands"][1])
        assert abs(finding.difference) == fault.detail["amount"]
        assert finding.detail["player"] == fault.detail["player"]


def _pair(seed: int = 4) -> tuple[Hands, Sequence[dict[str, Any]]]:
    """A clean table's hands and the carried seat of the first consecutive pair."""
    hands, _ = play_tournament_tables(seed, "mtt-pair", AT, tables=1)
    return hands, hands[1][0]["seats"][0]


def test_a_fall_cites_the_article_and_is_shown_in_tournament_chips() -> None:
    hands, seat = _pair()
    lowered = plant_chip_removal(hands[1], seat["player_id"], 700)
    assert lowered is not None
    (finding,) = adjudicate_session([e for h in (hands[0], lowered) for e in h]).findings
    assert finding.kind is FindingKind.TOURNAMENT_CHIPS_VANISHED
    assert finding.citation == "casino-audit tournament chips; GG-2022 Poker Regras"
    assert finding.difference == -700
    row = {**finding.as_dict(), "currency": "CHIPS"}
    text = sentence(row)
    assert "700 chips left the table" in text and "EUR" not in text and "USD" not in text


def test_a_rise_is_chips_from_nowhere_unless_the_hand_records_a_rebuy() -> None:
    hands, seat = _pair()
    raised = plant_chip_removal(hands[1], seat["player_id"], -500)
    assert raised is not None
    (finding,) = adjudicate_session([e for h in (hands[0], raised) for e in h]).findings
    assert finding.kind is FindingKind.TOURNAMENT_CHIPS_APPEARED and finding.difference == 500
    noted = [dict(e) for e in raised]
    noted[0]["source"] = f"sim; {REBUY_NOTE}"
    assert adjudicate_session([e for h in (hands[0], noted) for e in h]).findings == ()
    assert TOPPED_UP.fullmatch("Hero re-buys and receives 3000 chips for $10.00")
    assert TOPPED_UP.fullmatch("Hero takes the add-on and receives 5000 chips for $10.00")


def test_a_player_out_of_chips_comes_back_only_as_a_new_entry() -> None:
    """A stack of 0 is an elimination: a later stack is a re-entry, the tournament's."""
    hands, seat = _pair()
    first = [dict(e) for e in hands[0]]
    index = [s["seat"] for s in first[0]["seats"]].index(seat["seat"])
    ended = next(i for i, e in enumerate(first) if e["type"] == "HandEnded")
    stacks = list(first[ended]["finishing_stacks"])
    stacks[index] = 0
    first[ended] = {**first[ended], "finishing_stacks": stacks}
    assert adjudicate_session([e for h in (first, hands[1]) for e in h]).findings == ()


def test_cash_and_each_tournament_at_one_table_name_are_cut_apart() -> None:
    hands, _ = play_tournament_tables(5, "mtt-a", AT, tables=1, hands=6)
    other, _ = play_tournament_tables(6, "mtt-b", AT + timedelta(seconds=20), tables=1, hands=6)
    renamed = [[{**h[0], "table_id": hands[0][0]["table_id"]}, *h[1:]] for h in other]
    sessions = table_sessions(hands + renamed)
    assert [len(s.hands) for s in sessions] == [6, 6]
    assert all(link in (Link.FIRST, Link.CONSECUTIVE) for s in sessions for link in s.links)


def test_a_player_moved_to_another_table_arrives_with_his_chips() -> None:
    """The move is seen (he left one table with chips and joined another); judged with
    the hands he moved from, untouched it is no finding, changed it is one."""
    seeds = range(1, 9)
    moves = 0
    for seed in seeds:
        hands, _ = play_tournament_tables(seed, f"mtt-{seed}", AT)
        for _, verdict in judge_table_sessions(hands):
            moves += Link.MOVED_FROM in verdict.links
            assert verdict.findings == ()
    assert moves > 0
    found = planted = 0
    for seed in seeds:
        hands, faults = play_tournament_tables(seed, f"mtt-{seed}", AT, fault_rate=0.5)
        moved = {(f.subject, k) for f in faults if f.detail.get("moved") for k in f.findings}
        findings = judged(hands)
        seen = {(f.detail["hands"][1], str(f.kind)) for f in findings if "tables" in f.detail}
        assert seen == moved
        assert {(f.detail["hands"][1], str(f.kind)) for f in findings} == {
            (f.subject, k) for f in faults for k in f.findings
        }
        found, planted = found + len(seen), planted + len(moved)
    assert found == planted > 0
