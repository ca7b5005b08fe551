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
    assert (raw["name"], raw["version"]) == ("SlotEvent", 2)  # v2: jackpots and approvals
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
                {
                    f["name"]: event.get(f["name"], f.get("default"))  # v2's optional fields
                    for f in records[event["type"]]["fields"]
                },
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
    # the optional fields v2 added read back as their default (None) where v1's left them out
    stated = [
        {k: v for k, v in r.items() if k in e or v is not None}
        for r, e in zip(read, events, strict=True)
    ]
    assert stated == events
    assert reconcile_machine(read).findings == reconcile_machine(events).findings
