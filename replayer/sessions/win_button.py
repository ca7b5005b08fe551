"""Win the button: where the button goes in a tournament whose record says so
(PT-217/2007 n.º 124).

"É permitida a realização de torneios na modalidade win the button, na qual, após a
primeira jogada, a mão é atribuída ao jogador que ganhou a anterior. Em caso de empate, a
mão é atribuída ao jogador que, de entre eles, se encontre posicionado imediatamente à
esquerda do marcador." After the first hand the button goes to the player who won the
previous one (``HandSummary.winners``: the main pot's); on a tie, to the one of them
first to the left of the marker, that is clockwise after the previous hand's button.

The format is a stored record's, never guessed from the hands: the tournament's
announcing event (``TournamentAnnounced.button``, tournament schema v3), which a session
is given beside its hands (``formats``). Without it, or with ``rotating`` or none stated,
the button rotates (``replayer.sessions.rotation``), as it did before the field existed.

A win-the-button button is not told from hands missing between two hands by its seat (a
missing hand's winner may sit anywhere); it is by the chips: two hands with no hand
between them carry every stack (``stacks_carried``: each player at the same seat starts
the second hand with what the first left him; a hand played between moves at least the
blinds). A button away from the winner's seat between hands that carry every stack is a
fault (``button_not_to_winner``); between hands that do not, hands are missing and the
session breaks (``replayer.sessions.chaining``). Where the winner is not known (no pot
recorded, a void hand, a winner no longer dealt in), the button is not judged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from replayer.sessions.hands import HandSummary

ROTATING = "rotating"
WIN_THE_BUTTON = "win_the_button"
ANNOUNCED = "TournamentAnnounced"
"""The tournament's event that states its button format."""
WIN_THE_BUTTON_RULE = "PT-217/2007 n.º 124"


def formats(related: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Tournament id -> its stated button format, from its announcing events (a format
    not stated: rotating)."""
    return {
        str(event.get("tournament_id")): str(event.get("button") or ROTATING)
        for event in related
        if event.get("type") == ANNOUNCED
    }


def with_formats(hands: Sequence[HandSummary], stated: Mapping[str, str]) -> list[HandSummary]:
    """``hands`` with their tournament's button format (``formats``); a cash hand's and
    an unstated tournament's stay rotating."""
    return [
        replace(hand, button_format=stated[hand.tournament_id])
        if hand.tournament_id is not None and hand.tournament_id in stated
        else hand
        for hand in hands
    ]


def winner_button(previous: HandSummary, following: HandSummary) -> int | None:
    """The seat the button goes to after ``previous`` (n.º 124): its winner's, on a tie
    the winner first clockwise after its button (None: not known, or a winner not dealt
    in ``following``)."""
    dealt = {s.seat for s in following.seats}
    if previous.button is None or not previous.winners:
        return None
    if any(seat not in dealt for seat in previous.winners):
        return None
    after = [seat for seat in previous.winners if seat > previous.button]
    return after[0] if after else previous.winners[0]


def stacks_carried(previous: HandSummary, following: HandSummary) -> bool:
    """Whether no hand was played between the two: every player at the same seat in both
    (at least one) starts ``following`` with what ``previous`` left him."""
    carried = [
        (left.end, now.stack)
        for now in following.seats
        if (left := previous.seat_of(now.player)) is not None and left.seat == now.seat
    ]
    return bool(carried) and all(end == stack for end, stack in carried)
