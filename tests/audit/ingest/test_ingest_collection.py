"""An ingest collects cyclic garbage less often while it runs, and leaves the collector's
thresholds as it found them (``audit.collector``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from audit.collector import YOUNG_THRESHOLD, fewer_collections
from audit.ingest import pipeline
from audit.store import AuditStore


@pytest.fixture
def default_thresholds() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield gc.get_threshold()
    gc.set_threshold(*before)


def test_thresholds_raised_inside_and_restored_after(
    default_thresholds: tuple[int, int, int],
) -> None:
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
    assert gc.get_threshold() == default_thresholds
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError("an ingest that fails")
    assert gc.get_threshold() == default_thresholds


def test_a_higher_threshold_is_never_lowered(default_thresholds: tuple[int, int, int]) -> None:
    gc.set_threshold(5 * YOUNG_THRESHOLD, 10, 10)
    with fewer_collections():
        assert gc.get_threshold()[0] == 5 * YOUNG_THRESHOLD
    assert gc.get_threshold()[0] == 5 * YOUNG_THRESHOLD


def test_ingest_runs_with_fewer_collections(
    default_thresholds: tuple[int, int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, int, int]] = []
    monkeypatch.setattr(pipeline, "_write", lambda *args: seen.append(gc.get_threshold()))
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        pipeline.ingest(store, [tmp_path])
    finally:
        store.close()
    assert seen == [(YOUNG_THRESHOLD, 10, 10)]
    assert gc.get_threshold() == default_thresholds
