"""Reading checkpoints back: the three queries both chained recorders answer, written once.

A recorder mixes in ``CheckpointReads`` and supplies ``_has_tree_columns()`` (whether its
checkpoints table has the tree-head columns, added after the first release) and
``_select_checkpoints(query, params)``, which runs a query written here with ``{cp}`` for
its checkpoints table and ``%s`` for each parameter, and returns the rows as checkpoints.
"""

from __future__ import annotations

from collections.abc import Callable

from audit.store.chain import Checkpoint

CHECKPOINT_COLUMNS = "notification_id, chain_hash, event_count, signature, key_id"
TREE_SELECT = ", tree_root, head_time, tree_frontier"


class CheckpointReads:
    """``checkpoints``, ``checkpoint_at`` and ``rooted_checkpoints_before`` over a
    recorder's ``_select_checkpoints`` (see the module docstring)."""

    _has_tree_columns: Callable[..., bool]
    _select_checkpoints: Callable[..., list[Checkpoint]]

    def checkpoints(self) -> list[Checkpoint]:
        """Every checkpoint (without the frontiers), in no particular order."""
        tree = ", tree_root, head_time, NULL AS tree_frontier" if self._has_tree_columns() else ""
        return self._select_checkpoints(f"SELECT {CHECKPOINT_COLUMNS}{tree} FROM {{cp}}")

    def checkpoint_at(self, notification_id: int) -> Checkpoint | None:
        """The checkpoint recorded at a notification id, if any."""
        tree = TREE_SELECT if self._has_tree_columns() else ""
        found = self._select_checkpoints(
            f"SELECT {CHECKPOINT_COLUMNS}{tree} FROM {{cp}} WHERE notification_id = %s",
            (notification_id,),
        )
        return found[0] if found else None

    def rooted_checkpoints_before(self, notification_id: int, limit: int = 3) -> list[Checkpoint]:
        """The latest checkpoints with a tree root (and frontier) at or before a
        notification id, latest first."""
        if not self._has_tree_columns():
            return []
        return self._select_checkpoints(
            f"SELECT {CHECKPOINT_COLUMNS}{TREE_SELECT} FROM {{cp}} "
            "WHERE notification_id <= %s AND tree_root IS NOT NULL "
            "ORDER BY notification_id DESC LIMIT %s",
            (notification_id, limit),
        )
