"""Reading a compact state straight into its stored record: one function per storage
schema, generated from it.

fastavro's generic reader walks the schema for every value and hands back the storage
datum (``{"body": (name, {...}), ...}``), which ``audit.store.compact`` then flattened into
the record: two dictionaries and a tuple per event, and most of the CPU of reading a
batch of hands back (issue 24). ``reader`` instead turns a storage schema, once, into
Python source that reads Avro's binary encoding of exactly that schema and builds the flat
record as it goes: the envelope (``event_id`` restored from ``<subject id>#<sequence>``
when stored as null), ``type`` from the body union's branch, the body's fields in schema
order (a field a later schema version added only when set), the envelope's ``source``
last when set; what ``compact.decode`` has always returned, key for key.

Avro's binary encoding (specification 1.11, "Binary Encoding"): ``int`` and ``long`` are
zig-zag varints, ``string`` a length then UTF-8, ``boolean`` one byte (non-zero: true, as
fastavro reads it), ``enum`` and a union's branch an index, ``array`` and ``map`` blocks
of items ended by an empty block (a negative count is followed by the block's size in
bytes); ``timestamp-micros`` is a ``long`` read as a UTC datetime; a record inside a union
is read as ``(full name, fields)``, as fastavro's ``return_record_name=True`` reads it.
Bytes that do not decode raise (``IndexError``, ``EOFError``, ``ValueError``,
``UnicodeDecodeError``); ``compact`` names them ``CompactStateError``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from audit.store.generated_source import Source

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_VARINT = re.compile(rb"[\x80-\xff]*[\x00-\x7f]", re.DOTALL)
"""A varint: bytes with the high bit set, then one without."""
_MEMO_LIMIT = 4096

Reader = Callable[[bytes, int], tuple[int, dict[str, Any]]]
"""(state, offset of the Avro binary) -> (recording time in microseconds, record)."""


def read_long(data: bytes, at: int) -> tuple[int, int]:
    """(value, offset after it) of the zig-zag varint at ``at`` (``IndexError`` when the
    bytes end inside it)."""
    byte = data[at]
    number = byte & 0x7F
    shift = 7
    at += 1
    while byte & 0x80:
        byte = data[at]
        number |= (byte & 0x7F) << shift
        shift += 7
        at += 1
    return (number >> 1) ^ -(number & 1), at


@lru_cache(maxsize=256)
def timestamp(micros: int) -> datetime:
    """The UTC time ``micros`` microseconds after the epoch (a hand's events share it)."""
    return _EPOCH + timedelta(microseconds=micros)


class _Times:
    """Varints that repeat from event to event (the recording time, the event time), read
    once per distinct encoding: the bytes of the varint name its value.

    The generated reader looks two cases up itself, without a call: a one-byte varint
    (``small``: its value by the byte; a Pluribus hand's undated events) and an
    eight-byte one (``eight``: every time from 1979 to 3111, whose first seven bytes have
    the high bit set and the eighth not, so eight bytes that equal a key are that varint
    whatever follows them); the call reads any varint and remembers the eight-byte ones.
    """

    def __init__(self, convert: Callable[[int], Any]) -> None:
        self._convert = convert
        self._seen: dict[bytes, Any] = {}
        self.small = tuple(convert((byte >> 1) ^ -(byte & 1)) for byte in range(128))
        self.eight: dict[bytes, Any] = {}

    def __call__(self, data: bytes, at: int) -> tuple[Any, int]:
        found = _VARINT.match(data, at)
        if found is None:
            raise EOFError("a varint runs past the end")
        end = found.end()
        key = data[at:end]
        memo = self.eight if end - at == _EIGHT else self._seen
        value = memo.get(key)
        if value is None:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            value = memo[key] = self._convert(read_long(data, at)[0])
        return value, end


_EIGHT = 8
"""The length of the varints ``_Times.eight`` holds."""


def _time(out: Source, depth: int, times: str, target: str) -> None:
    """Read a time varint into ``target`` through the ``_Times`` named ``times`` (a
    one-byte or a remembered eight-byte varint inline)."""
    out.add(depth, "x = b[p]")
    out.add(depth, "if x < 128:")
    out.add(depth + 1, f"{target} = {times}.small[x]")
    out.add(depth + 1, "p += 1")
    out.add(depth, "else:")
    out.add(depth + 1, f"{target} = {times}.eight.get(b[p : p + {_EIGHT}])")
    out.add(depth + 1, f"if {target} is None:")
    out.add(depth + 2, f"{target}, p = {times}(b, p)")
    out.add(depth + 1, "else:")
    out.add(depth + 2, f"p += {_EIGHT}")


def _long(out: Source, depth: int, target: str) -> None:
    """Read a varint into ``target`` (one byte inline: most values are small)."""
    out.add(depth, "x = b[p]")
    out.add(depth, "if x < 128:")
    out.add(depth + 1, f"{target} = (x >> 1) ^ -(x & 1)")
    out.add(depth + 1, "p += 1")
    out.add(depth, "else:")
    out.add(depth + 1, f"{target}, p = read_long(b, p)")


def _value(out: Source, depth: int, schema: Any, target: str) -> None:
    """Generate the reading of one value of ``schema`` (a fastavro parsed schema with its
    named types expanded) into the local ``target``."""
    if isinstance(schema, list):
        _union(out, depth, schema, target)
        return
    kind = schema if isinstance(schema, str) else schema["type"]
    if kind == "null":
        out.add(depth, f"{target} = None")
    elif isinstance(schema, dict) and schema.get("logicalType") == "timestamp-micros":
        _time(out, depth, "read_time", target)
    elif kind in ("int", "long"):
        _long(out, depth, target)
    elif kind == "boolean":
        out.add(depth, f"{target} = b[p] != 0")
        out.add(depth, "p += 1")
    elif kind == "string":
        size = out.name("n")
        _long(out, depth, size)
        out.add(depth, f"if {size} < 0 or p + {size} > len(b):")
        out.add(depth + 1, "raise EOFError('a string runs past the end')")
        out.add(depth, f"{target} = b[p : p + {size}].decode()")
        out.add(depth, f"p += {size}")
    elif kind == "enum":
        _long(out, depth, target)
        out.add(depth, f"if {target} < 0:")
        out.add(depth + 1, "raise IndexError('negative enum index')")
        out.add(depth, f"{target} = {out.constant(tuple(schema['symbols']))}[{target}]")
    elif kind == "record":
        values = [out.name() for _ in schema["fields"]]
        for field, local in zip(schema["fields"], values, strict=True):
            _value(out, depth, field["type"], local)
        pairs = ", ".join(
            f"{f['name']!r}: {v}" for f, v in zip(schema["fields"], values, strict=True)
        )
        out.add(depth, f"{target} = {{{pairs}}}")
    elif kind in ("array", "map"):
        _blocks(out, depth, schema, target)
    else:
        raise ValueError(f"no compact reader for Avro type {kind!r}")


def _blocks(out: Source, depth: int, schema: Mapping[str, Any], target: str) -> None:
    """An array or a map: blocks of items, a negative count followed by a byte size."""
    is_map = schema["type"] == "map"
    count, item = out.name("c"), out.name()
    out.add(depth, f"{target} = {{}}" if is_map else f"{target} = []")
    _long(out, depth, count)
    out.add(depth, f"while {count}:")
    out.add(depth + 1, f"if {count} < 0:")
    out.add(depth + 2, f"{count} = -{count}")
    _long(out, depth + 2, out.name("s"))
    out.add(depth + 1, f"for _ in range({count}):")
    if is_map:
        key = out.name()
        _value(out, depth + 2, "string", key)
        _value(out, depth + 2, schema["values"], item)
        out.add(depth + 2, f"{target}[{key}] = {item}")
    else:
        _value(out, depth + 2, schema["items"], item)
        out.add(depth + 2, f"{target}.append({item})")
    _long(out, depth + 1, count)


def _union(out: Source, depth: int, branches: Sequence[Any], target: str) -> None:
    index = out.name("i")
    _long(out, depth, index)
    for number, branch in enumerate(branches):
        out.add(depth, f"{'if' if number == 0 else 'elif'} {index} == {number}:")
        if isinstance(branch, dict) and branch["type"] == "record":
            fields = out.name()
            _value(out, depth + 1, branch, fields)
            out.add(depth + 1, f"{target} = ({branch['name']!r}, {fields})")
        else:
            _value(out, depth + 1, branch, target)
    out.add(depth, "else:")
    out.add(depth + 1, f"raise IndexError('union branch ' + str({index}))")


def reader(
    expanded: Mapping[str, Any],
    envelope: Sequence[str],
    later_optional: frozenset[str],
    namespace_length: int,
) -> Reader:
    """The reader of states under the storage schema ``expanded`` (``compact.storage_schema``
    parsed by fastavro with its named types expanded): fields ``recorded_at``, the
    ``envelope`` (``event_id``, the subject id, ``sequence``, the event time), ``source``,
    then the ``body`` union, each of whose records' names is its type after
    ``namespace_length`` characters; ``later_optional`` body fields are left out when null.
    """
    out = Source(
        {"read_long": read_long, "read_micros": _Times(int), "read_time": _Times(timestamp)}
    )
    bodies = []
    for branch in expanded["fields"][-1]["type"]:
        function = out.name("body")
        out.add(0, f"def {function}(b, p, record):")
        out.add(1, f"record['type'] = {branch['name'][namespace_length:]!r}")
        for field in branch["fields"]:
            local = out.name()
            _value(out, 1, field["type"], local)
            if field["name"] in later_optional:
                out.add(1, f"if {local} is not None:")
                out.add(2, f"record[{field['name']!r}] = {local}")
            else:
                out.add(1, f"record[{field['name']!r}] = {local}")
        out.add(1, "return p")
        bodies.append(function)
    out.add(0, f"BODIES = ({', '.join(bodies)},)")
    locals_of = {field["name"]: out.name() for field in expanded["fields"][:-1]}
    out.add(0, "def read(b, p):")
    _time(out, 1, "read_micros", locals_of["recorded_at"])
    for field in expanded["fields"][1:-1]:
        _value(out, 1, field["type"], locals_of[field["name"]])
    event_id, subject, sequence = (
        locals_of[name] for name in ("event_id", *envelope[1:2], "sequence")
    )
    out.add(1, f"if {event_id} is None:")
    out.add(2, f"{event_id} = f'{{{subject}}}#{{{sequence}}}'")
    pairs = ", ".join(f"{name!r}: {locals_of[name]}" for name in envelope)
    out.add(1, f"record = {{{pairs}}}")
    index = out.name("i")
    _long(out, 1, index)
    out.add(1, f"if {index} < 0:")
    out.add(2, "raise IndexError('negative union index')")
    out.add(1, f"p = BODIES[{index}](b, p, record)")
    out.add(1, f"if {locals_of['source']} is not None:")
    out.add(2, f"record['source'] = {locals_of['source']}")
    out.add(1, "if p != len(b):")
    out.add(2, "raise ValueError('bytes after the record')")
    out.add(1, f"return {locals_of['recorded_at']}, record")
    read: Reader = out.compiled("read")
    return read
