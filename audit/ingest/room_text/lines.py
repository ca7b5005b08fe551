"""The line tables of a hand: each line shape the rooms write, and what it means.

One table per place in the hand, read in order, first match wins (``classify``):

* ``NOTICES``: lines the dealer writes that move no chips (``Betting is capped``, ``The
  deck is reshuffled``, ``Pair on board - a double bet is allowed``);
* ``TABLE_TALK``: lines about the table, not the hand, by any name, seated or not (a
  player sitting out, leaving, returning, chatting, joining; a tournament's finishes
  and re-buys, which are the tournament's, between hands): nothing moves in this hand;
* ``BOUNTIES``: a knockout bounty won (``NAME wins $X for eliminating NAME and their
  own bounty increases by $Y to $Z``; ``NAME wins the $X bounty for eliminating NAME``;
  ``NAME, NAME split the $X bounty for eliminating NAME`` when a split pot knocks a
  player out): prize money of the tournament, paid outside the hand's chips, kept out of
  the pot; the line itself is kept in the hand's ``source`` (the tournament subject's
  prize records carry the payment);
* ``POSTS``: forced bets (``NAME: posts …``), with the ``ForcedBetKind`` they are;
* ``ACTIONS``: ``NAME: folds``, ``checks``, ``calls X``, ``bets X``, ``raises X to Y``
  (each possibly ``and is all-in`` or ``and has reached the $X cap``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

NOTICES = re.compile(
    r"Betting is capped|The deck is reshuffled|Pair on board - a double bet is allowed"
    r"|No low hand qualified|Hand was run (?:twice|two times|three times)"
)
_VERBS = (
    r"(?:sits out|is sitting out|has timed out(?: while (?:being )?disconnected)?"
    r"|is disconnected|is connected|has returned|leaves the table|is away|is back"
    r"|will be allowed to play after the button|was removed from the table(?: for failing"
    r" to post)?|joins the table at seat #\d+|said, \".*\"|finished the tournament in "
    r"\d+\w\w place(?: and received .+)?|re-buys and receives .+|takes the add-on and "
    r"receives .+|wins an entry to tournament #.+|has been disqualified"
    r"|wins the tournament and receives .+|sits down"
    r"|stands up|is feeling (?:happy|normal|angry|confused)|is feeling .+|posts? nothing)"
)
TABLE_TALK = re.compile(r"(?P<name>.+?)(?::)? " + _VERBS)
TOPPED_UP = re.compile(r".+? (?:re-buys and receives|takes the add-on and receives) .+")
"""A tournament's rebuy or add-on line: chips came to a stack before the hand (noted in
the hand's ``source``, ``replayer.sessions.hands.REBUY_NOTE``)."""
BOUNTIES = re.compile(
    r"(?P<name>.+?) (?:wins|split) (?:the )?(?P<amount>\S+) (?:bounty )?for (?:eliminating"
    r"|splitting the elimination of) .+"
)
#: ``NAME: posts …`` -> the forced bets it is, in ``ForcedBetKind`` symbols: a pair is
#: a live big blind and a dead small blind (``posts small & big blinds`` after missed
#: blinds, GG-2022 "Apostas perdidas"; PT-217/2007 n.º 90).
POSTS: dict[str, tuple[str, ...]] = {
    "posts small blind ": ("small_blind",),
    "posts big blind ": ("big_blind",),
    "posts the ante ": ("ante",),
    "posts ante ": ("ante",),
    "posts straddle ": ("straddle",),
    "straddle ": ("straddle",),
    "posts button blind ": ("big_blind",),
    "posts missed blind ": ("dead_small_blind",),
    "posts dead small blind ": ("dead_small_blind",),
    "posts dead big blind ": ("dead_big_blind",),
    "posts small & big blinds ": ("missed_big_blind", "dead_small_blind"),
}
#: (pattern, action): ``by`` is the raise's increment, ``to`` the street total.
ACTIONS: Sequence[tuple[re.Pattern[str], str]] = (
    (re.compile(r"folds(?: \[[^\[\]]*\])?(?: \(.*\))?"), "fold"),
    (re.compile(r"checks"), "check"),
    (re.compile(r"calls (?P<amount>\S+)"), "call"),
    (re.compile(r"bets (?P<amount>\S+)"), "bet"),
    (re.compile(r"raises (?P<by>\S+) to (?P<to>\S+)"), "raise"),
)
_ENDINGS = re.compile(r"(?: and is all-in| and has reached the \S+ cap)+$")


def verb_of(rest: str) -> str:
    """A player's verb without ``and is all-in`` or ``and has reached the $X cap``."""
    return _ENDINGS.sub("", rest)


def action_of(verb: str) -> tuple[str, re.Match[str]] | None:
    """(action, match) of a betting verb, or None."""
    for pattern, action in ACTIONS:
        if match := pattern.fullmatch(verb):
            return action, match
    return None


def post_of(verb: str) -> tuple[tuple[str, ...], str] | None:
    """(forced bet kinds, amount text) of a ``posts …`` verb, or None."""
    for prefix, kinds in POSTS.items():
        if verb.startswith(prefix):
            return kinds, verb[len(prefix) :]
    return None
