"""The line grammar GGPoker and PokerStars share, from the table line to the summary.

A hand is: the header (room-specific: ``ggpoker``, ``pokerstars``), ``Table '…' 6-max
Seat #4 is the button``, ``Seat N: NAME ($X in chips)`` lines, forced bets
(``NAME: posts small blind $X``, ``posts big blind``, ``posts the ante``, ``posts
straddle``, ``posts small & big blinds`` = a live big blind plus a dead small blind after
missed blinds, GG-2022 "Apostas perdidas"), ``*** HOLE CARDS ***``, ``Dealt to NAME
[Ah Kd]`` (blank when not disclosed), actions (``folds``, ``checks``, ``calls $X``,
``bets $X``, ``raises $X to $Y``, each possibly ``and is all-in``), streets (``*** FLOP
*** [..]``; ``*** FIRST FLOP ***``/``*** SECOND TURN ***``… when run twice),
``Uncalled bet ($X) returned to NAME``, ``*** SHOWDOWN ***`` (``FIRST``/``SECOND`` when
run twice), ``NAME: shows [..]``, ``NAME: mucks hand``, ``NAME collected $X from pot``
(``main pot``, ``side pot-N``), ``*** SUMMARY ***``, the room's ``Total pot`` line, the
boards and one ``Seat N: …`` line per seat (read for cards mucked and shown only there).

Table chatter (``NAME: sits out``, ``NAME is disconnected``, ``NAME said, "…"``) changes
nothing and is skipped; any other line is a ``TextError``, which rejects the hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from audit.ingest.room_text.building import HandBuilder, Header
from audit.ingest.room_text.common import Line, Names, TextError, amount, bracketed, cards

_TABLE = re.compile(
    r"Table '(?P<table>.*)' (?:(?P<max>\d+)-max )?(?:\((?:Play|Real) Money\) )?"
    r"Seat #(?P<button>\d+) is the button"
)
_SEAT = re.compile(r"Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[^()]+?) in chips\)(?P<rest>.*)")
_SITTING_OUT = (" is sitting out", " out of hand")
_STREET = re.compile(
    r"\*\*\* (?:(?P<run>FIRST|SECOND|THIRD) )?(?P<street>FLOP|TURN|RIVER) \*\*\* (?P<cards>.+)"
)
_SHOWDOWN = re.compile(r"\*\*\* (?:(?P<run>FIRST|SECOND|THIRD) )?SHOWDOWN \*\*\*")
_RUNS = {None: 0, "FIRST": 1, "SECOND": 2, "THIRD": 3}
_STREET_CARDS = {"FLOP": (1, 3), "TURN": (2, 1), "RIVER": (2, 1)}
_RETURNED = re.compile(r"Uncalled bet \((?P<amount>[^()]+)\) returned to (?P<name>.+)")
_COLLECTED = re.compile(
    r"(?P<amount>\S+) from (?:(?:main )?pot|(?P<side>side pot)(?:-(?P<n>\d+))?)"
)
_POSTS = {
    "posts small blind ": ("small_blind",),
    "posts big blind ": ("big_blind",),
    "posts the ante ": ("ante",),
    "posts ante ": ("ante",),
    "posts straddle ": ("straddle",),
    "posts small & big blinds ": ("missed_big_blind", "dead_small_blind"),
}
_RAISE = re.compile(r"raises (?P<by>\S+) to (?P<to>\S+)")
_ALL_IN = " and is all-in"
#: Lines about the table, not the hand (``NAME: sits out``; ``NAME is disconnected``).
_CHATTER_VERBS = (
    "sits out",
    "is sitting out",
    "has timed out",
    "is disconnected",
    "is connected",
    "has returned",
    "leaves the table",
    "is away",
)
_CHATTER_SUFFIXES = (
    " is disconnected",
    " is connected",
    " has timed out",
    " leaves the table",
    " has returned",
    " is sitting out",
    " sits out",
    " will be allowed to play after the button",
    " was removed from the table",
)
_CHATTER = re.compile(r"(?P<name>.+?) (?:joins the table at seat #\d+|said, \".*\")")
_SUMMARY_SEAT = re.compile(r"Seat (?P<seat>\d+): (?P<rest>.+)")
_SUMMARY_INFO = re.compile(
    r"(?:(?:FIRST|SECOND|THIRD) )?Board \[.*\]|Hand was run (?:twice|two times|three times)"
)


@dataclass(frozen=True)
class Room:
    """What differs between rooms: the header, the ``Total pot`` line, their own lines."""

    name: str
    header: Callable[[Line], Header]
    total: Callable[[Line, HandBuilder], None]
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
        error = TextError("the hand has no *** SUMMARY ***: it is cut short")
        error.line = line.number
        raise error
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

    def read(self, line: Line) -> None:
        text = line.text
        if not self.table_read:
            self._table(line)
            return
        if self.seating:
            match = _SEAT.fullmatch(text)
            if match and _seat_rest(match):
                self._seat(match, line)
                return
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
        self.builder.header.table = match.group("table")
        self.builder.header.button = int(match.group("button"))
        self.table_read = True

    def _end_seating(self, line: Line) -> None:
        self.seating = False
        if not self.builder.seats:
            raise line.error("expected a seat line (Seat N: NAME ($X in chips))")

    def _seat(self, match: re.Match[str], line: Line) -> None:
        seat, name, rest = int(match.group("seat")), match.group("name"), match.group("rest")
        if rest:
            self.absent.add(name, seat)
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
            groups = bracketed(match.group("cards"))
            count_groups, count = _STREET_CARDS[match.group("street")]
            if len(groups) != count_groups or len(groups[-1]) != count:
                raise line.error(f"a {match.group('street').lower()} line with wrong cards")
            builder.board(groups[-1], _RUNS[match.group("run")])
        elif match := _SHOWDOWN.fullmatch(text):
            self.award_run = _RUNS[match.group("run")]
        elif match := _RETURNED.fullmatch(text):
            seat = self.names.seat_of.get(match.group("name"))
            if seat is None:
                raise line.error("an uncalled bet returned to an unknown player")
            builder.returned(seat, amount(match.group("amount"), money))
        elif split := self.names.split(text, " collected "):
            collected = _COLLECTED.fullmatch(split[1])
            if collected is None:
                raise line.error("not understood")
            side, number = collected.group("side"), collected.group("n")
            pot = int(number) if number else int(side is not None)
            builder.collect(split[0], amount(collected.group("amount"), money), pot, self.award_run)
        elif split := self.names.split(text, ": "):
            self._player(split[0], split[1], line)
        elif not self._chatter(text):
            raise line.error("not understood")

    def _player(self, seat: int, rest: str, line: Line) -> None:
        builder, money = self.builder, self.builder.header.money
        verb = rest.removesuffix(_ALL_IN)
        for prefix, kinds in _POSTS.items():
            if verb.startswith(prefix):
                total = amount(verb[len(prefix) :], money)
                if len(kinds) == 2:  # a live big blind and a dead small blind
                    big = min(builder.header.big_blind, total)
                    builder.post(seat, kinds[0], big)
                    if total > big:
                        builder.post(seat, kinds[1], total - big)
                else:
                    builder.post(seat, kinds[0], total)
                return
        if verb == "folds" or verb.startswith("folds ["):
            builder.act(seat, "fold")
        elif verb == "checks":
            builder.act(seat, "check")
        elif verb.startswith("calls "):
            builder.act(seat, "call", amount(verb[6:], money))
        elif verb.startswith("bets "):
            builder.act(seat, "bet", amount(verb[5:], money))
        elif match := _RAISE.fullmatch(verb):
            amount(match.group("by"), money)  # checked, not used: "to" is the total
            builder.act(seat, "raise", to=amount(match.group("to"), money))
        elif verb.startswith("shows ["):
            builder.show(seat, cards(verb[6 : verb.index("]") + 1]), mucked=False)
        elif verb == "mucks hand":
            builder.show(seat, [], mucked=True)
        elif verb.startswith("mucks ["):
            builder.show(seat, cards(verb[6 : verb.index("]") + 1]), mucked=True)
        elif verb in ("doesn't show hand", "does not show") or verb in _CHATTER_VERBS:
            return
        elif not self.room.own_line(verb, seat, builder):
            raise line.error("not understood")

    def _chatter(self, text: str) -> bool:
        """Lines about the table, not the hand, by a seated or absent player."""
        for suffix in _CHATTER_SUFFIXES:
            name = text.removesuffix(suffix)
            if name != text and (name in self.names.seat_of or name in self.absent.seat_of):
                return True
        if (split := self.absent.split(text, ": ")) and split[1] in _CHATTER_VERBS:
            return True
        return _CHATTER.fullmatch(text) is not None

    def _summary(self, line: Line) -> None:
        text = line.text
        if text.startswith("Total pot "):
            self.room.total(line, self.builder)
        elif _SUMMARY_INFO.fullmatch(text):
            return
        elif match := _SUMMARY_SEAT.fullmatch(text):
            seat = int(match.group("seat"))
            if seat not in self.builder.seats and seat not in self.absent.seat_of.values():
                raise line.error(f"summary of seat {seat}, which is not dealt in")
            rest = match.group("rest")
            if " mucked [" in rest and seat in self.builder.seats:
                shown = {b[1]["seat"] for b in self.builder.shows}
                if seat not in shown:
                    mucked = bracketed(rest[rest.index(" mucked [") + 8 :])[0]
                    self.builder.show(seat, mucked, mucked=True, late=True)
        elif text.strip():
            raise line.error("not understood in the summary")
