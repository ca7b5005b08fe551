"""The store: batched appends, idempotency, conflicts, aggregates, hash chain, tampering."""

from __future__ import annotations

from datetime import UTC, datetime

import psycopg
import pytest
from eventsourcing.utils import get_topic

from audit.store import AuditStore, SubjectRecords
from audit.store.subjects import SUBJECT_CLASSES, PokerHand, subject_uuid
from tests.store_tamper import execute, flip_a_byte, swap_positions

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def hand(hand_id: str, n_actions: int = 3, seat: int = 1) -> SubjectRecords:
    records = [
        {
            "type": "HandStarted",
            "hand_id": hand_id,
            "sequence": 0,
            "occurred_at": T0,
            "event_id": f"{hand_id}#0",
            "variant": "NT",
        }
    ]
    for i in range(1, n_actions + 1):
        records.append(
            {
                "type": "ActionTaken",
                "hand_id": hand_id,
                "sequence": i,
                "occurred_at": T0,
                "event_id": f"{hand_id}#{i}",
                "seat": seat,
                "action": "call",
                "amount": 100 * i,
            }
        )
    return SubjectRecords("poker", hand_id, records, source="test")


def five(name: str) -> list[SubjectRecords]:
    """Five hands: five rows (a packed row each) when appended together."""
    return [hand(f"{name}/{n}") for n in range(5)]


def test_append_stores_every_record_and_rebuilds_the_aggregate(store: AuditStore) -> None:
    result = store.append([hand("t/1"), hand("t/2", 5)])
    assert (result.stored, result.duplicates, result.events_stored) == (2, 0, 4 + 6 + 2)
    aggregate = store.repository.get(subject_uuid("poker", "t/2"))
    assert isinstance(aggregate, PokerHand)
    assert aggregate.subject_id == "t/2"
    assert [r["sequence"] for r in aggregate.records] == list(range(6))
    assert store.records_of("poker", "t/1") == hand("t/1").records
    assert list(store.iter_subject_ids("poker")) == ["t/1", "t/2"]


def test_same_input_twice_is_stored_once(store: AuditStore) -> None:
    store.append([hand("t/1")])
    again = store.append([hand("t/1"), hand("t/1")])
    assert (again.stored, again.duplicates, again.events_stored) == (0, 2, 0)
    assert store.count_events() == 5


def test_same_subject_with_other_content_is_a_conflict_and_not_stored(store: AuditStore) -> None:
    store.append([hand("t/1")])
    clash = store.append([hand("t/1", seat=2), hand("t/9")])
    assert clash.stored == 1
    assert [u.subject_id for u, _ in clash.conflicts] == ["t/1"]
    assert "already stored with different content" in clash.conflicts[0][1]
    assert store.records_of("poker", "t/1") == hand("t/1").records


def test_later_records_of_a_subject_extend_it(store: AuditStore) -> None:
    whole = hand("t/1", 4)
    first = SubjectRecords("poker", "t/1", whole.records[:2])
    rest = SubjectRecords("poker", "t/1", whole.records[2:])
    store.append([first])
    store.append([rest])
    assert store.records_of("poker", "t/1") == whole.records


def test_verify_passes_on_an_untouched_store(store: AuditStore) -> None:
    for i in range(5):
        store.append([hand(f"t/{i}")])
        store.checkpoint()
    report = store.verify()
    assert report.ok and report.events_checked == 5 and report.checkpoints_checked == 5


def _filled(store: AuditStore) -> None:
    """15 hands, one packed row each (notifications 1..15)."""
    store.append([hand(f"t/{i}") for i in range(1, 16)])
    store.checkpoint()


@pytest.mark.parametrize("victim", [1, 5, 8, 15])
def test_verify_names_an_altered_row(store: AuditStore, store_url: str, victim: int) -> None:
    _filled(store)
    flip_a_byte(store_url, victim)
    report = store.verify()
    assert not report.ok and report.broken_at == victim
    assert "altered" in report.problem


@pytest.mark.parametrize("column,value", [("topic", "x:Y"), ("originator_version", 99)])
def test_verify_catches_changed_identity(
    store: AuditStore, store_url: str, column: str, value: object
) -> None:
    _filled(store)
    execute(store_url, f"UPDATE {{t}} SET {column} = {{p}} WHERE {{id}} = 7", (value,))
    assert store.verify().broken_at == 7


@pytest.mark.parametrize("victim", [1, 6, 14])
def test_verify_names_the_row_after_a_deleted_one(
    store: AuditStore, store_url: str, victim: int
) -> None:
    _filled(store)
    execute(store_url, "DELETE FROM {t} WHERE {id} = {p}", (victim,))
    report = store.verify()
    assert not report.ok and report.broken_at == victim + 1


def test_verify_catches_a_deleted_tail_through_the_checkpoint(
    store: AuditStore, store_url: str
) -> None:
    _filled(store)
    execute(store_url, "DELETE FROM {t} WHERE {id} = 15")
    report = store.verify()
    assert not report.ok and report.broken_at == 15 and "deleted" in report.problem


def test_verify_catches_two_rows_swapped(store: AuditStore, store_url: str) -> None:
    _filled(store)
    rows = execute(store_url, "SELECT state FROM {t} WHERE {id} IN (3, 4) ORDER BY {id}")
    execute(store_url, "UPDATE {t} SET state = {p} WHERE {id} = 3", (rows[1][0],))
    execute(store_url, "UPDATE {t} SET state = {p} WHERE {id} = 4", (rows[0][0],))
    assert store.verify().broken_at == 3


def test_verify_catches_a_reordered_chain(store: AuditStore, store_url: str) -> None:
    """Whole rows (hashes included) moved to other positions break the links."""
    _filled(store)
    swap_positions(store_url, 2, 3)
    assert store.verify().broken_at == 2


def test_verify_catches_a_forged_row_appended_without_the_chain(
    store: AuditStore, store_url: str
) -> None:
    _filled(store)
    execute(store_url, "DELETE FROM {t} WHERE {id} = 10")
    assert not store.verify().ok


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE {t} SET topic = 'x'",
        "DELETE FROM {t}",
        "TRUNCATE {t}",
    ],
)
def test_postgres_itself_refuses_changes(statement: str) -> None:
    from tests.conftest import fresh_postgres_url

    url = fresh_postgres_url()
    app = AuditStore(url)
    _filled(app)
    schema = url.split("schema=")[1]
    with (
        psycopg.connect(url.split("?")[0], autocommit=True) as conn,
        pytest.raises(psycopg.errors.RaiseException, match="append-only"),
    ):
        conn.execute(statement.format(t=f"{schema}.casinoaudit_events"))
    assert app.verify().ok


def test_sqlite_itself_refuses_changes(tmp_path) -> None:
    import sqlite3

    path = tmp_path / "s.db"
    app = AuditStore(f"sqlite:///{path}")
    _filled(app)
    conn = sqlite3.connect(path)
    for statement in ("UPDATE stored_events SET topic = 'x'", "DELETE FROM stored_events"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(statement)
    assert app.verify().ok


def _append_many(url: str, writer: int) -> int:
    """In a child process: 40 small batches of this writer's own hands."""
    store = AuditStore(url)
    try:
        return sum(
            store.append([hand(f"w{writer}/{batch}/{n}") for n in range(5)]).stored
            for batch in range(40)
        )
    finally:
        store.close()


def test_concurrent_writers_keep_one_unbroken_chain(store_url: str) -> None:
    """Two processes appending at once (parallel nightly input files, mapped DAG tasks) queue for
    the write lock: every batch is stored and the chain verifies end to end."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        stored = list(pool.map(_append_many, [store_url, store_url], [1, 2]))
    assert stored == [200, 200]
    store = AuditStore(store_url)
    try:
        assert store.verify().ok
        assert store.count_events() == 400 * 5
        batch = [f"w1/7/{n}" for n in range(5)] + ["unknown"]
        assert dict(store.iter_records("poker", batch)) == {s: hand(s).records for s in batch[:-1]}
    finally:
        store.close()


def test_recorded_events_are_stored_as_eventsourcing_maps_them(store: AuditStore) -> None:
    """``append`` writes a record's stored event directly; it must be the very bytes the
    eventsourcing mapper makes of the domain event (the chain hashes these bytes)."""
    record = hand("t/9").records[1]
    aggregate_id = subject_uuid("poker", "t/9")
    event = PokerHand.event_class(record["type"])(
        originator_id=aggregate_id, originator_version=3, timestamp=T0, record=record
    )
    direct = store._recorded(PokerHand, aggregate_id, 3, record, T0)
    assert direct == store.mapper.to_stored_event(event)
    assert store.mapper.to_domain_event(direct).record == record


@pytest.mark.parametrize("kind", sorted(SUBJECT_CLASSES))
def test_a_subject_opens_with_the_state_eventsourcings_mapper_writes(
    store: AuditStore, kind: str
) -> None:
    """``append`` writes a subject's ``Opened`` without building the domain event: the
    same row as eventsourcing's mapper makes of the event (what every reader decodes)."""
    cls = SUBJECT_CLASSES[kind]
    aggregate_id = subject_uuid(kind, "s/1")
    when = datetime(2024, 5, 1, 12, 0, 0, 120, tzinfo=UTC)
    event = cls.Opened(
        originator_id=aggregate_id,
        originator_version=1,
        timestamp=when,
        originator_topic=get_topic(cls),
        subject_id="s/1",
    )
    assert store._opened(cls, aggregate_id, "s/1", when) == store.mapper.to_stored_event(event)
