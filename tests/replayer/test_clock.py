"""The clock (issue 38 item 4): an action after the player's time ran out.

GG-2022 Política de limite de tempo de jogo and Política de banco de horas: a player who
has not acted when his time and his time bank run out has his hand folded; Política de
desconexões de torneios e de não participação: folded when facing action, else checked.
The limits are the rulebook's named parameters (``gg_2022.CASH_CLOCK``); the times are
the events' own. Hand-built hands (``tests.poker_sim.HandBuilder``, one event a second).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from replayer.findings import FindingKind
from replayer.poker.replay import adjudicate_hand
from replayer.rulebooks.gg_2022 import CASH_CLOCK, TOURNAMENT_CLOCK
from replayer.rulebooks.registry import get_rulebook
from tests.poker_sim import HandBuilder

AT = datetime(2024, 3, 10, 18, 0, tzinfo=UTC)


def raised_then(action: str, rulebook: str = "gg-2022-cash-holdem") -> list[dict[str, Any]]:
    """Heads-up: the button (seat 2) raises to 6, seat 1 answers with ``action``."""
    builder = (
        HandBuilder(rulebook=rulebook, stacks={1: 100, 2: 100}, button=2, at=AT)
        .post(2, "small_blind", 1)
        .post(1, "big_blind", 2)
        .hole(1, "Ah Ad")
        .hole(2, "Kh Kd")
        .act(2, "raise", 5)
    )
    if action == "fold":
        return builder.act(1, "fold").award(2, 8).end([98, 102]).events
    return (
        builder.act(1, "call", 4)
        .board("2s 7h 9c")
        .act(1, "check")
        .act(2, "check")
        .board("Tc")
        .act(1, "check")
        .act(2, "check")
        .board("3d")
        .act(1, "check")
        .act(2, "check")
        .show(2, "Kh Kd")
        .show(1, "Ah Ad")
        .award(1, 12)
        .end([106, 94])
        .events
    )


def delayed(events: list[dict[str, Any]], sequence: int, by: timedelta) -> list[dict[str, Any]]:
    """The hand with the event ``sequence`` and every later one ``by`` later."""
    return [
        {**e, "occurred_at": e["occurred_at"] + by} if e["sequence"] >= sequence else e
        for e in events
    ]


def first(events: list[dict[str, Any]], action: str, seat: int) -> int:
    return next(
        e["sequence"]
        for e in events
        if e["type"] == "ActionTaken" and e["action"] == action and e["seat"] == seat
    )


def late(events: list[dict[str, Any]]) -> list[Any]:
    verdict = adjudicate_hand(events, with_steps=False)
    return [f for f in verdict.findings if f.kind == FindingKind.ACTED_OUT_OF_TIME]


def test_the_untouched_hands_are_clean() -> None:
    for action in ("fold", "call"):
        assert adjudicate_hand(raised_then(action), with_steps=False).findings == ()


def test_gg_time_limit_a_call_after_time_and_bank_ran_out() -> None:
    """GG-2022 Política de limite de tempo de jogo; Política de banco de horas: past 30 s
    and a full 120 s bank, the call stands in the record where the room folds him."""
    events = raised_then("call")
    sequence = first(events, "call", 1)
    [finding] = late(delayed(events, sequence, CASH_CLOCK.longest + timedelta(seconds=5)))
    assert finding.citation == CASH_CLOCK.citation
    assert finding.detail["seat"] == 1 and finding.detail["sequence"] == sequence
    assert finding.detail["amount"] == 4 and finding.recorded == "call"
    assert finding.detail["seconds"] == CASH_CLOCK.longest.total_seconds() + 6


def test_gg_time_bank_inside_the_bank_is_in_time() -> None:
    """GG-2022 Política de banco de horas: an action inside the limit and a full bank is
    in time (a bank partly spent earlier is not presumed)."""
    events = raised_then("call")
    took = CASH_CLOCK.longest - timedelta(seconds=2)  # one second between events already
    assert late(delayed(events, first(events, "call", 1), took)) == []


@pytest.mark.parametrize("action", ["fold", "check"])
def test_gg_disconnections_out_of_time_fold_or_check_is_what_the_room_does(action: str) -> None:
    """GG-2022 Política de desconexões de torneios e de não participação: out of time, a
    player facing action is folded, one facing none may be checked."""
    events = raised_then("fold" if action == "fold" else "call")
    sequence = first(events, action, 1)
    assert late(delayed(events, sequence, timedelta(minutes=10))) == []


def test_a_tournament_hand_cites_the_disconnection_policy() -> None:
    """GG-2022 Política de desconexões: the tournament book's clock."""
    book = get_rulebook("gg-2022-tournament-holdem")
    assert getattr(book, "clock", None) == TOURNAMENT_CLOCK
    assert "Política de desconexões" in TOURNAMENT_CLOCK.citation


def test_one_time_for_every_event_is_not_judged() -> None:
    """Room text and PHH stamp a hand's events with its start: no per-action time, so the
    clock is not judged from that default, however the events are spaced in sequence."""
    events = [{**e, "occurred_at": AT} for e in raised_then("call")]
    assert late(events) == []


def test_a_rulebook_without_a_clock_judges_no_time() -> None:
    """MO-97/2010 sets no time to act: a live table's pace is the dealer's."""
    events = raised_then("call", rulebook="gg-2022-cash-holdem")
    slow = delayed(events, first(events, "call", 1), timedelta(hours=1))
    book = get_rulebook("mo-97-2010-omaha")
    assert getattr(book, "clock", "missing") is None
    assert late(slow) != []  # the GG book judges the same times


def test_the_finding_reads_with_the_player_and_the_money() -> None:
    """Players by name, money as money (``audit.wording.sentence``)."""
    from audit.wording.sentences import sentence

    events = raised_then("call")
    sequence = first(events, "call", 1)
    [finding] = late(delayed(events, sequence, timedelta(minutes=5)))
    row = {**finding.as_dict(), "currency": "EUR", "players": {"1": "p1", "2": "p2"}}
    text = sentence(row)
    assert text.startswith("seat 1 (p1) calls EUR 0.04 after 301 s")
    assert "Política de limite de tempo de jogo" in text
