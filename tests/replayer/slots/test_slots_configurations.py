"""A slot machine reconfigured during the day, and meter readings wider than the meter.

PT-217/2007 III.2, III.9: each configuration's games are tested against that
configuration's paytable (theoretical return, sd, largest win); a reading of more digits
than the configured meter width is a data error, not a rollover.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest

from replayer.slots import reconcile_machine
from replayer.slots.returns import beyond_standard_errors
from simulate.slots import (
    WAGERS,
    machine_month,
    paytable_return,
    paytable_sd_bps,
)

START = datetime(2024, 6, 3, tzinfo=UTC)
#: Legal, low-variance paytables (multiplier, weight out of 10,000): 82% (sd 0.74) and
#: 90% (sd 1.14), against PAYTABLE_93's 93% (sd about 10.9).
PAYTABLE_82 = ((1, 4200), (2, 2000))
PAYTABLE_90 = ((1, 3000), (2, 2000), (5, 400))
Paytable = tuple[tuple[int, int], ...]


def configured(paytable: Paytable, paytable_id: str) -> dict[str, Any]:
    return {
        "theoretical_return_bps": round(paytable_return(paytable) * 10_000),
        "return_sd_bps": paytable_sd_bps(paytable),
        "max_single_win": max(m for m, _ in paytable) * max(WAGERS),
        "paytable_id": paytable_id,
    }


def reconfigured_day(
    seed: int,
    declared: Paytable,
    paid_on: Paytable,
    *,
    games: tuple[int, int] = (6_000, 6_000),
    reading_at_change: bool = True,
) -> list[dict]:
    """A machine on PAYTABLE_93 (honest), then reconfigured to ``declared`` and paying on
    ``paid_on``. Two generated streams stitched: the second's meters continue the first's
    (modulo 10^width). Without ``reading_at_change`` no reading marks the change: the first
    stream's last reading and the second's power-up reading are dropped, so one window
    holds games of both configurations."""
    rng = random.Random(seed)
    first = machine_month(rng, "slot-r", START, days=1, games_per_day=games[0], readings_per_day=6)
    middle = START + timedelta(hours=12)
    second = machine_month(
        rng, "slot-r", middle, days=1, games_per_day=games[1], readings_per_day=6, paid_on=paid_on
    )
    modulus = 10 ** first[0]["meter_width_digits"]
    carried = next(e for e in reversed(first) if e["type"] == "MeterRead")["meters"]
    config = {**second[0], **configured(declared, "pt-new")}
    rest = [
        {**e, "meters": {k: (v + carried[k]) % modulus for k, v in e["meters"].items()}}
        if e["type"] == "MeterRead"
        else e
        for e in second[1:]
    ]
    if not reading_at_change:
        last = max(i for i, e in enumerate(first) if e["type"] == "MeterRead")
        first = first[:last]
        rest = rest[1:]
    events = [*first, config, *rest]
    return [
        {**e, "sequence": index, "event_id": f"slot-r/{index}"} for index, e in enumerate(events)
    ]


@pytest.mark.parametrize("seed", [3, 4, 5])
@pytest.mark.parametrize("reading_at_change", [True, False])
def test_an_honest_mid_day_paytable_change_has_no_finding(
    seed: int, reading_at_change: bool
) -> None:
    """93% for 4,000 games, then 82% for 8,000: judged as one configuration (the first
    paytable's return), the day's 86% is far below 93%; judged per configuration, clean."""
    events = reconfigured_day(
        seed, PAYTABLE_82, PAYTABLE_82, games=(4_000, 8_000), reading_at_change=reading_at_change
    )
    verdict = reconcile_machine(events)
    assert verdict.findings == (), [f.reason for f in verdict.findings]
    first, second = verdict.configurations
    assert (first.paytable_id, second.paytable_id) == ("pt-93", "pt-new")
    assert (first.theoretical_return, second.theoretical_return) == (
        Fraction(93, 100),
        Fraction(82, 100),
    )
    # Every game is credited to the configuration it was played under.
    assert first.games + second.games == verdict.games == 12_000
    sequence = second.sequence
    games = [e for e in events if e["type"] == "GamePlayed"]
    assert first.games == sum(1 for e in games if e["sequence"] < sequence)
    assert first.coin_in == sum(e["wager"] for e in games if e["sequence"] < sequence)
    assert second.won == sum(e["win"] for e in games if e["sequence"] > sequence)
    assert verdict.theoretical_return == (
        first.theoretical_return * first.coin_in + second.theoretical_return * second.coin_in
    ) / (first.coin_in + second.coin_in)
    # Held to the first paytable's 93%, the second configuration's honest games would be
    # far beyond 3 standard errors: the split is what keeps the honest change clean.
    actual = second.actual_return
    assert actual is not None
    sd = Fraction(paytable_sd_bps(PAYTABLE_82), 10_000)
    assert beyond_standard_errors(actual, Fraction(93, 100), second.games, sd, 3)


def test_a_dishonest_period_under_the_second_paytable_is_found() -> None:
    # Declared 90%, pays on the 82% paytable: only the second configuration is flagged.
    verdict = reconcile_machine(reconfigured_day(4, PAYTABLE_90, PAYTABLE_82))
    [finding] = verdict.findings
    assert (finding.kind, finding.detail["check"]) == ("return_out_of_band", "theoretical_return")
    assert finding.expected == 9_000 and finding.recorded < 8_500
    second = verdict.configurations[1]
    assert finding.detail["paytable_id"] == "pt-new"
    assert finding.detail["configuration_sequence"] == second.sequence
    assert finding.detail["games"] == second.games == 6_000
    assert "under paytable pt-new" in finding.reason


def test_each_configuration_is_tested_against_its_own_largest_win() -> None:
    # A top award (1000 x) is legal under PAYTABLE_93 but impossible under PAYTABLE_82,
    # whose largest win is 2 x 100: the single play is flagged only after the change.
    events = reconfigured_day(5, PAYTABLE_82, PAYTABLE_82, games=(3_000, 3_000))
    change = next(e["sequence"] for e in events[1:] if e["type"] == "MachineConfigured")
    big = [e for e in events if e["type"] == "GamePlayed" and e["win"] > 200]
    assert big and all(e["sequence"] < change for e in big)
    assert reconcile_machine(events).findings == ()


# -- meter width ---------------------------------------------------------------------------


def month(seed: int = 1) -> list[dict]:
    return machine_month(random.Random(seed), "slot-17", START, days=10)


@pytest.mark.parametrize("meter", ["coin_in", "drop", "total_won"])
def test_a_reading_wider_than_the_meter_is_a_data_error_not_a_rollover(meter: str) -> None:
    events = month()
    reads = [i for i, e in enumerate(events) if e["type"] == "MeterRead"]
    width = events[0]["meter_width_digits"]
    wrong = 10**width + events[reads[4]]["meters"][meter]  # one digit too many
    events[reads[4]] = {**events[reads[4]], "meters": {**events[reads[4]]["meters"], meter: wrong}}
    verdict = reconcile_machine(events)
    [finding] = verdict.findings
    assert (finding.kind, finding.detail["check"], finding.detail["meter"]) == (
        "data_quality",
        "meter_width",
        meter,
    )
    assert finding.citation.startswith("PT-217/2007 III.9")
    assert (finding.expected, finding.recorded) == (10**width - 1, wrong)
    assert finding.detail["sequence"] == reads[4]
    assert not any(w.rollovers for w in verdict.windows)
    # The windows beside the bad reading are not judged on that meter; the others are.
    beside = [w for w in verdict.windows if reads[4] in (w.start_sequence, w.end_sequence)]
    assert len(beside) == 2 and all(meter not in w.metered for w in beside)
    assert all("games_played" in w.metered for w in beside)


def test_a_reading_within_the_width_still_rolls_over() -> None:
    events = machine_month(random.Random(2), "slot-18", START, days=10, near_rollover=True)
    verdict = reconcile_machine(events)
    assert verdict.findings == ()
    assert any(w.rollovers for w in verdict.windows)
