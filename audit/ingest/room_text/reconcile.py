"""A room hand's summary as a built-in check of what was read from its action lines.

Every hand a room writes ends with its own totals: ``Total pot X`` (every chip put in,
less the uncalled bets returned), the net pots ``Main pot Y. Side pot-1 Z.`` and the
deductions (``| Rake R | Jackpot J``), and each seat's ``collected ($X)`` / ``won ($X)``.
The hand rebuilt from the action lines must give the same figures; a hand that does not
is rejected naming the summary's field and both figures, because a misread must never
reach the replayer as the room's mistake:

* ``Total pot``: the chips the action lines put in, less the uncalled bets returned;
* ``Main pot … Side pot …``: the summary's pots and deductions add up to its total
  (a contradiction inside the summary itself);
* ``collected``: each seat's summary amount equals what its ``collected`` lines give;
* ``Board``: each board the summary names (``FIRST Board`` … when run more than once)
  is the cards the street lines dealt for it (the shared streets, then the run's own);
  the flop's three cards in any order (GGPoker itself writes ``*** FLOP *** [Ad 7d 9d]``
  then ``*** TURN *** [7d 9d Ad] [2s]`` and ``Board [7d 9d Ad 2s 4h]`` in one hand).

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


def reconcile(builder: HandBuilder) -> None:
    """TextError when the hand read disagrees with its own summary (module docstring)."""
    totals = builder.totals
    if totals is None:
        raise TextError("the summary has no Total pot line")
    put = sum(s.put for s in builder.seats.values())
    returned = sum(b[1]["amount"] for b in builder.returns)
    if totals.total != put - returned and builder.unwritten_return(put - returned - totals.total):
        returned = sum(b[1]["amount"] for b in builder.returns)
    if totals.total != put - returned:
        raise _mismatch(
            "Total pot",
            totals.line,
            totals.total,
            put - returned,
            "the action lines put in (less uncalled bets)",
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
    for run, (board, line) in sorted(builder.summary_boards.items()):
        dealt = builder.boards.get(0, []) + (builder.boards.get(run, []) if run else [])
        if not _same_board(board, dealt):
            error = TextError(
                f"the summary's board is [{' '.join(board)}], the street lines dealt "
                f"[{' '.join(dealt)}]"
            )
            error.line, error.field = line, "summary: Board"
            raise error
    builder.unindexed()


def _same_board(summary: list[str], dealt: list[str]) -> bool:
    """The same cards, the flop's three in any order, the later ones in order."""
    return (
        len(summary) == len(dealt)
        and sorted(summary[:3]) == sorted(dealt[:3])
        and summary[3:] == dealt[3:]
    )
