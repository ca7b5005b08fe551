"""The button passes clockwise after each hand (MO-97/2010 art.1(2); PT-217/2007 n.º 29).

Between two consecutive hands of the same three or more players, a button that stays on
the same seat is a rotation fault (``button_not_rotated``), under a rulebook whose text
states the rule. The GG-2022 house rules leave the game's procedure to each game's page
and state none, and a room's text names no rulebook: neither is judged (a rule the
records alone cannot show: a stuck button breaks no arithmetic), and there a stuck button
breaks the session (``replayer.sessions.chaining``).

In a win-the-button tournament (PT-217/2007 n.º 124, ``replayer.sessions.win_button``) the
button goes to the previous hand's winner, not round: a button elsewhere between two
consecutive hands is ``button_not_to_winner`` (``winner_findings``), and the rotation is
not judged.
"""

from __future__ import annotations

from collections.abc import Iterator

from replayer.findings import Finding, FindingKind
from replayer.sessions.chaining import Link, next_button, rotation_rule
from replayer.sessions.hands import HandSummary
from replayer.sessions.win_button import WIN_THE_BUTTON_RULE, winner_button


def rotation_findings(
    subject: str, before: HandSummary, after: HandSummary, how: Link
) -> Iterator[Finding]:
    """``button_not_rotated`` when the button stayed put between consecutive hands."""
    cited = rotation_rule(after.rulebook)
    if how is not Link.BUTTON_STUCK or cited is None:
        return
    yield Finding(
        FindingKind.BUTTON_NOT_ROTATED,
        subject,
        cited,
        f"the button stayed on seat {after.button} from hand {before.hand_id} to the next "
        f"hand {after.hand_id}; it passes clockwise to seat {next_button(before, after)}",
        expected=next_button(before, after),
        recorded=after.button,
        detail={"hands": [before.hand_id, after.hand_id], "session": subject},
    )


def winner_findings(
    subject: str, before: HandSummary, after: HandSummary, how: Link
) -> Iterator[Finding]:
    """``button_not_to_winner`` when a win-the-button tournament's button did not go to
    the previous hand's winner (on a tie, the winner first left of the marker)."""
    expected = winner_button(before, after)
    if how is not Link.BUTTON_NOT_TO_WINNER or expected is None:
        return
    winners = [s.player for s in before.seats if s.seat in before.winners]
    tie = f", the first of the tied winners left of the button on seat {before.button}"
    yield Finding(
        FindingKind.BUTTON_NOT_TO_WINNER,
        subject,
        WIN_THE_BUTTON_RULE,
        f"the button went to seat {after.button} in hand {after.hand_id}; in this "
        f"win-the-button tournament it goes to seat {expected}, the seat of the winner of "
        f"the previous hand {before.hand_id}{tie if len(winners) > 1 else ''}",
        expected=expected,
        recorded=after.button,
        detail={
            "hands": [before.hand_id, after.hand_id],
            "session": subject,
            "winners": winners,
        },
    )
