"""Witnessed tree heads: the store's history kept, signed, outside the database.

Whoever can write to the database can rewrite events, recompute the hash chain and the
Merkle tree, and delete, replace or strip the checkpoints recorded beside them. What they
cannot change is a copy of a signed tree head (``audit.store.chain.Checkpoint`` with its
Merkle root) kept somewhere else: the *witness*. ``AuditStore.checkpoint(publish=PATH)``
(``casino-audit checkpoint --publish PATH``; every ingest, replay and nightly run when
``CASINO_AUDIT_WITNESS`` names a PATH) appends each head it makes to the witness, and
``casino-audit verify --witness PATH`` recomputes, in one pass over the events, the root
of the first *n* events for every witnessed head of size *n*.

PATH is either a directory (one JSON file per head, ``tree-head-<size>-<time>.json``;
used when PATH is an existing directory or ends with ``/``) or a file of JSON lines, one
head per line, only ever appended to. Each head::

    {"format": "casino-audit tree head v3", "tree_size": 25, "notification_id": 25,
     "root_hash": "<hex>", "chain_hash": "<hex>", "timestamp": <ms since epoch, UTC>,
     "time": "2024-05-01T12:00:00.000Z", "key_id": "<hex>", "signature": "<hex>",
     "shard_heads": [["<shard>", <notification id>, "<hex>"], ...]}

``time`` is ``timestamp`` for people; the signature (``audit.store.signing``, message v3)
covers the notification id, chain hash, size, root, timestamp and the shard heads (the
heads of the chain shards written since the checkpoint before). Heads published before
issue #26 (``"format": "casino-audit tree head v2"``, no ``shard_heads``; message v2)
are read and checked as they were signed. ``verify --witness`` also requires the
database's checkpoint at each witnessed head to record the same shard heads. Give the witness to
someone the database's users cannot make forget: another host, a write-once bucket,
the regulator.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.store.chain import (
    GENESIS,
    ChainReport,
    ChainRow,
    Checkpoint,
    heads_at,
    row_hash,
    verify_rows,
)
from audit.store.merkle import HASH_SIZE, TreeBuilder
from audit.store.shards import ShardHead, ShardNameError, checked_shard, heads_from_list, heads_list
from audit.store.signing import signature_valid

WITNESS_ENV = "CASINO_AUDIT_WITNESS"
FORMAT = "casino-audit tree head v3"
#: Heads published before the shard heads were signed (read, never written).
LEGACY_FORMAT = "casino-audit tree head v2"
#: A retention record published beside the heads (``audit.store.retention_trust``).
RETENTION_FORMAT = "casino-audit retention v1"


class WitnessError(ValueError):
    """The witness cannot be read or written; the message names it."""


def witness_from_env() -> str | None:
    return os.environ.get(WITNESS_ENV) or None


def head_time_text(head_time: int) -> str:
    """A head's time (ms since the epoch) as ISO 8601 UTC."""
    moment = datetime.fromtimestamp(head_time / 1000, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def head_json(head: Checkpoint) -> dict[str, object]:
    """A head as published: v3 with its shard heads when they are signed, else v2 (a
    tree head recorded before, signed again)."""
    shards = {"shard_heads": heads_list(head.shard_heads or ())} if head.shards_signed else {}
    return {
        "format": FORMAT if head.shards_signed else LEGACY_FORMAT,
        "tree_size": head.event_count,
        "notification_id": head.notification_id,
        "root_hash": head.tree_root.hex(),
        "chain_hash": head.chain_hash.hex(),
        "timestamp": head.head_time,
        "time": head_time_text(head.head_time),
        "key_id": head.key_id,
        "signature": head.signature.hex(),
        **shards,
    }


def head_from_json(entry: object) -> Checkpoint:
    """A witnessed head from its JSON form (ValueError says what is wrong)."""
    if not isinstance(entry, dict) or entry.get("format") not in (FORMAT, LEGACY_FORMAT):
        raise ValueError(f"not a {FORMAT!r} (or {LEGACY_FORMAT!r}) object")

    def number(name: str, least: int) -> int:
        value = entry.get(name)
        if type(value) is not int or not least <= value < 2**63:
            raise ValueError(f"{name} is not an integer ≥ {least}")
        return value

    def digest(name: str, size: int | None = HASH_SIZE) -> bytes:
        value = entry.get(name)
        try:
            if not isinstance(value, str):
                raise TypeError(name)
            raw = bytes.fromhex(value)
        except (TypeError, ValueError):
            raise ValueError(f"{name} is not hex") from None
        if size is not None and len(raw) != size:
            raise ValueError(f"{name} is not {size} bytes")
        return raw

    key_id = entry.get("key_id")
    if not isinstance(key_id, str):
        raise ValueError("key_id is not a string")
    signed = entry["format"] == FORMAT
    return Checkpoint(
        number("notification_id", 1),
        digest("chain_hash"),
        number("tree_size", 1),
        digest("signature", None),
        key_id,
        digest("root_hash"),
        number("timestamp", 0),
        shard_heads=_shard_heads(entry.get("shard_heads")) if signed else (),
        shards_signed=signed,
    )


def _shard_heads(items: object) -> tuple[ShardHead, ...]:
    """A v3 head's shard heads (ValueError says what is wrong)."""
    heads = heads_from_list(items)
    for head in heads:
        try:
            checked_shard(head.shard)
        except ShardNameError as error:
            raise ValueError(f"shard_heads: {error}") from None
        if not 1 <= head.notification_id < 2**63 or len(head.chain_hash) != HASH_SIZE:
            raise ValueError("shard_heads: a notification id or hash out of range")
    return heads


def _is_directory(path: Path, text: str) -> bool:
    return path.is_dir() or text.endswith(("/", os.sep))


def publish(head: Checkpoint, witness: str | os.PathLike[str]) -> Path:
    """Write a signed tree head to the witness (a directory or a JSON-lines file); a head
    already there is not written twice. Returns the file written to."""
    if not head.tree_root:
        raise WitnessError("only tree heads (checkpoints with a Merkle root) can be published")
    line = json.dumps(head_json(head), sort_keys=True, separators=(",", ":")) + "\n"
    stem = f"tree-head-{head.event_count:012d}-{head.head_time}"
    return publish_entry(witness, line.encode(), stem)


def publish_entry(witness: str | os.PathLike[str], data: bytes, stem: str) -> Path:
    """Write one entry (a JSON line) to the witness: appended to a JSON-lines file, or as
    ``<stem>.json`` in a directory; an entry already there is not written twice."""
    text = os.fspath(witness)
    path = Path(text)
    try:
        if _is_directory(path, text):
            return _publish_file_in(path, stem, data)
        return _append_line(path, data)
    except OSError as error:
        raise WitnessError(f"cannot publish to the witness {text}: {error}") from None


def _publish_file_in(folder: Path, stem: str, data: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for attempt in range(100):
        target = folder / (f"{stem}.json" if not attempt else f"{stem}-{attempt}.json")
        try:
            descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            if target.read_bytes() == data:
                return target
            continue
        try:
            os.write(descriptor, data)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        return target
    raise WitnessError(f"too many entries named {stem} in {folder}")


def _append_line(path: Path, data: bytes) -> Path:
    """Append one line under an exclusive lock (parallel shards publish together),
    unless it is already the file's last line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        size = os.fstat(descriptor).st_size
        if size:
            tail = os.pread(descriptor, min(size, len(data) + 1), size - min(size, len(data) + 1))
            if tail == data or (tail[1:] == data and tail[:1] == b"\n"):
                return path
            if not tail.endswith(b"\n"):  # a line cut short by a crash stays on its own
                os.write(descriptor, b"\n")
        os.write(descriptor, data)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    return path


@dataclass(frozen=True)
class WitnessedHead:
    """A head read from the witness and where it was read (``file:line``)."""

    head: Checkpoint
    source: str


def load_heads(witness: str | os.PathLike[str]) -> tuple[list[WitnessedHead], list[str]]:
    """Every head in the witness, and a problem for each entry that cannot be read
    (retention records, ``audit.store.retention_trust``, are not heads: skipped here).

    Raises WitnessError when the witness itself does not exist or cannot be read."""
    heads: list[WitnessedHead] = []
    problems: list[str] = []
    for where, content in load_entries(witness):
        try:
            entry = json.loads(content)
            if not is_retention_entry(entry):
                heads.append(WitnessedHead(head_from_json(entry), where))
        except ValueError as error:  # json.JSONDecodeError is a ValueError
            problems.append(f"witness entry {where} cannot be read: {error}")
    return heads, problems


def is_retention_entry(entry: object) -> bool:
    """Whether a witness entry is a retention record (not a tree head)."""
    return isinstance(entry, dict) and entry.get("format") == RETENTION_FORMAT


def load_entries(witness: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """Every entry of the witness as (where: ``file`` or ``file:line``, its text).

    Raises WitnessError when the witness itself does not exist or cannot be read."""
    text = os.fspath(witness)
    path = Path(text)
    try:
        if path.is_dir():
            return [(str(file), file.read_text()) for file in sorted(path.glob("*.json"))]
        if path.is_file():
            return [
                (f"{path}:{number}", line)
                for number, line in enumerate(path.read_text().splitlines(), 1)
                if line.strip()
            ]
    except (OSError, UnicodeDecodeError) as error:
        raise WitnessError(f"cannot read the witness {text}: {error}") from None
    raise WitnessError(f"no witness at {text}")


# -- verification ------------------------------------------------------------------------


@dataclass
class WitnessReport:
    """The store checked against every witnessed head: ok, or what is inconsistent."""

    chain: ChainReport
    heads_checked: int = 0
    signatures_checked: int = 0
    unwitnessed: int = 0
    events: int = 0
    largest_head: Checkpoint | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.chain.ok and not self.problems


def describe_head(head: Checkpoint) -> str:
    """How a witnessed head is named in messages: its size, time and key."""
    return (
        f"head of {head.event_count} events witnessed {head_time_text(head.head_time)}, "
        f"key {head.key_id or '- (unsigned)'}"
    )


class _WitnessCheck:
    """Builds the Merkle tree over the chain hashes as recomputed from the events' content
    (never merely as stored), row by row, checking each witnessed head as the tree
    reaches its size. A row the chain verification has already found intact has its
    stored hash equal to the recomputed one, which is then used as it is (``trusted``):
    each row's hash is computed once however the two checks share the pass."""

    def __init__(self, heads: Sequence[WitnessedHead], problems: list[str]):
        self.pending = sorted(heads, key=lambda w: (w.head.event_count, w.head.notification_id))
        self.next = 0
        self.problems = problems
        self.builder = TreeBuilder()
        self.prev: dict[str, bytes] = {}  # each shard's last recomputed hash
        self.trusting = True  # while the chain verification vouches for each row it read

    def start_at(self, start: Checkpoint, checkpoints: Sequence[Checkpoint]) -> None:
        """Begin after retired rows (``audit.store.retention``): the tree from ``start``'s
        frontier, each shard's head from the checkpoints up to it; heads witnessed at or
        before it are checked against the database's checkpoints only
        (``_database_checkpoint_problems``), the one at its size against its root."""
        try:
            self.builder = TreeBuilder.from_frontier_bytes(start.event_count, start.tree_frontier)
        except ValueError:
            return  # verify_rows names the unusable frontier
        self.prev = {s: h for s, (_, h) in heads_at(checkpoints, start.notification_id).items()}
        pending = self.pending
        while self.next < len(pending) and pending[self.next].head.event_count <= start.event_count:
            head = pending[self.next].head
            if head.event_count == start.event_count:
                self._check(head, start.notification_id, start.chain_hash)
            self.next += 1

    def add(self, row: ChainRow, trusted: bool) -> None:
        if trusted:
            leaf = row.chain_hash
        else:  # a row of no known form has no hash: its stored one is recomputed as wrong
            leaf = row_hash(self.prev.get(row.shard, GENESIS), row) or bytes(HASH_SIZE)
        self.prev[row.shard] = leaf
        self.builder.append(leaf)
        pending = self.pending
        while self.next < len(pending) and pending[self.next].head.event_count == self.builder.size:
            self._check(pending[self.next].head, row.notification_id, leaf)
            self.next += 1

    def _check(self, head: Checkpoint, notification_id: int, chain_hash: bytes) -> None:
        root = self.builder.root()
        if root != head.tree_root or chain_hash != head.chain_hash:
            self.problems.append(
                f"the history up to notification {head.notification_id} was rewritten: "
                f"witnessed root {head.tree_root.hex()}, store has {root.hex()} "
                f"({describe_head(head)})"
            )
        elif notification_id != head.notification_id:
            self.problems.append(
                f"event {head.event_count} of the store is at notification {notification_id}, "
                f"witnessed at notification {head.notification_id}: the events were "
                f"renumbered ({describe_head(head)})"
            )

    def finish(self) -> None:
        beyond = [w.head for w in self.pending[self.next :]]
        if beyond:
            largest = beyond[-1]
            others = f"; {len(beyond) - 1} more witnessed head(s) beyond the store's end" * (
                len(beyond) > 1
            )
            self.problems.append(
                f"the store has {self.builder.size} events, head witnessed at "
                f"{largest.event_count} (notification {largest.notification_id}): events "
                f"at the end were deleted ({describe_head(largest)}){others}"
            )


def verify_witnessed(
    rows: Iterable[ChainRow],
    checkpoints: Sequence[Checkpoint],
    heads: Sequence[WitnessedHead],
    public_key: Ed25519PublicKey | None = None,
    problems: Sequence[str] = (),
    start: Checkpoint | None = None,
) -> WitnessReport:
    """Check the stored rows against every witnessed head, in one pass over the rows.

    For each head of size n: the root of the first n events (their chain hashes
    recomputed from their content) must be the witnessed root, and the store must still
    have n events; events after the largest head are unwitnessed and fail; with a public
    key every witnessed head's signature must verify. The chain and the database's own
    checkpoints are verified as ``verify`` does, and each witnessed head's checkpoint must
    still be in the database, unchanged and as signed as the witness's copy. With
    ``start`` (rows up to it retired, ``audit.store.retention``) both checks begin there
    (``_WitnessCheck.start_at``).
    """
    found = list(problems)
    check = _WitnessCheck(heads, found)
    after = 0
    if start is not None:
        check.start_at(start, checkpoints)
        after = start.notification_id

    def tapped() -> Iterator[ChainRow]:
        # A row is added when the next one is asked for: by then ``verify_rows`` has
        # checked it (its hash matches its content and links to the one before), unless
        # it stopped at it (``trusting`` is off for that row and every later one).
        previous: ChainRow | None = None
        for row in rows:
            if row.notification_id <= after:
                continue
            if previous is not None:
                check.add(previous, check.trusting)
            yield row
            previous = row
        if previous is not None:
            check.add(previous, check.trusting)

    stream = tapped()
    chain = verify_rows(stream, checkpoints, start)
    check.trusting = False
    for _ in stream:  # the chain stops at its first break; the witness reads on
        pass
    check.finish()
    events = check.builder.size
    report = WitnessReport(chain, heads_checked=len(heads), events=events)

    largest = max((w.head for w in heads), key=lambda h: h.event_count, default=None)
    report.largest_head = largest
    if largest is None:
        if events:
            report.unwitnessed = events
            found.append(
                f"no witnessed head: all {events} events are unwitnessed (nothing outside "
                "the database vouches for them)"
            )
    elif events > largest.event_count:
        report.unwitnessed = events - largest.event_count
        found.append(
            f"{report.unwitnessed} event(s) after the last witnessed head (notification "
            f"{largest.notification_id}) are unwitnessed: a forged row appended after the "
            f"last head cannot be told from a genuine one ({describe_head(largest)})"
        )

    if public_key is not None:
        for witnessed in sorted(heads, key=lambda w: w.head.event_count):
            head = witnessed.head
            if not head.signature:
                found.append(
                    f"witnessed head at notification {head.notification_id} is unsigned: "
                    f"it cannot be authenticated ({describe_head(head)}; {witnessed.source})"
                )
            elif not signature_valid(head, public_key):
                found.append(
                    f"witnessed head at notification {head.notification_id} is not signed by "
                    f"this key: forged or altered ({describe_head(head)}; {witnessed.source})"
                )
            else:
                report.signatures_checked += 1
    found.extend(_database_checkpoint_problems(checkpoints, heads, public_key))
    report.problems = found
    return report


def _same_heads(checkpoint: Checkpoint, head: Checkpoint) -> bool:
    """Whether a database checkpoint records the signed shard heads a witnessed head has."""
    return (
        checkpoint.shards_signed
        and checkpoint.shard_heads is not None
        and set(checkpoint.shard_heads) == set(head.shard_heads or ())
    )


def _database_checkpoint_problems(
    checkpoints: Sequence[Checkpoint],
    heads: Sequence[WitnessedHead],
    public_key: Ed25519PublicKey | None,
) -> Iterator[str]:
    """What the database's own checkpoints lost or changed, measured by the witness (the
    witness does not need them; a dropped or stripped one is reported all the same)."""
    stored = {c.notification_id: c for c in checkpoints}
    seen: set[int] = set()
    for witnessed in sorted(heads, key=lambda w: w.head.event_count):
        head = witnessed.head
        if head.notification_id in seen:
            continue
        seen.add(head.notification_id)
        checkpoint = stored.get(head.notification_id)
        where = f"checkpoint at notification {head.notification_id}"
        if checkpoint is None:
            yield f"{where} is missing from the database: dropped ({describe_head(head)})"
        elif (
            checkpoint.chain_hash != head.chain_hash
            or checkpoint.event_count != head.event_count
            or (checkpoint.tree_root and checkpoint.tree_root != head.tree_root)
        ):
            yield f"{where} differs from its witnessed head: rewritten ({describe_head(head)})"
        elif head.shards_signed and checkpoint.tree_root and not _same_heads(checkpoint, head):
            yield (
                f"{where} records other shard heads than its witnessed head: its shard heads "
                f"were edited, dropped or replaced ({describe_head(head)})"
            )
        elif head.signature and not checkpoint.signature:
            yield (
                f"{where} is unsigned in the database but its witnessed head is signed: "
                f"the signature was stripped or the checkpoint replaced ({describe_head(head)})"
            )
    if public_key is not None:
        for checkpoint in sorted(checkpoints, key=lambda c: c.notification_id):
            if checkpoint.signature and not signature_valid(checkpoint, public_key):
                yield (
                    f"checkpoint at notification {checkpoint.notification_id} is not signed "
                    f"by this key (key id {checkpoint.key_id or '-'}): the history up to it "
                    "was rewritten or the checkpoint forged"
                )
