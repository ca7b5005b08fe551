"""The hand header both rooms write alike after their own prefix, and the summary line.

After the room's prefix (``PokerStars Hand #…:``, ``Poker Hand #HD…:``) both rooms write
one of two shapes, as the real files show:

* cash: ``GAME (STAKES) - DATE`` (``Hold'em No Limit ($0.05/$0.10 USD)``; GG sometimes
  two spaces before the stakes; PokerStars' mixed tables
  ``Mixed NLH/PLO (Hold'em No Limit, $0.10/$0.25 USD)``; PokerStars' capped tables
  ``($0.25/$0.50 - $10 Cap - USD)``, the cap noted in the hand's source; antes in the stakes
  ``($0.5/$1($0.2))``; GG short deck an ante alone ``($0.02)``);
* tournament: ``Tournament #ID, BUY-IN GAME - [Match Round I, ]Level L (SB/BB) - DATE``
  (``$3.19+$0.31 USD``, ``Freeroll``, ``100FPP``, a bounty's third part; GG writes the
  tournament's name there and ``Level12(200/400)`` without a space; PokerStars' mixed
  events ``8-Game (Hold'em Limit)``). A tournament hand is played for chips: currency
  ``CHIPS``, one chip a unit, ``tournament_id`` ``<room>/<tournament number>``.

DATE is ``2024/01/15 14:30:00 ET``, optionally followed by ``[2024/01/15 9:30:00 ET]``
(a local zone first, Eastern time in brackets: the bracketed time is read, the room's
own clock), or the older ``2009/10/12 - 23:45:12 (ET)``. GGPoker writes no zone: such a
hand takes the zone the operator declares for its room's clock (``ingest --header-zone
ZONE``, noted in the hand's source), and without one it is quarantined, never read as
UTC by guess (``in_declared_zone``).

Games (``GAMES``, PHH variant codes): no-limit hold'em ``NT``, fixed-limit hold'em
``FT`` (the stakes are the small and big bet), pot-limit omaha ``PO`` (4 cards),
``PO5``, ``PO6``, no-limit omaha ``NO``, no-limit short deck (36 cards) ``NS``. Any
other game is a rejection naming it (``game not supported: 7 Card Stud Limit``), and so
is a split game (PokerStars' ``Split Hold'em No Limit``, two boards bet from the flop,
is not hold'em: ``_SPLIT``).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from audit.grouping.tournament_hands import level_note
from audit.ingest.errors import cap
from audit.ingest.notation.amounts import Money
from audit.ingest.room_text.building import HandBuilder, Header
from audit.ingest.room_text.common import (
    Line,
    TextError,
    amount,
    in_zone,
    local_time,
    money_for,
    shown,
    tournament_money,
)

GAMES = {
    "Hold'em No Limit": "NT",
    "Hold'em Limit": "FT",
    "Omaha Pot Limit": "PO",
    "PLO": "PO",
    "Omaha No Limit": "NO",
    "5 Card Omaha Pot Limit": "PO5",
    "PLO-5": "PO5",
    "PLO5": "PO5",
    "6 Card Omaha Pot Limit": "PO6",
    "PLO-6": "PO6",
    "PLO6": "PO6",
    "6+ Hold'em No Limit": "NS",
    "Hold'em Short Deck No Limit": "NS",
    "ShortDeck No Limit": "NS",
}
_DATE = (
    r"(?P<date>\d{4}/\d{1,2}/\d{1,2})(?: -)? (?P<time>\d{1,2}:\d{2}:\d{2})"
    r"(?: \(?(?P<zone>[A-Z]{2,5})\)?)?"
    r"(?: \[(?P<date2>\d{4}/\d{1,2}/\d{1,2}) (?P<time2>\d{1,2}:\d{2}:\d{2})"
    r" (?P<zone2>[A-Z]{2,5})\])?"
)
_STAKES = r"\((?P<stakes>(?:[^()]|\([^()]*\))*)\)"
_TOURNAMENT = re.compile(
    r"(?:Zoom )?Tournament #(?P<tournament>\d+),? (?P<event>.*?)\s*- (?:Match Round [IVXLC\d]+, )?"
    r"Level ?(?P<level>[IVXLC\d]+) ?" + _STAKES + r" - " + _DATE
)
_CASH = re.compile(r"(?P<game>.+?)\s+" + _STAKES + r" - " + _DATE)
_BLINDS = re.compile(
    r"(?P<small>[^/ ()]+)/(?P<big>[^/ ()]+)(?:/(?P<third>[^/ ()]+))?"
    r"(?:\((?P<ante>[^()]+)\))?(?: (?P<code>[A-Z]{3}))?"
)
#: GG short deck ``($0.02)``, PokerStars 6+ ``(Button Blind $2 - Ante $2 USD)``: the
#: ante, and the button blind (a live blind of the same size when not said).
_ANTE_ONLY = re.compile(
    r"(?:Button Blind (?P<button>\S+) - Ante )?(?P<ante>[^/ ()]+)(?: (?P<code>[A-Z]{3}))?"
)
#: A tournament's buy-in before its game: ``$3.19+$0.31 USD``, ``Freeroll``, ``100FPP``.
_BUY_IN = re.compile(
    r"^(?:(?:[$€£][\d.,]+(?:\+[$€£]?[\d.,]+)*|[\d.,]+(?:\+[\d.,]+)+|\d+ ?FPP|Freeroll)"
    r"(?: [A-Z]{3})?\s+)+"
)
#: PokerStars' capped no-limit tables: ``($0.25/$0.50 - $10 Cap - USD)``.
_CAP = re.compile(r" - (?P<cap>\S+) Cap -")
_PART = re.compile(r"(?P<name>[A-Za-z ]+?):? (?P<amount>\S+)")
_TOTAL = re.compile(r"Total pot (?P<total>\S+)(?P<pots>(?: (?:Main|Side) pot(?:-\d+)? \S+\.)*)")
_POT = re.compile(r" (?P<kind>Main|Side) pot(?:-(?P<n>\d+))? (?P<amount>\S+?)\.(?= |$)")


#: A tournament's summary (``PokerStars Tournament #3200000004, No Limit Hold'em``, then
#: its buy-in, players and places): the tournament's results, which a hands folder may hold.
_TOURNAMENT_SUMMARY = re.compile(r"PokerStars Tournament #\d+, ")

#: PokerStars' split games (``Split Hold'em No Limit``): two boards bet on from the
#: flop, each board half the pot: a game of their own, not the one their name ends with.
_SPLIT = re.compile(r"(?:^|\s)Split $")


@dataclass(frozen=True)
class Game:
    """The game part of a header: the variant code, or the name of a game not read."""

    variant: str | None
    name: str


def game_of(text: str) -> Game:
    """The game named at the end of ``text`` (a tournament puts its name and buy-in
    before it; a mixed event puts the game in brackets)."""
    text = text.strip()
    inner = re.fullmatch(r".*\((?P<game>[^()]+)\)", text)
    if inner:
        text = inner.group("game")
    for name in sorted(GAMES, key=len, reverse=True):
        if text == name or text.endswith(" " + name):
            if _SPLIT.search(text[: -len(name)]):
                break
            return Game(GAMES[name], name)
    return Game(None, _BUY_IN.sub("", text))


def _unsupported(game: Game) -> TextError:
    return TextError(f"game not supported: {cap(game.name, 80)}")


def header_rest(room: str, number: str, rest: str) -> Header:
    """The ``Header`` of a hand from the text after the room's prefix."""
    rest = rest.rstrip()
    if match := _TOURNAMENT.fullmatch(rest):
        game = game_of(match.group("event"))
        if game.variant is None:
            raise _unsupported(game)
        money = tournament_money()
        header = _stakes_header(room, number, game.variant, match, money)
        header.tournament_id = f"{room}/{match.group('tournament')}"
        header.level = match.group("level")
        header.notes.append(level_note(header.level))
        return header
    match = _CASH.fullmatch(rest)
    if match is None:
        raise TextError(f"not a hand header: {cap(repr(rest), 200)}")
    game = game_of(match.group("game"))
    stakes = match.group("stakes")
    if game.name.startswith("Mixed ") and ", " in stakes:  # Mixed NLH/PLO (GAME, STAKES)
        inner, stakes = stakes.split(", ", 1)
        game = game_of(inner)
    if game.variant is None:
        raise _unsupported(game)
    return _stakes_header(room, number, game.variant, match, None, stakes)


def _stakes_header(
    room: str,
    number: str,
    variant: str,
    match: re.Match[str],
    money: Money | None,
    stakes: str | None = None,
) -> Header:
    stakes = " ".join((match.group("stakes") if stakes is None else stakes).split())
    capped = _CAP.search(stakes)
    if capped:
        stakes = stakes[: capped.start()] + stakes[capped.end() :]
    blinds = _BLINDS.fullmatch(stakes)
    ante_only = _ANTE_ONLY.fullmatch(stakes) if blinds is None else None
    if blinds is None and ante_only is None:
        raise TextError(f"stakes {cap(repr(stakes), 60)} are not small/big blind")
    parts = blinds or ante_only
    assert parts is not None
    if money is None:
        shown = [
            parts.group(g) for g in ("small", "big", "ante", "button") if g in parts.re.groupindex
        ]
        money = money_for("/".join(a for a in shown if a), parts.group("code"))
    if blinds is not None:
        small, big = amount(blinds.group("small"), money), amount(blinds.group("big"), money)
        ante = amount(blinds.group("ante"), money) if blinds.group("ante") else 0
    else:
        assert ante_only is not None
        ante = amount(ante_only.group("ante"), money)
        button = ante_only.group("button")
        small, big = 0, amount(button, money) if button else ante
    if match.group("date2"):  # the bracketed Eastern time is the room's own clock
        when = (match.group("date2"), match.group("time2"), match.group("zone2"))
    else:
        when = (match.group("date"), match.group("time"), match.group("zone"))
    local = local_time(when[0], when[1])
    zone = when[2]
    return Header(
        room=room,
        hand_number=number,
        variant=variant,
        money=money,
        small_blind=small,
        big_blind=big,
        occurred_at=in_zone(local, zone) if zone else local.replace(tzinfo=dt.UTC),
        header_ante=ante,
        local_time=None if zone else local,
        notes=[_cap_note(amount(capped.group("cap"), money), money)] if capped else [],
    )


def _cap_note(cap_chips: int, money: Money) -> str:
    """The note a capped table's hand carries (``_CAP``): PokerStars' cap games limit
    what a player puts in during one hand; the action lines and summary show the cap
    reached (``and has reached the $10 cap``), the schema has no field for it, so it is
    stated in the hand's source and not judged."""
    return (
        f"capped table: a player puts in at most {shown(cap_chips, money)} in a hand "
        "(the header's cap; noted, not judged)"
    )


def in_declared_zone(header: Header, declared: str | None, line: int) -> None:
    """Give a header (at ``line``) without a zone its time in the operator's ``declared``
    zone (noted in the hand's source); TextError when none is declared: the hand is
    quarantined, its time never guessed."""
    if header.local_time is None:
        return
    if declared is None:
        error = TextError(
            "the header gives no time zone (GGPoker writes none): declare the zone of "
            "the room's clock with ingest --header-zone ZONE (e.g. UTC, Europe/Malta)"
        )
        error.field, error.line = "time zone", line
        raise error
    header.occurred_at = in_zone(header.local_time, declared)
    header.notes.append(f"time zone not in the header: {declared}, declared by the operator")
    header.local_time = None


def header_line(line: Line, pattern: re.Pattern[str], room: str, label: str) -> Header:
    """The ``Header`` of a room's first hand line: ``pattern`` gives the hand number
    (``id``) and the rest of the line (``rest``); TextError naming the room's ``label``
    when the line is not one."""
    match = pattern.fullmatch(line.text.strip())
    if match is None and _TOURNAMENT_SUMMARY.match(line.text.strip()):
        raise line.error(
            f"a {label} tournament summary (its results), not a hand: nothing to judge"
        )
    if match is None:
        raise line.error(f"not a {label} hand header")
    return header_rest(room, match.group("id"), match.group("rest"))


@dataclass
class Totals:
    """The summary's own figures, kept to check the hand against (``check``)."""

    total: int = 0
    pots: list[int] | None = None
    deductions: int = 0
    line: int = 0


def total_line(line: Line, builder: HandBuilder, fees: dict[str, str]) -> Totals:
    """``Total pot X[ Main pot Y. Side pot-1 Z.] | Rake R | Jackpot J …``: the rake and
    each fee named in ``fees`` (summary word -> ``FeeTaken.kind``); another word is a
    line not understood. The total and the pots are kept as the summary's figures,
    which the hand read from its action lines must agree with (``reconcile``)."""
    parts = line.text.strip().split("|")
    money = builder.header.money
    total = _TOTAL.fullmatch(parts[0].strip())
    if total is None:
        raise line.error("not a Total pot line")
    totals = Totals(amount(total.group("total"), money), line=line.number)
    pots = [
        (m.group("kind"), m.group("n"), amount(m.group("amount"), money))
        for m in _POT.finditer(total.group("pots"))
    ]
    if pots:
        totals.pots = [chips for _, _, chips in pots]
    for part in parts[1:]:
        part = part.strip()
        if not part:
            continue
        match = _PART.fullmatch(part)
        name = match.group("name").strip() if match else ""
        if match is None or (name != "Rake" and name not in fees):
            raise line.error(f"unknown deduction {part[:40]!r}")
        chips = amount(match.group("amount"), money)
        totals.deductions += chips
        if name == "Rake":
            builder.rake += chips
        else:
            builder.fee(fees[name], chips)
    return totals
