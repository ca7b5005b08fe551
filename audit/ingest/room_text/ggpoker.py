"""GGPoker text hand histories (``Poker Hand #HD…``), cash games and tournaments.

Header: ``Poker Hand #HD2255183008: Hold'em No Limit ($0.01/$0.02) - 2025/04/07
23:48:32`` (``RC…`` Rush & Cash, ``OM…`` omaha; ``TM…`` tournaments, in chips). GGPoker
writes no time zone: the time is read in the zone the operator declares for the room's
clock (``ingest --header-zone``), and the hand's ``source`` says so; without one the
hand is quarantined (``headers.in_declared_zone``). Player names are hashed
(``9db941d0``) except the requester's (``Hero``); opponents' hole cards are blank unless
shown.

Summary: ``Total pot $10.96 | Rake $0.5 | Jackpot $0.05 | Bingo $0 | Fortune $0 | Tax $0``:
rake and each fee are separate events. Lines GGPoker alone writes:

* ``NAME: Chooses to EV Cashout``: nothing moves yet;
* ``NAME: Pays Cashout Risk ($X)``: the player pays the house X outside the pot
  (``FeeTaken`` kind ``cashout_risk`` with the seat);
* ``NAME: Receives Cashout ($X)``: the house pays the player X outside the pot
  (``CashoutPaid``);
* ``NAME: pay premium of all-in insurance ($X)``: ``FeeTaken`` kind ``insurance``.

Default rulebook (no ``--rulebook``): ``gg-2022-cash-holdem`` for NT, ``gg-2022-cash-omaha``
for PO and NO, ``gg-2022-tournament-holdem`` / ``-omaha`` for a tournament hand
(``TM…``), when the hand's date is within its period (``RULEBOOKS``,
``TOURNAMENT_RULEBOOKS``).
"""

from __future__ import annotations

import re

from audit.ingest.room_text.building import HandBuilder, Header
from audit.ingest.room_text.common import Line, TextError, amount
from audit.ingest.room_text.headers import Totals, header_line, total_line
from audit.ingest.room_text.parser import Room

NAME = "ggpoker"
#: The rulebook a GG hand naming none is judged under, by variant.
RULEBOOKS = {"NT": "gg-2022-cash-holdem", "PO": "gg-2022-cash-omaha", "NO": "gg-2022-cash-omaha"}
#: The rulebook a GG tournament hand naming none is judged under, by variant.
TOURNAMENT_RULEBOOKS = {
    "NT": "gg-2022-tournament-holdem",
    "PO": "gg-2022-tournament-omaha",
    "NO": "gg-2022-tournament-omaha",
}
FEES = {"Jackpot": "jackpot", "Bingo": "bingo", "Fortune": "fortune", "Tax": "tax"}
HEADER = re.compile(r"Poker Hand #(?P<id>[A-Z]{0,3}\d+): (?P<rest>.+)")
#: ``NAME: get an all-in insurance (premium ($0/$4/$0) for ($0/$10.8/$0) -
#: (Mandatory/Main/Sub))``: the offer taken; the premium moves on its own line.
_INSURED = "get an all-in insurance ("
_PAID = re.compile(
    r"(?P<what>Pays Cashout Risk|Receives Cashout|pay premium of all-in "
    r"insurance) \((?P<amount>[^()]+)\)"
)


def _header(line: Line) -> Header:
    return header_line(line, HEADER, NAME, "GGPoker")


def _total(line: Line, builder: HandBuilder) -> Totals:
    return total_line(line, builder, FEES)


def _own_line(rest: str, seat: int, builder: HandBuilder) -> bool:
    if rest == "Chooses to EV Cashout" or rest.startswith(_INSURED):
        return True
    match = _PAID.fullmatch(rest)
    if match is None:
        return False
    chips = amount(match.group("amount"), builder.header.money)
    what = match.group("what")
    if what == "Receives Cashout":
        builder.cashout(seat, chips)
    else:
        builder.fee("cashout_risk" if what.startswith("Pays") else "insurance", chips, seat)
    return True


ROOM = Room(NAME, _header, _total, _own_line)


def rulebook_id(variant: str, *, tournament: bool) -> str | None:
    """The GG-2022 book for a hand of ``variant`` (a tournament's or a cash game's), or None."""
    return (TOURNAMENT_RULEBOOKS if tournament else RULEBOOKS).get(variant)


__all__ = [
    "NAME",
    "ROOM",
    "RULEBOOKS",
    "TOURNAMENT_RULEBOOKS",
    "TextError",
    "rulebook_id",
]
