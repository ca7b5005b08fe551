"""Chain shards: one hash chain per shard, checkpoints over all of them; tampering with any
shard is named, on SQLite and PostgreSQL; a store written before shards still verifies
and migrates."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import pytest

from audit.store import AuditStore, ShardNameError
from tests.audit.store.test_store import five, hand
from tests.store_tamper import (
    as_written_before_shard_form,
    checkpoints_table,
    execute,
    flip_a_byte,
    swap_positions,
    written_per_event,
)

EAST, WEST = "east/1", "west/2"


@pytest.fixture
def two_shards(store_url: str) -> Iterator[AuditStore]:
    """Five one-row hands written alternately to two shards: east 1-5, west 6-10, east
    11-15, west 16-20 (checkpoint at 20), east 21-25 (checkpoint at 25)."""
    east = AuditStore(store_url, chain_shard=EAST)
    west = AuditStore(store_url, chain_shard=WEST)
    east.append(five("e/1"))
    west.append(five("w/1"))
    east.append(five("e/2"))
    west.append(five("w/2"))
    west.checkpoint()
    east.append(five("e/3"))
    east.checkpoint()
    west.close()
    yield east
    east.close()


def test_each_shard_is_its_own_chain_and_the_store_verifies(
    two_shards: AuditStore, store_url: str
) -> None:
    report = two_shards.verify()
    assert report.ok, report.problem
    assert (report.events_checked, report.checkpoints_checked, report.shards) == (25, 2, 2)
    links = dict(execute(store_url, "SELECT {id}, chain_prev FROM {t} WHERE {id} IN (6, 11)"))
    hashes = dict(execute(store_url, "SELECT {id}, chain_hash FROM {t} WHERE {id} IN (5, 10)"))
    assert bytes(links[6]) == bytes(32)  # west's first event starts its own chain
    assert bytes(links[11]) == bytes(hashes[5])  # east's sixth links to east's fifth


def test_an_edited_row_is_named_with_its_shard(two_shards: AuditStore, store_url: str) -> None:
    flip_a_byte(store_url, 17)
    report = two_shards.verify()
    assert not report.ok and report.broken_at == 17
    assert "altered" in report.problem and f"shard {WEST!r}" in report.problem


def test_a_deleted_row_breaks_its_shards_next_link(two_shards: AuditStore, store_url: str) -> None:
    execute(store_url, "DELETE FROM {t} WHERE {id} = 12")
    report = two_shards.verify()
    assert not report.ok and report.broken_at == 13
    assert "does not link" in report.problem and f"shard {EAST!r}" in report.problem


def test_a_shard_cut_short_is_named_by_the_checkpoint(
    two_shards: AuditStore, store_url: str
) -> None:
    """East's last event before the checkpoint at 20 is 15: without it, every link still
    holds, and the checkpoint's shard heads say where east ended."""
    execute(store_url, "DELETE FROM {t} WHERE {id} = 15")
    report = two_shards.verify()
    assert not report.ok and report.broken_at == 20
    assert f"shard {EAST!r} ended at notification 15" in report.problem


def test_rows_of_two_shards_swapped_in_the_global_order(
    two_shards: AuditStore, store_url: str
) -> None:
    """West's 10 and east's 11 change places: each shard's chain still links, the Merkle
    root over the global order does not match."""
    swap_positions(store_url, 10, 11)
    report = two_shards.verify()
    assert not report.ok and report.broken_at == 20 and "Merkle root" in report.problem


def test_rows_reordered_within_a_shard(two_shards: AuditStore, store_url: str) -> None:
    swap_positions(store_url, 11, 12)
    report = two_shards.verify()
    assert not report.ok and report.broken_at == 11 and "does not link" in report.problem


def test_a_dropped_shard_is_named(two_shards: AuditStore, store_url: str) -> None:
    execute(store_url, "DELETE FROM {t} WHERE chain_shard = {p}", (WEST,))
    report = two_shards.verify()
    assert not report.ok and report.broken_at == 20
    assert f"names shard {WEST!r}" in report.problem and "dropped" in report.problem


def test_a_shard_moved_to_another_name(two_shards: AuditStore, store_url: str) -> None:
    """Every event of west renamed: its chain still links, but each event's hash covers
    its shard, so the first one no longer matches."""
    execute(store_url, "UPDATE {t} SET chain_shard = 'other' WHERE chain_shard = {p}", (WEST,))
    report = two_shards.verify()
    assert not report.ok and report.broken_at == 6
    assert "content or shard no longer matches its hash" in report.problem


def test_altered_shard_heads_are_caught(two_shards: AuditStore, store_url: str) -> None:
    table = checkpoints_table(store_url)
    execute(store_url, f"UPDATE {table} SET shard_heads = {{p}}", (b"not json",))
    report = two_shards.verify()
    assert not report.ok and "unreadable" in report.problem


def test_a_hostile_shard_name_is_refused(store_url: str) -> None:
    with pytest.raises(ShardNameError):
        AuditStore(store_url, chain_shard="evil\x1b[2J")
    with pytest.raises(ShardNameError):
        AuditStore(store_url, chain_shard="x" * 201)


def _write_shard(store_url: str, shard: str) -> int:
    store = AuditStore(store_url, chain_shard=shard)
    try:
        stored = 0
        for batch in range(30):
            stored += store.append([hand(f"{shard}/{batch}/{n}") for n in range(5)]).stored
            if batch % 10 == 9:
                store.checkpoint()
        return stored
    finally:
        store.close()


def test_writers_of_different_shards_append_side_by_side(store_url: str) -> None:
    """Two processes, two shards, checkpoints while the other writes: every batch is
    stored and every chain and checkpoint verifies."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        stored = list(pool.map(_write_shard, [store_url, store_url], ["a", "b"]))
    assert stored == [150, 150]
    store = AuditStore(store_url, create=False)
    try:
        report = store.verify()
        assert report.ok, report.problem
        assert (report.events_checked, report.shards) == (300, 2)  # a row per hand
        assert report.checkpoints_checked >= 3
    finally:
        store.close()


# -- a store written before chain shards ---------------------------------------------------


def _as_before_shards(store_url: str) -> None:
    """Give a store the layout of the release before chain shards: its events' hashes
    without the shard, no shard column, no index on it, no chain form column, no shard
    heads beside the checkpoints."""
    as_written_before_shard_form(store_url)
    table = checkpoints_table(store_url)
    if store_url.startswith("sqlite"):
        execute(store_url, "DROP INDEX stored_events_shard")
    execute(store_url, "ALTER TABLE {t} DROP COLUMN chain_shard")
    execute(store_url, "ALTER TABLE {t} DROP COLUMN chain_form")
    execute(store_url, f"ALTER TABLE {table} DROP COLUMN shard_heads")


def test_a_store_from_before_shards_verifies_and_migrates(store_url: str) -> None:
    """An old store (a row per event, no shards) reads, verifies and takes packed rows
    after its own; the rows are counted (10 old, then one per hand)."""
    with written_per_event():
        old = AuditStore(store_url)
        old.append([hand("o/1"), hand("o/2")])
        old.checkpoint()
        old.close()
    _as_before_shards(store_url)

    # Read as it is, and written by a role that may not migrate it: one chain, as before.
    unmigrated = AuditStore(store_url, create=False, chain_shard=EAST)
    assert unmigrated.verify().ok
    unmigrated.append([hand("o/3")])
    unmigrated.checkpoint()
    report = unmigrated.verify()
    assert report.ok and (report.events_checked, report.shards) == (11, 1)
    assert unmigrated.records_of("poker", "o/1") == hand("o/1").records
    assert unmigrated.records_of("poker", "o/3") == hand("o/3").records
    assert list(unmigrated.iter_subject_ids("poker")) == ["o/1", "o/2", "o/3"]
    unmigrated.close()

    # Opened for writing by the owner (db init) or on SQLite: migrated in place; the old
    # events are the main chain, and new shards start beside it.
    east = AuditStore(store_url, chain_shard=EAST)
    assert execute(store_url, "SELECT DISTINCT chain_shard FROM {t}") == [("",)]
    east.append([hand("n/1")])
    east.checkpoint()
    main = AuditStore(store_url)
    main.append([hand("o/4")])
    main.checkpoint()
    report = main.verify()
    assert report.ok, report.problem
    assert (report.events_checked, report.shards, report.checkpoints_checked) == (13, 2, 4)
    assert main.count_events() == 25
    execute(store_url, "DELETE FROM {t} WHERE {id} = 3")  # an old event, after migrating
    assert main.verify().broken_at == 4
    main.close()
    east.close()
