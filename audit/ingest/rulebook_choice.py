"""Which rulebook a record that names none is given at ingest (``ingest --rulebook``).

The operator may name several rulebooks (``--rulebook gg-2022-cash-holdem --rulebook
gg-2022-cash-omaha --rulebook gg-2022-tournament-holdem``): a hand or round that names
none gets the first one covering its variant (poker) or game (banked) and its play: a
tournament hand (``HandStarted.tournament_id``) a rulebook judging tournaments, a cash
hand one judging cash games (``PokerRulebook.play``; a rulebook without a play judges
both). When none covers it, it gets the first one named, and the replayer reports that
the rulebook does not cover it: never a silent guess.
"""

from __future__ import annotations

from collections.abc import Sequence

from replayer.rulebooks.registry import all_rulebooks, get_rulebook


class UnknownRulebook(ValueError):
    """A rulebook id given on the command line does not exist."""


def check_rulebook_ids(ids: Sequence[str]) -> None:
    """Raise UnknownRulebook naming the known ids if any given id is unknown."""
    known = {book.id for book in all_rulebooks()}
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise UnknownRulebook(f"unknown rulebook {unknown[0]!r}; known: {', '.join(sorted(known))}")


def rulebook_for(ids: Sequence[str], variant: str | None, *, tournament: bool) -> str | None:
    """The first of ``ids`` covering ``variant`` and judging the hand's play
    (``tournament``), else the first of ``ids``, else None."""
    for rulebook_id in ids:
        book = get_rulebook(rulebook_id)
        play = getattr(book, "play", None)
        if variant in book.variants and (play is None or play.judges(tournament)):
            return rulebook_id
    return ids[0] if ids else None
