"""Slot machine events round-trip through fastavro with schemas/slot_machine.avsc."""

from __future__ import annotations

import io
import json
import random
from datetime import UTC, datetime
from pathlib import Path

import fastavro

from replayer.events import flatten
from replayer.slots import reconcile_machine
from simulate.slots import machine_month

SCHEMA_PATH = Path(__file__).resolve().parents[3] / "schemas" / "slot_machine.avsc"
ENVELOPE = ("event_id", "machine_id", "sequence", "occurred_at")


def test_slot_events_round_trip_and_reconcile_the_same() -> None:
    raw = json.loads(SCHEMA_PATH.read_text())
    assert (raw["name"], raw["version"]) == ("SlotEvent", 1)
    body = next(field for field in raw["fields"] if field["name"] == "body")
    records = {record["name"]: record for record in body["type"]}
    assert all(f.get("doc") for r in records.values() for f in r["fields"])
    events = machine_month(
        random.Random(2), "slot-3", datetime(2024, 7, 1, tzinfo=UTC), days=3, ram_clear_day=1
    )
    avro = [
        {
            **{key: event[key] for key in ENVELOPE},
            "body": (
                f"{raw['namespace']}.{event['type']}",
                {f["name"]: event[f["name"]] for f in records[event["type"]]["fields"]},
            ),
        }
        for event in events
    ]
    buffer = io.BytesIO()
    fastavro.writer(buffer, fastavro.parse_schema(raw), avro)
    buffer.seek(0)
    read = [
        flatten(record, record["body"][0].rsplit(".", 1)[1], record["body"][1])
        for record in fastavro.reader(buffer, return_record_name=True)
    ]
    assert read == events
    assert reconcile_machine(read) == reconcile_machine(events)
