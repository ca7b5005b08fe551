"""Which hands of a table are one session: consecutive only when the data says so.

A table's cash hands are ordered by their start time (then id), never by the files they
came in. Two hands next to each other in time are *consecutive* only when all of these
hold (each bound a named parameter of ``SessionRules``):

* the same game: a cash table's stakes and currency (a table name reused at other stakes
  is another table), or the same tournament, whose blinds rise by level (``HandSummary.game``;
  a tournament's tables are named by the room, so one name may be a table of several
  tournaments and of a cash game: each is cut apart first);
* the next hand starts within ``max_gap`` of the previous one (files hold hands days apart
  under one table name, and a player's own file has gaps whenever he sat out): 3 minutes,
  where 99% of the real files' hands at one table follow within 2 (a PokerStars file
  holds two hands 9.5 minutes apart with the button passed on, and hands missing
  between them: every stack changed);
* the same players: at least ``min_shared`` of the smaller hand's players sit at the same
  seats in both;
* the button moved to the next seat dealt in (MO-97/2010 art.1(2); PT-217/2007 n.º 29):
  a button that skipped seats means hands are missing between the two. A button that did
  not move at all between the same three or more players, under a rulebook whose text
  states the rotation (``ROTATION``), is consecutive, and a rotation fault
  (``replayer.sessions.rotation``); elsewhere (GG-2022 and room text state no rotation)
  and heads-up, it cannot be told from hands missing in a multiple of the players, and
  breaks the session. In a win-the-button tournament (PT-217/2007 n.º 124, its record
  says so: ``replayer.sessions.win_button``) the button goes to the previous hand's
  winner instead (``BUTTON_FORMATS``); one elsewhere between hands that carry every
  stack is consecutive and a fault (``BUTTON_NOT_TO_WINNER``), and breaks the session
  otherwise (hands missing between); the rotation is not judged there.

A fast-fold pool (Zoom, Rush & Cash: one table name, new players every hand) is not a
table of sessions: a table whose time-adjacent hands fail the same-players test in at
least ``pool_churn`` of the pairs is a pool, and none of its hands are chained.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from itertools import pairwise

from replayer.sessions.hands import HandSummary
from replayer.sessions.win_button import (
    ROTATING,
    WIN_THE_BUTTON,
    stacks_carried,
    winner_button,
)


@dataclass(frozen=True)
class SessionRules:
    """The named bounds of what makes two hands consecutive (module docstring)."""

    max_gap: timedelta = timedelta(minutes=3)
    min_shared: float = 0.5
    pool_churn: float = 0.5


DEFAULT_RULES = SessionRules()


class Link(StrEnum):
    """How a hand follows the one before it in time at its table."""

    CONSECUTIVE = "consecutive"
    BUTTON_STUCK = "button did not move"
    FIRST = "first hand at the table"
    STAKES = "other stakes or currency"
    GAP = "too long after the previous hand"
    PLAYERS = "other players"
    BUTTON_SKIPPED = "the button skipped seats: hands missing between"
    POOL = "a fast-fold pool: new players every hand"
    MOVED_FROM = "another table's hand, a player moved from it"
    BUTTON_NOT_TO_WINNER = "the button did not go to the previous hand's winner"


CHAINED = frozenset({Link.CONSECUTIVE, Link.BUTTON_STUCK, Link.BUTTON_NOT_TO_WINNER})

#: A rulebook's prefix -> the article of its text on the button's rotation.
ROTATION: tuple[tuple[str, str], ...] = (
    ("mo-97-2010-", "MO-97/2010 art.1(2)"),
    ("pt-217-2007-", "PT-217/2007 n.º 29"),
)


def rotation_rule(rulebook: str | None) -> str | None:
    """The article on the button's rotation of ``rulebook`` (None: its text states none)."""
    for prefix, cited in ROTATION:
        if rulebook and rulebook.startswith(prefix):
            return cited
    return None


@dataclass(frozen=True)
class Session:
    """Consecutive hands of one table, in play order; ``links[i]`` is how ``hands[i]``
    follows the hand before it (``links[0]``: why the session starts there)."""

    hands: tuple[HandSummary, ...]
    links: tuple[Link, ...]

    @property
    def subject(self) -> str:
        """The session's id: its table and its first hand."""
        return f"{self.hands[0].table_id}@{self.hands[0].hand_id}"


def _shared(previous: HandSummary, following: HandSummary) -> int:
    seats = {(s.seat, s.player) for s in previous.seats}
    return sum((s.seat, s.player) in seats for s in following.seats)


def _same_players(previous: HandSummary, following: HandSummary, rules: SessionRules) -> bool:
    smaller = min(len(previous.seats), len(following.seats))
    return smaller > 0 and _shared(previous, following) >= rules.min_shared * smaller


def next_button(previous: HandSummary, following: HandSummary) -> int | None:
    """The seat the button should move to: the first seat after the previous button,
    clockwise, among the seats dealt in both hands (None: unknown). A button that moves
    to a seat taken since is not told from hands missing between."""
    if previous.button is None:
        return None
    before = {s.seat for s in previous.seats}
    seats = sorted(s.seat for s in following.seats if s.seat in before)
    after = [seat for seat in seats if seat > previous.button]
    return after[0] if after else (seats[0] if seats else None)


def _not_rotated(previous: HandSummary, following: HandSummary) -> Link:
    """A rotating button elsewhere than the next seat: stuck under a rulebook stating the
    rotation (three or more players), else hands missing between."""
    stuck = following.button == previous.button and len(following.seats) >= 3
    if stuck and rotation_rule(following.rulebook) is not None:
        return Link.BUTTON_STUCK
    return Link.BUTTON_SKIPPED


def _not_to_winner(previous: HandSummary, following: HandSummary) -> Link:
    """A win-the-button button elsewhere than the winner's seat: a fault when no hand was
    played between (every stack carried), not judged when the winner is not known, else
    hands missing between (``replayer.sessions.win_button``)."""
    if not stacks_carried(previous, following):
        return Link.BUTTON_SKIPPED
    if winner_button(previous, following) is None:
        return Link.CONSECUTIVE
    return Link.BUTTON_NOT_TO_WINNER


@dataclass(frozen=True)
class ButtonFormat:
    """Where a format sends the button after a hand (None: not known), and how a button
    elsewhere links the two hands."""

    expected: Callable[[HandSummary, HandSummary], int | None]
    elsewhere: Callable[[HandSummary, HandSummary], Link]


BUTTON_FORMATS: dict[str, ButtonFormat] = {
    ROTATING: ButtonFormat(next_button, _not_rotated),  # MO art.1(2); PT n.º 29
    WIN_THE_BUTTON: ButtonFormat(winner_button, _not_to_winner),  # PT n.º 124
}
"""A hand's button format (``HandSummary.button_format``) -> its rule."""


def button_format(hand: HandSummary) -> ButtonFormat:
    """The rule of ``hand``'s button format (one not known: the rotation)."""
    return BUTTON_FORMATS.get(hand.button_format, BUTTON_FORMATS[ROTATING])


def link(previous: HandSummary, following: HandSummary, rules: SessionRules) -> Link:
    """How ``following`` follows ``previous`` at their table (module docstring)."""
    if previous.game != following.game:
        return Link.STAKES
    if following.started - previous.started > rules.max_gap:
        return Link.GAP
    if not _same_players(previous, following, rules):
        return Link.PLAYERS
    rule = button_format(following)
    if following.button is None or following.button == rule.expected(previous, following):
        return Link.CONSECUTIVE
    return rule.elsewhere(previous, following)


def in_play_order(hands: Sequence[HandSummary]) -> list[HandSummary]:
    """A table's hands by start time, then hand id (never by file)."""
    return sorted(hands, key=lambda h: (h.started, h.hand_id))


def is_pool(ordered: Sequence[HandSummary], rules: SessionRules) -> bool:
    """A fast-fold pool: new players in at least ``pool_churn`` of the time-adjacent pairs."""
    pairs = list(pairwise(ordered))
    churned = sum(not _same_players(a, b, rules) for a, b in pairs)
    return bool(pairs) and churned >= rules.pool_churn * len(pairs)


def sessions_of(hands: Sequence[HandSummary], rules: SessionRules = DEFAULT_RULES) -> list[Session]:
    """A table's hands cut into sessions, each game apart (cash first, then each
    tournament's tables by id; a pool's hands each alone, linked ``POOL``)."""
    games: dict[tuple[str, str], list[HandSummary]] = {}
    for hand in hands:
        games.setdefault(hand.at_table, []).append(hand)
    return [session for _, game in sorted(games.items()) for session in _cut(game, rules)]


def _cut(hands: Sequence[HandSummary], rules: SessionRules) -> list[Session]:
    """One game's hands at a table cut into sessions."""
    ordered = in_play_order(hands)
    if is_pool(ordered, rules):
        return [Session((hand,), (Link.POOL,)) for hand in ordered]
    sessions: list[Session] = []
    run: list[HandSummary] = []
    links: list[Link] = []
    for hand in ordered:
        how = link(run[-1], hand, rules) if run else Link.FIRST
        if how not in CHAINED and run:
            sessions.append(Session(tuple(run), tuple(links)))
            run, links = [], []
        run.append(hand)
        links.append(how)
    if run:
        sessions.append(Session(tuple(run), tuple(links)))
    return sessions
