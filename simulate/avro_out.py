"""Byte-reproducible Avro input files for synthetic days.

``audit.ingest.avro_files.write_events`` writes the right records, but an Avro container's
sync marker is random unless given, so two runs differ in 16 bytes per block. Synthetic
days must be byte-identical for the same seed: ``write_input_file`` writes the same records
with a marker derived from the writer's stream id and the file name. The header carries
the schema as its file spells it: fastavro's parsed schema orders each field's optional
properties (doc, default, ...) by iterating a set, which varies with the process's hash
seed, so a header written from it differs between two runs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import fastavro

from audit.families import Family
from audit.ingest.avro_shape import to_avro


def write_input_file(
    path: Path, family: Family, events: Iterable[dict[str, Any]], *, stream_id: str
) -> None:
    """Write flat events as one deflated Avro container file of ``family``, its sync
    marker the first 16 bytes of sha256(``stream_id:file name``)."""
    marker = hashlib.sha256(f"{stream_id}:{path.name}".encode()).digest()[:16]
    records = (to_avro(event, namespace=family.namespace) for event in events)
    with path.open("wb") as stream:
        fastavro.writer(stream, family.raw_schema, records, codec="deflate", sync_marker=marker)
