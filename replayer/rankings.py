"""Hand-ranking orders: which five-card hand beats which, as the rulebooks choose them.

Ranks run 2 < 3 < ... < K < A (MO-97/2010 art.14(2); PT-217/2007 n.º 72); suits never
rank (MO-97/2010 art.14(1)). A ``Ranking`` is the order of the nine hand categories with
its straight and kicker rules; each poker rulebook (``replayer.rulebooks``) names one and
``replayer.poker.evaluator`` evaluates hands under it. This module imports nothing of the
replayer, so the rulebooks and the poker engine can both import it.

>>> STANDARD.deck_ranks
'23456789TJQKA'
>>> SYNTHETIC.deck_ranks  # the 28-card "póquer sintético" deck (PT-217/2007 n.º 95)
'89TJQKA'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

__all__ = ["MO_97_2010", "RANKS", "STANDARD", "SYNTHETIC", "Ranking"]

#: Card ranks, lowest first (MO-97/2010 art.14(2)); ``T`` is the ten.
RANKS = "23456789TJQKA"


@dataclass(frozen=True)
class Ranking:
    """How 5-card hands are ordered; the evaluator builds one table set per ranking.

    * ``flush_beats_full_house``: swap flush and full house. False for 52-card games
      (MO-97/2010 art.15(4)-(5); PT-217/2007 n.º 17). True in ``SYNTHETIC``: the changes
      PT-217/2007 n.º 103/105 make for "póquer sintético" are cut from our copy; flush
      above full house is the usual short-deck rule (a 28-card deck has 68 flushes and
      1,008 full houses). Caution: n.º 104 cites items e) to l) of n.º 103, so the
      original list has at least 12 entries and may differ from these 9 categories in
      more than this swap (with 28 cards flushes are also rarer than four of a kind,
      168, and straights, 4,080, rarer than three of a kind, 6,720).
    * ``low_straight``: the five ranks of the straight where the ace plays low; it is the
      lowest straight and its top card is its highest non-ace rank. A-2-3-4-5 (MO-97/2010
      art.14(3), art.15(2),(6); PT-217/2007 n.º 72) or A-8-9-T-J (PT-217/2007 n.º 95).
      Its lowest non-ace rank is the lowest rank of the ranking's deck: cards below it
      (a 7 in "póquer sintético") are rejected with ``ValueError``.
    * ``quads_kicker_counts``: whether the fifth card of four of a kind breaks ties.
      Standard poker: it does (default). MO-97/2010 art.15(3) says the other card "is not
      counted and has no effect on the hand's value" (另一張不計且對於牌面點數並無影響):
      use ``MO_97_2010``. With one deck and exactly 2 hole + 3 board cards two players can
      never both hold four of a kind, so the choice only shows in hold'em with four of a
      kind on the board (kicker decides vs split pot).

    >>> Ranking("bad", low_straight=("A", "2", "3", "4"))
    Traceback (most recent call last):
    ...
    ValueError: low_straight must be 5 distinct ranks with the ace: ('A', '2', '3', '4')
    """

    name: str
    flush_beats_full_house: bool = False
    low_straight: tuple[str, ...] = ("A", "2", "3", "4", "5")
    quads_kicker_counts: bool = True

    def __post_init__(self) -> None:
        _lowest_of(self.low_straight)  # ValueError when it is no low straight

    @cached_property
    def lowest_rank(self) -> int:
        """Index in ``RANKS`` of the lowest rank of the deck (the low straight's lowest)."""
        return _lowest_of(self.low_straight)

    @property
    def deck_ranks(self) -> str:
        """The ranks this ranking accepts, ascending (from the low straight's lowest)."""
        return RANKS[self.lowest_rank :]


def _lowest_of(low: tuple[str, ...]) -> int:
    """Index in ``RANKS`` of the lowest non-ace rank of a low straight: the ace plus four
    consecutive ranks below the king (``Ranking.low_straight``); ValueError otherwise."""
    if len(low) != 5 or len(set(low)) != 5 or "A" not in low:
        raise ValueError(f"low_straight must be 5 distinct ranks with the ace: {low!r}")
    for rank in low:
        if not isinstance(rank, str) or len(rank) != 1 or rank not in RANKS:
            raise ValueError(f"low_straight rank {rank!r} is not one of {RANKS!r}")
    others = sorted(RANKS.index(rank) for rank in low if rank != "A")
    if others != list(range(others[0], others[0] + 4)) or others[-1] >= RANKS.index("K"):
        raise ValueError(
            f"low_straight {low!r}: the ace plus four consecutive ranks below the king"
        )
    return others[0]


#: Standard poker ranking, 52 cards: MO-97/2010 art.14-15 (kicker counted in four of
#: a kind, see ``MO_97_2010``), PT-217/2007 n.º 17 and 72 (standard order).
STANDARD = Ranking("standard")
#: "Póquer sintético", 28 cards A K Q J T 9 8, A-8-9-T-J straight (PT-217/2007 n.º 95),
#: flush above full house (n.º 103/105 cut from our copy; usual short-deck rule).
SYNTHETIC = Ranking(
    "synthetic-28", flush_beats_full_house=True, low_straight=("A", "8", "9", "T", "J")
)
#: Macau omaha as literally written: four of a kind ignores its kicker (MO-97/2010
#: art.15(3)); otherwise the standard ranking.
MO_97_2010 = Ranking("MO-97/2010", quads_kicker_counts=False)
