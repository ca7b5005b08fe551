"""What the store needs of its recorder beyond eventsourcing's ``ApplicationRecorder``:
the hash chains (one per shard), the checkpoints and bulk reads. Both chained recorders
(``sqlite_recorder``, ``postgres_recorder``) provide it; ``AuditStore.chained`` is the
store's recorder seen through this Protocol, so the store calls them typed."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from audit.store.chain import ChainRow, Checkpoint
from audit.store.retention import RetentionRecord
from audit.store.shards import ShardHead


class ChainedRecorder(Protocol):
    """A recorder whose every insert extends the hash chain (``audit.store.chain``)."""

    chain_shard: str
    """The chain shard this recorder appends to (``audit.store.shards``)."""

    def is_sharded(self) -> bool:
        """Whether the store has chain shards' columns (made or migrated since shards)."""
        ...

    def is_formed(self) -> bool:
        """Whether its rows also have the chain form column (made or migrated since the
        chain hash covers the shard): new rows are then written in ``SHARD_FORM``."""
        ...

    def iter_chain_rows(self, upto: int | None = None) -> Iterator[ChainRow]:
        """Every stored event with its chain link, in notification order (up to ``upto``)."""
        ...

    def settled_head(self) -> int:
        """The last notification id every event up to which is committed."""
        ...

    def chain_head(self) -> tuple[int, bytes, int]:
        """(last notification id, its chain hash, events stored), settled."""
        ...

    def shard_heads_between(self, after: int, upto: int) -> list[ShardHead]:
        """The last event of each shard written after ``after`` up to ``upto``."""
        ...

    def write_checkpoint(self, checkpoint: Checkpoint) -> None:
        """Record a checkpoint (append-only)."""
        ...

    def checkpoints(self) -> list[Checkpoint]:
        """Every checkpoint, oldest first."""
        ...

    def checkpoint_at(self, notification_id: int) -> Checkpoint | None:
        """The checkpoint at this head, if any."""
        ...

    def retention_records(self) -> list[RetentionRecord]:
        """Every retention record, oldest first (``audit.store.retention``)."""
        ...

    def retention_start(self) -> Checkpoint | None:
        """The latest retention record's checkpoint, with its frontier (None: none)."""
        ...

    def rooted_checkpoints_before(self, notification_id: int, limit: int = 3) -> list[Checkpoint]:
        """The latest checkpoints with a Merkle root before ``notification_id``."""
        ...

    def iter_chain_hashes(self, after: int, upto: int) -> Iterator[bytes]:
        """The chain hashes of notifications ``after`` < id <= ``upto``, in order."""
        ...

    def states_of(
        self, originator_ids: Sequence[str], first_version: int, rows_from: int = 1
    ) -> list[Any]:
        """(originator hex, version, state) of these subjects' events from
        ``first_version`` on, in the rows starting at version ``rows_from`` or later."""
        ...

    def select_rows(self, start: int, limit: int, topics: Sequence[str]) -> Sequence[Any]:
        """Up to ``limit`` stored rows in ``topics``, as stored (a packed row whole), from
        notification ``start`` on (``audit.store.packed_reads.PackedReads``)."""
        ...

    def retired_subjects(self, originator_ids: Sequence[str]) -> dict[str, RetentionRecord]:
        """Which of these subjects a retention retired, with its record."""
        ...

    def existing_versions(self, originator_ids: Sequence[str]) -> set[tuple[str, int]]:
        """(originator id, version) of every stored event of these subjects."""
        ...
