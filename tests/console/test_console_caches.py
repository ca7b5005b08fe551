"""What keeps the console fast gives what the slow paths give, on SQLite and PostgreSQL:
the read model's index of verdict unit ids is the scan of every unit id (and a subject
explained through it, and through a page's read-once view of the store, reads the same;
a night found through it is the night the scan finds: the latest unit of each kind and
scope); the overview answers while the chain is still being verified in the background;
the Merkle tree kept between evidence bundles gives the proofs a fresh tree gives (and
RFC 9162's reference functions).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from datetime import timedelta
from functools import partial
from typing import Any

import pytest

from audit.evidence.bundle import KINDS
from audit.evidence.chainrows import rows_of
from audit.evidence.proofs import prove
from audit.evidence.treecache import Tree, TreeCache
from audit.explain import show_lines
from audit.judging import KIND as ADJUDICATION
from audit.judging import StoreVerdicts, UnitKey, verdict_record
from audit.store import AuditStore
from audit.store.merkle import inclusion_proof, inclusion_ranges, leaf_hash, tree_root
from audit.store.subjects import subject_uuid
from console.readmodel import queries
from console.readmodel.model import ReadModel
from console.readmodel.pagereads import PageReads
from pipelines.night_units import (
    COLLUSION_STATE,
    DETECTORS,
    LEDGER,
    QUALITY,
    iter_days_units,
    unit,
)
from pipelines.report import load_day
from tests.console_store import (
    DAY,
    HOSTILE_HAND,
    HOSTILE_TABLE,
    INCIDENT,
    ConsoleStore,
    console_store,
    make_client,
)

__all__ = ["console_store", "make_client"]  # fixtures used here


def _sample_keys(model: ReadModel) -> list[UnitKey]:
    """The first and last subject of every kind of verdict unit the model indexes."""
    with model.reading() as db:
        found = db.execute(
            "SELECT kind, MIN(subject) FROM unit_ids GROUP BY kind "
            "UNION SELECT kind, MAX(subject) FROM unit_ids GROUP BY kind"
        ).fetchall()
    return [(str(kind), str(subject)) for kind, subject in found]


def test_the_read_models_unit_ids_are_the_scanned_ones(console_store: ConsoleStore) -> None:
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        scan = StoreVerdicts(store).unit_ids
        every = list(store.iter_subject_ids(ADJUDICATION))
        kinds = sorted({unit_id.partition(":")[0] for unit_id in every})
        assert {"poker", "banked", "incident", "nightly"} <= set(kinds)
        assert queries.unit_ids(model, [(kind, None) for kind in kinds]) == every
        keys = _sample_keys(model)
        for key in [*keys, *((kind, None) for kind in kinds)]:
            assert queries.unit_ids(model, [key]) == scan([key]), key
        both: list[UnitKey] = [("poker", HOSTILE_HAND), ("banker_runs", None), ("nightly", None)]
        assert queries.unit_ids(model, both) == scan(both)
        assert queries.unit_ids(model, []) == scan([]) == []

        for digest in ("first", "second"):  # new units, indexed as the model catches up
            store.append([verdict_record("poker", "zz-units", digest=digest, events_judged=0,
                                         findings=[])])  # fmt: skip
        assert model.refresh()
        new = queries.unit_ids(model, [("poker", "zz-units")])
        assert new == scan([("poker", "zz-units")]) and len(new) == 2
        assert new[0].endswith("|first") and new[1].endswith("|second")
    finally:
        store.close()


def test_a_subject_explained_through_the_index_reads_the_same(
    console_store: ConsoleStore,
) -> None:
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        indexed = queries.ModelVerdicts(model)
        subjects = {HOSTILE_HAND, INCIDENT, f"table:{HOSTILE_TABLE}"}
        subjects |= {s for k, s in _sample_keys(model) if k in ("poker", "banked", "slots")}
        with model.reading() as db:
            subjects |= {r[0] for r in db.execute("SELECT subject FROM findings LIMIT 20")}
        for subject in sorted(subjects):
            scanned = show_lines(store, subject)
            assert show_lines(store, subject, indexed) == scanned, subject
            reads = PageReads(store, subject, KINDS)  # read once, as the page does
            assert show_lines(reads, subject, indexed) == scanned, subject
            by_kind = store.records_by_kind(subject, KINDS)
            assert by_kind == {kind: store.records_of(kind, subject) for kind in KINDS}
            assert {k: reads.records_of(k, subject) for k in KINDS} == by_kind, subject
    finally:
        store.close()


def _no_scan(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("scanned every subject id")


def test_a_night_found_through_the_index_is_the_scanned_one(
    console_store: ConsoleStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        lookup = partial(queries.unit_ids_with_prefix, model)
        every = list(store.iter_subject_ids(ADJUDICATION))
        for prefix in ("poker:", "nightly", f"{LEDGER}:2025", f"{QUALITY}:{DAY}", "none:", ""):
            assert lookup(prefix) == [u for u in every if u.startswith(prefix)], prefix
        kinds = (QUALITY, LEDGER, COLLUSION_STATE, *DETECTORS)
        days = [DAY - timedelta(days=1), DAY, DAY + timedelta(days=1)]
        scanned = list(iter_days_units(store, days, kinds))
        assert {QUALITY, LEDGER, COLLUSION_STATE} <= {kind for (kind, _), _ in scanned}
        night = load_day(store, DAY)
        assert night.rows and night.checks
        monkeypatch.setattr(store, "iter_subject_ids", _no_scan)
        assert list(iter_days_units(store, days, kinds, lookup)) == scanned
        assert load_day(store, DAY, lookup) == night
    finally:
        store.close()


def test_the_latest_unit_of_a_night_wins_through_the_index(tmp_path: Any) -> None:
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        day = DAY.isoformat()
        store.append([unit(QUALITY, f"{day}/poker-0", [], events_judged=1)])
        store.append([unit(QUALITY, f"{day}x/other", [], events_judged=5)])  # not a day
        store.append([unit(LEDGER, f"{day}/poker-0", [], family="poker", ledger={})])
        store.append([unit(QUALITY, f"{day}/poker-0", [], events_judged=2)])  # a rerun
        model = ReadModel(store)
        lookup = partial(queries.unit_ids_with_prefix, model)
        scanned = list(iter_days_units(store, [DAY], [QUALITY, LEDGER]))
        assert [(key, r.get("events_judged")) for key, r in scanned] == [
            ((QUALITY, f"{day}/poker-0"), 2),
            ((QUALITY, f"{day}x/other"), 5),  # a prefix, as the scan matches it
            ((LEDGER, f"{day}/poker-0"), None),
        ]
        assert list(iter_days_units(store, [DAY], [QUALITY, LEDGER], lookup)) == scanned
    finally:
        store.close()


class Held(Executor):
    """Runs nothing until ``release`` (a verification that has not finished), then
    everything submitted, before or after."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.released = False
        self.jobs: list[tuple[Future, Callable[..., Any], tuple]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        with self.lock:
            self.jobs.append((future, partial(fn, **kwargs), args))
            if self.released:
                self._run()
        return future

    def release(self) -> None:
        with self.lock:
            self.released = True
            self._run()

    def _run(self) -> None:
        while self.jobs:
            future, fn, args = self.jobs.pop(0)
            future.set_result(fn(*args))


def test_the_overview_answers_while_the_chain_is_verified(make_client: Any) -> None:
    held = Held()
    client = make_client("inspector", chain_executor=held)
    page = client.get("/")
    assert page.status_code == 200
    assert "verifying…" in page.text and "intact:" not in page.text
    assert "mispaid_pot" in page.text and "records quarantined" in page.text  # the rest
    held.release()
    assert client.app.state.runtime.chain.settled(timeout=300) is not None
    page = client.get("/").text
    assert "intact:" in page and "verifying…" not in page
    assert "its signature verifies with the public key" in page


@pytest.mark.parametrize("size", [1, 2, 3, 7, 8, 9, 33, 100])
def test_a_grown_tree_gives_the_reference_roots_and_paths(size: int) -> None:
    rng = random.Random(size)
    inputs = [rng.randbytes(32) for _ in range(size)]
    tree = Tree()
    cut = rng.randrange(size + 1)  # grown in two steps, as for a later signed head
    tree.extend(range(1, cut + 1), inputs[:cut])
    tree.extend(range(cut + 1, size + 1), inputs[cut:])
    hashes = [leaf_hash(i) for i in inputs]
    for n in {size, max(1, size // 2)}:
        assert tree.root(0, n) == tree_root(inputs, n)
        for m in {0, n // 2, n - 1}:
            path = [tree.root(a, b) for a, b in inclusion_ranges(m, n)]
            assert path == inclusion_proof(hashes, m, n)
    assert tree.index(size) == size - 1
    with pytest.raises(KeyError):
        tree.index(size + 1)


def test_the_kept_tree_gives_the_proofs_of_a_fresh_one(console_store: ConsoleStore) -> None:
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        with model.reading() as db:
            subjects = db.execute(
                "SELECT kind, subject FROM units WHERE kind IN ('poker', 'banked', 'slots') "
                "ORDER BY subject LIMIT 3"
            ).fetchall()
        kept = TreeCache()
        with kept.use(store, 10):  # a tree kept from an older head, grown when asked
            pass
        for kind, subject in subjects:
            rows = rows_of(store, subject_uuid(kind, subject).hex)
            fresh = prove(store, rows, TreeCache(), "merkle")
            assert fresh["type"] == "merkle" and fresh["leaves"]
            assert prove(store, rows, kept, "merkle") == fresh
            assert prove(store, rows, kept, "merkle") == fresh  # at the same head, kept
    finally:
        store.close()
