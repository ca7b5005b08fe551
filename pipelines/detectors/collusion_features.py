"""The collusion detector's counts and its eight features (``pipelines.detectors.collusion``
has the method, its calibration and the pair's verdict): what each player and each pair
accumulate, and the one-sided z-score of each behaviour against its baseline."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pipelines.detectors.collusion_cards import FOLDS_AHEAD, SPOTS, STRONG_CHECKS

#: Tolerated departure per opportunity before a feature counts (rates; big blinds per
#: shared hand for flow and team): the baselines are models, and with thousands of
#: shared hands a small misfit between two honest styles would otherwise grow into a
#: large z. Colluders depart by far more (``pipelines.detectors.collusion``). ``quiet``
#: has none: it compares pots with the product of two players' own rates, each betting on
#: his own cards; ``soft`` 0.03 and ``quiet`` 0 were chosen on the independent population
#: (docs/figures.md, *Collusion on the independent population*: soft play found, no honest
#: pair above 4.1 once the first dumper model's pairs are set aside). The card features'
#: 0.05 (five points of rate) was set before measuring and not tuned: their honest p99 is
#: 0.83 and 1.45 (docs/figures.md, *20 groups of every method*).
MARGINS = {
    "flow": 0.25,
    "fold": 0.08,
    "soft": 0.03,
    "whipsaw": 0.04,
    "team": 0.5,
    "quiet": 0.0,
    FOLDS_AHEAD: 0.05,
    STRONG_CHECKS: 0.05,
}
FEATURES = tuple(MARGINS)
#: The card spots' counts (``collusion_cards``): each spot's opportunities and the times
#: the player did what it counts (``collusion_cards.Spot``).
CARD_COUNTS = tuple(name for spot in SPOTS for name in (spot, f"{spot}_done"))
#: Fewest hands each player must have played without the other before ``team`` compares
#: their results together with their results apart: results are heavy-tailed (one
#: all-in is a hundred big blinds), and a mean over a handful of hands is no baseline.
BASELINE_HANDS = 50


class PlayerCounts:
    """One player's behaviour against everyone (the baselines). ``FIELDS`` is the order
    of a stored state's values: fields added later come last, so a state stored before
    them still reads (its missing values are 0)."""

    FIELDS = (
        "faced",
        "faced_by",
        "flow_in",
        "flow_sq",
        "folded",
        "folds_induced",
        "hands",
        "hu",
        "hu_aggr",
        "net",
        "net_sq",
        "pair_hands",
        "raised",
        "third",
        "third_raised",
        "hu_pots",
        "hu_quiet",
        *CARD_COUNTS,
    )
    __slots__ = FIELDS

    def __init__(self) -> None:
        self.faced = self.folded = self.faced_by = self.folds_induced = self.raised = 0
        self.hu = self.hu_aggr = self.third = self.third_raised = 0
        self.hu_pots = self.hu_quiet = 0
        self.hands = 0
        self.net = 0.0
        self.net_sq = 0.0
        self.flow_in = 0.0
        self.flow_sq = 0.0
        self.pair_hands = 0
        for name in CARD_COUNTS:
            setattr(self, name, 0)


class PairCounts:
    """Two players (``a`` < ``b``) in the hands they shared. Index 0: a acting against b;
    index 1: b acting against a."""

    SUMS = ("n", "flow", "flow_sq", "net_a", "net_b", "hu_pots", "hu_quiet")
    """Stored in this order (``hu_pots``, ``hu_quiet`` added later: 0 in older states)."""
    SIDES = ("faced", "folded", "raised", "hu", "hu_aggr", "third", "third_raised", *CARD_COUNTS)
    """Stored in this order (the card counts added later: 0 in older states)."""

    __slots__ = ("a", "b", "evidence", "venues", *SUMS, *SIDES)

    def __init__(self, a: str, b: str) -> None:
        self.a, self.b = a, b
        self.n = 0
        self.flow = self.flow_sq = 0.0
        self.net_a = self.net_b = 0.0
        self.hu_pots = self.hu_quiet = 0
        self.faced = [0, 0]
        self.folded = [0, 0]
        self.raised = [0, 0]
        self.hu = [0, 0]
        self.hu_aggr = [0, 0]
        self.third = [0, 0]
        self.third_raised = [0, 0]
        for name in CARD_COUNTS:
            setattr(self, name, [0, 0])
        self.evidence: list[tuple[float, str]] = []
        self.venues: set[str] = set()


def z_excess(observed: float, expected: float, variance: float) -> float:
    """One-sided z of ``observed`` above ``expected``."""
    if variance <= 0:
        return 0.0
    return (observed - expected) / math.sqrt(variance)


def combined(found: dict[str, float]) -> float:
    """The pair's score: ``sqrt(Σ max(z, 0)²)`` over its features."""
    return math.sqrt(sum(max(z, 0.0) ** 2 for z in found.values()))


def features(
    pair: PairCounts, pa: PlayerCounts, pb: PlayerCounts, venues: dict[str, list[int]]
) -> dict[str, float]:
    """The pair's eight one-sided z-scores against the players' baselines ``pa``, ``pb``
    and the venues' fold rates. Each baseline is estimated from the players' other
    hands, so its own sampling variance (``n² · var(baseline)``) is counted beside the
    pair's: a player seen almost only with his partner has no baseline to depart from."""
    n = pair.n
    # flow: a -> b against each one's mean flow with everybody else.
    others_a, others_b = pa.pair_hands - n, pb.pair_hands - n
    mean_a = ratio(pa.flow_in + pair.flow, others_a)
    mean_b = ratio(pb.flow_in - pair.flow, others_b)
    pooled = ratio(pa.flow_sq + pb.flow_sq, pa.pair_hands + pb.pair_hands)
    excess = abs(pair.flow - n * (mean_b - mean_a)) - MARGINS["flow"] * n
    flow_var = pooled * (n + n * n * (1 / max(others_a, 1) + 1 / max(others_b, 1)))
    flow = excess / math.sqrt(flow_var) if flow_var > 0 else 0.0
    # fold: folding to each other's bets.
    counts = [venues.get(v, [0, 0]) for v in sorted(pair.venues)]
    overall = ratio(sum(c[1] for c in counts), sum(c[0] for c in counts), 0.5)
    fold = Binomial()
    for side, (me, them) in enumerate(((pa, pb), (pb, pa))):
        faced, folded = pair.faced[side], pair.folded[side]
        own = Rate(me.folded - folded, me.faced - faced, overall)
        induced = Rate(them.folds_induced - folded, them.faced_by - faced, overall)
        p = min(max(own.p + induced.p - overall, 0.02), 0.98)
        fold.add(faced, folded, p, own.variance + induced.variance)
    # soft: betting or raising heads-up against each other after the first round, and
    # raising each other's bets, against the same with everybody else.
    soft = Binomial()
    for side, me in enumerate((pa, pb)):
        for spots, done, all_spots, all_done in (
            (pair.hu[side], pair.hu_aggr[side], me.hu, me.hu_aggr),
            (pair.faced[side], pair.raised[side], me.faced, me.raised),
        ):
            rate = Rate(all_done - done, all_spots - spots, 0.2)
            soft.add(spots, done, rate.p, rate.variance)
    # whipsaw: re-raising each other with a third player in the hand.
    whipsaw = Binomial()
    for side, me in enumerate((pa, pb)):
        spots, raised = pair.third[side], pair.third_raised[side]
        rate = Rate(me.third_raised - raised, me.third - spots, 0.05)
        whipsaw.add(spots, raised, rate.p, rate.variance)
    # team: together vs apart.
    apart_a, apart_b = pa.hands - n, pb.hands - n
    var_a, var_b = ratio(pa.net_sq, pa.hands), ratio(pb.net_sq, pb.hands)
    team = 0.0
    if min(apart_a, apart_b) >= BASELINE_HANDS:
        apart = (pa.net - pair.net_a) / apart_a + (pb.net - pair.net_b) / apart_b
        excess = pair.net_a + pair.net_b - n * apart - MARGINS["team"] * n
        spread = n * (var_a + var_b) + n * n * (var_a / apart_a + var_b / apart_b)
        team = excess / math.sqrt(spread) if spread > 0 else 0.0
    return {
        "flow": round(flow, 4),
        "quiet": round(quiet(pair, pa, pb), 4),
        "fold": round(fold.excess(MARGINS["fold"]), 4),
        "soft": round(soft.shortfall(MARGINS["soft"]), 4),
        "whipsaw": round(whipsaw.excess(MARGINS["whipsaw"]), 4),
        "team": round(team, 4),
        **card_features(pair, pa, pb),
    }


#: Default rates of the card spots (a baseline's prior, ``PRIOR_SPOTS``).
_CARD_DEFAULTS = {FOLDS_AHEAD: 0.15, STRONG_CHECKS: 0.5}
#: Whether a card feature tests an excess (True) or a shortfall of what it counts.
_CARD_EXCESS = {FOLDS_AHEAD: True, STRONG_CHECKS: False}


def card_features(pair: PairCounts, pa: PlayerCounts, pb: PlayerCounts) -> dict[str, float]:
    """The card features (``collusion_cards``), each a one-sided z against the player's
    own play with everybody else: ``folds_ahead``, folding the better hand to the
    partner's river bet, above his rate with others; ``strong_checks``, betting a pair or
    better that is ahead heads-up against the partner when checked to, below it."""
    out = {}
    for spot, excess in _CARD_EXCESS.items():
        test = Binomial()
        for side, me in enumerate((pa, pb)):
            base = _base(pair, me, side, spot)
            spots, done = getattr(pair, spot)[side], getattr(pair, f"{spot}_done")[side]
            test.add(spots, done, base.p, base.variance)
        z = test.excess(MARGINS[spot]) if excess else test.shortfall(MARGINS[spot])
        out[spot] = round(z, 4)
    return out


def _base(pair: PairCounts, me: PlayerCounts, side: int, spot: str) -> Rate:
    """The player's rate of the spot with everybody but the pair's other player."""
    spots = getattr(me, spot) - getattr(pair, spot)[side]
    done = getattr(me, f"{spot}_done") - getattr(pair, f"{spot}_done")[side]
    return Rate(done, spots, _CARD_DEFAULTS[spot])


def quiet(pair: PairCounts, pa: PlayerCounts, pb: PlayerCounts) -> float:
    """Heads-up pots after the flop that neither bet into: the pair's share of them
    against what each player's rate of never betting in heads-up pots with anyone else
    predicts (the product of the two: each bets on his own cards). Soft play's checked-down
    pot shows here; one pot is one opportunity, however many checks it holds."""
    pots = pair.hu_pots
    if not pots:
        return 0.0
    own_a = Rate(pa.hu_quiet - pair.hu_quiet, pa.hu_pots - pots, 0.5)
    own_b = Rate(pb.hu_quiet - pair.hu_quiet, pb.hu_pots - pots, 0.5)
    p = min(max(own_a.p * own_b.p, 0.02), 0.98)
    p_variance = own_b.p**2 * own_a.variance + own_a.p**2 * own_b.variance
    test = Binomial()
    test.add(pots, pair.hu_quiet, p, p_variance)
    return test.excess(MARGINS["quiet"])


#: Pseudo-opportunities at the default rate added to every baseline rate: a baseline from
#: a handful of opportunities (a player new to the window) is drawn towards the default
#: instead of being taken at face value (0 of 3 is not a rate of 0 with no variance).
PRIOR_SPOTS = 10


@dataclass(slots=True)
class Rate:
    """A rate estimated from the players' other opportunities, with ``PRIOR_SPOTS`` at
    ``default`` added, and the sampling variance of that estimate."""

    done: float
    spots: float
    default: float

    @property
    def p(self) -> float:
        return ratio(self.done + PRIOR_SPOTS * self.default, self.spots + PRIOR_SPOTS)

    @property
    def variance(self) -> float:
        p = self.p
        return p * (1 - p) / (max(self.spots, 0) + PRIOR_SPOTS)


@dataclass(slots=True)
class Binomial:
    """Observed against expected counts over the pair's opportunities; the variance is
    the binomial one plus the baselines' own (``spots² · var(p)``), plus 1 so a handful
    of opportunities never makes a z."""

    spots: int = 0
    observed: float = 0.0
    expected: float = 0.0
    variance: float = 1.0

    def add(self, spots: int, done: int, p: float, p_variance: float) -> None:
        self.spots += spots
        self.observed += done
        self.expected += spots * p
        self.variance += spots * p * (1 - p) + spots * spots * p_variance

    def excess(self, margin: float) -> float:
        """z of observed above expected plus ``margin`` per opportunity."""
        return z_excess(self.observed, self.expected + margin * self.spots, self.variance)

    def shortfall(self, margin: float) -> float:
        """z of observed below expected minus ``margin`` per opportunity."""
        return z_excess(self.expected, self.observed + margin * self.spots, self.variance)


def shifted(player: PlayerCounts, pair: PairCounts, side: int, sign: int) -> PlayerCounts:
    """A copy of ``player`` (the pair's ``side``: 0 for ``a``) with the pair's counts
    added (``sign`` +1) or taken out (-1). Results (hands, net) stay: a hand's result is
    not split between the pairs it holds."""
    out = PlayerCounts()
    for name in PlayerCounts.__slots__:
        setattr(out, name, getattr(player, name))
    other = 1 - side
    for name in PairCounts.SIDES:
        setattr(out, name, getattr(out, name) + sign * getattr(pair, name)[side])
    out.faced_by += sign * pair.faced[other]
    out.folds_induced += sign * pair.folded[other]
    out.flow_in += sign * (pair.flow if side else -pair.flow)
    out.flow_sq += sign * pair.flow_sq
    out.pair_hands += sign * pair.n
    out.hu_pots += sign * pair.hu_pots
    out.hu_quiet += sign * pair.hu_quiet
    return out


def count_spot(me: PlayerCounts, pair: PairCounts, side: int, spot: str, done: bool) -> None:
    """One card spot (``collusion_cards``) of the pair's ``side`` player, to his counts
    and the pair's."""
    for name, add in ((spot, 1), (f"{spot}_done", int(done))):
        setattr(me, name, getattr(me, name) + add)
        getattr(pair, name)[side] += add


def ratio(numerator: float, denominator: float, default: float = 0.0) -> float:
    return numerator / denominator if denominator > 0 else default
