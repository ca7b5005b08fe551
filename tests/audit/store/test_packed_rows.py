"""Packed rows (``audit.store.packing``): one row per subject per append, its events
inside compressed; read back as events by every reader; bounded and named when bad;
racing writers of one subject's versions store each version once."""

from __future__ import annotations

import multiprocessing
import zlib
from concurrent.futures import ProcessPoolExecutor

import pytest
from eventsourcing.utils import get_topic

from audit.store import AuditStore, SubjectRecords, subject_uuid
from audit.store.packing import (
    MAGIC,
    MAX_BODY,
    PackedRowError,
    marker,
    pack_events,
    packed_rows,
    unpack,
)
from audit.store.subjects import PokerHand
from cli.main import main
from tests.audit.store.test_store import hand
from tests.store_tamper import execute


def test_a_pack_holds_its_events_in_order_with_their_exact_bytes() -> None:
    events = [("a:B.Opened", b'{"x":1}'), ("a:B.Recorded", b"\x00\xff binary"), ("c", b"")]
    packed = pack_events(events)
    assert packed.startswith(MAGIC)
    assert unpack("row", 5, packed) == [(5 + n, t, s) for n, (t, s) in enumerate(events)]


def test_an_append_is_one_row_per_subject_and_reads_back_as_events(store: AuditStore) -> None:
    result = store.append([hand("t/1"), hand("t/2", 5)])
    assert result.events_stored == 5 + 7
    rows = store.chained.states_of([subject_uuid("poker", "t/1").hex], 1)
    assert [version for _, version, _ in rows] == [1, 2, 3, 4, 5]
    assert store.count_rows() == 2 and store.count_events() == 12
    topics = [r.topic for r in store.chained.iter_chain_rows()]
    assert topics == [marker("poker", True)] * 2
    store.append([SubjectRecords("poker", "t/1", [*hand("t/1", 5).records[4:]])])
    assert [r.topic for r in store.chained.iter_chain_rows()][-1] == marker("poker", False)
    assert store.records_of("poker", "t/1") == hand("t/1", 5).records
    events = store.recorder.select_events(subject_uuid("poker", "t/1"), gt=2, lte=6)
    assert [e.originator_version for e in events] == [3, 4, 5, 6]
    assert [e.topic for e in events] == [get_topic(PokerHand.event_class("ActionTaken"))] * 4
    assert list(store.iter_subject_ids("poker")) == ["t/1", "t/2"]
    opened = store.recorder.select_notifications(1, 10, topics=[get_topic(PokerHand.Opened)])
    assert [(n.id, n.originator_version) for n in opened] == [(1, 1), (2, 1)]
    assert store.verify().ok


def test_versions_that_do_not_follow_on_are_separate_rows() -> None:
    from eventsourcing.persistence import StoredEvent

    events = [StoredEvent("id", v, f"t{v}", b"s") for v in (1, 2, 3, 7, 8)]
    rows = packed_rows("poker", events)
    assert [(r.originator_version, r.topic) for r in rows] == [
        (1, marker("poker", True)),
        (7, marker("poker", False)),
    ]
    assert [v for v, _, _ in unpack("id", 7, rows[1].state)] == [7, 8]


def test_an_event_too_large_for_a_pack_is_a_row_of_its_own() -> None:
    from eventsourcing.persistence import StoredEvent

    big = StoredEvent("id", 2, "big", b"x" * (MAX_BODY + 1))
    small = [StoredEvent("id", 1, "o", b"s"), big, StoredEvent("id", 3, "r", b"s")]
    rows = packed_rows("poker", small)
    assert [(r.originator_version, r.topic) for r in rows] == [
        (1, marker("poker", True)),
        (2, "big"),
        (3, marker("poker", False)),
    ]


def _body(place: int, length: int) -> bytes:
    """A body with one topic, ``t``, and events at ``place`` of ``length`` bytes."""
    return b"\x00\x01\x00\x01t" + place.to_bytes(2, "big") + length.to_bytes(4, "big")


def _header(count: int, size: int) -> bytes:
    return MAGIC + bytes((1, 1)) + count.to_bytes(4, "big") + size.to_bytes(4, "big")


@pytest.mark.parametrize(
    "state,why",
    [
        (b"", "no pack header"),
        (b"{}" + bytes(10), "no pack header"),
        (MAGIC + bytes((9, 1)) + bytes(8), "unknown pack format 9"),
        (_header(0, 0) + zlib.compress(b""), "holds no event"),
        (_header(1, MAX_BODY + 1) + zlib.compress(b"x"), "over the bound"),
        (_header(1, 10) + b"not zlib", "does not inflate"),
        # a bomb: 64 MiB of zeros claimed as 10 bytes; never inflated past 11
        (_header(1, 10) + zlib.compress(bytes(64 * 2**20), 9), "inflates to other than"),
        (_header(9, 10) + zlib.compress(bytes(10)), "claims 9 events, more than"),
        (_header(1, 9) + zlib.compress(b"\x00\x01\x00\x09t" + bytes(4)), "cut short in its"),
        (_header(1, 11) + zlib.compress(_body(1, 0)), "index out of range"),
        (_header(2, 20) + zlib.compress(_body(0, 0) + b"\x00" * 5 + b"\x09abc"), "event 2 of 2"),
        (_header(1, 13) + zlib.compress(_body(0, 0) + b"xy"), "2 bytes after"),
    ],
)
def test_a_bad_packed_row_is_named_and_bounded(state: bytes, why: str) -> None:
    with pytest.raises(PackedRowError, match=why) as raised:
        unpack("f00d", 3, state)
    assert "packed row of f00d at version 3" in str(raised.value)


def test_a_store_with_a_bad_packed_row_fails_named_without_a_traceback(
    store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A row rewritten into a bomb (its chain hash recomputed or not): reading it fails
    with the row named, exit 2; ``verify`` names the altered row."""
    store = AuditStore(store_url)
    store.append([hand("t/1")])
    store.close()
    bomb = _header(1, 10) + zlib.compress(bytes(2**20), 9)
    execute(store_url, "UPDATE {t} SET state = {p} WHERE {id} = 1", (bomb,))
    capsys.readouterr()
    assert main(["--store", store_url, "replay"]) == 2
    err = capsys.readouterr().err
    assert f"packed row of {subject_uuid('poker', 't/1').hex} at version 1" in err
    assert "Traceback" not in err
    assert main(["--store", store_url, "verify"]) != 0
    assert "notification 1" in capsys.readouterr().out


def _stale_once(store: AuditStore, stale: set[tuple[str, int]]) -> None:
    """Make the store's next idempotency read see only ``stale`` versions, as if another
    writer's rows had committed after it read (what a race does)."""
    recorder = store.chained
    real_versions, real_states = recorder.existing_versions, recorder.states_of
    calls: list[str] = []

    def versions(ids: list[str]) -> set[tuple[str, int]]:
        calls.append("versions")
        found = real_versions(ids)
        return found & stale if len(calls) == 1 else found

    def states(ids: list[str], first: int) -> list[tuple[str, int, bytes]]:
        calls.append("states")
        found = real_states(ids, first)
        return [r for r in found if (r[0], r[1]) in stale] if len(calls) == 2 else found

    recorder.existing_versions = versions  # type: ignore[method-assign]
    recorder.states_of = states  # type: ignore[method-assign]


def test_a_writer_that_planned_before_another_committed_overlapping_versions_retries(
    store_url: str,
) -> None:
    """Writer A stores versions 4..5 of a hand, then B (which read before A's rows
    committed) extends it with 5..7: B's row would overlap A's from another first
    version, which no key refuses; its insert is refused, read again, and stores only
    what is new."""
    first = AuditStore(store_url, chain_shard="a")
    second = AuditStore(store_url, chain_shard="b")
    whole = hand("t/1", 7).records
    first.append([SubjectRecords("poker", "t/1", whole[:2])])  # versions 1..3
    key = subject_uuid("poker", "t/1").hex
    first.append([SubjectRecords("poker", "t/1", whole[2:4])])  # 4..5
    _stale_once(second, {(key, v) for v in (1, 2, 3)})  # B read before 4..5 committed
    result = second.append([SubjectRecords("poker", "t/1", whole[3:6])])  # 5..7
    assert (result.events_stored, result.events_already_stored) == (2, 1)
    assert second.records_of("poker", "t/1") == whole[:6]
    versions = [v for _, v, _ in second.chained.states_of([key], 1)]
    assert versions == [1, 2, 3, 4, 5, 6, 7]
    assert second.verify().ok
    first.close()
    second.close()


def _extend(store_url: str, shard: str, offset: int) -> int:
    """Extend the same 20 hands, each by overlapping runs of records from ``offset`` on
    (runs of six, every third record), from one shard."""
    store = AuditStore(store_url, chain_shard=shard)
    whole = {n: hand(f"race/{n}", 30).records for n in range(20)}
    store.append([SubjectRecords("poker", f"race/{n}", r[:1]) for n, r in whole.items()])
    stored = 0
    try:
        for start in range(offset, 31, 3):
            units = [
                SubjectRecords("poker", f"race/{n}", r[start : start + 6]) for n, r in whole.items()
            ]
            stored += store.append(units, partial=True).events_stored
        return stored
    finally:
        store.close()


def test_racing_writers_of_two_shards_store_each_version_once(store_url: str) -> None:
    """Two processes on two shards extend the same hands with overlapping runs at once:
    every version is stored exactly once, the records read back whole, the chains
    verify."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        list(pool.map(_extend, [store_url, store_url], ["east", "west"], [1, 2]))
    store = AuditStore(store_url, create=False)
    try:
        keys = [subject_uuid("poker", f"race/{n}").hex for n in range(20)]
        versions = [(k, v) for k, v, _ in store.chained.states_of(keys, 1)]
        assert len(versions) == len(set(versions)) == 20 * 32
        assert store.records_of("poker", "race/3") == hand("race/3", 30).records
        assert store.verify().ok
    finally:
        store.close()
