"""Reading checkpoints back: the three queries both chained recorders answer, written once.

A recorder mixes in ``CheckpointReads`` and supplies ``_has_tree_columns()`` (whether its
checkpoints table has the tree-head columns, added after the first release),
``is_sharded()`` (whether the store has chain shards' columns, added later still) and
``_select_checkpoints(query, params)``, which runs a query written here with ``{cp}`` for
its checkpoints table and ``%s`` for each parameter, and returns the rows as checkpoints.
"""

from __future__ import annotations

from collections.abc import Callable

from audit.store.chain import Checkpoint
from audit.store.retention import RetentionRecord, latest

CHECKPOINT_COLUMNS = "notification_id, chain_hash, event_count, signature, key_id"
TREE_SELECT = ", tree_root, head_time, tree_frontier"


class CheckpointReads:
    """``checkpoints``, ``checkpoint_at`` and ``rooted_checkpoints_before`` over a
    recorder's ``_select_checkpoints`` (see the module docstring)."""

    _has_tree_columns: Callable[..., bool]
    is_sharded: Callable[..., bool]
    _select_checkpoints: Callable[..., list[Checkpoint]]

    def _columns(self, *, frontier: bool = True) -> str:
        """Every column ``tree_head_row`` takes, NULL where the store has none."""
        if self._has_tree_columns():
            tree = TREE_SELECT if frontier else ", tree_root, head_time, NULL"
        else:
            tree = ", NULL, NULL, NULL"
        shards = ", shard_heads" if self.is_sharded() else ", NULL"
        return CHECKPOINT_COLUMNS + tree + shards

    def checkpoints(self) -> list[Checkpoint]:
        """Every checkpoint (without the frontiers), in no particular order."""
        return self._select_checkpoints(f"SELECT {self._columns(frontier=False)} FROM {{cp}}")

    def checkpoint_at(self, notification_id: int) -> Checkpoint | None:
        """The checkpoint recorded at a notification id, if any."""
        found = self._select_checkpoints(
            f"SELECT {self._columns()} FROM {{cp}} WHERE notification_id = %s",
            (notification_id,),
        )
        return found[0] if found else None

    def retention_records(self) -> list[RetentionRecord]:
        """Every retention record (``audit.store.retention``): none unless the recorder
        keeps them (PostgreSQL)."""
        return []

    def retention_start(self) -> Checkpoint | None:
        """The checkpoint (with its frontier) of the latest retention record, where
        verification and tree heads start; None when nothing was retired or the record's
        checkpoint is not stored (``AuditStore.verify`` names that)."""
        record = latest(self.retention_records())
        return self.checkpoint_at(record.checkpoint_id) if record is not None else None

    def rooted_checkpoints_before(self, notification_id: int, limit: int = 3) -> list[Checkpoint]:
        """The latest checkpoints with a tree root (and frontier) at or before a
        notification id, latest first."""
        if not self._has_tree_columns():
            return []
        return self._select_checkpoints(
            f"SELECT {self._columns()} FROM {{cp}} "
            "WHERE notification_id <= %s AND tree_root IS NOT NULL "
            "ORDER BY notification_id DESC LIMIT %s",
            (notification_id, limit),
        )


def checkpoint_row(checkpoint: Checkpoint, *, sharded: bool) -> tuple[str, tuple[object, ...]]:
    """(columns, values) that record ``checkpoint``: its tree head when it has a root, its
    shard heads (with their form: signed or not) when the store has chain shards."""
    from audit.store.shards import encode_heads

    rooted = bool(checkpoint.tree_root)
    values: tuple[object, ...] = (
        checkpoint.notification_id,
        checkpoint.chain_hash,
        checkpoint.event_count,
        checkpoint.signature,
        checkpoint.key_id,
        checkpoint.tree_root or None,
        checkpoint.head_time if rooted else None,
        checkpoint.tree_frontier if rooted else None,
    )
    columns = CHECKPOINT_COLUMNS + TREE_SELECT
    if sharded:
        columns += ", shard_heads"
        values += (encode_heads(checkpoint.shard_heads or (), signed=checkpoint.shards_signed),)
    return columns, values
