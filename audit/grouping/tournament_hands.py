"""A tournament hand and its tournament: which one, at which level, and whether it is stored.

A room's tournament hand stores ``HandStarted.tournament_id`` (``<room>/<number>``, the
``Tournament`` subject's id) and, in its ``source``, the level its header names
(``tournament level 3``, ``tournament level II``: the room's own numbering, Arabic or
Roman): the schema has no level field, so the importer writes ``level_note`` and
``show``, the console and the PHH export read it back with ``level_of``. The hand's
tournament is linked where that tournament's own records are in the store
(``tournament_stored``); its hands are found from the tournament by their
``tournament_id`` (``hands_of``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from audit.grouping.subject_index import SubjectIndex
from audit.store import StoreReads

_LEVEL = re.compile(r"(?:^|; )tournament level (?P<level>[IVXLC\d]+)(?:;|$)")
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def level_note(level: str) -> str:
    """The note of a tournament hand's ``source`` naming its header's level."""
    return f"tournament level {level}"


def level_of(source: str) -> str | None:
    """The level ``level_note`` wrote in a hand's ``source``, as the room wrote it."""
    match = _LEVEL.search(source or "")
    return match.group("level") if match else None


def level_number(level: str) -> int:
    """``3`` or ``III`` as a number (PHH's ``level`` is an integer)."""
    if level.isdigit():
        return int(level)
    values = [_ROMAN[c] for c in level]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def tournament_of(start: Mapping[str, Any]) -> str | None:
    """The tournament a hand's ``HandStarted`` names, or None for a cash hand."""
    value = start.get("tournament_id")
    return str(value) if value else None


def tournament_stored(store: StoreReads, tournament_id: str) -> bool:
    """Whether the tournament's own records (the ``Tournament`` subject) are stored."""
    return bool(store.records_of("tournament", tournament_id))


def hands_of(store: StoreReads, tournament_id: str, index: SubjectIndex | None = None) -> list[str]:
    """The stored poker hands played in ``tournament_id``: from ``index`` when given (the
    console's read model), else a scan of the stored hands' ``HandStarted``
    (``audit.grouping.subject_index``)."""
    if index is not None:
        return list(index.hands_in(tournament_id))
    return [
        subject
        for subject, records in store.iter_subjects("poker")
        if any(
            r.get("type") == "HandStarted" and r.get("tournament_id") == tournament_id
            for r in records[:1]
        )
    ]
