"""The line grammar GGPoker and PokerStars share, from the table line to the summary.

A hand is: the header (room-specific: ``ggpoker``, ``pokerstars``), ``Table '…' 6-max
Seat #4 is the button``, ``Seat N: NAME ($X in chips)`` lines, forced bets
(``NAME: posts small blind $X``, ``posts big blind``, ``posts the ante``, ``posts
straddle``, ``posts small & big blinds`` = a live big blind plus a dead small blind after
missed blinds, GG-2022 "Apostas perdidas"), ``*** HOLE CARDS ***``, ``Dealt to NAME
[Ah Kd]`` (blank when not disclosed), actions (``folds``, ``checks``, ``calls $X``,
``bets $X``, ``raises $X to $Y``, each possibly ``and is all-in``), streets (``*** FLOP
*** [..]``; ``*** FIRST FLOP ***``/``*** SECOND TURN ***``… when run twice; a turn or
river line whose card is blank, ``[]``, takes it from the summary's board),
``Uncalled bet ($X) returned to NAME``, GGPoker's ``Cash Drop to Pot : total $X`` (the
house's money put into the pot before the deal), ``*** SHOWDOWN ***`` (``FIRST``/``SECOND`` when
run twice), ``NAME: shows [..]``, ``NAME: mucks hand``, ``NAME collected $X from pot``
(``main pot``, ``side pot-N``), ``*** SUMMARY ***``, the room's ``Total pot`` line, the
boards and one ``Seat N: …`` line per seat (read for cards mucked and shown only there).

PokerStars' ``Hand cancelled`` rejects the hand (``CANCELLED``). Table chatter
(``NAME: sits out``, ``NAME is disconnected``, ``NAME said, "…"``) changes nothing and
is skipped, also between the table line and the seats (a rebuy tournament's
``NAME re-buys and receives 3000 chips for $10.00``, already in the seat's stack); any
other line is a ``TextError``, which rejects the hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from audit.ingest.room_text.building import HandBuilder, Header
from audit.ingest.room_text.common import Line, Names, TextError, amount, bracketed, cards
from audit.ingest.room_text.headers import Totals
from audit.ingest.room_text.lines import (
    BOUNTIES,
    NOTICES,
    TABLE_TALK,
    TOPPED_UP,
    action_of,
    post_of,
    verb_of,
)
from audit.ingest.room_text.reconcile import reconcile
from replayer.sessions.hands import REBUY_NOTE

_TABLE = re.compile(
    r"Table '(?P<table>.*)' (?:(?P<max>\d+)-max )?(?:\((?:Play|Real) Money\) )?"
    r"Seat #(?P<button>\d+) is the button"
)
_SEAT = re.compile(
    r"Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[^()]+?) in chips(?:, (?P<bounty>.+?) bounty)?\)"
    r"(?P<rest>.*)"
)
_SITTING_OUT = (" is sitting out", " out of hand", " will be allowed to play")
_STREET = re.compile(
    r"\*\*\* (?:(?P<run>FIRST|SECOND|THIRD) )?(?P<street>FLOP|TURN|RIVER) \*\*\* (?P<cards>.+)"
)
_SHOWDOWN = re.compile(r"\*\*\* (?:(?P<run>FIRST|SECOND|THIRD) )?SHOW ?DOWN \*\*\*")
_RUNS = {None: 0, "FIRST": 1, "SECOND": 2, "THIRD": 3}
_STREET_CARDS = {"FLOP": (1, 3), "TURN": (2, 1), "RIVER": (2, 1)}
_RETURNED = re.compile(r"Uncalled bet \((?P<amount>[^()]+)\) returned to (?P<name>.+)")
_COLLECTED = re.compile(
    r"(?P<amount>\S+) from (?:(?P<main>main )?pot|(?P<side>side pot)(?:-(?P<n>\d+))?)"
)
#: ``NAME cashed out the hand for $X`` with ``| Cash Out Fee $Y`` or, in PokerStars'
#: files without a fee, alone.
_CASHED_OUT = re.compile(r"(?P<amount>\S+)(?: \| Cash Out Fee (?P<fee>\S+))?")
_CASH_DROP = re.compile(r"Cash Drop to Pot : total (?P<amount>\S+)")
_SUMMARY_SEAT = re.compile(r"Seat (?P<seat>\d+): (?P<rest>.+)")
_SUMMARY_INFO = re.compile(
    r"(?:(?:FIRST|SECOND|THIRD) )?Board \[.*\]|Hand was run (?:twice|two times|three times)"
)
#: A run's name alone on its line, its ``Board [..]`` on the next (a GGPoker short deck
#: client's summary: ``FIRST`` / ``Board [Tc 8h Ah 6h Jd]``).
_RUN_NAME = frozenset({"FIRST", "SECOND", "THIRD"})
_SUMMARY_BOARD = re.compile(r"(?:(?P<run>FIRST|SECOND|THIRD) )?Board (?P<cards>\[.*\])")
_SUMMARY_WON = re.compile(r"(?:won|collected) \((?P<amount>[^()]+)\)")
_NOT_AWARDED = "(pot not awarded as player cashed out)"
#: PokerStars' ``Hand cancelled`` (the hand stopped before cards were dealt, nothing
#: collected): not a hand played, rejected with this reason.
CANCELLED = "the room cancelled this hand: nothing to judge"
BOUNTY_NOTE = "knockout bounties won are prize money outside the hand's chips: not stored"


@dataclass(frozen=True)
class Room:
    """What differs between rooms: the header, the ``Total pot`` line, their own lines."""

    name: str
    header: Callable[[Line], Header]
    total: Callable[[Line, HandBuilder], Totals]
    own_line: Callable[[str, int, HandBuilder], bool]
    """(rest of a ``NAME: …`` line, seat, builder) -> whether the room understood it."""


def parse_hand(lines: Sequence[Line], room: Room) -> HandBuilder:
    """Read one hand's lines; TextError names the line the importer does not understand."""
    line = lines[0]
    try:
        builder = HandBuilder(room.header(line))
        reader = _Reader(builder, room)
        for line in lines[1:]:
            reader.read(line)
    except TextError as error:
        error.line = line.number
        raise
    if not reader.summary:
        cut_short = TextError("the hand has no *** SUMMARY ***: it is cut short")
        cut_short.line = line.number
        raise cut_short
    reconcile(builder)
    return builder


def _seat_rest(match: re.Match[str]) -> bool:
    """Whether a line shaped like a seat line is one: nothing after the chips, or the
    player sits out (a player's own line may look like a seat line: names are free)."""
    rest = match.group("rest")
    return not rest or rest.startswith(_SITTING_OUT)


class _Reader:
    def __init__(self, builder: HandBuilder, room: Room) -> None:
        self.builder = builder
        self.room = room
        self.names = Names()
        self.absent = Names()
        self.table_read = False
        self.seating = False
        self.dealing = False
        self.summary = False
        self.award_run = 0
        self.run_name: str | None = None

    def read(self, line: Line) -> None:
        text = line.text
        if TOPPED_UP.fullmatch(text):
            self.builder.note(REBUY_NOTE)  # the stack's rise is recorded (issue 38)
        if not self.table_read:
            self._table(line)
            return
        if self.seating:
            match = _SEAT.fullmatch(text)
            if match and _seat_rest(match):
                self._seat(match, line)
                return
            if not self.builder.seats and TABLE_TALK.fullmatch(text):
                return  # PokerStars' re-buys before the seats: their chips are in the stacks
            self._end_seating(line)
        if text == "*** HOLE CARDS ***":
            self.dealing = True
        elif text == "*** SUMMARY ***":
            self._deal_unseen()
            self.summary = True
        elif self.summary:
            self._summary(line)
        elif text.startswith("Dealt to "):
            self._dealt(line)
        else:
            self._deal_unseen()
            self._play(line)

    def _table(self, line: Line) -> None:
        self.seating = True
        match = _TABLE.fullmatch(line.text)
        if match is None:
            raise line.error("expected the table line (Table '…' Seat #N is the button)")
        header, table = self.builder.header, match.group("table")
        tournament = (header.tournament_id or "").rpartition("/")[2]
        if tournament and not table.startswith(tournament):  # GG: Table '380' of many
            table = f"{tournament} {table}"
        header.table = table
        self.builder.header.button = int(match.group("button"))
        self.table_read = True

    def _end_seating(self, line: Line) -> None:
        self.seating = False
        if not self.builder.seats:
            raise line.error("expected a seat line (Seat N: NAME ($X in chips))")

    def _seat(self, match: re.Match[str], line: Line) -> None:
        seat, name, rest = int(match.group("seat")), match.group("name"), match.group("rest")
        tournament = self.builder.header.tournament_id is not None
        if rest and not (tournament and rest.startswith(" is sitting out")):
            self.absent.add(name, seat)  # a tournament deals in a player sitting out
            return
        self.names.add(name, seat)
        self.builder.sit(seat, name, amount(match.group("stack"), self.builder.header.money))

    def _deal_unseen(self) -> None:
        if self.dealing:
            self.builder.deal_unseen()
            self.dealing = False

    def _dealt(self, line: Line) -> None:
        text = line.text.rstrip()
        seat = self.names.ending(text, "Dealt to ")
        if seat is not None:
            self.builder.hole(seat, None)
            return
        split = self.names.split(text[len("Dealt to ") :], " [")
        if split is None:
            raise line.error("Dealt to an unknown player")
        self.builder.hole(split[0], cards("[" + split[1]))

    def _play(self, line: Line) -> None:
        text, builder, money = line.text, self.builder, self.builder.header.money
        if match := _STREET.fullmatch(text):
            street, run = match.group("street"), _RUNS[match.group("run")]
            count_groups, count = _STREET_CARDS[street]
            if count == 1 and match.group("cards").endswith(" []"):
                builder.board_unwritten(street.lower(), run)
                return
            groups = bracketed(match.group("cards"))
            if len(groups) != count_groups or len(groups[-1]) != count:
                raise line.error(f"a {street.lower()} line with wrong cards")
            builder.board(groups[-1], run)
        elif match := _SHOWDOWN.fullmatch(text):
            self.award_run = _RUNS[match.group("run")]
        elif match := _RETURNED.fullmatch(text):
            seat = self.names.seat_of.get(match.group("name"))
            if seat is None:
                raise line.error("an uncalled bet returned to an unknown player")
            builder.returned(seat, amount(match.group("amount"), money))
        elif text == "Hand cancelled":
            raise line.error(CANCELLED)
        elif match := _CASH_DROP.fullmatch(text):
            builder.house_money(amount(match.group("amount"), money), "Cash Drop")
        elif split := self.names.split(text, " collected "):
            self._collected(split[0], split[1], line)
        elif split := self.names.split(text, " cashed out the hand for "):
            cashed = _CASHED_OUT.fullmatch(split[1])
            if cashed is None:
                raise line.error("not understood")
            fee = cashed.group("fee")
            builder.ps_cashout(
                split[0],
                amount(cashed.group("amount"), money),
                amount(fee, money) if fee is not None else 0,
            )
        elif split := self.names.split(text, ": "):
            self._player(split[0], split[1], line)
        elif not self._chatter(text):
            raise line.error("not understood")

    def _collected(self, seat: int, rest: str, line: Line) -> None:
        collected = _COLLECTED.fullmatch(rest)
        if collected is None:
            raise line.error("not understood")
        side, number, main = collected.group("side"), collected.group("n"), collected.group("main")
        pot: int | None = int(number) if number else 1 if side else 0 if main else None
        chips = amount(collected.group("amount"), self.builder.header.money)
        self.builder.collect(seat, chips, pot, self.award_run)

    def _player(self, seat: int, rest: str, line: Line) -> None:
        builder, money = self.builder, self.builder.header.money
        verb = verb_of(rest)
        if posted := post_of(verb):
            builder.post_kinds(seat, posted[0], amount(posted[1], money))
        elif acted := action_of(verb):
            action, match = acted
            groups = match.groupdict()
            if action == "raise":
                builder.act(
                    seat, "raise", to=amount(groups["to"], money), by=amount(groups["by"], money)
                )
            else:
                builder.act(seat, action, amount(groups["amount"], money) if groups else 0)
        elif verb.startswith("shows ["):
            builder.show(seat, cards(verb[6 : verb.index("]") + 1]), mucked=False)
        elif verb == "mucks hand":
            builder.show(seat, [], mucked=True)
        elif verb.startswith("mucks ["):
            builder.show(seat, cards(verb[6 : verb.index("]") + 1]), mucked=True)
        elif verb in ("doesn't show hand", "does not show", "shows hand") or TABLE_TALK.fullmatch(
            f"x: {verb}"
        ):
            return
        elif not self.room.own_line(verb, seat, builder):
            raise line.error("not understood")

    def _chatter(self, text: str) -> bool:
        """Lines about the table, not the hand (any name, seated or not), dealer notices
        and tournament bounties (prize money, not this hand's chips)."""
        if NOTICES.fullmatch(text) or TABLE_TALK.fullmatch(text):
            return True
        if BOUNTIES.fullmatch(text):
            self.builder.note(BOUNTY_NOTE)
            self.builder.note(f"bounty line: {text}")
            return True
        return False

    def _summary(self, line: Line) -> None:
        text, builder = line.text, self.builder
        if text.startswith("Total pot "):
            if builder.totals is not None:
                raise line.error("a second Total pot line")
            builder.totals = self.room.total(line, builder)
        elif text in _RUN_NAME:
            self.run_name = text
        elif _SUMMARY_INFO.fullmatch(text):
            if board := _SUMMARY_BOARD.fullmatch(text):
                run = _RUNS[board.group("run") or self.run_name]
                builder.summary_boards[run] = (cards(board.group("cards")), line.number)
            self.run_name = None
        elif match := _SUMMARY_SEAT.fullmatch(text):
            seat = int(match.group("seat"))
            if seat not in builder.seats:
                if seat not in self.absent.seat_of.values():
                    raise line.error(f"summary of seat {seat}, which is not dealt in")
                return
            rest = match.group("rest")
            won = [
                amount(m.group("amount"), builder.header.money) for m in _SUMMARY_WON.finditer(rest)
            ]
            builder.summary_won[seat] = (sum(won), line.number)
            if _NOT_AWARDED in rest:
                builder.not_awarded(seat, sum(won))
            if " mucked [" in rest:
                shown = {b[1]["seat"] for b in builder.shows}
                if seat not in shown:
                    mucked = bracketed(rest[rest.index(" mucked [") + 8 :])[0]
                    builder.show(seat, mucked, mucked=True, late=True)
        elif not NOTICES.fullmatch(text) and not TABLE_TALK.fullmatch(text):
            raise line.error("not understood in the summary")
