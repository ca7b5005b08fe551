"""The rooms a text hand history may come from: one record per room (``ROOMS``).

Detection (``detect.is_room_text``), splitting (``blocks.split``) and reading
(``reader``) iterate this table and nothing else: a room's hand opens with a line its
``first_line`` matches (at the line's start; the content, never the file name). A room
with a ``grammar`` (``parser.Room``: its header, ``Total pot`` line and own lines) is read
into events; a room without one is recognised so that its hands are rejected by name
("room not supported: Winamax") rather than as text belonging to no hand. Supporting a
room is giving its record a grammar (and, when its house rules are in the registry, a
default ``rulebook``).

``later_line`` is the stricter form of a hand's first line that makes a file of hands
when it is not the file's first line (a note that merely begins ``PokerStars `` does not);
None: ``first_line``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from audit.ingest.room_text import ggpoker, pokerstars
from audit.ingest.room_text.parser import Room


@dataclass(frozen=True)
class RoomKind:
    """One room whose hand histories a file may hold (module docstring)."""

    label: str
    """The room's name as people know it, in rejections."""
    first_line: re.Pattern[str]
    grammar: Room | None = None
    later_line: re.Pattern[str] | None = None
    rulebook: Callable[[str, bool], str | None] | None = None
    """(variant, tournament) -> the room's own rulebook id for a hand, or None (no
    default: ``ingest --rulebook`` names one)."""

    def opens(self, text: str, *, later: bool = False) -> bool:
        """Whether ``text`` is the first line of one of this room's hands (``later``: a
        line after a file's first, ``later_line``)."""
        pattern = self.later_line if later and self.later_line is not None else self.first_line
        return pattern.match(text) is not None


def _gg_rulebook(variant: str, tournament: bool) -> str | None:
    return ggpoker.rulebook_id(variant, tournament=tournament)


ROOMS: tuple[RoomKind, ...] = (
    RoomKind(
        "GGPoker",
        re.compile(r"Poker Hand #"),
        ggpoker.ROOM,
        re.compile(r"Poker Hand #\w+: "),
        _gg_rulebook,
    ),
    RoomKind(
        "PokerStars",
        re.compile(r"PokerStars "),
        pokerstars.ROOM,
        re.compile(r"PokerStars (?:[\w&' ]+ )?(?:(?:Hand|Game) #\d+:|Tournament #\d+,)"),
    ),
    RoomKind("Winamax", re.compile(r"Winamax Poker - ")),
    RoomKind("PartyPoker", re.compile(r"\*{5} Hand History for Game \d+|Game #\d+ starts\.")),
    RoomKind("888poker", re.compile(r"#Game No : \d+|\*{5} (?:Cassava|888poker|888) Hand History")),
    RoomKind("Full Tilt Poker", re.compile(r"Full Tilt Poker Game #")),
    RoomKind("Everleaf", re.compile(r"Everleaf Gaming Game #")),
    RoomKind(
        "iPoker or XML export",
        re.compile(r"<\?xml |<session |<description |<game |<HandHistory"),
    ),
    RoomKind("Winning Poker Network", re.compile(r"Game Hand #\d+ - ")),
    RoomKind("Ignition / Bovada", re.compile(r"Hand #\d+ - [^:]+ - ")),
    RoomKind("PartyPoker", re.compile(r"\*\*\*\*\* Hand History [Ff]or Game")),
    RoomKind("PKR", re.compile(r"PKR - ")),
    # PokerStars' clients write their hand histories in the player's language
    # (``Mão PokerStars #137737997245: Torneio #…``); only the English text is read.
    RoomKind(
        "PokerStars in a language other than English",
        re.compile(r"[^\W\d_]+ PokerStars (?:#|n°|Nr\.? ?#?)\d+"),
    ),
)
"""Every room, those read here first (a line is the first room's that it opens)."""

READ_HERE = " or ".join(kind.label for kind in ROOMS if kind.grammar is not None)
"""The rooms read here, as a rejection names them ("GGPoker or PokerStars")."""


def room_at(text: str, *, later: bool = False) -> RoomKind | None:
    """The room one of whose hands ``text`` opens, or None (``RoomKind.opens``)."""
    return next((kind for kind in ROOMS if kind.opens(text, later=later)), None)
