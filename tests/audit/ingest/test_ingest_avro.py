"""Avro ingest: schema evolution, invariants, bad records and damaged files."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import fastavro
import pytest

from audit.families import SCHEMA_DIR, family_named
from audit.ingest.avro_files import iter_avro_units, read_events, write_events
from audit.ingest.avro_shape import to_avro
from audit.ingest.errors import RecordRejected
from audit.ingest.pipeline import ingest
from audit.ingest.quarantine import entries
from audit.store import AuditStore
from replayer.rulebooks.poker import POT_FEE_KINDS
from simulate.casino import punto_banco_round

POKER = family_named("poker")
HAND_STARTED_DEFAULTS = {
    "start_time_known": True,
    "shuffle_commitment": None,
    "tournament_id": None,
}
T0 = datetime(2025, 6, 1, 20, 0, tzinfo=UTC)


def hand_events(hand_id: str, *, amount: int = 100, card: str = "As") -> list[dict]:
    def ev(seq: int, record_type: str, **body: object) -> dict:
        return {
            "event_id": f"{hand_id}#{seq}",
            "hand_id": hand_id,
            "sequence": seq,
            "occurred_at": T0,
            "type": record_type,
            **body,
        }

    return [
        ev(
            0,
            "HandStarted",
            rulebook="gg-2022-cash-holdem",
            table_id="t1",
            variant="NT",
            currency="EUR",
            smallest_chip=1,
            small_blind=50,
            big_blind=100,
            ante=0,
            min_bet=100,
            button=2,
            seats=[
                {"seat": 1, "player_id": "ana", "stack": 10_000},
                {"seat": 2, "player_id": "bo", "stack": 10_000},
            ],
            shuffle_commitment=None,
            source=None,
        ),
        ev(1, "BlindPosted", seat=2, kind="small_blind", amount=50),
        ev(2, "BlindPosted", seat=1, kind="big_blind", amount=100),
        ev(3, "CardsDealt", target="hole", seat=1, cards=[card, "Kd"]),
        ev(4, "ActionTaken", seat=2, action="fold", amount=0),
        ev(5, "PotAwarded", seat=1, amount=amount + 50, pot_index=None),
    ]


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    events = hand_events("t1/1")
    write_events(tmp_path / "a.avro", POKER, events)
    assert read_events(tmp_path / "a.avro") == [
        {**e, **(HAND_STARTED_DEFAULTS if e["type"] == "HandStarted" else {})} for e in events
    ]


def test_a_file_written_with_schema_v1_reads_with_v2(tmp_path: Path, store_url: str) -> None:
    v1 = json.loads((SCHEMA_DIR / "history" / "poker_hand.v1.avsc").read_text())
    assert v1["version"] == 1 and POKER.version >= 2
    events = hand_events("old/1")
    events[0] = {k: v for k, v in events[0].items() if k != "shuffle_commitment"}
    path = tmp_path / "old.avro"
    with path.open("wb") as out:
        fastavro.writer(
            out, fastavro.parse_schema(v1), [to_avro(e, namespace=POKER.namespace) for e in events]
        )
    summary = ingest(AuditStore(store_url), [path])
    assert (summary.subjects_stored, summary.quarantined) == (1, 0)
    stored = AuditStore(store_url).records_of("poker", "old/1")
    assert stored[0]["shuffle_commitment"] is None  # the v2 default filled in
    assert [e["type"] for e in stored] == [e["type"] for e in events]


def test_a_banked_file_written_with_schema_v1_reads_with_v2(tmp_path: Path, store_url: str) -> None:
    """A round written under banked v1 (no ``RoundOpened.seated``, no shoe records)
    stores as it was: the field added in v2 left out, nothing quarantined."""
    banked = family_named("banked")
    v1 = json.loads((SCHEMA_DIR / "history" / "banked_round.v1.avsc").read_text())
    assert v1["version"] == 1 and banked.version == 2
    events = punto_banco_round(random.Random(3), "bac-old/1", T0)
    path = tmp_path / "old-banked.avro"
    with path.open("wb") as out:
        fastavro.writer(
            out,
            fastavro.parse_schema(v1),
            [to_avro(e, namespace=banked.namespace) for e in events],
        )
    summary = ingest(AuditStore(store_url), [path])
    assert (summary.subjects_stored, summary.quarantined) == (1, 0)
    stored = AuditStore(store_url).records_of("banked", "bac-old/1")
    assert "seated" not in stored[0]
    assert [e["type"] for e in stored] == [e["type"] for e in events]


def table_declaration(**fees: object) -> dict:
    return {
        "event_id": "gg-t1#0",
        "table_id": "gg-t1",
        "sequence": 0,
        "occurred_at": T0,
        "type": "TableTermsDeclared",
        "effective_from": T0,
        "rulebook": "gg-2022-cash-holdem",
        "currency": "USD",
        "rake_min_bps": 500,
        "rake_max_bps": 500,
        "rake_cap": 30,
        **fees,
    }


def test_table_terms_v1_and_v2_store_one_declaration_the_same_way(
    tmp_path: Path, store_url: str
) -> None:
    """A declaration written under table_terms v1, then the same under v2 (its fee
    fields, added in v2, null): one stored record, without the fee fields, and the
    second ingest finds it already stored rather than a conflict."""
    table = family_named("table")
    v1 = json.loads((SCHEMA_DIR / "history" / "table_terms.v1.avsc").read_text())
    assert v1["version"] == 1 and table.version == 3
    assert table.later_optional_fields == {"fee_kinds", "fee_max_bps", "fee_cap", "player_accounts"}
    body = next(f for f in table.raw_schema["fields"] if f["name"] == "body")["type"][0]
    kinds = next(f for f in body["fields"] if f["name"] == "fee_kinds")["type"][1]["items"]
    assert tuple(kinds["symbols"]) == POT_FEE_KINDS  # the schema and the rule agree
    old, new = tmp_path / "v1" / "tables.avro", tmp_path / "v2" / "tables.avro"
    old.parent.mkdir()
    new.parent.mkdir()
    with old.open("wb") as out:
        record = to_avro(table_declaration(), namespace=table.namespace)
        fastavro.writer(out, fastavro.parse_schema(v1), [record])
    write_events(new, table, [table_declaration()])
    store = AuditStore(store_url)
    first, second = ingest(store, [old]), ingest(store, [new])
    assert (first.subjects_stored, first.quarantined) == (1, 0)
    assert (second.subjects_already_stored, second.quarantined) == (1, 0)
    [stored] = store.records_of("table", "gg-t1")
    assert not {"fee_kinds", "fee_max_bps", "fee_cap", "player_accounts"} & set(stored)


def test_table_terms_v2_declares_fees(tmp_path: Path, store_url: str) -> None:
    path = tmp_path / "tables.avro"
    fees = {"fee_kinds": ["jackpot"], "fee_max_bps": 100, "fee_cap": None}
    write_events(path, family_named("table"), [table_declaration(**fees)])
    store = AuditStore(store_url)
    assert ingest(store, [path]).subjects_stored == 1
    [stored] = store.records_of("table", "gg-t1")
    assert (stored["fee_kinds"], stored["fee_max_bps"]) == (["jackpot"], 100)
    assert "fee_cap" not in stored  # null and added in v2: left out, like an old file's


def test_a_bad_record_is_quarantined_alone(tmp_path: Path) -> None:
    events = hand_events("t1/1") + hand_events("t1/2", card="Zz") + hand_events("t1/3")
    write_events(tmp_path / "day.avro", POKER, events)
    items = list(iter_avro_units(tmp_path / "day.avro"))
    rejected = [i for i in items if isinstance(i, RecordRejected)]
    assert len(rejected) == 1
    assert rejected[0].field == "cards[0]" and "'Zz' is not a card" in rejected[0].reason
    assert "record 9" in rejected[0].position and "t1/2" in rejected[0].position
    kept = [i for i in items if not isinstance(i, RecordRejected)]
    assert [len(u.records) for u in kept] == [6, 5, 6]


@pytest.mark.parametrize(
    ("change", "field", "reason"),
    [
        ({"amount": -5}, "amount", "must not be negative"),
        ({"cards": ["As", "As"]}, "cards[1]", "already dealt"),
        ({"sequence": 2}, "sequence", "appears twice"),
    ],
)
def test_invariants_name_the_field(tmp_path: Path, change: dict, field: str, reason: str) -> None:
    events = hand_events("t1/1")
    target = 3 if "cards" in change else (1 if "amount" in change else 3)
    events[target] = {**events[target], **change}
    write_events(tmp_path / "x.avro", POKER, events)
    rejected = [i for i in iter_avro_units(tmp_path / "x.avro") if isinstance(i, RecordRejected)]
    assert len(rejected) == 1 and rejected[0].field == field and reason in rejected[0].reason


def test_currency_must_look_like_iso_4217(tmp_path: Path) -> None:
    events = hand_events("t1/1")
    events[0] = {**events[0], "currency": "euro"}
    write_events(tmp_path / "x.avro", POKER, events)
    rejected = [i for i in iter_avro_units(tmp_path / "x.avro") if isinstance(i, RecordRejected)]
    assert rejected[0].field == "currency"


def test_a_truncated_file_keeps_what_was_read(tmp_path: Path, store_url: str) -> None:
    path = tmp_path / "cut.avro"
    events = [e for h in range(200) for e in hand_events(f"t1/{h}")]
    with path.open("wb") as out:
        fastavro.writer(
            out,
            POKER.parsed_schema,
            [to_avro(e, namespace=POKER.namespace) for e in events],
            codec="deflate",
            sync_interval=2000,
        )
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])
    store = AuditStore(store_url)
    summary = ingest(store, [path])
    assert summary.quarantined == 1
    assert "corrupt or truncated" in summary.rejected[0].reason
    assert 0 < summary.subjects_stored < 200
    assert store.verify().ok


def test_not_avro_and_unknown_family_are_rejected_whole(tmp_path: Path) -> None:
    (tmp_path / "junk.avro").write_bytes(b"definitely not avro")
    other = {
        "type": "record",
        "name": "Other",
        "namespace": "x",
        "fields": [{"name": "a", "type": "int"}],
    }
    with (tmp_path / "other.avro").open("wb") as out:
        fastavro.writer(out, fastavro.parse_schema(other), [{"a": 1}])
    junk = list(iter_avro_units(tmp_path / "junk.avro"))
    unknown = list(iter_avro_units(tmp_path / "other.avro"))
    assert junk[0].field == "(header)" and "not an Avro container file" in junk[0].reason
    assert unknown[0].field == "(schema)" and "unknown event family 'x.Other'" in unknown[0].reason


def test_quarantine_keeps_the_record_and_is_idempotent(tmp_path: Path, store_url: str) -> None:
    events = hand_events("t1/1", card="Xx")
    write_events(tmp_path / "q.avro", POKER, events)
    store = AuditStore(store_url)
    ingest(store, [tmp_path / "q.avro"])
    ingest(store, [tmp_path / "q.avro"])
    kept = list(entries(store))
    assert len(kept) == 1
    assert kept[0].source.endswith("q.avro") and kept[0].field == "cards[0]"
    assert '"Xx"' in kept[0].raw
