"""A day's input: Avro input files laid out by date.

Folder layout read by the nightly job::

    <input_dir>/<YYYY-MM-DD>/            one folder per UTC day
        manifest.json                   optional: for synthetic days what was planted
        tables.avro                     table declarations (``TableTermsDeclared``),
                                        stored before any other input file is judged
        **/*.avro                       input files, any depth (e.g. poker/0001.avro)

An input file is one Avro container file of one event family (``schemas/*.avsc``); its
name is its path relative to the day folder (``poker/0001.avro``), which is stable across
reruns and machines and so names the file in stored findings. (Not a chain shard: the
nightly writes each input file on its own chain shard, named by ``chain_shard_of``.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import fastavro

from audit.families import family_named, family_of_schema
from audit.ingest.avro_shape import from_avro
from audit.store import MAX_SHARD_NAME


def written_before_rename(data: Mapping[str, Any], renamed: Mapping[str, str]) -> dict[str, Any]:
    """``data`` in today's shape, whether written before or after issue #25 renamed the
    input sense of "shard" (one Avro file of a day, now an *input file*; a chain shard of
    the store kept the word): each key of ``renamed`` (old name -> new name) under its new
    name. So the files and XCom values written before the rename (a day's
    ``manifest.json``, a data-quality result) stay readable.

    >>> written_before_rename({"shards": ["a.avro"]}, {"shards": "input_files"})
    {'input_files': ['a.avro']}
    """
    return {renamed.get(key, key): value for key, value in data.items()}


def day_folder(input_dir: Path, day: date) -> Path:
    """Where the day's input files live."""
    return Path(input_dir) / day.isoformat()


def discover_input_files(input_dir: Path, day: date) -> list[Path]:
    """The day's Avro input files in name order ([] when the day has no folder)."""
    folder = day_folder(input_dir, day)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*.avro") if p.is_file())


def day_folder_of(path: Path) -> Path | None:
    """The ``<YYYY-MM-DD>`` folder an input file lies in, if any."""
    for parent in Path(path).parents:
        try:
            date.fromisoformat(parent.name)
        except ValueError:
            continue
        return parent
    return None


def input_file_name(path: Path) -> str:
    """The input file's name: its path below the day folder (``poker/0001.avro``)."""
    folder = day_folder_of(path)
    return Path(path).relative_to(folder).as_posix() if folder else Path(path).name


def chain_shard_of(path: Path) -> str:
    """The store's chain shard (``AuditStore(chain_shard=...)``) a night's input file is
    ingested into: ``night/<YYYY-MM-DD>/<input file name>``, one chain shard per input
    file, so that the night's workers append side by side. Characters a chain shard's name
    may not hold are escaped, and a name too long is cut and ends in a digest of the
    whole."""
    folder = day_folder_of(path)
    name = f"night/{folder.name if folder else '-'}/{input_file_name(path)}"
    if not name.isprintable():
        name = name.encode("unicode_escape").decode("ascii")
    if len(name) > MAX_SHARD_NAME:
        digest = hashlib.sha256(name.encode()).hexdigest()[:16]
        name = f"{name[: MAX_SHARD_NAME - 17]}~{digest}"
    return name


def input_file_family(path: Path) -> str | None:
    """The event family an input file's header names (None: not a readable Avro file)."""
    try:
        with Path(path).open("rb") as stream:
            schema = fastavro.reader(stream).writer_schema
    except Exception:  # fastavro raises several types for a bad header
        return None
    family = family_of_schema(str(schema.get("name", ""))) if isinstance(schema, dict) else None
    return family.name if family else None


def declaration_files(input_files: list[Path]) -> list[Path]:
    """The input files of table declarations (family ``table``), in name order."""
    return [path for path in input_files if input_file_family(path) == "table"]


@dataclass
class InputFileEvents:
    """An input file's flat events as read, its family, and why reading stopped early if it did."""

    path: Path
    family: str | None
    events: list[dict[str, Any]] = field(default_factory=list)
    error: str = ""


def read_input_file(path: Path) -> InputFileEvents:
    """Every flat event of an input file, without validation; damage is reported, not raised."""
    path = Path(path)
    read = InputFileEvents(path, None)
    with path.open("rb") as stream:
        try:
            reader = fastavro.reader(stream, return_record_name=True)
        except Exception as error:  # fastavro raises several types for a bad header
            read.error = f"not an Avro container file: {error}"
            return read
        schema = reader.writer_schema if isinstance(reader.writer_schema, dict) else {}
        family = family_of_schema(str(schema.get("name", "")))
        if family is None:
            read.error = f"unknown event family {schema.get('name')!r}"
            return read
        read.family = family.name
        records: Iterator[Any] = iter(reader)
        while True:
            try:
                raw = next(records)
            except StopIteration:
                break
            except Exception as error:  # truncated block, bad sync marker, bad codec data
                read.error = f"corrupt or truncated after {len(read.events)} records: {error}"
                break
            read.events.append(from_avro(raw))
    return read


def subject_ids(read: InputFileEvents) -> list[str]:
    """The input file's subjects (hands, rounds, machines) in first-seen order."""
    if read.family is None:
        return []
    key = family_named(read.family).subject_key
    return list(dict.fromkeys(str(e[key]) for e in read.events if key in e))
