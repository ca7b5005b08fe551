"""The generated writer of compact states (``audit.store.compact_writer``) writes the bytes
fastavro writes, and only for records the reader gives back identical.

The oracle is the path it replaced: the storage datum written by fastavro's generic
``schemaless_writer``, then read back and kept only when the JSON of what was read is the
JSON of the record (``old_encode``). Records are drawn from every storage schema of every
family version (valid ones, which both must store), then perturbed (wrong types, bools for
ints, ints past 64 bits, floats, NaN, times in other zones or naive, lone surrogates,
extra, missing or reordered keys, optional fields set to null, subclasses): whatever the
new writer stores, the old path stored too, byte for byte, and it reads back identical.
"""

from __future__ import annotations

import copy
import io
import math
import zoneinfo
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import fastavro
import orjson
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from audit.ingest.phh import hand_events, iter_phh_records
from audit.store import compact
from audit.store.compact_writer import long_bytes
from tests.replayer.test_compact_state import RECORDED, action, identical

SCHEMAS = sorted(compact.registry().values(), key=lambda s: s.fingerprint)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ZERO_OFFSET_ZONES = [UTC, timezone(timedelta(0), "Z"), zoneinfo.ZoneInfo("UTC")]


def old_encode(schema: compact.StorageSchema, recorded_at: datetime, record: Any) -> bytes | None:
    """The compact state as written before the generated writer: fastavro's writer on the
    storage datum, kept only when reading it back gives the same JSON."""
    if recorded_at.utcoffset() != timedelta(0):
        return None
    fields = schema.bodies.get(str(record.get("type")))
    if fields is None:
        return None
    subject = record.get(schema.envelope[1])
    event_id = record.get("event_id")
    delta = recorded_at - EPOCH
    datum: dict[str, Any] = {
        "recorded_at": (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds,
        "event_id": None if event_id == f"{subject}#{record.get('sequence')}" else event_id,
        "source": None if "source" in fields else record.get("source"),
        "body": (
            f"{schema.family.namespace}.{record['type']}",
            {name: record.get(name) for name in fields},
        ),
    }
    for name in schema.envelope[1:]:
        datum[name] = record.get(name)
    out = io.BytesIO()
    out.write(compact.MAGIC + schema.fingerprint)
    try:
        fastavro.schemaless_writer(out, schema.parsed, datum)
    except (ValueError, TypeError, AttributeError, KeyError, OverflowError):
        return None
    state = out.getvalue()
    try:
        back_at, back = compact.decode(state)
    except compact.CompactStateError:
        return None
    try:
        same = orjson.dumps(back) == orjson.dumps(record)
    except TypeError:
        return None
    return state if back_at == recorded_at and same else None


# -- valid records, drawn from a storage schema -------------------------------------------


def values(schema: Any) -> st.SearchStrategy[Any]:
    """Values of ``schema`` (fastavro's parsed form, named types expanded) that the
    reader gives back identical."""
    if isinstance(schema, list):
        return st.one_of(*(values(branch) for branch in schema))
    kind = schema if isinstance(schema, str) else schema["type"]
    if isinstance(schema, dict) and schema.get("logicalType") == "timestamp-micros":
        return st.datetimes(timezones=st.sampled_from(ZERO_OFFSET_ZONES))
    simple: dict[str, st.SearchStrategy[Any]] = {
        "null": st.none(),
        "boolean": st.booleans(),
        "int": st.integers(-(2**31), 2**31 - 1) | st.sampled_from([-1, 0, 1, 63, 64]),
        "long": st.integers(-(2**63), 2**63 - 1) | st.integers(-200, 20_000),
        "string": st.text(max_size=12),
    }
    if kind in simple:
        return simple[kind]
    if kind == "enum":
        return st.sampled_from(schema["symbols"])
    if kind == "array":
        items = schema["items"]
        many = 1 if isinstance(items, dict) and items["type"] == "record" else 0
        return st.lists(values(items), min_size=many, max_size=4)
    if kind == "map":
        return st.dictionaries(st.text(max_size=6), values(schema["values"]), max_size=3)
    assert kind == "record", kind
    names = [field["name"] for field in schema["fields"]]
    return st.tuples(*(values(field["type"]) for field in schema["fields"])).map(
        lambda drawn: dict(zip(names, drawn, strict=True))
    )


def has_records(schema: Any) -> bool:
    """Whether a record lies inside this body field's type (an array of them)."""
    if isinstance(schema, list):
        return any(map(has_records, schema))
    if isinstance(schema, dict) and schema["type"] in ("array", "map"):
        inner = schema["items" if schema["type"] == "array" else "values"]
        return bool(isinstance(inner, dict) and inner["type"] == "record") or has_records(inner)
    return False


@st.composite
def records(draw: st.DrawFn, nested: bool = False) -> tuple[compact.StorageSchema, dict[str, Any]]:
    """A storage schema and a record of one of its body types that reads back identical;
    ``nested``: of a body type with records inside (seats, chip counts, stakes)."""
    schema = draw(st.sampled_from(SCHEMAS))
    expanded = fastavro.parse_schema(schema.parsed, expand=True)
    assert isinstance(expanded, dict)
    field_types = {field["name"]: field["type"] for field in expanded["fields"]}
    branches = [
        branch
        for branch in field_types["body"]
        if not nested or any(has_records(field["type"]) for field in branch["fields"])
    ]
    assume(branches)
    branch = draw(st.sampled_from(branches))
    subject_field = schema.envelope[1]
    subject = draw(values(field_types[subject_field]))
    sequence = draw(values(field_types["sequence"]))
    derived = f"{subject}#{sequence}"
    record: dict[str, Any] = {
        "event_id": draw(st.just(derived) | st.text(max_size=8)),
        subject_field: subject,
        "sequence": sequence,
    }
    for name in schema.envelope[3:]:
        record[name] = draw(values(field_types[name]))
    record["type"] = branch["name"][schema.namespace_length :]
    for field in branch["fields"]:
        value = draw(values(field["type"]))
        if value is not None or field["name"] not in schema.later_optional:
            record[field["name"]] = value
    body_names = [field["name"] for field in branch["fields"]]
    if "source" not in body_names and draw(st.booleans()):
        record["source"] = draw(st.text(max_size=8))
    return schema, record


# -- perturbations ------------------------------------------------------------------------


class Text(str):
    pass


class Number(int):
    pass


class Moment(datetime):
    pass


ODD_VALUES = st.sampled_from(
    [
        True,
        False,
        None,
        2**31,
        -(2**31) - 1,
        2**63,
        -(2**63) - 1,
        2**64,
        1.0,
        1.5,
        math.nan,
        math.inf,
        "7",
        "\ud800",
        "a\udfffb",
        "",
        b"bytes",
        (),
        (1, 2),
        ("null", None),
        [],
        [None],
        {},
        {"x": 1},
        Text("raise"),
        Number(3),
        datetime(2024, 5, 1, 12, 0),
        datetime(2024, 5, 1, 12, 0, tzinfo=timezone(timedelta(hours=1))),
        datetime(2024, 5, 1, 12, 0, tzinfo=zoneinfo.ZoneInfo("Europe/Paris")),
        datetime(2024, 1, 1, 12, 0, tzinfo=zoneinfo.ZoneInfo("Europe/London")),
        Moment(2024, 5, 1, 12, 0, tzinfo=UTC),
    ]
).map(copy.deepcopy)  # a fresh list or dict each time: no container inside itself


def containers(value: Any) -> list[Any]:
    """Every dict and list inside ``value``, itself first when it is one."""
    found: list[Any] = []
    if type(value) is dict:
        found.append(value)
        for item in value.values():
            found += containers(item)
    elif type(value) is list:
        found.append(value)
        for item in value:
            found += containers(item)
    return found


def places(value: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) inside ``value``, nested ones included."""
    return [
        (container, key)
        for container in containers(value)
        for key in (list(container) if type(container) is dict else range(len(container)))
    ]


@st.composite
def one_value_changed(draw: st.DrawFn, record: dict[str, Any]) -> dict[str, Any]:
    """``record`` (copied) with one value, anywhere inside it, replaced by one near it."""
    changed = copy.deepcopy(record)
    container, key = draw(st.sampled_from(places(changed)))
    container[key] = draw(st.sampled_from(odd_for(container[key])))
    return changed


@st.composite
def perturbed(draw: st.DrawFn, record: dict[str, Any]) -> dict[str, Any]:
    """``record`` (copied) with one to three changes somewhere inside it."""
    changed = copy.deepcopy(record)
    for _ in range(draw(st.sampled_from([1, 1, 2, 3]))):
        found = containers(changed)
        nested = found[1:] if len(found) > 1 and draw(st.booleans()) else found
        target = draw(st.sampled_from(nested))
        change = draw(st.sampled_from(_CHANGES))
        change(draw, target)
    return changed


def odd_for(value: Any) -> list[Any]:
    """Values near ``value`` that the reader would not give back as they are (or, for
    a time in a zone at offset zero, would)."""
    if type(value) is bool:
        return [int(value), Number(value), str(value).lower(), None]
    if type(value) is int:
        return [
            *(True, False, 2**31, -(2**31) - 1, 2**63, -(2**63) - 1, 2**64),
            *(float(value), math.nan, math.inf, str(value), Number(value), None),
        ]
    if type(value) is str:
        return [
            value + "\ud800",
            "\udfff" + value,
            Text(value),
            value.encode(errors="surrogatepass"),
            None,
            7,
        ]
    if type(value) is datetime:
        return [
            value.replace(tzinfo=None),
            value.replace(tzinfo=timezone(timedelta(hours=1))),
            value.replace(tzinfo=timezone(timedelta(microseconds=1))),
            value.replace(tzinfo=zoneinfo.ZoneInfo("Europe/London")),
            Moment(*value.timetuple()[:6], value.microsecond, tzinfo=UTC),
            value.isoformat(),
            None,
        ]
    if type(value) is list:
        return [tuple(value), None, {}, "x", [*value, None]]
    if type(value) is dict:
        return [None, list(value.items()), []]
    return [True, 0, "x", 1.5, [], {}]


def _replace(draw: st.DrawFn, target: Any) -> None:
    if target:
        key = draw(st.sampled_from(list(target) if type(target) is dict else range(len(target))))
        target[key] = draw(st.sampled_from(odd_for(target[key])) | ODD_VALUES)


def _drop(draw: st.DrawFn, target: Any) -> None:
    if target:
        key = draw(st.sampled_from(list(target) if type(target) is dict else range(len(target))))
        del target[key]


def _add(draw: st.DrawFn, target: Any) -> None:
    if type(target) is dict:
        target[draw(st.sampled_from(["note", "source", "type", "x"]) | st.text(max_size=3))] = draw(
            ODD_VALUES | st.text(max_size=3)
        )
    else:
        target.append(draw(ODD_VALUES))


def _reorder(draw: st.DrawFn, target: Any) -> None:
    if type(target) is dict and len(target) > 1:
        items = list(target.items())
        first, second = sorted(draw(st.lists(st.sampled_from(range(len(items))), min_size=2)))[:2]
        items[first], items[second] = items[second], items[first]
        target.clear()
        target.update(items)


def _null_key(draw: st.DrawFn, target: Any) -> None:
    if type(target) is dict:
        target[draw(st.sampled_from(["source", "tournament_id", "fee_cap", "event_id"]))] = None


def _subclass_key(draw: st.DrawFn, target: Any) -> None:
    if type(target) is dict and target:
        key = draw(st.sampled_from(list(target)))
        items = [(Text(k) if k == key else k, v) for k, v in target.items()]
        target.clear()
        target.update(items)


_CHANGES: list[Callable[[st.DrawFn, Any], None]] = [
    _replace,
    _replace,
    _drop,
    _add,
    _reorder,
    _null_key,
    _subclass_key,
]

RECORDED_TIMES = st.datetimes(timezones=st.sampled_from(ZERO_OFFSET_ZONES)) | st.sampled_from(
    [RECORDED, datetime(2026, 1, 1), RECORDED.astimezone(timezone(timedelta(hours=-5)))]
)


# -- the properties -----------------------------------------------------------------------

SETTINGS = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def same_as_before(schema: compact.StorageSchema, at: datetime, record: Any) -> bytes | None:
    """The new state, checked against the old path: stored only where the old path stored
    the same bytes, and then read back identical."""
    new = compact.encode_under(schema, at, record)
    if new is not None:
        assert new == old_encode(schema, at, record)
        back_at, back = compact.decode(new)
        assert back_at == at and orjson.dumps(back) == orjson.dumps(record)
    return new


@SETTINGS
@given(records(), st.datetimes(timezones=st.sampled_from(ZERO_OFFSET_ZONES)))
def test_a_valid_record_is_written_as_fastavro_writes_it(
    drawn: tuple[compact.StorageSchema, dict[str, Any]], at: datetime
) -> None:
    schema, record = drawn
    state = same_as_before(schema, at, record)
    assert state is not None, record
    assert identical(compact.decode(state)[1], record)


@settings(SETTINGS, max_examples=1000)
@given(st.data(), records(), RECORDED_TIMES)
def test_a_record_with_one_value_changed_is_stored_only_where_it_reads_back_identical(
    data: st.DataObject, drawn: tuple[compact.StorageSchema, dict[str, Any]], at: datetime
) -> None:
    schema, record = drawn
    same_as_before(schema, at, data.draw(one_value_changed(record)))


@SETTINGS
@given(st.data(), records(nested=True) | records(), RECORDED_TIMES)
def test_a_perturbed_record_is_stored_only_where_it_reads_back_identical(
    data: st.DataObject, drawn: tuple[compact.StorageSchema, dict[str, Any]], at: datetime
) -> None:
    schema, record = drawn
    same_as_before(schema, at, data.draw(perturbed(record)))


def in_union_with_array(schema: compact.StorageSchema) -> set[str]:
    """The body fields of ``schema`` whose type is a union holding an array."""
    expanded = fastavro.parse_schema(schema.parsed, expand=True)
    assert isinstance(expanded, dict)
    return {
        field["name"]
        for branch in expanded["fields"][-1]["type"]
        for field in branch["fields"]
        if isinstance(field["type"], list)
        and any(isinstance(t, dict) and t["type"] == "array" for t in field["type"])
    }


@SETTINGS
@given(records())
def test_a_tuple_for_an_array_is_stored_as_the_list_is_except_in_a_union(
    drawn: tuple[compact.StorageSchema, dict[str, Any]],
) -> None:
    """JSON and the reader make a tuple a list, so outside a union it reads back
    identical; in a union fastavro took a tuple for a branch name and its value."""
    schema, record = drawn
    for name, value in record.items():
        if type(value) is list:
            state = same_as_before(schema, RECORDED, record | {name: tuple(value)})
            assert (state is None) is (name in in_union_with_array(schema)), name


@pytest.mark.parametrize(
    "record",
    [
        action(seat=2**31),  # fastavro writes it; Avro's int holds 32 bits
        action() | {"source": None},
        action(event_id=None),
        [("event_id", "t/1#3")],
        action(occurred_at=Moment(2024, 5, 1, 12, 0, tzinfo=UTC)),
        action(action=Text("raise")),
    ],
    ids=["int past 32 bits", "null source", "null event id", "not a dict", "subclasses", "text"],
)
def test_what_the_schema_does_not_hold_exactly_is_refused(record: Any) -> None:
    schema = compact.writer_schema("poker")
    assert schema is not None
    assert compact.encode_under(schema, RECORDED, record) is None


def test_a_record_of_a_dict_subclass_or_with_a_str_subclass_key_is_refused() -> None:
    schema = compact.writer_schema("poker")
    assert schema is not None
    keyed = {Text(k) if k == "seat" else k: v for k, v in action().items()}
    assert compact.encode_under(schema, RECORDED, keyed) is None
    assert old_encode(schema, RECORDED, keyed) is None  # orjson refuses such keys


def test_the_varint_is_avros() -> None:
    """Zig-zag then base-128, least significant group first (the specification's table)."""
    assert [long_bytes(n).hex() for n in (0, -1, 1, -2, 2, -64, 64)] == [
        "00", "01", "02", "03", "04", "7f", "8001"
    ]  # fmt: skip
    assert long_bytes(2**63 - 1) == bytes.fromhex("feffffffffffffffff01")
    assert long_bytes(-(2**63)) == bytes.fromhex("ffffffffffffffffff01")


def test_the_sample_hands_are_written_as_before(phh_sample: Path) -> None:
    """Real hands (the vendored PHH sample): every event stored compactly, as before."""
    schema = compact.writer_schema("poker")
    assert schema is not None
    events = [
        event
        for path in sorted(phh_sample.rglob("*.phh"))
        for record in iter_phh_records(path)
        if not isinstance(record, Exception)
        for event in hand_events(record, default_rulebook="gg-2022-cash-holdem")
    ]
    assert len(events) > 100
    for event in events:
        state = compact.encode_under(schema, RECORDED, event)
        assert state is not None and state == old_encode(schema, RECORDED, event)
