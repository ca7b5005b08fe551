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
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.store.chain import ChainRow, Checkpoint, chain_row, tree_head_row, verify_rows
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


def _bytes(value: object) -> bytes | None:
    return bytes.fromhex(str(value)) if value is not None else None


def _checkpoint(item: dict[str, Any]) -> Checkpoint:
    return tree_head_row(
        int(item["notification_id"]),
        _bytes(item["chain_hash"]),
        int(item["event_count"]),
        _bytes(item["signature"]),
        str(item["key_id"]),
        _bytes(item.get("tree_root")),
        item.get("head_time"),
        _bytes(item.get("tree_frontier")),
        _bytes(item.get("shard_heads")),
    )


def _row(item: dict[str, Any]) -> ChainRow:
    return chain_row(
        int(item["notification_id"]),
        item["originator_id"],
        int(item["version"]),
        item["topic"],
        base64.b64decode(str(item["state_b64"]), validate=True),
        bytes.fromhex(str(item["chain_prev"])),
        bytes.fromhex(str(item["chain_hash"])),
        item["chain_shard"],
        int(item["chain_form"]),
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
    except (KeyError, TypeError, ValueError) as error:
        raise ArchiveError(f"{path}, line {number}: unreadable field ({error!r})") from None


def _lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open("rb") as lines:
        for number, line in enumerate(lines, 1):
            try:
                value = orjson.loads(line)
            except orjson.JSONDecodeError as error:
                raise ArchiveError(f"{path}, line {number}: not JSON ({error})") from None
            if not isinstance(value, dict):
                raise ArchiveError(f"{path}, line {number}: not a JSON object")
            yield number, value


def _header(value: dict[str, Any]) -> tuple[int | None, int]:
    if value.get("format") != ARCHIVE_FORMAT:
        raise ValueError(f"not a {ARCHIVE_FORMAT!r} header")
    first = value.get("from")
    return None if first is None else int(first), int(value["through"])


def _open(path: Path) -> _Parsed:
    """Read the header and the checkpoints; the rows stay in the file until asked for."""
    lines = _lines(path)
    opening = next(lines, None)
    if opening is None:
        raise ArchiveError(f"{path}: empty, not an archive")
    number, value = opening
    try:
        first, through = _header(value)
    except (KeyError, TypeError, ValueError) as error:
        raise ArchiveError(f"{path}, line {number}: {error}") from None
    checkpoints: list[Checkpoint] = []
    for number, value in lines:
        if "checkpoint" not in value:
            return _Parsed(path, first, through, checkpoints, lines, (number, value))
        checkpoints.append(_field(path, number, _checkpoint, value["checkpoint"]))
    return _Parsed(path, first, through, checkpoints, lines, None)


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file, hex (what the retention record names)."""
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for chunk in iter(lambda: data.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def verify_archive(
    path: str | os.PathLike[str], public_key: Ed25519PublicKey | None = None
) -> ArchiveReport:
    """Check an archive alone (module docstring). Raises ``ArchiveError`` when the file
    cannot be read as one."""
    from audit.store.heads import require_signed

    where = Path(path)
    parsed = _open(where)
    checkpoints = [c for c in parsed.checkpoints if c.notification_id <= parsed.through]
    start = next((c for c in checkpoints if c.notification_id == parsed.first), None)
    sha256 = file_sha256(where)

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
