"""Packed rows: one stored row holds one subject's consecutive events of one append.

Issue #24 (stored size per hand): a row per event costs its key, its index entries, its
chain link and its topic text ~25 times per hand. A *packed row* is one eventsourcing
stored event whose

* ``topic`` is a marker, ``pack:<kind>`` or, for the pack that opens its subject (its
  ``Opened`` event first), ``pack:<kind>:opens`` (``marker``); the subject kind lets a
  reader that wants some topics select only the rows that may hold them;
* ``originator_version`` is the first version it holds: event *k* inside is version
  ``originator_version + k``;
* ``state`` is a header, ``MAGIC`` ‖ format version (1 byte, ``FORMAT``) ‖ codec (1 byte,
  ``ZLIB``) ‖ event count (4 bytes) ‖ body length (4 bytes), then the body compressed by
  the codec: the number of distinct topics (2 bytes) and each topic (its length, 2
  bytes, and its UTF-8 text), then per event its topic's place among them (2 bytes) and
  its state's length (4 bytes), then the events' states one after the other: the very
  bytes a row per event holds (compact or JSON). All integers big-endian.

The hash chain (``audit.store.chain``) covers the row as stored: originator, first
version, marker and the compressed state; a changed byte anywhere in it changes the
row's chain hash. Rows in any other topic are a row per event, as every store held
before packed rows, and read as they are (``expand``).

The body length is bounded (``MAX_BODY``): a pack is never written larger (``pack``
splits a unit's events into several packs; an event larger alone is a row of its own),
and reading a row that claims more, or more events than its body can index, or inflates
to other than it claims, raises ``PackedRowError`` naming the row, without inflating
more than it claims.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any
from uuid import UUID

from eventsourcing.persistence import PersistenceError, StoredEvent

MARKER_PREFIX = "pack:"
OPENS_SUFFIX = ":opens"
MAGIC = b"\xa7P"
FORMAT = 1
ZLIB = 1
"""Codec ids a row may name (a later codec gets a new id; old rows keep theirs)."""
LEVEL = 6
"""zlib's compression level (measured in docs/figures.md, "Stored size per hand")."""
MAX_BODY = 16 * 1024 * 1024
"""The largest body a pack holds, uncompressed (bytes)."""
_HEADER = len(MAGIC) + 1 + 1 + 4 + 4
_U16 = struct.Struct(">H")
HEADER_SQL = {
    "sqlite": f"CASE WHEN substr(topic, 1, {len(MARKER_PREFIX)}) = '{MARKER_PREFIX}' "
    f"THEN substr(state, 1, {_HEADER}) ELSE x'' END",
    "postgresql": f"CASE WHEN left(topic, {len(MARKER_PREFIX)}) = '{MARKER_PREFIX}' "
    f"THEN substring(state FROM 1 FOR {_HEADER}) ELSE ''::bytea END",
}
"""Per back end, the SQL of a row's pack header (empty for a row per event): what
``covered_versions`` reads, without the rest of the state."""

Event = tuple[int, str, bytes]
"""(version, topic, state) of one event."""


class PackedRowError(PersistenceError):
    """A packed row that does not decode (a tampered or foreign row); the message names
    the row (originator, first version) and what is wrong."""


def marker(kind: str, opens: bool) -> str:
    """The topic of a packed row of a ``kind`` subject (``opens``: it holds its Opened)."""
    return f"{MARKER_PREFIX}{kind}{OPENS_SUFFIX if opens else ''}"


def is_packed(topic: str) -> bool:
    """Whether a row's topic marks a packed row."""
    return topic.startswith(MARKER_PREFIX)


def pack_events(events: Sequence[tuple[str, bytes]], level: int = LEVEL) -> bytes:
    """The packed state of consecutive events, each (topic, state)."""
    topics: dict[str, int] = {}
    index: list[int] = []
    for topic, state in events:
        index += (topics.setdefault(topic, len(topics)), len(state))
    names = [topic.encode() for topic in topics]
    body = b"".join(
        (
            len(names).to_bytes(2, "big"),
            *(len(name).to_bytes(2, "big") + name for name in names),
            _index(len(events)).pack(*index),
            *(state for _, state in events),
        )
    )
    if len(body) > MAX_BODY:
        raise ValueError(f"a pack of {len(body)} bytes is over the bound of {MAX_BODY}")
    return b"".join(
        (
            MAGIC,
            bytes((FORMAT, ZLIB)),
            len(events).to_bytes(4, "big"),
            len(body).to_bytes(4, "big"),
            zlib.compress(body, level),
        )
    )


@lru_cache(maxsize=256)
def _index(count: int) -> struct.Struct:
    """The body's event index: per event its topic's place and its state's length."""
    return struct.Struct(">" + "HI" * count)


def split_for_packing(
    events: Sequence[tuple[str, bytes]],
) -> Iterator[tuple[int, int]]:
    """(start, stop) ranges of ``events`` (each (topic, state)) that fit a pack, in order;
    a range of one event too large alone (stop = start + 1, over ``MAX_BODY``) is stored
    as a row of its own, unpacked."""
    start, size = 0, 2
    for n, (topic, state) in enumerate(events):
        cost = _cost(topic, state)
        if n > start and size + cost > MAX_BODY:
            yield start, n
            start, size = n, 2
        size += cost
    if start < len(events):
        yield start, len(events)


def packed_rows(kind: str, events: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The rows that store a ``kind`` subject's new events of one append (each event's
    stored form, in version order): one packed row per run of consecutive versions (more
    when a run is over ``MAX_BODY``; an event over it alone stays a row of its own)."""
    rows: list[StoredEvent] = []
    start = 0
    for n in range(1, len(events) + 1):
        if n < len(events) and events[n].originator_version == events[n - 1].originator_version + 1:
            continue
        run = events[start:n]
        parts = [(e.topic, e.state) for e in run]
        for first, stop in split_for_packing(parts):
            head = run[first]
            if stop - first == 1 and 2 + _cost(*parts[first]) > MAX_BODY:
                rows.append(head)
                continue
            rows.append(
                StoredEvent(
                    originator_id=head.originator_id,
                    originator_version=head.originator_version,
                    topic=marker(kind, head.originator_version == 1),
                    state=pack_events(parts[first:stop]),
                )
            )
        start = n
    return rows


def _cost(topic: str, state: bytes) -> int:
    """An event's bytes in a body, at most (its topic counted as if not shared)."""
    return 8 + len(topic.encode()) + len(state)


def _where(originator: Any, version: int) -> str:
    name = originator.hex if isinstance(originator, UUID) else originator
    return f"packed row of {name} at version {version}"


def packed_count(originator: Any, version: int, state: bytes) -> int:
    """How many events a packed row holds, from its header alone."""
    if len(state) < _HEADER or state[:2] != MAGIC:
        raise PackedRowError(f"{_where(originator, version)}: no pack header")
    if state[2] != FORMAT or state[3] != ZLIB:
        raise PackedRowError(
            f"{_where(originator, version)}: unknown pack format {state[2]} or codec {state[3]}"
        )
    count = int.from_bytes(state[4:8], "big")
    if count < 1:
        raise PackedRowError(f"{_where(originator, version)}: holds no event")
    return count


def unpack(originator: Any, version: int, state: bytes, limit: int | None = None) -> list[Event]:
    """The events of a packed row (``originator`` names the row in errors); with
    ``limit``, only its first ``limit`` events (the body is inflated whole and checked
    against its claimed length, the rest not parsed)."""
    count = packed_count(originator, version, state)
    where = _where(originator, version)
    size = int.from_bytes(state[8:12], "big")
    if size > MAX_BODY:
        raise PackedRowError(f"{where}: claims {size} bytes, over the bound of {MAX_BODY}")
    inflate = zlib.decompressobj()
    try:
        body = inflate.decompress(state[_HEADER:], size + 1)
    except zlib.error as error:
        raise PackedRowError(f"{where}: does not inflate ({error})") from None
    if len(body) != size or not inflate.eof or inflate.unused_data:
        raise PackedRowError(f"{where}: inflates to other than its {size} bytes")
    if count * _index(1).size > size:
        raise PackedRowError(f"{where}: claims {count} events, more than its body holds")
    try:
        return _events(body, version, count, limit)
    except (ValueError, IndexError, struct.error, UnicodeDecodeError) as error:
        raise PackedRowError(f"{where}: {error}") from None


def _events(body: bytes, version: int, count: int, limit: int | None) -> list[Event]:
    """Parse a body (``pack_events``); raises ValueError (or IndexError, struct.error,
    UnicodeDecodeError) when it is not one."""
    (kinds,) = _U16.unpack_from(body, 0)
    at, topics = 2, []
    for _ in range(kinds):
        (length,) = _U16.unpack_from(body, at)
        name = body[at + 2 : at + 2 + length]
        if len(name) != length:
            raise ValueError("cut short in its topics")
        topics.append(name.decode())
        at += 2 + length
    index = _index(count)
    fields = index.unpack_from(body, at)
    at += index.size
    events: list[Event] = []
    for n in range(count if limit is None else min(limit, count)):
        length = fields[2 * n + 1]
        state = body[at : at + length]
        if len(state) != length:
            raise ValueError(f"event {n + 1} of {count}: cut short")
        events.append((version + n, topics[fields[2 * n]], state))
        at += length
    if limit is None and at != len(body):
        raise ValueError(f"{len(body) - at} bytes after its {count} events")
    return events


def expand(originator: Any, version: int, topic: str, state: bytes) -> list[Event]:
    """The events of a stored row, packed or not: (version, topic, state) each."""
    if is_packed(topic):
        return unpack(originator, version, bytes(state))
    return [(version, topic, state)]


def covered_versions(originator: Any, version: int, topic: str, state: bytes) -> range:
    """The versions a stored row holds (its header read, nothing inflated)."""
    if is_packed(topic):
        return range(version, version + packed_count(originator, version, bytes(state)))
    return range(version, version + 1)


def kind_of_topic(topic: str, kinds: dict[str, str]) -> str | None:
    """The subject kind of an event topic (``kinds``: subject class topic -> kind)."""
    return kinds.get(topic.rpartition(".")[0])


def row_topics(topics: Sequence[str], kinds: dict[str, str], opened: set[str]) -> list[str]:
    """The row topics to select for events in ``topics``: those, and the markers of the
    packed rows that may hold them (only opening packs for an ``Opened`` topic, in
    ``opened``)."""
    wanted = dict.fromkeys(topics)
    for topic in topics:
        kind = kind_of_topic(topic, kinds)
        if kind is None:
            continue
        wanted[marker(kind, True)] = None
        if topic not in opened:
            wanted[marker(kind, False)] = None
    return list(wanted)
