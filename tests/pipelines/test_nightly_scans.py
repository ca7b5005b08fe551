"""A night scans every stored unit id a fixed number of times, whatever the day's size:
once for the day's intakes (every partition judges from them), once for the units both
detector halves read (collusion states, ledgers), once for the report; the DAG's
``run_detectors`` scans once for its two halves too. Each scan reads every verdict's id
of every night stored, so a night that scanned per step or per half would pay for the
store's whole size again each time."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from audit.judging import KIND
from audit.store import AuditStore
from pipelines.nightly.steps import prepare_store, run_detectors, run_nightly
from tests.pipelines.test_nightly import DAY, write_day


def _counted_scans(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """kind -> how many times the stored subject ids of that kind are scanned from now."""
    scans: Counter[str] = Counter()
    original = AuditStore.iter_subject_ids

    def counted(self: AuditStore, kind: str, *args: object, **options: object) -> Iterator[str]:
        scans[kind] += 1
        return original(self, kind, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(AuditStore, "iter_subject_ids", counted)
    return scans


def test_a_night_scans_the_unit_ids_three_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    prepare_store(url)
    scans = _counted_scans(monkeypatch)
    summary = run_nightly(url, write_day(tmp_path / "in"), DAY, tmp_path / "out")
    assert summary.replayed and sum(r.with_findings for r in summary.replayed)
    assert scans[KIND] == 3
    scans.clear()
    run_detectors(url, DAY)
    assert scans[KIND] == 1
