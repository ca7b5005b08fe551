"""The shape of a poker rulebook: every rule the replayer applies, as a named parameter.

A rulebook is jurisdiction x game x effective period (ARCHITECTURE.md). The instances live
beside this module, one per source (``mo_97_2010``, ``pt_217_2007``, ``gg_2022``); each
gives every field a value and a citation. Where a source is silent, or its copy is cut,
the field still exists and the instance says, next to its value, which choice it makes
and why (RULES.md: "never a silent default").

Variant codes are PHH's (``NT`` no-limit Texas hold'em, ``PO`` pot-limit omaha, ...),
plus ``NO`` no-limit omaha and ``NS``/``PS`` no/pot-limit "póquer sintético" as in
``schemas/poker_hand.avsc``. The first letter is the betting structure.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from replayer.rankings import Ranking


class Game(StrEnum):
    """Which cards make a hand and how many hole cards are dealt."""

    HOLDEM = "holdem"  # any 5 of 2 hole + 5 board (PT-217/2007 n.º 93-94)
    OMAHA = "omaha"  # exactly 2 of 4 hole + 3 of 5 board (MO-97/2010 art.10(1); PT n.º 73)
    SYNTHETIC = "synthetic"  # exactly 2 of 2 hole + 3 of 5 board, 28 cards (PT n.º 96-97)


class Structure(StrEnum):
    """Betting structure, the first letter of the PHH variant code."""

    NO_LIMIT = "N"
    POT_LIMIT = "P"


#: Variant code -> (structure, game). PHH codes where PHH has one (NT, PO, NO); the
#: Portuguese "póquer sintético" (28 cards, PT-217/2007 n.º 95-108) has no PHH code, so it
#: is ``NSY``/``PSY`` here: PHH's ``NS``/``PS`` is the 36-card short deck, a different
#: game no rulebook covers. Fixed-limit, stud, draw and short-deck codes are deliberately
#: absent: such a hand yields a ``no_rulebook`` finding.
VARIANTS: dict[str, tuple[Structure, Game]] = {
    "NT": (Structure.NO_LIMIT, Game.HOLDEM),
    "PO": (Structure.POT_LIMIT, Game.OMAHA),
    "NO": (Structure.NO_LIMIT, Game.OMAHA),
    "NSY": (Structure.NO_LIMIT, Game.SYNTHETIC),
    "PSY": (Structure.POT_LIMIT, Game.SYNTHETIC),
}


class RaiseMax(StrEnum):
    """Largest bet or raise allowed."""

    UNLIMITED = "unlimited"  # no-limit: whole stack (MO-97/2010 art.11(3), 12(3))
    POT = "pot"  # raise by at most the pot after calling (MO-97/2010 art.11(2))
    BETS_SO_FAR = "bets_so_far"  # raise by at most the total bet so far (PT n.º 86 literal)


class MinRaise(StrEnum):
    """Smallest raise increment allowed (an all-in for less is always allowed)."""

    LAST_BET_OR_RAISE = "last_bet_or_raise"  # MO-97/2010 art.12(1)
    TABLE_MINIMUM = "table_minimum"  # PT-217/2007 n.º 86: at least the table minimum


class FirstToAct(StrEnum):
    """Who opens the betting rounds after the first one."""

    LEFT_OF_BUTTON = "left_of_button"  # MO-97/2010 art.7(2), 8(2)
    BUTTON = "button"  # the player holding the "mão" (PT-217/2007 n.º 42, 44, 46, 85)
    LAST_HIGHEST_BETTOR = "last_highest_bettor"  # PT-217/2007 n.º 108 (sintético)


class SplitUnit(StrEnum):
    """The indivisible unit when a pot is shared."""

    SMALLEST_CHIP = "smallest_chip"  # HandStarted.smallest_chip (MO-97/2010 art.10(4))
    TABLE_MINIMUM = "table_minimum"  # HandStarted.big_blind (PT-217/2007 n.º 67)


class OddChip(StrEnum):
    """Who gets what cannot be split equally."""

    FIRST_WINNER_FROM_SEAT_ONE = "first_winner_from_seat_one"  # MO-97/2010 art.10(5)
    FIRST_WINNER_LEFT_OF_BUTTON = "first_winner_left_of_button"  # GG-2022 cash (open choice);
    # several odd units: one each, winners in order from the left of the button
    ONE_UNIT_EACH_FROM_BUTTON = "one_unit_each_from_button"  # PT-217/2007 n.º 67
    DROPPED = "dropped"  # kept by the house (GG-2022 prize-fraction rule)


class Play(StrEnum):
    """Which play a rulebook judges: a cash game (money in the pot, rake), a tournament
    (chips in the pot, no rake: the house's fee is in the buy-in) or either."""

    CASH = "cash"
    TOURNAMENT = "tournament"
    ANY = "any"  # the source's game rules apply to both (e.g. PT-217/2007 n.º 113)

    def judges(self, tournament: bool) -> bool:
        """Whether a hand of this kind (``tournament``: HandStarted.tournament_id set)
        is one this play judges."""
        return self is Play.ANY or (self is Play.TOURNAMENT) == tournament


class ShortBlind(StrEnum):
    """The bet to match when the big blind's player is all-in for less than the big blind
    (or, all-in from the ante, posts none)."""

    AS_POSTED = "as_posted"
    """What the blind actually put in (as PokerKit plays it)."""
    FULL_BLIND = "full_blind"
    """The table's whole big blind: a short blind does not lower the price of the hand
    (as PokerStars' histories show: 30 called over a big blind of 30 all-in for 20)."""


class RunShare(StrEnum):
    """How a pot is divided between boards run more than once (no source speaks of runs)."""

    EXACT = "exact"
    """Each run is owed exactly P/k; each player gets the whole units of what his runs owe
    him, the units left go by the odd-chip rule among the pot's winners."""
    FIRST_RUN_ODD_UNIT = "first_run_odd_unit"
    """Each run gets P/k in whole units, the units left one each to the first runs (run
    one first); each run's share is then split among that run's winners as a pot is."""


class RakeSplit(StrEnum):
    """How a hand's rake is shared over its main and side pots."""

    PROPORTIONAL = "proportional"
    """Each pot in proportion to its size (largest remainder, main pot first on a tie)."""
    RUNNING_TOTAL = "running_total"
    """Main pot first: each pot's rake is the rate on the pots so far (rounded down to the
    chip, at most the hand's rake) less the rake already taken from the pots before it."""


@dataclass(frozen=True, slots=True)
class RakeTerms:
    """The house's commission on one hand, declared per rulebook or per table.

    Rake is computed per pot (main and side pots, never on an uncalled bet that is
    returned), each pot's bounds rounded down to the smallest chip; the cap applies to
    the whole hand and is taken from the main pot first. A recorded rake is accepted
    anywhere in ``[min_bps, max_bps]`` of the pots (after the cap); a fixed rate is
    ``min_bps == max_bps``.
    """

    min_bps: int
    """Lowest rate, basis points of each pot."""
    max_bps: int
    """Highest rate, basis points of each pot."""
    cap: int | None = None
    """Absolute cap per hand, minor units (None: no absolute cap)."""
    cap_big_blinds: int | None = None
    """Cap per hand as a multiple of HandStarted.big_blind (None: no such cap)."""
    only_if_board: bool = False
    """"No flop, no drop": no rake unless a board card was dealt."""
    cap_per_pot: bool = False
    """The cap bounds each pot's rake rather than the whole hand's."""

    def __post_init__(self) -> None:
        if not 0 <= self.min_bps <= self.max_bps <= 10_000:
            raise ValueError(f"rake band must satisfy 0 <= min <= max <= 10000 bps: {self}")


FEE_KINDS: tuple[str, ...] = (
    "jackpot",
    "bingo",
    "fortune",
    "tax",
    "insurance",
    "cashout_risk",
    "other",
)
"""``schemas/poker_hand.avsc`` FeeKind symbols, in schema order."""
PLAYER_PAID_FEE_KINDS = frozenset({"insurance", "cashout_risk"})
"""Fee kinds a player pays outside the pot; the others (jackpot, ...) come from the pot."""
POT_FEE_KINDS: tuple[str, ...] = tuple(k for k in FEE_KINDS if k not in PLAYER_PAID_FEE_KINDS)
"""Fees a table may take from a pot (``schemas/table_terms.avsc`` DeclaredFeeKind)."""


@dataclass(frozen=True, slots=True)
class FeeTerms:
    """Deductions other than rake the house may take from a pot (``FeeTaken`` without a
    seat: a jackpot, bingo, fortune or tax drop).

    None of the sources speaks of such fees (MO-97/2010 art.16 and PT-217/2007 n.º 65 name
    the commission only; GG-2022 Política de taxas e de ancinho leaves the commission to
    each game's page), so which fees are allowed is always stated here, never assumed:
    ``kinds`` names every kind allowed (empty: none), and the fees of a hand together are
    at most ``max_bps`` of its pots and at most ``cap``. A fee is kept apart from the rake:
    the rake cap bounds the rake alone.
    """

    kinds: frozenset[str]
    """FeeKind symbols allowed (``FEE_KINDS``); any other fee is ``fee_not_allowed``."""
    max_bps: int | None = None
    """Most the fees of a hand may take together, basis points of its pots (None: no
    such bound)."""
    cap: int | None = None
    """Most the fees of a hand may take together, minor units (None: no such bound)."""

    def __post_init__(self) -> None:
        unknown = sorted(set(self.kinds) - set(FEE_KINDS))
        if unknown:
            raise ValueError(f"unknown fee kinds {unknown}: expected some of {FEE_KINDS}")
        if self.max_bps is not None and not 0 <= self.max_bps <= 10_000:
            raise ValueError(f"fee rate must be 0..10000 bps: {self.max_bps}")
        if self.cap is not None and self.cap < 0:
            raise ValueError(f"fee cap must not be negative: {self.cap}")


@dataclass(frozen=True, slots=True)
class TableLimits:
    """A table's stakes fixed by its minimum and maximum bet (PT-217/2007 n.º 19-20, 82-83),
    each rule with the article it cites (None: the source sets no such rule).

    The table minimum is the declared ``TableTermsDeclared.min_bet`` in force, else the
    hand's own ``HandStarted.min_bet``; the maximum is the declared ``max_bet`` (none
    declared: unchecked). ``replayer.poker.limits`` applies them."""

    within: str
    """Every bet and raise at most the table maximum (n.º 19: bets "compreendidas entre os
    limites autorizados")."""
    minimum_share: str
    """The declared minimum a share of the maximum, and the hand's minimum bet not below
    the table's ("não podem ser inferiores ao mínimo fixado") (n.º 20)."""
    min_to_max_bps: tuple[int, int]
    """The band the minimum may be, basis points of the maximum: n.º 20 "pode variar
    entre 20% ou 40% do máximo, dependendo da modalidade", read as anywhere from 20% to
    40% (the modalities of n.º 21 are cut from the copy)."""
    small_blind: str | None
    """The small blind is half the table minimum (n.º 82)."""
    big_blind: str | None
    """The big blind is the table minimum (n.º 83)."""

    def minimum_share_issue(self, minimum: int, maximum: int) -> str | None:
        """Why a declared minimum is not a share of the maximum ``min_to_max_bps`` allows
        (n.º 20), or None.

        >>> from replayer.rulebooks.pt_217_2007 import LIMITS
        >>> LIMITS.minimum_share_issue(30, 100) is None, LIMITS.minimum_share_issue(10, 100)
        (True, 'declared minimum 10 is 10% of the maximum 100; allowed 20%-40%')
        """
        low, high = self.min_to_max_bps
        if maximum > 0 and low * maximum <= minimum * 10_000 <= high * maximum:
            return None
        share = f"{minimum * 100 / maximum:g}%" if maximum > 0 else "no share"
        return (
            f"declared minimum {minimum} is {share} of the maximum {maximum}; "
            f"allowed {low / 100:g}%-{high / 100:g}%"
        )


@dataclass(frozen=True, slots=True)
class ActionClock:
    """A rulebook's clock (``replayer.poker.clock``): the time to act, the largest time
    bank, and the article they come from."""

    limit: timedelta
    """Time to act on each decision."""
    time_bank: timedelta
    """The most extra time a player's bank can hold (spent across hands)."""
    citation: str

    @property
    def longest(self) -> timedelta:
        """The longest any player may take over one action: the limit and a full bank."""
        return self.limit + self.time_bank


@dataclass(frozen=True, slots=True)
class Citations:
    """The article each rule cites in a finding, e.g. ``"MO-97/2010 art.12(1)"``."""

    rulebook: str
    deck: str
    hole_cards: str
    board: str
    burns: str
    deal_order: str
    blinds: str
    first_round_order: str
    later_round_order: str
    call_amount: str
    min_bet: str
    min_raise: str
    max_raise: str
    raise_cap: str
    min_players: str
    max_seats: str
    side_pots: str
    uncontested: str
    ranking: str
    split: str
    odd_chip: str
    rake_rate: str
    rake_cap: str
    fees: str
    """Deductions from a pot other than rake (``FeeTerms``)."""
    board_runs: str
    """A pot shared between several boards run after an all-in (``BoardRun``)."""
    void_refund: str


@dataclass(frozen=True, slots=True)
class PokerRulebook:
    """Every parameter of a non-banked poker game under one source and period."""

    id: str
    """Registry key, e.g. ``"mo-97-2010-omaha"`` (HandStarted.rulebook)."""
    title: str
    """Human title naming the source."""
    valid_from: datetime
    """First instant in force (tz-aware UTC), inclusive."""
    valid_until: datetime | None
    """First instant no longer in force, exclusive; None while in force."""
    variants: tuple[str, ...]
    """PHH variant codes covered (keys of ``VARIANTS``)."""
    play: Play
    """Cash games, tournaments or both: a tournament hand (``HandStarted.tournament_id``)
    is judged only by a rulebook whose play judges tournaments, a cash hand only by one
    judging cash games."""
    cite: Citations
    """The article behind each rule below."""
    deck_size: int
    """52 (MO-97/2010 art.1(1)(3); PT n.º 72) or 28 (PT n.º 95)."""
    hole_cards: int
    """Hole cards per player: 4 omaha (MO art.6(1); PT n.º 77), 2 hold'em/sintético."""
    board_schedule: tuple[int, ...]
    """Board cards turned before each betting round, e.g. (0, 3, 1, 1) hold'em/omaha
    (MO art.7-8; PT n.º 41-46) or (1, 1, 1, 1, 1) sintético (PT n.º 107-108)."""
    burns: bool
    """A card is burnt before each board dealing (MO art.7(1), 8(1), 8(3); PT n.º 41-45);
    none in sintético (PT n.º 100). Burns are checked only when the record has them."""
    board_from_bottom: bool
    """Board cards come from the bottom of the deck (PT n.º 107), for the commitment check."""
    hole_round_robin: bool
    """Hole cards dealt one at a time round the table from the first player left of the
    button (MO art.6(1); PT n.º 35) rather than all of a player's cards at once. Only
    matters when a shuffle commitment is verified against the revealed deck order."""
    ranking: Ranking
    """Hand ranking (evaluator): MO art.14-15, PT n.º 17/72 standard, PT n.º 95/103/105."""
    heads_up_button_small_blind: bool
    """Heads-up, the button posts the small blind and acts first pre-flop (universal
    convention) instead of the literal "first left of the button posts the small blind"."""
    short_blind: ShortBlind
    """The bet to match over a big blind all-in for less (``betting.Betting.post``)."""
    later_rounds_first: FirstToAct
    """Who opens the rounds after the first (first round: left of the largest live forced
    bet, MO art.6(3); PT n.º 84; or left of the button without blinds, PT n.º 107)."""
    min_raise: MinRaise
    """Smallest raise increment."""
    max_raise_no_limit: RaiseMax
    """Largest raise in variants whose code starts with N."""
    max_raise_pot_limit: RaiseMax
    """Largest raise in variants whose code starts with P."""
    raise_cap_no_limit: int | None
    """Raises per betting round in N variants (None: unlimited)."""
    raise_cap_pot_limit: int | None
    """Raises per betting round in P variants (None: unlimited)."""
    raise_cap_lifted_heads_up: bool
    """No raise cap while only two players remain in the hand."""
    raise_amount_unlimited_heads_up: bool
    """No maximum raise (``RaiseMax``) while only two players remain in the hand: the
    raise *amount* is unlimited heads-up (MO-97/2010 art.12(4)), not only their number."""
    min_players: int
    """Fewest players a hand may be dealt to."""
    max_seats: int | None
    """Most players a hand may be dealt to (None: no limit)."""
    split_unit: SplitUnit
    """Indivisible unit of a split pot."""
    odd_chip: OddChip
    """Who receives what cannot be divided equally."""
    run_share: RunShare
    """How a pot is divided between boards run more than once (``runs.split_runs``)."""
    table_limits: TableLimits | None
    """The stakes the table's minimum and maximum fix (``TableLimits``); None where the
    source ties no stake to them (MO-97/2010 art.4(3) only posts the blind limits, art.5
    makes the small blind "generally" half the big one; GG-2022 leaves stakes to the game
    pages)."""
    extra_board_card_by: str | None
    """The article by which a board card turned before its time loses a betting round
    (PT-217/2007 n.º 110, sintético: "perdem-se tantos turnos de apostas quantas as cartas
    descobertas"), or None where more board cards than are due is ``invalid_deal``."""
    showdown_order_by: str | None
    """The article that orders the showdown, the opener of the last betting round first,
    then clockwise (PT-217/2007 n.º 62; ``replayer.poker.showdown_order``), or None where
    the source sets no order (MO-97/2010 art.8(5): every player reveals; GG-2022 silent)."""
    board_runs_forbidden_by: str | None
    """The article that forbids running the board more than once (MO-97/2010 art.10(3):
    no agreement to share the pot, every seat plays on to the result), or None where the
    source allows it or is silent. A hand run more than once under such a rulebook is
    ``illegal_action`` citing it; its pots are still judged run by run (``run_share``),
    as the players agreed to share them."""
    rake_split: RakeSplit
    """How the hand's rake is shared over its pots (``rake.share_rake``); with no rake
    terms the rake cannot be checked, and the room's own per-pot split stands."""
    rake: RakeTerms | None
    """The commission; None when the source leaves it to a per-table declaration (then
    the recorded rake is accepted, bounded by the pots, unless terms are passed in)."""
    fees: FeeTerms | None
    """Fees other than rake allowed from a pot; None when the source leaves them to a
    per-table declaration (then a fee taken without declared terms is ``terms_missing``).
    Each rulebook states its choice beside the value: no source mentions such fees."""
    clock: ActionClock | None = None
    """The time to act and the time bank (``replayer.poker.clock``); None where the source
    sets no clock (a live table's dealer judges the pace)."""

    def covers(self, variant: str, at: datetime) -> bool:
        """In force at ``at`` for ``variant``."""
        return (
            variant in self.variants
            and self.valid_from <= at
            and (self.valid_until is None or at < self.valid_until)
        )

    def raise_cap(self, structure: Structure) -> int | None:
        return (
            self.raise_cap_pot_limit
            if structure is Structure.POT_LIMIT
            else (self.raise_cap_no_limit)
        )

    def max_raise(self, structure: Structure) -> RaiseMax:
        return (
            self.max_raise_pot_limit
            if structure is Structure.POT_LIMIT
            else (self.max_raise_no_limit)
        )
