"""The generated reader of compact states (``audit.store.compact_reader``) reads what
fastavro's reader reads, value for value and key for key, under every storage schema of
every family version; and a damaged state is refused with ``CompactStateError``, never
another exception.

The oracle is fastavro's generic ``schemaless_reader`` with its datum flattened the way
``audit.store.compact`` did before the generated reader (envelope, ``type``, body fields,
a later version's unset fields left out, ``source`` last). States are written by
fastavro's writer from random data drawn from each schema.
"""

from __future__ import annotations

import io
import random
import string
from datetime import UTC, datetime, timedelta
from typing import Any

import fastavro
import pytest

from audit.store import compact
from audit.store.compact_reader import reader
from tests.replayer.test_compact_state import identical

SCHEMAS = sorted(compact.registry().values(), key=lambda s: s.fingerprint)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def draw(rng: random.Random, schema: Any) -> Any:
    """A random value of ``schema`` (fastavro's parsed form, named types expanded), for
    fastavro's writer (a record in a union as ``(name, fields)``)."""
    if isinstance(schema, list):
        branch = rng.choice(schema)
        value = draw(rng, branch)
        return (
            (branch["name"], value)
            if isinstance(branch, dict) and branch["type"] == "record"
            else value
        )
    kind = schema if isinstance(schema, str) else schema["type"]
    if isinstance(schema, dict) and schema.get("logicalType") == "timestamp-micros":
        return EPOCH + timedelta(microseconds=rng.randrange(-(10**15), 4 * 10**15))
    if kind == "null":
        return None
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "int":
        return rng.choice([0, -1, 1, 63, -64, 64, 2**31 - 1, -(2**31), rng.randrange(-999, 999)])
    if kind == "long":
        return rng.choice([0, -1, 2**63 - 1, -(2**63), rng.randrange(-(10**12), 10**12)])
    if kind == "string":
        return "".join(rng.choice(string.printable + "éß€🂡") for _ in range(rng.randrange(0, 9)))
    if kind == "enum":
        return rng.choice(schema["symbols"])
    if kind == "array":
        return [draw(rng, schema["items"]) for _ in range(rng.randrange(0, 4))]
    if kind == "map":
        return {
            draw(rng, "string"): draw(rng, schema["values"]) for _ in range(rng.randrange(0, 3))
        }
    assert kind == "record", kind
    return {field["name"]: draw(rng, field["type"]) for field in schema["fields"]}


def state_of(schema: compact.StorageSchema, datum: dict[str, Any]) -> bytes:
    out = io.BytesIO()
    out.write(compact.MAGIC + schema.fingerprint)
    fastavro.schemaless_writer(out, schema.parsed, datum)
    return out.getvalue()


def oracle(schema: compact.StorageSchema, state: bytes) -> tuple[datetime, dict[str, Any]]:
    """(recording time, record) by fastavro's generic reader, flattened."""
    source = io.BytesIO(state)
    source.seek(2 + compact.FINGERPRINT_SIZE)
    datum = fastavro.schemaless_reader(source, schema.parsed, None, return_record_name=True)
    assert isinstance(datum, dict) and source.tell() == len(state)
    record = {name: datum[name] for name in schema.envelope}
    if record["event_id"] is None:
        record["event_id"] = f"{datum[schema.envelope[1]]}#{datum['sequence']}"
    type_name, body = datum["body"]
    record["type"] = type_name[schema.namespace_length :]
    for name, value in body.items():
        if value is not None or name not in schema.later_optional:
            record[name] = value
    if datum["source"] is not None:
        record["source"] = datum["source"]
    return EPOCH + timedelta(microseconds=datum["recorded_at"]), record


def random_states(schema: compact.StorageSchema, seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    expanded = fastavro.parse_schema(schema.parsed, expand=True)
    states = []
    for _ in range(count):
        datum = draw(rng, expanded)
        datum["recorded_at"] = rng.randrange(0, 4 * 10**15)
        if rng.random() < 0.5:  # as the writer stores a derived event id
            datum["event_id"] = None
        states.append(state_of(schema, datum))
    return states


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: f"{s.family.name}-{s.fingerprint.hex()}")
def test_the_generated_reader_reads_what_fastavro_reads(schema: compact.StorageSchema) -> None:
    for state in random_states(schema, seed=int.from_bytes(schema.fingerprint[:4]), count=300):
        recorded_at, record = compact.decode(state)
        expected_at, expected = oracle(schema, state)
        assert recorded_at == expected_at and recorded_at.utcoffset() == timedelta(0)
        assert identical(record, expected), (record, expected)


TIMES = (0, 1, -1, 63, -64, 64, 2**48 - 1, 2**48, 1_764_900_000_123_456, 2**55 - 1, 2**55)
"""Microseconds whose varints are one byte long, two, seven, eight (1979 to 3111: the
reader's remembered case) and nine, each read many times below."""


def test_times_that_repeat_read_as_fastavro_reads_them_whatever_their_length() -> None:
    """The reader looks one-byte and eight-byte time varints up (``_Times``); states
    sharing such times, in both time fields and next to every other length, and cut
    short inside one, read as fastavro reads them or are refused."""
    schema = compact.writer_schema("poker")
    assert schema is not None
    expanded = fastavro.parse_schema(schema.parsed, expand=True)
    rng = random.Random(5)
    for _ in range(3):
        for recorded in TIMES:
            for occurred in TIMES:
                datum = draw(rng, expanded)
                datum["recorded_at"], datum["occurred_at"] = recorded, occurred
                state = state_of(schema, datum)
                recorded_at, record = compact.decode(state)
                expected_at, expected = oracle(schema, state)
                assert recorded_at == expected_at and identical(record, expected)
                for cut in range(10, min(20, len(state))):
                    with pytest.raises(compact.CompactStateError):
                        compact.decode(state[:cut])


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: f"{s.family.name}-{s.fingerprint.hex()}")
def test_a_damaged_state_is_refused_never_misread_with_another_error(
    schema: compact.StorageSchema,
) -> None:
    rng = random.Random(7)
    for state in random_states(schema, seed=11, count=40):
        damaged = [state[:cut] for cut in range(10, len(state))] + [state + b"\x00"]
        flipped = bytearray(state)
        flipped[rng.randrange(10, len(state))] ^= 0xFF
        damaged.append(bytes(flipped))
        for bad in damaged:
            try:
                compact.decode(bad)
            except compact.CompactStateError:
                continue
            assert bad is damaged[-1]  # a flipped byte can still be a valid record


def test_array_blocks_with_a_byte_size_are_read() -> None:
    """A writer may prefix a block with a negative count and its size in bytes."""
    schema = {
        "type": "record",
        "name": "n.T",
        "fields": [
            {"name": "recorded_at", "type": "long"},
            {"name": "event_id", "type": ["null", "string"]},
            {"name": "id", "type": "string"},
            {"name": "sequence", "type": "int"},
            {"name": "source", "type": ["null", "string"]},
            {
                "name": "body",
                "type": [
                    {
                        "type": "record",
                        "name": "n.Cards",
                        "fields": [{"name": "cards", "type": {"type": "array", "items": "int"}}],
                    }
                ],
            },
        ],
    }
    read = reader(schema, ("event_id", "id", "sequence"), frozenset(), 2)
    # recorded_at 1, event id null, "h", sequence 2, no source, branch 0,
    # a block of -2 items (2 bytes), 1 and 2, then a block of 1 item: 3, then the end
    data = bytes([2, 0, 2, ord("h"), 4, 0, 0, 3, 4, 2, 4, 2, 6, 0])
    assert read(data, 0) == (
        1,
        {"event_id": "h#2", "id": "h", "sequence": 2, "type": "Cards", "cards": [1, 2, 3]},
    )
