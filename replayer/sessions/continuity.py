"""Chips carried from one hand to the next: none may vanish between two hands.

A player seated in two consecutive hands of a session (``replayer.sessions.chaining``) at
the same seat starts the second with the chips the first left him
(``replayer.sessions.hands``). More is a top-up: chips are added between hands (GG-2022
Poker Regras), and no feed records top-ups today, so none is judged. Less, with no leave
or cash-out recorded between the two, is chips taken off the table: ``chips_vanished``,
naming the player, both hands and the amount. It cites the rule the hands' rulebook has
(GG-2022 Poker Regras: "Você não pode retirar dinheiro da mesa durante uma sessão de
jogo"), and under any other rulebook or none (an operator's room text), the records'
own arithmetic (``casino-audit chip continuity``): a stack that falls between two hands
with nothing recorded between them contradicts the records themselves.

One exception is the room's record disagreeing with itself, reported as exactly that
(``record_contradicts_itself``), never as vanished chips: older GGPoker files print no
rake line and pay "collected" as the whole pot, while the winner's next stack is net of
the rake. A fall is read so when the first hand records no rake, the player was paid from
its pots, and the fall is at most ``max_unrecorded_rake`` of what it paid him (GGPoker's
rake is 5% and a capped fee: the real files' falls are 5.2-5.7% of the pot).

At a tournament's table (``tournament_findings``) no chip leaves and none comes in between
hands: the players may not take off the table the chips they play with or win
(MO-97/2010 art.4(2)), and a stack grows only by a rebuy or an add-on (PT-217/2007
n.º 116). A fall is ``tournament_chips_vanished``; a rise into a hand that records no
rebuy or add-on (``HandSummary.rebuy_noted``) is ``tournament_chips_appeared``, but for
the add-on of a break, which rooms' text does not log (PokerStars' rebuy tournaments: every
player who takes it rises by the add-on's chips between the last hand of a level and the
first of the next): ``ContinuityRules.addon_takers`` players or more rising by one same
amount across a blind level change read as that add-on, a named choice; one player alone,
or rises that differ, are judged. Both
count tournament chips, never money (they owe nothing), and cite the tournament's
rulebook's article on chips (``replayer.tournaments.continuity.chips_citation``: the
records' own arithmetic, and MO-97/2010 art.4(2) or GG-2022 Poker Regras where the hand
names that rulebook). A player left with no chip went out: a later stack of his is a new
entry (re-entry, n.º 116), the tournament's to judge, never compared. A player moved
to another of the tournament's tables arrives with the chips he left with, where the
records show the move (``replayer.sessions.moves``, ``move_findings``); where they do
not, he is not compared (leaving a table is never read as chips vanishing).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from replayer.findings import Finding, FindingKind
from replayer.sessions.hands import HandSummary, Seat
from replayer.sessions.moves import Move
from replayer.tournaments.continuity import chips_citation

RECORDS = "casino-audit chip continuity"
"""The records' own arithmetic: a stack never falls between two hands unrecorded."""
GG_TABLE_STAKES = "GG-2022 Poker Regras"
UNRECORDED_RAKE = "casino-audit room record consistency"
"""A room's record that pays a whole pot while the next hand shows a rake taken."""
#: A rulebook's source -> the article it has on chips leaving a cash table.
CITATIONS: tuple[tuple[str, str], ...] = (("gg-2022-", GG_TABLE_STAKES),)


@dataclass(frozen=True)
class ContinuityRules:
    """The named bounds of the unrecorded-rake and unlogged add-on readings (module
    docstring)."""

    max_unrecorded_rake: Fraction = Fraction(1, 10)
    addon_takers: int = 2
    """How many players of a tournament table rising by one same amount across a blind
    level change read as the add-on taken in the break (0: never read so)."""


DEFAULT_CONTINUITY = ContinuityRules()


def citation(rulebook: str | None) -> str:
    """The article a fall cites under ``rulebook`` (none held: the records' arithmetic)."""
    for prefix, cited in CITATIONS:
        if rulebook and rulebook.startswith(prefix):
            return cited
    return RECORDS


def _unrecorded_rake(hand: HandSummary, seat: Seat, fall: int, rules: ContinuityRules) -> bool:
    """Whether ``fall`` is a rake the first hand's record leaves out (module docstring)."""
    return (
        not hand.rake_recorded
        and seat.collected > 0
        and fall <= rules.max_unrecorded_rake * seat.collected
    )


def _evidence(
    subject: str, before: HandSummary, after: HandSummary, now: Seat
) -> dict[str, object]:
    return {
        "player": now.player,
        "seat": now.seat,
        "hands": [before.hand_id, after.hand_id],
        "currency": after.currency,
        "session": subject,
    }


def _carried(before: HandSummary, after: HandSummary) -> Iterator[tuple[Seat, Seat]]:
    """(his seat in ``before``, in ``after``) of each player at the same seat in both."""
    for now in after.seats:
        left = before.seat_of(now.player)
        if left is not None and left.seat == now.seat:
            yield left, now


def chip_findings(
    subject: str,
    before: HandSummary,
    after: HandSummary,
    rules: ContinuityRules = DEFAULT_CONTINUITY,
) -> Iterator[Finding]:
    """The findings on chips carried from ``before`` to the consecutive ``after``: a
    tournament's table's (``tournament_findings``), else a cash table's."""
    if after.tournament_id is not None:
        yield from tournament_findings(subject, before, after, rules)
        return
    for left, now in _carried(before, after):
        if now.stack >= left.end:
            continue
        fall = left.end - now.stack
        detail = _evidence(subject, before, after, now)
        if _unrecorded_rake(before, left, fall, rules):
            yield Finding(
                FindingKind.RECORD_CONTRADICTS_ITSELF,
                subject,
                UNRECORDED_RAKE,
                f"hand {before.hand_id} records no rake and pays {now.player} the whole pot, "
                f"but his stack in the next hand {after.hand_id} is {fall} less (minor units "
                f"of {after.currency}): the room's record disagrees with itself",
                expected=left.end,
                recorded=now.stack,
                difference=-fall,
                detail=detail,
            )
            continue
        yield Finding(
            FindingKind.CHIPS_VANISHED,
            subject,
            citation(after.rulebook),
            f"{now.player} left hand {before.hand_id} with {left.end} and started the next "
            f"hand {after.hand_id} at the same seat with {now.stack} (minor units of "
            f"{after.currency}): {fall} taken off the table with no leave or cash-out recorded",
            expected=left.end,
            recorded=now.stack,
            difference=-fall,
            detail=detail,
        )


def tournament_findings(
    subject: str,
    before: HandSummary,
    after: HandSummary,
    rules: ContinuityRules = DEFAULT_CONTINUITY,
) -> Iterator[Finding]:
    """A tournament's chips carried from ``before`` to the consecutive ``after``: none
    leaves, none comes in unrecorded, but the add-on a break's rise shows (module
    docstring)."""
    carried = list(_carried(before, after))
    addon = _addon_at_break(before, after, carried, rules)
    for left, now in carried:
        if addon is None or now.stack - left.end != addon:
            yield from _tournament_change(subject, before, after, left, now, "at the same seat")


def _addon_at_break(
    before: HandSummary,
    after: HandSummary,
    carried: list[tuple[Seat, Seat]],
    rules: ContinuityRules,
) -> int | None:
    """The add-on taken in a break the records do not log: across a blind level change,
    ``rules.addon_takers`` or more players rising by one same amount (that amount); else
    None."""
    if rules.addon_takers <= 0 or before.stakes == after.stakes:
        return None
    rises = [now.stack - left.end for left, now in carried if 0 < left.end < now.stack]
    if len(rises) >= rules.addon_takers and len(set(rises)) == 1:
        return rises[0]
    return None


def move_findings(subject: str, move: Move) -> Iterator[Finding]:
    """A tournament player's chips taken from one of its tables to another
    (``replayer.sessions.moves``): he arrives with what he left with."""
    left, now = move.left.seat_of(move.player), move.arrived.seat_of(move.player)
    if left is not None and now is not None:
        where = f"at table {move.arrived.table_id}, moved from table {move.left.table_id}"
        yield from _tournament_change(subject, move.left, move.arrived, left, now, where)


def _tournament_change(
    subject: str, before: HandSummary, after: HandSummary, left: Seat, now: Seat, where: str
) -> Iterator[Finding]:
    """The finding on a tournament stack that changed from ``left`` (in ``before``) to
    ``now`` (in ``after``), if any (module docstring)."""
    change = now.stack - left.end
    if left.end == 0 or change == 0 or (change > 0 and after.rebuy_noted):
        return
    kind, moved = (
        (FindingKind.TOURNAMENT_CHIPS_APPEARED, "came from nowhere")
        if change > 0
        else (FindingKind.TOURNAMENT_CHIPS_VANISHED, "left the table")
    )
    detail = {**_evidence(subject, before, after, now), "tournament": after.tournament_id}
    if before.table_id != after.table_id:
        detail["tables"] = [before.table_id, after.table_id]
    yield Finding(
        kind,
        subject,
        chips_citation(after.rulebook),
        f"{now.player} left hand {before.hand_id} with {left.end} tournament chips and "
        f"started the next hand {after.hand_id} {where} with {now.stack}: {abs(change)} "
        f"{moved}, with no rebuy, add-on or elimination recorded",
        expected=left.end,
        recorded=now.stack,
        difference=change,
        detail=detail,
    )
