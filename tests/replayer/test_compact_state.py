"""Compact stored state (issue 24): a family record is stored as Avro binary under its
schema, its writer schema's fingerprint in the bytes (``audit.store.compact``), and
anything that would not come back identical is stored as JSON, as every state was before.

A store written before (every state JSON, written here the way that code wrote it) reads,
verifies, takes new writes in the compact form beside its old rows, replays to the very
verdicts of a store that never held a compact row, still catches a changed byte of either
kind of row, and proves its events in evidence bundles. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import DatetimeAsISO, DecimalAsStr, UUIDAsHex

from audit.evidence.bundle import build_bundle
from audit.evidence.check import verify_bundle
from audit.evidence.treecache import TreeCache
from audit.families import FAMILIES
from audit.ingest.pipeline import ingest
from audit.judging import judge_stored, replay, verdict_unit
from audit.store import AuditStore, OrjsonTranscoder, compact
from audit.store.packing import expand, is_packed
from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
from console.readmodel.model import ReadModel
from console.readmodel.queries import ModelVerdicts
from tests.store_tamper import execute, written_per_event

RULEBOOK = "gg-2022-cash-holdem"
T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
RECORDED = datetime(2026, 12, 4, 21, 0, 1, 234567, tzinfo=UTC)


def identical(a: Any, b: Any) -> bool:
    """``a`` and ``b`` are the same value as a reader sees it: equal, of the same types,
    dictionaries with their keys in the same order, times at the same UTC offset."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return list(a) == list(b) and all(identical(a[key], b[key]) for key in a)
    if type(a) is list:
        return len(a) == len(b) and all(map(identical, a, b))
    if type(a) is datetime:
        return bool(a == b and a.utcoffset() == b.utcoffset())
    return bool(a == b)


def transcoder() -> OrjsonTranscoder:
    """The store's transcoder, with the transcodings ``AuditStore`` registers."""
    made = OrjsonTranscoder()
    for transcoding in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO()):
        made.register(transcoding)
    return made


def action(hand: str = "t/1", sequence: int = 3, **changes: Any) -> dict[str, Any]:
    record = {
        "event_id": f"{hand}#{sequence}",
        "hand_id": hand,
        "sequence": sequence,
        "occurred_at": T0,
        "type": "ActionTaken",
        "seat": 2,
        "action": "raise",
        "amount": 22_500,
    }
    return record | changes


# -- the encoding -------------------------------------------------------------------------


def test_a_family_record_is_stored_compactly_under_its_schemas_fingerprint() -> None:
    codec = transcoder()
    state = codec.encode_recorded("poker", RECORDED, action())
    writer = compact.writer_schema("poker")
    assert writer is not None
    assert state.startswith(compact.MAGIC + writer.fingerprint)
    json_state = codec.encode({"timestamp": RECORDED, "record": action()})
    assert len(state) * 5 < len(json_state)
    assert b"t/1#3" not in state and b"ActionTaken" not in state  # derived, not stored
    decoded = codec.decode(state)
    assert decoded["timestamp"] == RECORDED
    assert identical(decoded["record"], action())
    assert identical(codec.decode_record(state), action())


def test_an_event_id_of_another_format_is_kept() -> None:
    record = action(event_id="operator-7f3a")
    state = transcoder().encode_recorded("poker", RECORDED, record)
    assert compact.is_compact(state) and b"operator-7f3a" in state
    assert identical(compact.decode(state)[1], record)


@pytest.mark.parametrize(
    "record",
    [
        action(note="not in the schema"),
        action(occurred_at=T0.astimezone(timezone(timedelta(hours=1)))),
        action(amount="22500"),
        action(amount=22500.0),
        action(seat=True),
        {"type": "HandStarted", "hand_id": "t/1", "sequence": 0, "variant": "NT"},
        {"type": "NoSuchRecord", "hand_id": "t/1", "sequence": 0},
    ],
    ids=[
        "unknown field",
        "time in another zone",
        "wrong type",
        "float for a long",
        "bool for an int",
        "partial",
        "unknown type",
    ],
)
def test_what_would_not_come_back_identical_is_stored_as_json(record: dict[str, Any]) -> None:
    codec = transcoder()
    state = codec.encode_recorded("poker", RECORDED, record)
    assert state.startswith(b"{") and not compact.is_compact(state)
    assert identical(codec.decode_record(state), record)


MIXED_BATCH = [
    action(sequence=3),
    action(sequence=4, note="not in the schema"),
    action(sequence=5, amount=22500.0),
    action(sequence=6, seat=True),
    action(hand="t/2", sequence=3, event_id="operator-7f3a"),
    {"type": "NoSuchRecord", "hand_id": "t/1", "sequence": 0},
    action(sequence=7, occurred_at=T0.astimezone(timezone(timedelta(hours=1)))),
    action(sequence=8),
]
"""Records that are stored compactly and records that are not, interleaved."""


def test_interleaved_records_are_compact_exactly_where_they_come_back_identical() -> None:
    """Records stored compactly and records stored as JSON, interleaved: the transcoder's
    state is the compact one where ``compact.encode`` gives one, JSON elsewhere."""
    alone = [compact.encode("poker", RECORDED, record) for record in MIXED_BATCH]
    assert [state is not None for state in alone] == [
        True, False, False, False, True, False, False, True
    ]  # fmt: skip
    codec = transcoder()
    states = [codec.encode_recorded("poker", RECORDED, r) for r in MIXED_BATCH]
    assert [s for s, a in zip(states, alone, strict=True) if a is not None] == [
        a for a in alone if a is not None
    ]
    assert all(s.startswith(b"{") for s, a in zip(states, alone, strict=True) if a is None)


def test_records_of_other_subjects_stay_json() -> None:
    record = {"type": "UserAdded", "sequence": 0, "user": "ana"}
    assert transcoder().encode_recorded("console_user", RECORDED, record).startswith(b"{")


def test_a_row_written_under_an_earlier_schema_version_decodes() -> None:
    current = compact.writer_schema("poker")
    assert current is not None
    earlier = [
        s
        for s in compact.registry().values()
        if s.family is FAMILIES["poker"] and s.fingerprint != current.fingerprint
    ]
    assert len(earlier) >= 4  # schemas/history/poker_hand.v1..v4
    for schema in earlier:
        state = compact.encode_under(schema, RECORDED, action())
        assert state is not None and state[2:10] == schema.fingerprint
        assert identical(compact.decode(state)[1], action())


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda s: s[:2] + bytes(8) + s[10:], "fingerprint 0000000000000000"),
        (lambda s: s[:-2], "does not decode"),
        (lambda s: s + b"\x00", "does not decode"),
    ],
    ids=["unknown schema", "truncated", "trailing bytes"],
)
def test_a_damaged_compact_state_is_refused_with_a_reason(change: Any, says: str) -> None:
    state = transcoder().encode_recorded("poker", RECORDED, action())
    with pytest.raises(compact.CompactStateError, match=says):
        compact.decode(change(state))


# -- a store written before compact states --------------------------------------------------


def writing_json_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every state written the way the code before compact states wrote it: the JSON of
    ``{"timestamp": recorded at, "record": record}``."""

    def as_before(
        self: OrjsonTranscoder, kind: str, recorded_at: datetime, record: dict[str, Any]
    ) -> bytes:
        return self.encode({"timestamp": recorded_at, "record": record})

    monkeypatch.setattr(OrjsonTranscoder, "encode_recorded", as_before)


@dataclass
class MixedStore:
    """A store whose first hands were written before compact states and the rest after,
    beside a reference store that holds every hand as JSON; both replayed."""

    url: str
    store: AuditStore
    reference: AuditStore
    old_hands: list[str]
    new_hands: list[str]
    public_key: Any


def _hands(store: AuditStore) -> list[str]:
    return list(store.iter_subject_ids("poker"))


def _states(url: str) -> list[tuple[int, bytes, str]]:
    """(notification id, state, topic) of every stored row."""
    return [
        (int(i), bytes(s), str(t))
        for i, s, t in execute(url, "SELECT {id}, state, topic FROM {t} ORDER BY {id}")
    ]


def _event_states(url: str) -> list[tuple[int, bytes, str]]:
    """``_states`` with a packed row's events each (``audit.store.packing``)."""
    rows = execute(
        url, "SELECT {id}, originator_id, originator_version, topic, state FROM {t} ORDER BY {id}"
    )
    return [
        (int(i), state, topic)
        for i, oid, version, stored_topic, stored in rows
        for _, topic, state in expand(oid, version, stored_topic, bytes(stored))
    ]


@pytest.fixture
def mixed(
    store_url: str, phh_sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[MixedStore]:
    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    files = sorted(phh_sample.rglob("*.phh"))
    half = len(files) // 2
    store = AuditStore(store_url)
    reference = AuditStore(f"sqlite:///{tmp_path / 'reference.db'}")
    with monkeypatch.context() as before, written_per_event():
        writing_json_as_before(before)
        ingest(store, files[:half], rulebooks=[RULEBOOK])
        ingest(reference, files, rulebooks=[RULEBOOK])
        old_hands = _hands(store)
    assert all(state.startswith(b"{") for _, state, _ in _states(store_url))
    assert store.verify(load_public_key(public)).ok
    ingest(store, files[half:], rulebooks=[RULEBOOK])
    new_hands = [h for h in _hands(store) if h not in old_hands]
    assert old_hands and new_hands
    yield MixedStore(store_url, store, reference, old_hands, new_hands, load_public_key(public))
    store.close()
    reference.close()


def test_an_old_store_takes_compact_writes_and_reads_both_kinds_of_row(
    mixed: MixedStore,
) -> None:
    assert all(is_packed(t) for _, _, t in _states(mixed.url)[-len(mixed.new_hands) :])
    states = _event_states(mixed.url)
    new_rows = [s for _, s, _ in states if compact.is_compact(s)]
    old_rows = [s for _, s, _ in states if s.startswith(b"{")]
    assert len(new_rows) + len(old_rows) == len(states)
    assert len(new_rows) > len(mixed.new_hands) * 5 and len(old_rows) > len(mixed.old_hands) * 5
    hands = mixed.old_hands + mixed.new_hands
    assert _hands(mixed.reference) == hands
    mine = mixed.store.records_of_many("poker", hands)
    theirs = mixed.reference.records_of_many("poker", hands)
    for hand in hands:
        assert identical(mine[hand], theirs[hand]), hand
    assert mixed.store.verify(mixed.public_key).ok


def test_ingesting_the_same_hands_again_stores_nothing(mixed: MixedStore, phh_sample: Path) -> None:
    before = mixed.store.count_events()
    again = ingest(mixed.store, sorted(phh_sample.rglob("*.phh")), rulebooks=[RULEBOOK])
    assert again.subjects_stored == 0 and mixed.store.count_events() == before
    assert not again.quarantined


def test_a_mixed_store_replays_to_the_verdicts_of_an_all_json_store(mixed: MixedStore) -> None:
    replay(mixed.store, kinds=["poker"])
    replay(mixed.reference, kinds=["poker"])
    for hand in mixed.old_hands + mixed.new_hands:
        mine = judge_stored(mixed.store, "poker", hand)
        theirs = judge_stored(mixed.reference, "poker", hand)
        assert mine is not None and theirs is not None
        ours, reference = verdict_unit(*mine), verdict_unit(*theirs)
        assert ours.subject_id == reference.subject_id
        assert ours.records == reference.records
    assert mixed.store.verify(mixed.public_key).ok


@pytest.mark.parametrize("row_kind", ["compact", "json"])
def test_a_changed_byte_of_either_kind_of_row_fails_verify(
    mixed: MixedStore, row_kind: str
) -> None:
    states = _states(mixed.url)
    victim, state = next((i, s) for i, s, t in states if is_packed(t) == (row_kind == "compact"))
    changed = state[:-1] + bytes([state[-1] ^ 1])
    execute(mixed.url, "UPDATE {t} SET state = {p} WHERE {id} = {p}", (changed, victim))
    report = mixed.store.verify()
    assert not report.ok and report.broken_at == victim
    assert "was altered" in report.problem


def test_an_evidence_bundle_proves_compact_rows_and_refuses_one_changed(
    mixed: MixedStore,
) -> None:
    replay(mixed.store, kinds=["poker"])
    mixed.store.checkpoint()
    model = ReadModel(mixed.store)
    bundle = build_bundle(
        mixed.store,
        ModelVerdicts(model),
        mixed.new_hands[0],
        kind="poker",
        made_by="tests",
        made_at=datetime(2026, 12, 5, tzinfo=UTC),
        trees=TreeCache(),
    )
    assert verify_bundle(bundle, mixed.public_key).ok
    changed = json.loads(json.dumps(bundle))
    target = next((e for e in changed["events"] if "state_b64" in e), None)
    assert target is not None, "the hand's records are bundled as their stored bytes"
    packed = base64.b64decode(target["state_b64"])
    inside = expand(target["originator_id"], target["version"], target["topic"], packed)
    assert all(compact.is_compact(state) for _, _, state in inside[1:])
    raw = bytearray(base64.b64decode(target["state_b64"]))
    raw[-1] ^= 1
    target["state_b64"] = base64.b64encode(bytes(raw)).decode()
    report = verify_bundle(changed, mixed.public_key)
    assert not report.ok and report.problems


def test_a_hash_chain_proof_names_the_time_a_compact_head_row_was_stored() -> None:
    from audit.evidence.proof_check import _stored_at

    codec = transcoder()
    for state in (
        codec.encode_recorded("poker", RECORDED, action()),
        codec.encode({"timestamp": RECORDED, "record": action()}),
    ):
        assert _stored_at(state) == "2026-12-04T21:00:01.234567+00:00"
    assert _stored_at(compact.MAGIC + bytes(12)) == "an unknown time"
