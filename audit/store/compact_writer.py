"""Writing a record straight into its compact state: one function per storage schema,
generated from it, that refuses every record it cannot give back identical.

``audit.store.compact`` wrote a state with fastavro's generic writer, from a storage
datum built per record, then decoded it again and compared the JSON of both: two passes
over the schema and a third over the record per event, about a third of ingest's CPU
(issue 24). ``writer`` instead turns a storage schema, once, into Python source that
checks a record against exactly that schema and writes Avro's binary encoding of it as
it goes (specification 1.11, "Binary Encoding", the bytes fastavro's
``schemaless_writer`` writes for the same datum: ``int`` and ``long`` zig-zag varints,
a ``string`` its UTF-8 length then the bytes, ``boolean`` one byte 0 or 1, ``enum`` and
a union's branch their index, ``array`` and ``map`` one block of all their items then an
empty block, ``timestamp-micros`` the microseconds since the epoch).

The record is refused (None: it is stored as JSON) unless the reader of the same schema
(``audit.store.compact_reader``), and so every later read of the row, gives it back
identical, the same JSON key for key, as the read-back this replaces required:

* its keys exactly the ones the reader builds, in its order: the envelope, ``type``, the
  body's fields in schema order (a field a later schema version added only when set,
  never set to null), the envelope's ``source`` last and only when set; every key a
  ``str`` (not a subclass: JSON keys are plain strings, orjson refuses others);
* ``type`` a body record's name, ``event_id`` a string (stored as null when it is
  ``<subject id>#<sequence>``, which the reader rebuilds);
* each value of exactly the type the reader gives back: ``int`` (not ``bool``, not a
  subclass) within the Avro type's range (``int`` 32 bits, ``long`` 64), ``bool``,
  ``str`` that UTF-8 encodes (no lone surrogates), ``None`` only where the union has
  null, an enum's symbol, a ``datetime`` (not a subclass) whose UTC offset is zero, a
  ``list`` for an array (a ``tuple`` too outside a union: JSON and the reader make it a
  list; in a union fastavro reads a tuple as a branch name and value), a ``dict`` with
  ``str`` keys for a map, and a ``dict`` with exactly its schema's keys in schema order
  for a nested record.

Only unions of null and one other type are generated (the only ones the family schemas
have); another schema raises ``ValueError`` when its writer is built. The source is
exec'd, so mypyc does not compile it (as the reader's); compiled by mypyc in an
experiment it wrote a Pluribus event in 2.0 µs against 2.2, under 1% of an ingested
event's CPU (``docs/figures.md``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from audit.store.generated_source import Source

Writer = Callable[[int, Any], bytes | None]
"""(recording time in microseconds, record) -> the state (prefix, then the Avro binary),
or None when the record would not be given back identical."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ZERO = timedelta(0)
_LONG = (-(2**63), 2**63 - 1)
_INT = (-(2**31), 2**31 - 1)
_MEMO_LIMIT = 4096
_MAX_LATER_OPTIONAL = 8
"""More optional later fields in one body than this would make too many key orders."""


def long_bytes(value: int) -> bytes:
    """The zig-zag varint of ``value``, a long's or an int's Avro encoding (``value``
    within 64 bits: callers check the range)."""
    number = (value << 1) ^ (value >> 63)
    out = bytearray()
    while number > 0x7F:
        out.append((number & 0x7F) | 0x80)
        number >>= 7
    out.append(number)
    return bytes(out)


class _Memo:
    """Encodings of values that repeat from event to event (amounts, seats, names, a
    hand's times), computed once per distinct value: ``value -> bytes``, or None when
    ``encode`` refuses it. Keyed by value only, so callers check the exact type first."""

    def __init__(self, encode: Callable[[Any], bytes | None]) -> None:
        self._encode = encode
        self.seen: dict[Any, bytes | None] = {}

    def __call__(self, value: Any) -> bytes | None:
        if len(self.seen) >= _MEMO_LIMIT:
            self.seen.clear()
        encoded = self.seen[value] = self._encode(value)
        return encoded


def _long(value: int) -> bytes | None:
    return long_bytes(value) if _LONG[0] <= value <= _LONG[1] else None


def _int(value: int) -> bytes | None:
    return long_bytes(value) if _INT[0] <= value <= _INT[1] else None


def _string(value: str) -> bytes | None:
    try:
        data = value.encode()
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8, no JSON either
        return None
    return long_bytes(len(data)) + data


def _time(moment: datetime) -> bytes:
    """``timestamp-micros`` of a time at UTC offset zero, as fastavro computes it."""
    delta = moment - _EPOCH
    return long_bytes((delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds)


def _source() -> Source:
    """A writer's source, with the helpers its code calls: a memo per kind of value."""
    constants: dict[str, Any] = {
        "long_bytes": long_bytes,
        "datetime": datetime,
        "UTC": UTC,
        "ZERO": _ZERO,
    }
    for name, encode in (("long", _long), ("int", _int), ("str", _string), ("time", _time)):
        memo = _Memo(encode)
        constants[f"{name}_seen"] = memo.seen
        constants[f"{name}_new"] = memo
    return Source(constants)


def _encoded(out: Source, depth: int, memo: str, value: str) -> str:
    """A local holding ``value``'s encoding by the memo ``memo`` (``long``, ``int``,
    ``str``, ``time``); the record is refused when the memo's encoder refuses the value."""
    encoded = out.name("x")
    out.add(depth, f"{encoded} = {memo}_seen.get({value})")
    out.add(depth, f"if {encoded} is None:")
    out.add(depth + 1, f"{encoded} = {memo}_new({value})")
    out.add(depth + 1, f"if {encoded} is None:")
    out.add(depth + 2, "return None")
    return encoded


def _memoised(out: Source, depth: int, memo: str, value: str) -> None:
    """Append ``value``'s encoding by the memo ``memo`` (``_encoded``)."""
    out.add(depth, f"o.append({_encoded(out, depth, memo, value)})")


def _refuse_unless(out: Source, depth: int, condition: str) -> None:
    out.add(depth, f"if not ({condition}):")
    out.add(depth + 1, "return None")


def _value(out: Source, depth: int, schema: Any, value: str, in_union: bool = False) -> None:
    """Generate the checking and writing of the local ``value`` under ``schema`` (a
    fastavro parsed schema with its named types expanded); ``in_union``: the non-null
    branch of a union."""
    if isinstance(schema, list):
        _union(out, depth, schema, value)
        return
    kind = schema if isinstance(schema, str) else schema["type"]
    if kind == "null":
        _refuse_unless(out, depth, f"{value} is None")
    elif isinstance(schema, dict) and schema.get("logicalType") == "timestamp-micros":
        _refuse_unless(out, depth, f"type({value}) is datetime")
        zone = out.name("z")
        out.add(depth, f"{zone} = {value}.tzinfo")
        _refuse_unless(
            out, depth, f"{zone} is UTC or ({zone} is not None and {value}.utcoffset() == ZERO)"
        )
        _memoised(out, depth, "time", value)
    elif kind in ("int", "long"):
        _refuse_unless(out, depth, f"type({value}) is int")
        _memoised(out, depth, kind, value)
    elif kind == "boolean":
        out.add(depth, f"if {value} is True:")
        out.add(depth + 1, "o.append(b'\\x01')")
        out.add(depth, f"elif {value} is False:")
        out.add(depth + 1, "o.append(b'\\x00')")
        out.add(depth, "else:")
        out.add(depth + 1, "return None")
    elif kind == "string":
        _refuse_unless(out, depth, f"type({value}) is str")
        _memoised(out, depth, "str", value)
    elif kind == "enum":
        symbols = {symbol: long_bytes(index) for index, symbol in enumerate(schema["symbols"])}
        _refuse_unless(out, depth, f"type({value}) is str")
        encoded = out.name("x")
        out.add(depth, f"{encoded} = {out.constant(symbols)}.get({value})")
        _refuse_unless(out, depth, f"{encoded} is not None")
        out.add(depth, f"o.append({encoded})")
    elif kind == "record":
        names = tuple(field["name"] for field in schema["fields"])
        _refuse_unless(out, depth, f"type({value}) is dict")
        _keys(out, depth, f"tuple({value})", f"{out.constant(frozenset([names]))}")
        values = [out.name() for _ in names]
        if values:
            out.add(depth, f"{', '.join(values)}, = {value}.values()")
        for field, local in zip(schema["fields"], values, strict=True):
            _value(out, depth, field["type"], local)
    elif kind == "array":
        allowed = "list" if in_union else f"list or type({value}) is tuple"
        _refuse_unless(out, depth, f"type({value}) is {allowed}")
        item = out.name()
        out.add(depth, f"if {value}:")
        out.add(depth + 1, f"o.append(long_bytes(len({value})))")
        out.add(depth + 1, f"for {item} in {value}:")
        _value(out, depth + 2, schema["items"], item)
        out.add(depth, "o.append(b'\\x00')")
    elif kind == "map":
        key, item = out.name(), out.name()
        _refuse_unless(out, depth, f"type({value}) is dict")
        out.add(depth, f"if {value}:")
        out.add(depth + 1, f"o.append(long_bytes(len({value})))")
        out.add(depth + 1, f"for {key}, {item} in {value}.items():")
        _value(out, depth + 2, "string", key)
        _value(out, depth + 2, schema["values"], item)
        out.add(depth, "o.append(b'\\x00')")
    else:
        raise ValueError(f"no compact writer for Avro type {kind!r}")


def _keys(out: Source, depth: int, keys: str, accepted: str) -> None:
    """Refuse unless the key tuple ``keys`` is one of ``accepted`` and all plain ``str``."""
    local, kind = out.name("t"), out.name("q")
    out.add(depth, f"{local} = {keys}")
    _refuse_unless(out, depth, f"{local} in {accepted}")
    out.add(depth, f"for {kind} in map(type, {local}):")
    out.add(depth + 1, f"if {kind} is not str:")
    out.add(depth + 2, "return None")


def _union(out: Source, depth: int, branches: Sequence[Any], value: str) -> None:
    """A union of null and one other type: branch 0 for None, 1 for anything else."""
    others = [b for b in branches if b != "null"]
    if len(branches) != 2 or len(others) != 1:
        raise ValueError(f"no compact writer for the union {branches!r}")
    null, other = ("\\x00", "\\x02") if branches[0] == "null" else ("\\x02", "\\x00")
    out.add(depth, f"if {value} is None:")
    out.add(depth + 1, f"o.append(b'{null}')")
    out.add(depth, "else:")
    out.add(depth + 1, f"o.append(b'{other}')")
    _value(out, depth + 1, others[0], value, in_union=True)


def _key_orders(
    envelope: Sequence[str], body: Sequence[str], optional: Sequence[str], source: bool
) -> Iterator[tuple[str, ...]]:
    """Every key order the reader builds for a body: each subset of its ``optional``
    (later) fields present or not, then ``source`` absent or last when ``source``."""
    for count in range(len(optional) + 1):
        for absent in itertools.combinations(optional, count):
            keys = (*envelope, "type", *(name for name in body if name not in absent))
            yield keys
            if source:
                yield (*keys, "source")


def _optional(out: Source, name: str, schema: Any) -> None:
    """A field read back only when set (a later version's, the envelope's ``source``):
    null when absent, refused when present and None (the reader would leave it out)."""
    if not isinstance(schema, list) or "null" not in schema:
        raise ValueError(f"no compact writer for an optional {name!r} that cannot be null")
    local = out.name()
    out.add(1, f"{local} = r.get({name!r})")
    _refuse_unless(out, 1, f"{local} is not None or {name!r} not in r")
    _value(out, 1, schema, local)


def _event_id(out: Source, subject: str, sequence: str) -> None:
    """``event_id``, a string, inserted after the recording time: null when it is
    ``<subject>#<sequence>`` (the reader rebuilds it), the string otherwise."""
    local = out.name()
    out.add(1, f"{local} = r['event_id']")
    _refuse_unless(out, 1, f"type({local}) is str")
    out.add(1, f"if {local} == f'{{{subject}}}#{{{sequence}}}':")
    out.add(2, "o.insert(2, b'\\x00')")
    out.add(1, "else:")
    out.add(2, f"o.insert(2, b'\\x02' + {_encoded(out, 2, 'str', local)})")


def _body(
    out: Source,
    branch: Mapping[str, Any],
    index: int,
    envelope: Mapping[str, Any],
    later_optional: frozenset[str],
    prefix: bytes,
) -> None:
    """The function writing a record of the body record ``branch``, the union's
    ``index``-th (``envelope``: the storage schema's other fields, name -> schema)."""
    body = [field["name"] for field in branch["fields"]]
    optional = [name for name in body if name in later_optional]
    names = [name for name in envelope if name not in ("recorded_at", "source")]
    if set(body) & {*names, "type"} or len(optional) > _MAX_LATER_OPTIONAL:
        raise ValueError(f"no compact writer for the body {branch['name']!r}")
    has_source = "source" not in body  # else the envelope's is null, the body's is read
    accepted = frozenset(_key_orders(names, body, optional, has_source))
    _keys(out, 1, "tuple(r)", out.constant(accepted))
    out.add(1, "x = long_seen.get(at)")
    out.add(1, f"o = [{out.constant(prefix)}, long_new(at) if x is None else x]")
    locals_of = {name: out.name() for name in names[1:]}
    for name, local in locals_of.items():
        out.add(1, f"{local} = r[{name!r}]")
        _value(out, 1, envelope[name], local)
    _event_id(out, locals_of[names[1]], locals_of["sequence"])
    if has_source:
        _optional(out, "source", envelope["source"])
    else:
        out.add(1, "o.append(b'\\x00')")
    out.add(1, f"o.append({long_bytes(index)!r})")
    for field in branch["fields"]:
        if field["name"] in later_optional:
            _optional(out, field["name"], field["type"])
        else:
            local = out.name()
            out.add(1, f"{local} = r[{field['name']!r}]")
            _value(out, 1, field["type"], local)
    out.add(1, "return b''.join(o)")


def writer(
    expanded: Mapping[str, Any],
    envelope: Sequence[str],
    later_optional: frozenset[str],
    namespace_length: int,
    prefix: bytes,
) -> Writer:
    """The writer of states under the storage schema ``expanded`` (as for
    ``compact_reader.reader``: fields ``recorded_at``, the ``envelope``, ``source``, the
    ``body`` union; ``later_optional`` body fields read back only when set), each state
    starting with ``prefix`` (the single-object marker and the schema's fingerprint)."""
    out = _source()
    fields = {field["name"]: field["type"] for field in expanded["fields"][:-1]}
    expected = ["recorded_at", *envelope, "source"]
    if list(fields) != expected or envelope[0] != "event_id" or "sequence" not in envelope:
        raise ValueError(f"no compact writer for the storage fields {list(fields)!r}")
    bodies = []
    for index, branch in enumerate(expanded["fields"][-1]["type"]):
        function = out.name("body")
        out.add(0, f"def {function}(at, r):")
        _body(out, branch, index, fields, later_optional, prefix)
        bodies.append(f"{branch['name'][namespace_length:]!r}: {function}")
    out.add(0, f"BODIES = {{{', '.join(bodies)}}}")
    out.add(0, "def write(at, r):")
    _refuse_unless(out, 1, "type(r) is dict")
    out.add(1, "t = r.get('type')")
    _refuse_unless(out, 1, "type(t) is str")
    out.add(1, "f = BODIES.get(t)")
    out.add(1, "return None if f is None else f(at, r)")
    write: Writer = out.compiled("write")
    return write
