"""Rulebooks of the banked casino games and slot machines: jurisdiction × game × period.

Each rulebook is a frozen record of the rule parameters the replayer applies, with the
article behind every value. Where the source is silent, or its copy lost the text, the
choice is a named parameter whose comment says so ("choice:"), never a silent default.

Citation keys (``../design/RULES.md``): ``GG-2022`` GGPoker house rules updated
2022-09-28 (live casino II baccarat, III blackjack, IV roulette); ``PT-217/2007``
Portaria n.º 217/2007 in force 2007-03-01 (Section I chemin de fer, Title III slots).

``CASINO_RULEBOOKS`` maps each rulebook id to its rulebook; the rulebook registry
registers them. ``casino_rulebook_for`` chooses one the way the replayer does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from fractions import Fraction
from math import ceil, floor
from typing import ClassVar

GG_2022_FROM = datetime(2022, 9, 28, tzinfo=UTC)
PT_217_2007_FROM = datetime(2007, 3, 1, tzinfo=UTC)


class Rounding(StrEnum):
    """How a fractional amount of minor units becomes an integer."""

    DOWN = "down"
    UP = "up"
    HALF_UP = "half_up"

    def apply(self, amount: Fraction) -> int:
        if self is Rounding.DOWN:
            return floor(amount)
        if self is Rounding.UP:
            return ceil(amount)
        return floor(amount + Fraction(1, 2))


@dataclass(frozen=True, slots=True)
class InForce:
    """Identity and effective period of a rulebook: in force ``valid_from <= t < valid_until``.

    Satisfies the rulebook registry's protocol, a casino rulebook's single "variant" being
    its game.
    """

    game: ClassVar[str]  # the game judged, set by each rulebook class
    id: str
    citation: str
    valid_from: datetime
    valid_until: datetime | None = None

    @property
    def variants(self) -> tuple[str, ...]:
        return (self.game,)

    def covers(self, variant: str, at: datetime) -> bool:
        in_force = self.valid_from <= at and (self.valid_until is None or at < self.valid_until)
        return variant == self.game and in_force


@dataclass(frozen=True, slots=True)
class PuntoBancoRules(InForce):
    """Punto banco (baccarat) as GG-2022 live II states it."""

    game: ClassVar[str] = "punto_banco"
    decks: int = 8  # GG-2022 live II 1.3.1
    # GG-2022 live II 1.3.1, 3.3.4: the cut card is placed seven cards from the back.
    cut_card_from_end: int = 7
    commission_bps: int = 500  # GG-2022 live II 2.2: banker wins 1:1 less 5% of the amount won
    # choice: II 2.2 states 5%; a table may charge less, never more. A round declaring more
    # (RoundOpened.commission_bps) is judged at this rate (replayer/casino/punto_banco.py).
    commission_citation: ClassVar[str] = "GG-2022 live II 2.2"
    # choice: II 2.2 does not say how a fraction of a minor unit of commission is rounded;
    # rounding down never charges more than the 5% the rule allows.
    commission_rounding: Rounding = Rounding.DOWN
    tie_pays: int = 8  # GG-2022 live II 2.2: tie 8 to 1
    # choice: GG is silent on a dealer's wrong third card; like PT-217/2007 I.100 the coup is
    # reconstructed "by the table" from the cards in the order they left the shoe, surplus
    # cards burned (I.71); a coup that lacks the cards the table needs cannot be settled.


@dataclass(frozen=True, slots=True)
class CheminDeFerRules(InForce):
    """Baccarat chemin de fer as PT-217/2007 Section I states it."""

    game: ClassVar[str] = "chemin_de_fer"
    decks: int = 6  # PT-217/2007 I.4
    # PT-217/2007 I.13: the warning card (carta-aviso) goes between the 7th and the 8th card
    # from the end, so seven cards lie behind it.
    cut_card_from_end: int = 7
    min_seated: int = 4  # PT-217/2007 I.16: no coup with fewer than four seated players
    # PT-217/2007 I.107: past the official closing time, play goes on only to the end of a
    # sabot begun at least this long before it.
    closing_grace: timedelta = timedelta(minutes=20)
    # PT-217/2007 I.64-65 refer to the ponto's rules without stating them (cut from the copy);
    # RULES.md: draws on 0-4, optional on 5 (the choice is his alone, I.99), stands on 6-7.
    ponto_draws_to: int = 4
    ponto_optional: frozenset[int] = frozenset({5})
    # The banker's table of I.67 is "(ver documento original)" in the copy. Source used: the
    # classic chemin de fer table given in RULES.md ("Chemin de fer banker table (classic)"),
    # consistent with I.102 (exactly two cases are optional for the banker). Keys: banker's
    # total; values: (values of the ponto's third card on which the banker draws, values on
    # which drawing is optional). A banker total absent here stands.
    banker_table: dict[int, tuple[frozenset[int], frozenset[int]]] = field(
        default_factory=lambda: {
            0: (frozenset(range(10)), frozenset()),
            1: (frozenset(range(10)), frozenset()),
            2: (frozenset(range(10)), frozenset()),
            3: (frozenset({0, 1, 2, 3, 4, 5, 6, 7}), frozenset({9})),
            4: (frozenset({2, 3, 4, 5, 6, 7}), frozenset()),
            5: (frozenset({5, 6, 7}), frozenset({4})),
            6: (frozenset({6, 7}), frozenset()),
        }
    )
    # Classic table (RULES.md): when the ponto stood, the banker draws on 0-5, stands on 6-7.
    banker_draws_to_when_ponto_stood: int = 5
    # choice: I.47 lets the house set the cagnotte; it is charged on the bank's win (the
    # punters' stakes it collects), rounded down so the house never takes more than its rate.
    cagnotte_rounding: Rounding = Rounding.DOWN


@dataclass(frozen=True, slots=True)
class BlackjackRules(InForce):
    """Blackjack as GG-2022 live III states it."""

    game: ClassVar[str] = "blackjack"
    # choice: III does not give the number of decks (the cut card 4 decks from the back,
    # III 3.3, implies more than 4); 8 bounds how often one card may appear in a round.
    decks: int = 8
    # GG-2022 live III 3.3: the cut card is placed four decks from the back of the shoe.
    cut_card_from_end: int = 4 * 52
    dealer_stands_on: int = 17  # III 1.2.3, 4.4: draws to 16, stands on all 17s (hard or soft)
    blackjack_pays: Fraction = Fraction(3, 2)  # III 1.2.3, 2.3
    # III 2.3 pays blackjack "at least" 3 to 2, so an odd stake's half unit is rounded up.
    blackjack_rounding: Rounding = Rounding.UP
    insurance_pays: int = 2  # III 2.5.3
    insurance_max: Fraction = Fraction(1, 2)  # III 2.5.1: half the initial bet
    double_max: Fraction = Fraction(1)  # III 2.6: not exceeding the original bet
    # choice: III 2.6 allows doubling on "the first two cards dealt to the player"; read
    # literally a split hand's two cards are not those, so no double after a split.
    double_after_split: bool = False
    max_splits: int = 1  # III 2.7: never more than once, aces included
    # III 2.7: cards "idênticas em valor": split by value, so K-10 may be split.
    split_by_value: bool = True
    split_aces_one_card: bool = True  # III 2.7: at the casino's discretion; chosen here
    surrender_allowed: bool = False  # choice: III does not offer surrender
    # choice: the dealer looks at the hole card only under an ace (III 3.7); when a ten shows
    # and the dealer turns out to hold blackjack, III 2.2 says the player's bet is lost and
    # nothing returns the doubled or split stakes: every wager of the hand is lost.
    dealer_blackjack_takes_all_wagers: bool = True


@dataclass(frozen=True, slots=True)
class RouletteRules(InForce):
    """Single-zero roulette as GG-2022 live IV states it."""

    game: ClassVar[str] = "roulette"
    pockets: int = 37  # IV 1.2.1, 3.3.2: 0 and 1-36
    min_ball_revolutions: int = 3  # IV 3.1.1
    # IV 2.2 (odds to 1); "corner" includes 0-1-2-3 by IV 1.1's definition.
    pays: dict[str, int] = field(
        default_factory=lambda: {
            "straight": 35,
            "split": 17,
            "street": 11,
            "corner": 8,
            "four_number": 8,
            "six_line": 5,
            "column": 2,
            "dozen": 2,
            "red": 1,
            "black": 1,
            "odd": 1,
            "even": 1,
            "low": 1,
            "high": 1,
        }
    )
    # choice: IV 1.1 defines a street as three numbers "in a row"; the single-zero layout also
    # takes the trios 0-1-2 and 0-2-3 at the street's odds. Accepted as streets.
    zero_trios_as_streets: bool = True


@dataclass(frozen=True, slots=True)
class SlotRules(InForce):
    """Slot machines: PT-217/2007 Title III, with SAS meter practice where it is silent."""

    game: ClassVar[str] = "slots"
    minimum_return: Fraction = Fraction(80, 100)  # III.2
    # III.9: at least wager, prize and collection (drop) meters.
    required_meters: frozenset[str] = frozenset({"coin_in", "coin_out", "drop"})
    meter_widths: range = range(8, 19)  # SAS: 4-byte BCD (8 digits) to 18-digit meters
    # choice: a statistical test, not a bare threshold (replayer/slots/returns.py). A metered
    # return R below its target t is flagged when t - R exceeds k standard errors (normal
    # approximation: independent games of equal stake, win per unit wagered with the
    # paytable's sd); above t, when the excess passes Bernstein's bound at exp(-k^2/2) with
    # each win in [0, max_single_win], since one top award breaks the normal approximation
    # over a short window.
    standard_errors: int = 3
    # choice: sd assumed when the machine does not declare one: 15 per unit wagered, a
    # high-volatility paytable, so the test errs towards fewer false alarms.
    default_return_sd: Fraction = Fraction(15)
    # choice: a negative delta on one meter is a rollover; when at least this fraction of the
    # meters that were nonzero fall at once, it is a RAM clear (all meters restart at zero),
    # and without a MachineReset event that clear is unexplained.
    ram_clear_drop_fraction: Fraction = Fraction(1, 2)
    # choice: III.3-4 allow the jackpot "sem prejuízo da percentagem" of III.2; read as: the
    # jackpot's share is on top of the minimum, so the theoretical return less the declared
    # deduction must still reach minimum_return (False: the deduction counts toward it).
    jackpot_outside_minimum: bool = True
    # III.6: an unawarded jackpot moves to a machine "do mesmo modelo e apostas": the
    # configuration fields two machines must share to be alike.
    like_machine: tuple[str, ...] = ("model", "denomination")
    # III.8: the characteristics of an approval (ConfigurationApproved) a configuration in
    # force must match.
    approved_characteristics: tuple[str, ...] = (
        "model",
        "paytable_id",
        "denomination",
        "theoretical_return_bps",
        "max_single_win",
        "jackpot_rate_bps",
    )


CasinoRulebook = PuntoBancoRules | CheminDeFerRules | BlackjackRules | RouletteRules | SlotRules

_RULEBOOKS: tuple[CasinoRulebook, ...] = (
    PuntoBancoRules("gg-2022-live-baccarat", "GG-2022 live II", GG_2022_FROM),
    CheminDeFerRules("pt-217-2007-chemin-de-fer", "PT-217/2007 I", PT_217_2007_FROM),
    BlackjackRules("gg-2022-live-blackjack", "GG-2022 live III", GG_2022_FROM),
    RouletteRules("gg-2022-live-roulette", "GG-2022 live IV", GG_2022_FROM),
    SlotRules("pt-217-2007-slots", "PT-217/2007 III", PT_217_2007_FROM),
)

#: Registered by ``replayer.rulebooks.registry`` (every rulebooks module's ``RULEBOOKS``).
RULEBOOKS = _RULEBOOKS
CASINO_RULEBOOKS: dict[str, object] = {rulebook.id: rulebook for rulebook in _RULEBOOKS}


def casino_rulebook_for(
    rulebook_id: str | None, game: str, when: datetime
) -> tuple[CasinoRulebook | None, str]:
    """The rulebook a round or machine is judged by, or None and the reason why none.

    An explicit id must name a rulebook of the same game in force at ``when``; without an
    id, the one rulebook of that game in force at ``when`` is chosen.
    """
    candidates = [rb for rb in _RULEBOOKS if rb.game == game]
    if rulebook_id is not None:
        named = [rb for rb in _RULEBOOKS if rb.id == rulebook_id]
        if not named:
            return None, f"unknown rulebook {rulebook_id!r}"
        if named[0].game != game:
            return None, f"rulebook {rulebook_id!r} is for {named[0].game}, not {game}"
        candidates = named
    in_force = [rb for rb in candidates if rb.covers(game, when)]
    if len(in_force) != 1:
        return None, f"no {game} rulebook in force at {when.isoformat()}"
    return in_force[0], ""
