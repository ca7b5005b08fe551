"""Slot meters reconciled against events (PT-217/2007 III.2, III.9; SAS meter practice)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from fractions import Fraction

import pytest

from replayer.slots import reconcile_machine
from replayer.slots.returns import beyond_standard_errors, overpays_beyond_bound
from simulate.slots import PAYTABLE_59, machine_month

START = datetime(2024, 6, 1, tzinfo=UTC)


def month(seed: int = 1, **options: object) -> list[dict]:
    return machine_month(random.Random(seed), "slot-17", START, days=10, **options)  # type: ignore[arg-type]


def renumber(events: list[dict]) -> list[dict]:
    return [{**event, "sequence": index} for index, event in enumerate(events)]


def test_clean_month_has_no_findings() -> None:
    events = machine_month(random.Random(5), "slot-1", START, days=30)
    verdict = reconcile_machine(events)
    assert verdict.findings == ()
    assert verdict.rulebook_id == "pt-217-2007-slots"
    assert {window.status for window in verdict.windows} == {"reconciled"}
    assert len(verdict.windows) == 30
    assert verdict.games == 30 * 400
    games = [e for e in events if e["type"] == "GamePlayed"]
    won = sum(e["win"] for e in games)
    assert verdict.actual_return == Fraction(won, sum(e["wager"] for e in games))


def test_rollover_spanning_readings_reconciles() -> None:
    verdict = reconcile_machine(month(near_rollover=True))
    assert verdict.findings == ()
    assert {meter for w in verdict.windows for meter in w.rollovers} >= {"coin_in", "drop"}


def test_recorded_ram_clear_restarts_the_meters() -> None:
    verdict = reconcile_machine(month(near_rollover=True, ram_clear_day=4))
    assert verdict.findings == ()
    assert [w.status for w in verdict.windows].count("after_ram_clear") == 1


def test_unrecorded_ram_clear_is_a_discrepancy() -> None:
    events = [e for e in month(ram_clear_day=4) if e["type"] != "MachineReset"]
    verdict = reconcile_machine(renumber(events))
    [finding] = verdict.findings
    assert (finding.kind, finding.detail["check"]) == ("meter_discrepancy", "unexplained_ram_clear")
    assert [w.status for w in verdict.windows].count("unexplained_ram_clear") == 1


def test_a_lost_winning_game_is_one_finding_naming_every_meter_it_moves() -> None:
    events = month()
    lost = next(
        i
        for i, e in enumerate(events)
        if e["type"] == "GamePlayed" and e["win"] and not e["handpaid"]
    )
    verdict = reconcile_machine(renumber(events[:lost] + events[lost + 1 :]))
    [finding] = verdict.findings  # one bad reading, one finding
    moved = ["coin_in", "coin_out", "games_played", "games_won", "total_won"]
    assert (finding.kind, finding.detail["check"]) == ("meter_discrepancy", "reading")
    assert finding.detail["meters"] == moved
    wager, win = events[lost]["wager"], events[lost]["win"]
    assert finding.difference == {
        "coin_in": wager,
        "coin_out": win,
        "games_played": 1,
        "games_won": 1,
        "total_won": win,
    }
    figures = finding.detail["window_meters"]["coin_in"]
    assert figures["metered"] - figures["event_sum"] == wager
    assert finding.recorded["coin_in"] == figures["metered"]
    assert finding.citation.startswith("PT-217/2007 III.9")
    assert finding.detail["window"][0] < lost < finding.detail["window"][1]
    assert finding.detail["sequence"] == finding.detail["window"][1]


def test_a_misread_meter_shows_in_the_readings_on_both_sides() -> None:
    events = month()
    reads = [i for i, e in enumerate(events) if e["type"] == "MeterRead"]
    events[reads[3]] = {**events[reads[3]], "meters": {**events[reads[3]]["meters"]}}
    events[reads[3]]["meters"]["drop"] += 500
    verdict = reconcile_machine(events)
    assert [(f.detail["sequence"], f.detail["meters"], f.difference) for f in verdict.findings] == [
        (reads[3], ["drop"], {"drop": 500}),
        (reads[4], ["drop"], {"drop": -500}),
    ]


def test_single_play_beyond_the_paytable_limit() -> None:
    events = month()
    events[0] = {**events[0], "max_single_win": 2_000}
    big = [e["sequence"] for e in events if e["type"] == "GamePlayed" and e["win"] > 2_000]
    verdict = reconcile_machine(events)
    assert big
    assert [f.detail["sequence"] for f in verdict.findings] == big
    assert {f.detail["check"] for f in verdict.findings} == {"single_play"}


def test_composite_identity_is_checked_within_a_reading() -> None:
    events = month()
    last = max(i for i, e in enumerate(events) if e["type"] == "MeterRead")
    events[last] = {**events[last], "meters": {**events[last]["meters"], "total_handpaid": 1}}
    verdict = reconcile_machine(events)
    [finding] = verdict.findings  # the reading is bad on its own and against its window
    assert (finding.kind, finding.detail["check"]) == ("meter_discrepancy", "reading")
    assert finding.detail["meters"] == ["total_handpaid"]
    parts = events[last]["meters"]["handpaid_cancelled_credits"] + events[last]["meters"]["jackpot"]
    assert finding.detail["composites"] == {"total_handpaid": {"read": 1, "parts": parts}}
    assert list(finding.detail["window_meters"]) == ["total_handpaid"]


def test_missing_required_meter() -> None:
    events = month()
    read = next(i for i, e in enumerate(events) if e["type"] == "MeterRead" and i > 5)
    events[read] = {
        **events[read],
        "meters": {k: v for k, v in events[read]["meters"].items() if k != "drop"},
    }
    [finding] = reconcile_machine(events).findings
    assert (finding.detail["check"], finding.citation) == ("required_meters", "PT-217/2007 III.9")


def test_paytable_below_the_80_percent_floor_is_illegal() -> None:
    events = month()
    events[0] = {**events[0], "theoretical_return_bps": 7_900}
    findings = reconcile_machine(events).findings
    assert [(f.kind, f.citation) for f in findings][:1] == [
        ("return_out_of_band", "PT-217/2007 III.2")
    ]


def test_a_machine_paying_below_the_floor_is_found_statistically() -> None:
    events = machine_month(
        random.Random(9), "slot-9", START, days=20, games_per_day=2_000, paid_on=PAYTABLE_59
    )
    verdict = reconcile_machine(events)
    assert verdict.actual_return is not None and verdict.actual_return < Fraction(4, 5)
    assert sorted(f.detail["check"] for f in verdict.findings) == [
        "minimum_return",
        "theoretical_return",
    ]
    assert {f.citation for f in verdict.findings} >= {"PT-217/2007 III.2"}
    assert {str(f.kind) for f in verdict.findings} == {"return_out_of_band"}


@pytest.mark.parametrize(
    ("actual", "games", "flagged"),
    [
        (Fraction(90, 100), 10_000, False),
        (Fraction(63, 100), 10_000, False),  # exactly 3 SE below: not beyond
        (Fraction(62, 100), 10_000, True),
        (Fraction(124, 100), 10_000, True),
        (Fraction(50, 100), 100, False),
    ],
)
def test_k_standard_errors_is_exact(actual: Fraction, games: int, flagged: bool) -> None:
    # Target 93%, sd 10 per unit: SE = 10 / sqrt(n). At n = 10 000, 3 SE = 0.30.
    assert beyond_standard_errors(actual, Fraction(93, 100), games, Fraction(10), 3) is flagged


@pytest.mark.parametrize(
    ("won", "flagged"),
    [
        (930_000, False),  # exactly the target
        (1_100_000, False),  # one top award in a short window is chance
        (4_000_000, True),
    ],
)
def test_overpayment_needs_bernsteins_bound(won: int, flagged: bool) -> None:
    # coin_in 1,000,000 at target 93%, each win at most 100,000: the bound at k = 3 is an
    # excess x with x^2 > 9 (100,000 * 930,000 + 100,000 x / 3), about 1.0e6.
    assert overpays_beyond_bound(won, 1_000_000, Fraction(93, 100), 100_000, 3) is flagged


def test_one_day_of_a_clean_fleet_raises_no_return_finding() -> None:
    """400 games a day: a top award is 1 in 10,000 games, so ~4% of honest machines win one
    in a day; that lifts R far past 3 normal standard errors, but it is not a finding."""
    flagged = [
        m
        for m in range(200)
        if reconcile_machine(machine_month(random.Random(m), f"s{m}", START, days=1)).findings
    ]
    assert flagged == []
