"""Which stored subjects go together: the rounds played at a table and the hands played
in a tournament, as a page about the table's banker runs, a shoe or the tournament asks.

Without an index the store answers by a scan of every stored subject of the kind (what
``casino-audit show`` does, O(store) per question); the console answers from its read
model (``console.readmodel.queries.ModelVerdicts``: the current verdicts' context, which
names each subject's table and a tournament hand's tournament, ``audit.judging.context``),
then reads the subjects themselves from the store. Either way the answer is subject ids;
their records always come from the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class SubjectIndex(Protocol):
    """Subjects that go together (module docstring)."""

    def subjects_at(self, kind: str, table: str, since: str = "") -> Sequence[str]:
        """The subjects of ``kind`` played at ``table``, in start order; with ``since``
        (an ISO 8601 start, as verdicts' context states it), those started then or later."""
        ...

    def hands_in(self, tournament: str) -> Sequence[str]:
        """The poker hands played in ``tournament``, in start order."""
        ...
