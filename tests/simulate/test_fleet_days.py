"""Two consecutive generated days of one slot fleet are one stream per machine.

``slot_fleet(first_day=...)`` continues each machine's stream from the day before (its
sequences, its meters, its jackpots' levels): the second night judges two days of every
machine with no ``conflicting_versions`` (the same sequence sent twice), no gap
(``data_quality``) and, with no fault planted, no finding at all (PT-217/2007 III.5,
III.9 hold across midnight). Without ``first_day`` each day restarts the streams, and the
second night is all conflicts: the oracle that the test can fail.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta
from pathlib import Path

import pytest

from audit.judging import current_findings
from audit.store import AuditStore
from simulate.fleet import Opening, group_day, opening, slot_fleet

FIRST = date(2025, 3, 1)
DAYS = (FIRST, FIRST + timedelta(days=1))


def _two_nights(tmp_path: Path, first_day: date | None) -> Counter[str]:
    from pipelines.nightly import run_nightly
    from simulate.day import generate_day

    url = f"sqlite:///{tmp_path}/store.db"
    for day in DAYS:
        fleet = slot_fleet(4, games_per_day=60, first_day=first_day)
        generate_day(7, day, hands=4, out=tmp_path / "in" / day.isoformat(), extra=[fleet])
        run_nightly(url, tmp_path / "in", day, tmp_path / "out", workers=1)
    store = AuditStore(url)
    try:
        return Counter(
            f["kind"] for f in current_findings(store) if f["subject"].startswith("slot-")
        )
    finally:
        store.close()


def test_two_days_of_a_continued_fleet_judge_clean(tmp_path: Path) -> None:
    assert _two_nights(tmp_path, FIRST) == Counter()


def test_two_days_restarted_conflict(tmp_path: Path) -> None:
    assert _two_nights(tmp_path, None)["conflicting_versions"] > 0


@pytest.mark.parametrize("fault_rate", [0.0, 0.5])
def test_the_second_day_numbers_on_from_the_first(fault_rate: float) -> None:
    members = ["slot-0001", "slot-0002"]
    first, _ = group_day(7, FIRST, 0, members, fault_rate, 40)
    start = opening(7, DAYS[1], FIRST, 0, tuple(members), fault_rate, 40)
    assert isinstance(start, Opening)
    second, _ = group_day(7, DAYS[1], 0, members, fault_rate, 40, opening=start)
    for machine in members:
        sequences = [e["sequence"] for e in first[machine] + second[machine]]
        assert sequences == list(range(len(sequences)))
        assert len({e["event_id"] for e in first[machine] + second[machine]}) == len(sequences)
        last = [e for e in first[machine] if e["type"] == "MeterRead"][-1]["meters"]
        power_up = next(e for e in second[machine] if e["type"] == "MeterRead")["meters"]
        assert power_up == last
