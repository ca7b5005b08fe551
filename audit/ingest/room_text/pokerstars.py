"""PokerStars text hand histories (``PokerStars Hand #…``), cash games.

Header: ``PokerStars Hand #123456789: Hold'em No Limit ($0.05/$0.10 USD) - 2024/01/15
14:30:00 UTC [2024/01/15 9:30:00 ET]`` (``PokerStars Zoom Hand``, ``PokerStars Game`` too);
the first date and zone are the hand's time. Only the requester's hole cards are listed:
every other player is dealt ``??`` cards. Summary: ``Total pot $21.50 Main pot $15.00.
Side pot $6.00. | Rake $0.50``. A PokerStars hand has no default rulebook: name one with
``ingest --rulebook``.
"""

from __future__ import annotations

import re

from audit.ingest.room_text.building import HandBuilder, Header
from audit.ingest.room_text.common import Line
from audit.ingest.room_text.headers import Totals, header_line, total_line
from audit.ingest.room_text.parser import Room

NAME = "pokerstars"
HEADER = re.compile(
    r"PokerStars (?:(?:Zoom|Home Game|Rush|Fast|Spin & Go|Unlimited Hold'em) )?(?:Hand|Game) "
    r"#(?P<id>\d+):\s+(?:\{(?P<club>[^{}]*)\}\s+)?(?P<rest>.+)"
)


def _header(line: Line) -> Header:
    header = header_line(line, HEADER, NAME, "PokerStars")
    club = HEADER.fullmatch(line.text.strip())
    if club and club.group("club") is not None:
        header.notes.append(f"Home Game club {{{club.group('club')}}}")
    return header


def _total(line: Line, builder: HandBuilder) -> Totals:
    return total_line(line, builder, {})


def _own_line(rest: str, seat: int, builder: HandBuilder) -> bool:
    return False


ROOM = Room(NAME, _header, _total, _own_line)


__all__ = ["NAME", "ROOM"]
