"""A faster drop-in for eventsourcing's JSONTranscoder, built on orjson, that also reads
and writes the compact state of family records.

Same wire format (compact UTF-8 JSON; custom types as ``{"_type_": name, "_data_": ...}``
through the registered transcodings), so stored state is readable by either; encoding is
several times faster, which matters because every ingested event passes through it. A
family record's state is written compactly where that keeps it identical
(``audit.store.compact``: Avro binary under its schema), and JSON otherwise; every
decoding method reads both, told apart by the state's first byte, so a store written
before compact states (all JSON) reads, and keeps taking writes, beside the new rows.
"""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Any

import orjson
from eventsourcing.persistence import JSONTranscoder

from audit.store import compact

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS


class OrjsonTranscoder(JSONTranscoder):
    """JSONTranscoder's format, orjson's speed.

    The events of one hand, and of one ingest batch, share their datetimes, so encoded
    custom values are memoised (bounded) instead of re-encoded per event.
    """

    _MEMO_LIMIT = 4096

    def __init__(self) -> None:
        super().__init__()
        self._memo: dict[Any, dict[str, Any]] = {}

    def encode(self, obj: Any) -> bytes:
        return orjson.dumps(obj, default=self._encode_memoised, option=_OPTIONS)

    def _encode_memoised(self, value: Any) -> dict[str, Any]:
        # Equal datetimes in different zones hash alike; the zone is part of the key.
        key = (type(value), value, getattr(value, "tzinfo", None))
        try:
            return self._memo[key]
        except (KeyError, TypeError):
            encoded = self._encode_obj(value)
            if len(self._memo) >= self._MEMO_LIMIT:
                self._memo.clear()
            with contextlib.suppress(TypeError):  # unhashable custom value: not memoised
                self._memo[key] = encoded
            return encoded

    def encode_recorded(self, kind: str, recorded_at: datetime, record: dict[str, Any]) -> bytes:
        """The state of a ``Subject.Recorded`` event of a ``kind`` subject: compact when
        that keeps the record identical (``audit.store.compact``), JSON otherwise."""
        state = compact.encode(kind, recorded_at, record)
        if state is None:
            return self.encode({"timestamp": recorded_at, "record": record})
        return state

    def decode(self, data: bytes) -> Any:
        if compact.is_compact(data):
            recorded_at, record = compact.decode(data)
            return {"timestamp": recorded_at, "record": record}
        return self._revive(orjson.loads(data))

    def _revive(self, value: Any) -> Any:
        if isinstance(value, dict):
            if "_type_" in value and "_data_" in value and len(value) == 2:
                data = value["_data_"]
                if value["_type_"] == "datetime_iso" and type(data) is str:
                    return datetime.fromisoformat(data)  # eventsourcing's DatetimeAsISO
                return self._decode_obj({"_type_": value["_type_"], "_data_": self._revive(data)})
            return {key: self._revive(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self._revive(item) for item in value]
        return value

    def opened_subject_id(self, data: bytes) -> str:
        """The subject id of a stored ``Subject.Opened`` event (JSON, as eventsourcing's
        mapper writes it), without building the domain event or reviving its time."""
        subject_id: str = orjson.loads(data)["subject_id"]
        return subject_id

    def decode_record(self, data: bytes) -> dict[str, Any]:
        """Only the ``record`` of a stored ``Subject.Recorded`` event, fast.

        Bulk reads (replay, detectors) need the flat record, not the domain event. Avro
        records put custom-typed values (timestamps) in top-level fields or in fields
        of records inside arrays, so only those two levels are revived, instead of
        walking every value of the state as ``decode`` must.
        """
        if compact.is_compact(data):
            return compact.decode_record(data)
        record: dict[str, Any] = orjson.loads(data)["record"]
        for key, value in record.items():
            if type(value) is dict:
                record[key] = self._revive(value)
            elif type(value) is list and value and type(value[0]) is dict:
                record[key] = [self._revive(item) if _nested(item) else item for item in value]
        return record


def _nested(item: Any) -> bool:
    """Whether a record inside an array holds anything to revive (a seat, a card list of
    plain values, does not: it is kept as decoded)."""
    if type(item) is not dict:
        return True
    return any(type(v) is dict or type(v) is list for v in item.values())
