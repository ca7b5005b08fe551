"""The parts of a hand's first and summary lines both rooms write alike.

* game: ``Hold'em No Limit`` (PHH ``NT``), ``Omaha Pot Limit`` or GGPoker's ``PLO``
  (``PO``), ``Omaha No Limit`` (``NO``); other games (5-card PLO, limit, stud) and
  tournaments are refused: this importer reads cash games of the variants the
  rulebooks cover;
* stakes: ``$0.01/$0.02`` (small and big blind), then an optional ISO code (``USD``),
  which gives the currency (``audit.ingest.room_text.common.money_for``);
* the summary's ``Total pot X | Rake Y | Jackpot Z …``: the rake is one ``RakeTaken``,
  every other named deduction its own ``FeeTaken`` (jackpot, bingo, fortune, tax are
  not rake: the rake cap is judged on the rake alone).
"""

from __future__ import annotations

import re

from audit.ingest.room_text.building import HandBuilder, Header
from audit.ingest.room_text.common import Line, TextError, amount, money_for, start_time

GAMES = {
    "Hold'em No Limit": "NT",
    "Omaha Pot Limit": "PO",
    "PLO": "PO",
    "Omaha No Limit": "NO",
}
_STAKES = re.compile(r"(?P<small>[^/ ]+)/(?P<big>[^/ ]+)(?: (?P<code>[A-Z]{3}))?")
_TOTAL = re.compile(r"Total pot (?P<total>\S+)(?P<pots>(?: (?:Main|Side) pot(?:-\d+)? \S+\.)*)")
_PART = re.compile(r"(?P<name>[A-Za-z]+) (?P<amount>\S+)")


def header(
    room: str, number: str, game: str, stakes: str, when: tuple[str, str, str | None]
) -> Header:
    """The ``Header`` of a cash hand; TextError for tournaments and other games."""
    if "Tournament" in game or number.startswith("TM"):
        raise TextError("a tournament hand: only cash games are imported")
    variant = GAMES.get(game)
    if variant is None:
        raise TextError(f"game {game[:60]!r} is not imported: expected one of {', '.join(GAMES)}")
    match = _STAKES.fullmatch(stakes)
    if match is None:
        raise TextError(f"stakes {stakes[:60]!r} are not small/big blind")
    money = money_for(f"{match.group('small')}/{match.group('big')}", match.group("code"))
    occurred_at, note = start_time(*when)
    return Header(
        room=room,
        hand_number=number,
        variant=variant,
        money=money,
        small_blind=amount(match.group("small"), money),
        big_blind=amount(match.group("big"), money),
        occurred_at=occurred_at,
        notes=[note] if note else [],
    )


def header_line(line: Line, pattern: re.Pattern[str], room: str, label: str) -> Header:
    """The ``Header`` of a room's first hand line, read by its ``pattern`` (groups ``id``,
    ``game``, ``stakes``, ``date``, ``time``, ``zone``); TextError naming the room's
    ``label`` when the line is not one."""
    match = pattern.fullmatch(line.text.rstrip())
    if match is None:
        raise line.error(f"not a {label} hand header")
    return header(
        room,
        match.group("id"),
        match.group("game"),
        match.group("stakes"),
        (match.group("date"), match.group("time"), match.group("zone")),
    )


def total_line(line: Line, builder: HandBuilder, fees: dict[str, str]) -> None:
    """``Total pot X[ Main pot Y. Side pot-1 Z.] | Rake R | Jackpot J …``: the rake and
    each fee named in ``fees`` (summary word -> ``FeeTaken.kind``); another word is a
    line not understood. The totals themselves are the room's arithmetic, not facts:
    the replayer recomputes them from the bets."""
    parts = line.text.rstrip().split(" | ")
    money = builder.header.money
    total = _TOTAL.fullmatch(parts[0])
    if total is None:
        raise line.error("not a Total pot line")
    amount(total.group("total"), money)
    for part in parts[1:]:
        match = _PART.fullmatch(part.strip())
        if match is None or (match.group("name") != "Rake" and match.group("name") not in fees):
            raise line.error(f"unknown deduction {part[:40]!r}")
        chips = amount(match.group("amount"), money)
        if match.group("name") == "Rake":
            builder.rake += chips
        else:
            builder.fee(fees[match.group("name")], chips)
