"""The replayer's view of a stored event: a flat mapping.

Storage and files keep events in their Avro shape (``schemas/*.avsc``): an envelope
(``event_id``, subject id, ``sequence``, ``occurred_at``) and a ``body`` that is one
record of the family's union. The replayer reads the same facts flattened: the envelope
fields, ``"type"`` (the body's record name, e.g. ``"ActionTaken"``) and the body's fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FlatEvent = Mapping[str, Any]

HeldEvent = dict[str, Any]
"""A flat event as a replay holds it once read: a ``dict``, whose fields compiled code
(``replayer.compiled``) reads with dict lookups where a ``Mapping`` costs a method call
each (``poker.replay`` copies any other mapping into one)."""


def flatten(envelope: Mapping[str, Any], body_type: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """Merge an Avro envelope and its union body into one flat event."""
    flat = {key: value for key, value in envelope.items() if key != "body"}
    flat["type"] = body_type
    flat.update(body)
    return flat
