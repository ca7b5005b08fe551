"""A room hand's summary as a built-in check of what was read from its action lines.

Every hand a room writes ends with its own totals: ``Total pot X`` (every chip put in,
less the uncalled bets returned), the net pots ``Main pot Y. Side pot-1 Z.`` and the
deductions (``| Rake R | Jackpot J``), and each seat's ``collected ($X)`` / ``won ($X)``.
The hand rebuilt from the action lines must give the same figures; a hand that does not
is rejected naming the summary's field and both figures, because a misread must never
reach the replayer as the room's mistake:

* ``Total pot``: the chips the action lines put in, less the uncalled bets returned,
  plus the house's money put into the pot (GGPoker's Cash Drop);
* ``Main pot … Side pot …``: the summary's pots and deductions add up to its total
  (a contradiction inside the summary itself);
* ``collected``: each seat's summary amount equals what its ``collected`` lines give;
* ``Board``: each board the summary names (``FIRST Board`` … when run more than once)
  is the cards the street lines dealt for it (the shared streets, then the run's own),
  as the rooms write them: the flop's three cards in any order (GGPoker's summary, and
  its own turn and river lines, may print the flop sorted otherwise than its flop
  line), and for a run after the first either the whole board (PokerStars) or the
  run's own cards alone (GGPoker: ``SECOND Board [4d Qs]``). A street card the text
  left blank (``[]``) is first taken from the summary's board (``fill_unwritten``): for
  that card alone the summary is the only record, and the hand's source says so.

What is *not* compared is the room's arithmetic against the rules: a total less rake
that is more than what was collected (a pot paid short) is a self-consistent text and a
real finding, stored for the replayer to judge.
"""

from __future__ import annotations

from audit.ingest.room_text.building import HandBuilder
from audit.ingest.room_text.common import TextError, shown


def _mismatch(
    field: str, line: int, summary: int, read: int, what: str, builder: HandBuilder
) -> TextError:
    money = builder.header.money
    error = TextError(
        f"the summary's {field} is {shown(summary, money)}, {what} {shown(read, money)}"
    )
    error.line = line
    error.field = f"summary: {field}"
    return error


def _as_written(cards: list[str], *, flop: bool) -> tuple[list[str], list[str]]:
    """A board as compared: its flop (when it starts with one) as a set, the turn and
    river in their places."""
    return (sorted(cards[:3]), cards[3:]) if flop else ([], cards)


def reconcile(builder: HandBuilder) -> None:
    """TextError when the hand read disagrees with its own summary (module docstring)."""
    totals = builder.totals
    if totals is None:
        raise TextError("the summary has no Total pot line")
    put = sum(s.put for s in builder.seats.values()) + builder.house
    returned = sum(b[1]["amount"] for b in builder.returns)
    if totals.total != put - returned and builder.unwritten_return(put - returned - totals.total):
        returned = sum(b[1]["amount"] for b in builder.returns)
    if totals.total != put - returned:
        raise _mismatch(
            "Total pot",
            totals.line,
            totals.total,
            put - returned,
            "the action lines put in (less uncalled bets, plus house money)"
            if builder.house
            else "the action lines put in (less uncalled bets)",
            builder,
        )
    if totals.pots is not None and sum(totals.pots) + totals.deductions != totals.total:
        raise _mismatch(
            "pots and deductions",
            totals.line,
            sum(totals.pots) + totals.deductions,
            totals.total,
            "its Total pot",
            builder,
        )
    for seat, (won, line) in sorted(builder.summary_won.items()):
        collected = builder.collected.get(seat, 0)
        if won != collected:
            raise _mismatch(
                f"seat {seat} collected",
                line,
                won,
                collected,
                "the collected lines give",
                builder,
            )
    builder.fill_unwritten()
    for run, (board, line) in sorted(builder.summary_boards.items()):
        common = builder.boards.get(0, [])
        own = builder.boards.get(run, []) if run else []
        dealt = common + own
        written = _as_written(board, flop=True)
        if written != _as_written(dealt, flop=True) and not (
            run > 1 and _as_written(board, flop=not common) == _as_written(own, flop=not common)
        ):
            error = TextError(
                f"the summary's board is [{' '.join(board)}], the street lines dealt "
                f"[{' '.join(dealt)}]"
            )
            error.line, error.field = line, "summary: Board"
            raise error
    builder.unindexed()
