"""A day's input: Avro shards laid out by date.

Folder layout read by the nightly job::

    <input_dir>/<YYYY-MM-DD>/            one folder per UTC day
        manifest.json                   optional: for synthetic days what was planted
        tables.avro                     table declarations (``TableTermsDeclared``),
                                        stored before any other shard is judged
        **/*.avro                       shards, any depth (e.g. poker/0001.avro)

A shard is one Avro container file of one event family (``schemas/*.avsc``); its name
is its path relative to the day folder (``poker/0001.avro``), which is stable across
reruns and machines and so names the shard in stored findings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import fastavro

from audit.families import family_named, family_of_schema
from audit.ingest.avro_shape import from_avro
from audit.store import MAX_SHARD_NAME


def day_folder(input_dir: Path, day: date) -> Path:
    """Where the day's shards live."""
    return Path(input_dir) / day.isoformat()


def discover_shards(input_dir: Path, day: date) -> list[Path]:
    """The day's Avro shards in name order ([] when the day has no folder)."""
    folder = day_folder(input_dir, day)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*.avro") if p.is_file())


def day_folder_of(path: Path) -> Path | None:
    """The ``<YYYY-MM-DD>`` folder a shard lies in, if any."""
    for parent in Path(path).parents:
        try:
            date.fromisoformat(parent.name)
        except ValueError:
            continue
        return parent
    return None


def shard_name(path: Path) -> str:
    """The shard's name: its path below the day folder (``poker/0001.avro``)."""
    folder = day_folder_of(path)
    return Path(path).relative_to(folder).as_posix() if folder else Path(path).name


def chain_shard_of(path: Path) -> str:
    """The store's chain shard (``AuditStore(chain_shard=...)``) a night's input shard is
    ingested and judged into: ``night/<YYYY-MM-DD>/<shard name>``, so that the night's
    workers append side by side. Characters a shard name may not hold are escaped, and a
    name too long is cut and ends in a digest of the whole."""
    folder = day_folder_of(path)
    name = f"night/{folder.name if folder else '-'}/{shard_name(path)}"
    if not name.isprintable():
        name = name.encode("unicode_escape").decode("ascii")
    if len(name) > MAX_SHARD_NAME:
        digest = hashlib.sha256(name.encode()).hexdigest()[:16]
        name = f"{name[: MAX_SHARD_NAME - 17]}~{digest}"
    return name


def shard_family(path: Path) -> str | None:
    """The event family a shard's header names (None: not a readable Avro file)."""
    try:
        with Path(path).open("rb") as stream:
            schema = fastavro.reader(stream).writer_schema
    except Exception:  # fastavro raises several types for a bad header
        return None
    family = family_of_schema(str(schema.get("name", ""))) if isinstance(schema, dict) else None
    return family.name if family else None


def declaration_shards(shards: list[Path]) -> list[Path]:
    """The shards of table declarations (family ``table``), in name order."""
    return [path for path in shards if shard_family(path) == "table"]


@dataclass
class ShardEvents:
    """A shard's flat events as read, its family, and why reading stopped early if it did."""

    path: Path
    family: str | None
    events: list[dict[str, Any]] = field(default_factory=list)
    error: str = ""


def read_shard(path: Path) -> ShardEvents:
    """Every flat event of a shard, without validation; damage is reported, not raised."""
    path = Path(path)
    shard = ShardEvents(path, None)
    with path.open("rb") as stream:
        try:
            reader = fastavro.reader(stream, return_record_name=True)
        except Exception as error:  # fastavro raises several types for a bad header
            shard.error = f"not an Avro container file: {error}"
            return shard
        schema = reader.writer_schema if isinstance(reader.writer_schema, dict) else {}
        family = family_of_schema(str(schema.get("name", "")))
        if family is None:
            shard.error = f"unknown event family {schema.get('name')!r}"
            return shard
        shard.family = family.name
        records: Iterator[Any] = iter(reader)
        while True:
            try:
                raw = next(records)
            except StopIteration:
                break
            except Exception as error:  # truncated block, bad sync marker, bad codec data
                shard.error = f"corrupt or truncated after {len(shard.events)} records: {error}"
                break
            shard.events.append(from_avro(raw))
    return shard


def subject_ids(shard: ShardEvents) -> list[str]:
    """The shard's subjects (hands, rounds, machines) in first-seen order."""
    if shard.family is None:
        return []
    key = family_named(shard.family).subject_key
    return list(dict.fromkeys(str(e[key]) for e in shard.events if key in e))
