"""The session at a poker table: consecutive cash hands judged across each other.

* ``hands``: what a session needs of one stored hand (``summarize``);
* ``chaining``: which hands are consecutive (time gap, same players, the button's move;
  fast-fold pools apart), as the data says, never the files (``sessions_of``);
* ``continuity``: chips that vanish between two hands (``chips_vanished``), and a room's
  record that disagrees with itself (``record_contradicts_itself``);
* ``rotation``: the button that did not pass (``button_not_rotated``), or, in a
  win-the-button tournament, did not go to the winner (``button_not_to_winner``);
* ``win_button``: where the button goes in a win-the-button tournament (PT-217/2007
  n.º 124), from its announcing event;
* ``verdict``: a session judged whole (``adjudicate_session``).
"""

from replayer.sessions.chaining import DEFAULT_RULES, Link, Session, SessionRules, sessions_of
from replayer.sessions.verdict import (
    SessionVerdict,
    adjudicate_session,
    by_hand,
    table_sessions,
)

__all__ = [
    "DEFAULT_RULES",
    "Link",
    "Session",
    "SessionRules",
    "SessionVerdict",
    "adjudicate_session",
    "by_hand",
    "sessions_of",
    "table_sessions",
]
