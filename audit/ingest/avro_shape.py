"""Flat events to and from their Avro shape, for any event family.

Avro shape (``schemas/*.avsc``): the envelope fields (``event_id``, the family's subject
id such as ``hand_id`` or ``machine_id``, ``sequence``, ``occurred_at``) and ``body``, a
union written in fastavro's tuple notation ``(record_name, fields)``, the shape fastavro
reads back with ``return_record_name=True``. Flat shape (``replayer/events.py``): the
envelope fields, then ``"type"`` (the body's record name), then the body's fields.

The envelope is told apart from the body by position, as ``replayer.events.flatten``
builds it: the keys before ``"type"`` are the envelope, the keys after it the body. So no
family's key names need to be known here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replayer.events import flatten

BODY = "body"
TYPE = "type"


def to_avro(flat: Mapping[str, Any], *, namespace: str | None = None) -> dict[str, Any]:
    """Avro shape of a flat event; ``namespace`` qualifies the record name.

    fastavro's writer resolves the tuple notation by full name, so pass the schema's
    namespace (``"casino_audit.poker"``) when writing.
    """
    keys = list(flat)
    if TYPE not in keys or keys.index(TYPE) == 0:
        raise ValueError("a flat event needs envelope keys, then 'type', then body keys")
    split = keys.index(TYPE)
    name = flat[TYPE] if namespace is None else f"{namespace}.{flat[TYPE]}"
    envelope = {key: flat[key] for key in keys[:split]}
    envelope[BODY] = (name, {key: flat[key] for key in keys[split + 1 :]})
    return envelope


def from_avro(record: Mapping[str, Any]) -> dict[str, Any]:
    """Flat event of an Avro-shaped record (body as a ``(record_name, fields)`` tuple).

    The record name loses its namespace: ``casino_audit.poker.ActionTaken`` becomes
    ``"type": "ActionTaken"``.
    """
    body = record.get(BODY)
    if not isinstance(body, tuple) or len(body) != 2:
        raise ValueError(
            "the body must be a (record_name, fields) tuple: read with "
            "fastavro's return_record_name=True"
        )
    name, fields = body
    return flatten(record, name.rpartition(".")[2], fields)
