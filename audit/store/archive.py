"""The archive of retired rows: a file that verifies alone, without the store.

``casino-audit retention archive`` (``audit.store.partitions.retire``) writes the rows
it retires, as stored, with every checkpoint up to the last of them, to one JSON-lines
file: a header line (``{"format": ARCHIVE_FORMAT, "from": N | null, "through": M}``),
then one ``{"checkpoint": …}`` line per checkpoint (notification id up to ``through``,
every column as stored, bytes in hex, its frontier included), then one ``{"row": …}``
line per row after ``from`` up to ``through`` in notification order (the state's exact
bytes in base64, as evidence bundles carry them, its chain link, shard and form).

``verify_archive`` checks it alone: the rows' chains from ``from``'s checkpoint (each
shard's head from the checkpoints up to it, the Merkle tree from its frontier, which must
fold to its root: ``chain.verify_rows(start=…)``; from genesis when ``from`` is null),
every checkpoint after it, the last one at ``through``, and with a public key every
signature (``heads.require_signed``). A changed byte is named by its row's notification
id; a line that is not what this module writes is named by its line number.

Read under bounds (issue 41): a regular file only (a FIFO or a device is refused on the
open descriptor, before a byte is read), at most ``MAX_ARCHIVE_BYTES`` (or the caller's
bound) in all and ``MAX_LINE`` per line, each refused before it is read whole; every
integer a whole number within 64 bits (a float or 2^70 is refused, not overflowed);
exactly the fields this module writes (an unknown or missing one is refused). Fields no
signature covers are refused unless they are what the store writes: a frontier must fold
to its checkpoint's signed root (only the start's is archived), and with a public key a
signed checkpoint's ``key_id`` must be that key's. Every refusal is an ``ArchiveError``
naming the file and line. An archive that verifies may still be a shortened or other
day's archive: only its SHA-256, range and row count against the store's retention
record tell (``compare_with_record``; ``verify-archive`` does it given a store and
otherwise prints what to compare).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.store.chain import ChainRow, Checkpoint, chain_row, tree_head_row, verify_rows
from audit.store.merkle import TreeBuilder
from audit.store.shards import encode_heads

ARCHIVE_FORMAT = "casino-audit archive 1"


class ArchiveError(ValueError):
    """The file is not an archive this module can read (the message names the line)."""


@dataclass(frozen=True)
class ArchiveReport:
    """What ``verify_archive`` found: ok, or the first problem (naming its row)."""

    rows: int
    checkpoints: int
    first: int
    through: int
    sha256: str
    problem: str = ""
    signatures_checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.problem


def _hex(value: bytes | None) -> str | None:
    return value.hex() if value else None


def checkpoint_line(checkpoint: Checkpoint) -> dict[str, Any]:
    """A checkpoint as archived: every column as the store holds it."""
    heads = checkpoint.shard_heads
    return {
        "checkpoint": {
            "notification_id": checkpoint.notification_id,
            "chain_hash": checkpoint.chain_hash.hex(),
            "event_count": checkpoint.event_count,
            "signature": checkpoint.signature.hex(),
            "key_id": checkpoint.key_id,
            "tree_root": _hex(checkpoint.tree_root),
            "head_time": checkpoint.head_time or None,
            "tree_frontier": _hex(checkpoint.tree_frontier),
            "shard_heads": encode_heads(heads, signed=checkpoint.shards_signed).hex()
            if heads
            else None,
        }
    }


def row_line(row: ChainRow) -> dict[str, Any]:
    """A row as archived: its exact bytes and link."""
    return {
        "row": {
            "notification_id": row.notification_id,
            "originator_id": row.originator_id,
            "version": row.originator_version,
            "topic": row.topic,
            "state_b64": base64.b64encode(row.state).decode(),
            "chain_prev": row.chain_prev.hex(),
            "chain_hash": row.chain_hash.hex(),
            "chain_shard": row.shard,
            "chain_form": row.form,
        }
    }


def write_archive(
    out: IO[bytes],
    first: Checkpoint | None,
    through: int,
    checkpoints: Iterable[Checkpoint],
    rows: Iterable[ChainRow],
) -> int:
    """Write the archive of ``rows`` (after ``first``, up to ``through``) with
    ``checkpoints`` (every one up to ``through``; ``first`` with its frontier); the
    rows written."""
    header = {"format": ARCHIVE_FORMAT, "from": first.notification_id if first else None}
    out.write(orjson.dumps(header | {"through": through}) + b"\n")
    for checkpoint in sorted(checkpoints, key=lambda c: c.notification_id):
        if first is not None and checkpoint.notification_id == first.notification_id:
            checkpoint = first
        out.write(orjson.dumps(checkpoint_line(checkpoint)) + b"\n")
    written = 0
    for row in rows:
        out.write(orjson.dumps(row_line(row)) + b"\n")
        written += 1
    return written


#: The longest line read (a row's state is at most a 16 MiB pack, 22.4 MiB in base64).
MAX_LINE = 32 << 20
#: The largest archive read (``verify-archive --max-bytes``): a day of 48M hands is ~56 GB.
MAX_ARCHIVE_BYTES = 1 << 40
#: Integers an archive holds (notification ids, versions, counts, times): 64-bit signed.
INT64 = 1 << 63
_HEADER_KEYS = {"format", "from", "through"}
_CHECKPOINT_KEYS = {
    "notification_id", "chain_hash", "event_count", "signature", "key_id", "tree_root",
    "head_time", "tree_frontier", "shard_heads",
}  # fmt: skip
_ROW_KEYS = {
    "notification_id", "originator_id", "version", "topic", "state_b64", "chain_prev",
    "chain_hash", "chain_shard", "chain_form",
}  # fmt: skip


def _keys(item: object, wanted: set[str], what: str) -> dict[str, Any]:
    """``item`` as an object with exactly the ``wanted`` keys (ValueError otherwise: a
    field this module does not write is refused, never read or ignored silently)."""
    if not isinstance(item, dict):
        raise ValueError(f"the {what} is not a JSON object")
    if set(item) != wanted:
        extra, missing = sorted(set(item) - wanted), sorted(wanted - set(item))
        raise ValueError(f"the {what}'s fields differ: unknown {extra}, missing {missing}")
    return item


def _int(item: dict[str, Any], name: str, least: int = 0) -> int:
    """A whole number from ``least`` to 2^63 - 1 (a float, a bool, a string or a larger
    number is refused: it would not fit the signed fields)."""
    value = item[name]
    if type(value) is not int or not least <= value < INT64:
        raise ValueError(f"{name} is not a whole number from {least} to 2^63 - 1")
    return value


def _text(item: dict[str, Any], name: str) -> str:
    value = item[name]
    if not isinstance(value, str):
        raise ValueError(f"{name} is not text")
    return value


def _bytes(item: dict[str, Any], name: str) -> bytes | None:
    value = item[name]
    return None if value is None else bytes.fromhex(_text(item, name))


def _checkpoint(value: object) -> Checkpoint:
    item = _keys(value, _CHECKPOINT_KEYS, "checkpoint")
    head_time = item["head_time"]
    if head_time is not None and (type(head_time) is not int or abs(head_time) >= INT64):
        raise ValueError("head_time is not a whole number within 64 bits")
    checkpoint = tree_head_row(
        _int(item, "notification_id", 1),
        _bytes(item, "chain_hash"),
        _int(item, "event_count"),
        _bytes(item, "signature"),
        _text(item, "key_id"),
        _bytes(item, "tree_root"),
        head_time,
        _bytes(item, "tree_frontier"),
        _bytes(item, "shard_heads"),
    )
    if checkpoint.shard_heads is None:
        raise ValueError("shard_heads are not what the store writes")
    if any(not 0 <= h.notification_id < INT64 for h in checkpoint.shard_heads):
        raise ValueError("a shard head's notification id is out of range")
    return checkpoint


def _row(value: object) -> ChainRow:
    item = _keys(value, _ROW_KEYS, "row")
    return chain_row(
        _int(item, "notification_id", 1),
        _text(item, "originator_id"),
        _int(item, "version", 1),
        _text(item, "topic"),
        base64.b64decode(_text(item, "state_b64"), validate=True),
        bytes.fromhex(_text(item, "chain_prev")),
        bytes.fromhex(_text(item, "chain_hash")),
        _text(item, "chain_shard"),
        _int(item, "chain_form"),
    )


class _Outside(Exception):
    """A row outside the archive's range (``verify_archive`` reports it as a problem)."""

    def __init__(self, notification_id: int) -> None:
        self.notification_id = notification_id


@dataclass
class _Parsed:
    """An archive read as a stream: its header, its checkpoints (they come first), then
    its rows, read one at a time as the chain walk asks for them (memory does not grow
    with the day's size)."""

    path: Path
    first: int | None
    through: int
    checkpoints: list[Checkpoint]
    _lines: Iterator[tuple[int, dict[str, Any]]]
    _pending: tuple[int, dict[str, Any]] | None
    rows_read: int = 0

    def rows(self) -> Iterator[ChainRow]:
        """The rows in file order; ``ArchiveError`` for a line that is not one, ``_Outside``
        for a row outside ``first``..``through``."""
        later = self._lines if self._pending is None else _chain((self._pending,), self._lines)
        for number, value in later:
            if "row" not in value:
                where = f"{self.path}, line {number}"
                raise ArchiveError(f"{where}: neither a checkpoint (before the rows) nor a row")
            row = _field(self.path, number, _row, value["row"])
            if not (self.first or 0) < row.notification_id <= self.through:
                raise _Outside(row.notification_id)
            self.rows_read += 1
            yield row


def _chain(
    head: Iterable[tuple[int, dict[str, Any]]], rest: Iterator[tuple[int, dict[str, Any]]]
) -> Iterator[tuple[int, dict[str, Any]]]:
    yield from head
    yield from rest


def _field(path: Path, number: int, read: Any, item: Any) -> Any:
    try:
        return read(item)
    except (KeyError, TypeError, ValueError, OverflowError) as error:
        raise ArchiveError(f"{path}, line {number}: unreadable field ({error})") from None


def open_regular(path: Path, max_bytes: int) -> IO[bytes]:
    """``path`` opened for reading when it is a regular file of at most ``max_bytes``
    (checked on the open file, before a byte is read: a FIFO or a device such as
    ``/dev/zero`` is refused and never blocks); ``ArchiveError`` naming it otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise ArchiveError(f"{path}: {error.strerror or error}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise ArchiveError(f"{path}: not a regular file (an archive is a file)")
    if info.st_size > max_bytes:
        os.close(fd)
        raise ArchiveError(f"{path}: larger than {max_bytes:,} bytes (--max-bytes)")
    return os.fdopen(fd, "rb")


def _lines(path: Path, max_bytes: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """The file's lines as JSON objects, each at most ``MAX_LINE`` bytes and all of them
    at most ``max_bytes`` (a line or a file past its bound is refused before it is read
    whole); ``ArchiveError`` naming the line."""
    read = 0
    with open_regular(path, max_bytes) as lines:
        for number in itertools.count(1):
            line = lines.readline(MAX_LINE + 1)
            if not line:
                return
            read += len(line)
            if len(line) > MAX_LINE:
                raise ArchiveError(f"{path}, line {number}: longer than {MAX_LINE:,} bytes")
            if read > max_bytes:
                raise ArchiveError(f"{path}, line {number}: the file grew past {max_bytes:,} bytes")
            try:
                value = orjson.loads(line)
            except orjson.JSONDecodeError as error:
                raise ArchiveError(f"{path}, line {number}: not JSON ({error})") from None
            if not isinstance(value, dict) or (len(value) != 1 and number > 1):
                raise ArchiveError(f"{path}, line {number}: not a checkpoint or row line")
            yield number, value


def _header(value: dict[str, Any]) -> tuple[int | None, int]:
    item = _keys(value, _HEADER_KEYS, "header")
    if item["format"] != ARCHIVE_FORMAT:
        raise ValueError(f"not a {ARCHIVE_FORMAT!r} header")
    first = None if item["from"] is None else _int(item, "from", 1)
    return first, _int(item, "through", 1)


def _open(path: Path, max_bytes: int) -> _Parsed:
    """Read the header and the checkpoints; the rows stay in the file until asked for."""
    lines = _lines(path, max_bytes)
    opening = next(lines, None)
    if opening is None:
        raise ArchiveError(f"{path}: empty, not an archive")
    number, value = opening
    try:
        first, through = _header(value)
    except (KeyError, TypeError, ValueError) as error:
        raise ArchiveError(f"{path}, line {number}: not an archive's header ({error})") from None
    checkpoints: list[Checkpoint] = []
    for number, value in lines:
        if "checkpoint" not in value:
            return _Parsed(path, first, through, checkpoints, lines, (number, value))
        checkpoints.append(_field(path, number, _checkpoint, value["checkpoint"]))
    return _Parsed(path, first, through, checkpoints, lines, None)


def file_sha256(path: str | os.PathLike[str], max_bytes: int = MAX_ARCHIVE_BYTES) -> str:
    """The SHA-256 of a file, hex (what the retention record names): a regular file of
    at most ``max_bytes`` (``open_regular``)."""
    digest = hashlib.sha256()
    with open_regular(Path(path), max_bytes) as data:
        for chunk in iter(lambda: data.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def verify_archive(
    path: str | os.PathLike[str],
    public_key: Ed25519PublicKey | None = None,
    max_bytes: int = MAX_ARCHIVE_BYTES,
) -> ArchiveReport:
    """Check an archive alone (module docstring). Raises ``ArchiveError`` when the file
    cannot be read as one."""
    from audit.store.heads import require_signed

    where = Path(path)
    parsed = _open(where, max_bytes)
    checkpoints = [c for c in parsed.checkpoints if c.notification_id <= parsed.through]
    start = next((c for c in checkpoints if c.notification_id == parsed.first), None)
    sha256 = file_sha256(where, max_bytes)

    def report(problem: str = "", signatures_checked: int = 0) -> ArchiveReport:
        return ArchiveReport(
            parsed.rows_read,
            len(checkpoints),
            parsed.first or 0,
            parsed.through,
            sha256,
            problem,
            signatures_checked,
        )

    if parsed.first is not None and start is None:
        return report(f"the archive starts at checkpoint {parsed.first}, which it does not hold")
    if not checkpoints or checkpoints[-1].notification_id != parsed.through:
        return report(f"the archive holds no checkpoint at its end, notification {parsed.through}")
    unauthenticated = _unauthenticated(checkpoints, start, public_key)
    if unauthenticated:
        return report(unauthenticated)
    try:
        chain = verify_rows(parsed.rows(), checkpoints, start)
    except _Outside as outside:
        return report(
            f"row at notification {outside.notification_id} lies outside the archive's "
            f"range {parsed.first or 0}..{parsed.through}"
        )
    if chain.ok and public_key is not None:
        chain = require_signed(chain, checkpoints, public_key)
    if not chain.ok:
        at = f"at notification {chain.broken_at}: " if chain.broken_at is not None else ""
        return report(at + chain.problem)
    return report(signatures_checked=chain.signatures_checked)


def _unauthenticated(
    checkpoints: list[Checkpoint], start: Checkpoint | None, public_key: Ed25519PublicKey | None
) -> str:
    """A checkpoint field no signature covers that is not what the store writes, or "".
    A frontier (unsigned) must fold to its checkpoint's signed root at its size (the
    start's is required, ``verify_rows``; the others' are absent as archived, or
    checked); with a public key, a signed checkpoint's ``key_id`` must be that key's
    and an unsigned one's empty."""
    from audit.store.signing import key_id

    expected = key_id(public_key) if public_key is not None else None
    for checkpoint in checkpoints:
        at = f"checkpoint at notification {checkpoint.notification_id}"
        frontier = checkpoint.tree_frontier
        if frontier and checkpoint is not start:
            try:
                folded = TreeBuilder.from_frontier_bytes(checkpoint.event_count, frontier).root()
            except ValueError:
                folded = b""
            if not checkpoint.tree_root or folded != checkpoint.tree_root:
                return f"{at}: its Merkle frontier does not fold to its root (altered)"
        if expected is not None and checkpoint.key_id != (expected if checkpoint.signature else ""):
            return (
                f"{at} names key {checkpoint.key_id or 'none'}, not the given key {expected} "
                "(a key id is not signed: altered)"
            )
    return ""


def compare_with_record(report: ArchiveReport, records: list[Any]) -> str:
    """Why the archive is not the one a store's retention record names (its checkpoint
    the archive's ``through``, its SHA-256, its rows and its start), or ""."""
    record = next((r for r in records if r.checkpoint_id == report.through), None)
    if record is None:
        held = ", ".join(str(r.checkpoint_id) for r in records) or "none"
        return (
            f"the store holds no retention record at checkpoint {report.through} (its "
            f"records' checkpoints: {held}): not an archive this store retired"
        )
    earlier = [r.checkpoint_id for r in records if r.checkpoint_id < record.checkpoint_id]
    first = max(earlier, default=0)
    if record.archive_sha256 != report.sha256:
        return (
            f"the retention record at checkpoint {record.checkpoint_id} names archive sha256 "
            f"{record.archive_sha256}, this file is {report.sha256}: another or altered file"
        )
    if (report.first, report.rows) != (first, record.archived_rows):
        return (
            f"the retention record at checkpoint {record.checkpoint_id} retired "
            f"{record.archived_rows} rows after {first}; the archive holds {report.rows} "
            f"after {report.first}"
        )
    return ""
