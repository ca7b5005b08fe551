"""Collusion detection over poker hands: per pair of players, then rings.

Method. Colluders share information or play as a team; it shows as departures of a pair's
behaviour towards each other from how each of them plays against everyone else. Following
Mazrooei, Archibald and Bowling, "Automating Collusion Detection in Sequential Games"
(AAAI 2013), what a pair actually gains from each other is compared with a baseline
expectation, per hand, and the departures are summed over the hands they played
together; the behavioural features are the standard industry heuristics (security teams
of online rooms: chip dumping, soft play, whipsaw/collusive raising, team win rate).
Each feature is a one-sided z-score (approximately N(0,1) for an honest pair) over the
hands both players were dealt in, within a rolling window (``window_days``, 30 by
default) ending on ``as_of``:

``flow`` chip flow between them against expectation
    Per shared hand, the chips a lost to b minus the chips b lost to a (net results
    shared pro rata among the hand's winners), in big blinds. The baseline expectation
    of a pair is each player's mean flow with everyone else (skill: a good player wins
    from everybody, Mazrooei et al.'s expected gain); the feature is the sum of
    departures ``|Σ(flow - baseline)|`` over its standard deviation, from the two
    players' mean squared flow with everybody (a pair-specific variance would make a
    steady trickle of small pots between a nit and a bluffer look significant). Chip
    dumping shows here.
``fold`` folding to each other's bets
    How often a folds facing b's bet or raise, against a's fold rate facing everyone
    else's bets, corrected by how often b's bets make others fold, relative to the fold
    rate at their venue (binomial z). Chip dumping and soft play ("fold rather than
    confront") show here.
``soft`` avoiding confrontation
    After the first betting round, with only a and b left in the hand: how often they bet
    or raise against each other; and how often they raise each other's bets; against
    their rates against others (z of the shortfall). Soft play (checking it down, never
    raising a partner) shows here.
``whipsaw`` raise-reraise trapping a third player
    How often a re-raises b's bet or raise while a third player is still in the hand,
    against a's rate of raising over anyone else's bet with a third player in.
``team`` win rate together vs apart
    The pair's combined result in hands together against their results apart, over the
    standard deviation from their mean squared results in all their hands.
``folds_ahead``, ``strong_checks`` what the cards show
    Read beside every hole card the room dealt (``collusion_cards``): folding the better
    hand to the partner's river bet (chip dumping), not betting a made hand that is
    ahead heads-up against the partner when checked to (soft play, and the partners who
    know each other's cards); each against the player's own rate with everybody else.
``quiet`` checked-down heads-up pots
    Heads-up pots after the flop in which neither bet or raised, against the product of
    each player's rate of never betting in his heads-up pots with anyone else (binomial
    z, one pot one opportunity). Soft play ("check it down when only partners are left")
    shows here far sooner than in the per-action ``soft``: the checks of one pot are
    one decision, not several.

Each z tests the departure beyond a small tolerated margin
(``collusion_features.MARGINS``: e.g. 8 points of fold rate), an effect size below which
honest style interactions (a nit facing a bluffer) are not evidence however many hands
are shared. Each baseline is itself an estimate from the players' other hands, so its
sampling variance (``n²·var``) is added to the pair's, and every baseline rate gets
``collusion_features.PRIOR_SPOTS`` opportunities at a default rate (a baseline from a
handful of opportunities is no certainty): a player seen almost only beside
one other has no baseline to depart from (``team`` compares results only when each
played ``collusion_features.BASELINE_HANDS`` hands without the other). Two passes: a
colluder's play towards his partner would otherwise be his baseline "against everyone
else" (a chip dumper's receiver raises most bets: his partner's), and an honest player
sharing many hands with him would look soft against him; so the pairs the first pass
finds at ``THRESHOLD`` are taken out of their players' baselines and every pair is
scored again. The pair's score is ``sqrt(Σ max(z, 0)²)`` over the eight features; a pair
with at least ``min_hands`` shared hands and a score at or above ``THRESHOLD`` is
suspected; one with fewer is **not judged** (``verdict``: ``NOT_ENOUGH``, "not enough
shared hands to judge"), neither accused nor cleared, and the report lists those whose
score would reach the threshold (``undecided``), with the hands still needed. The verdict
is a sequential test, looked at every night: from ``EARLY_HANDS`` shared hands a score of
``EARLY_THRESHOLD`` already decides "suspected" (a dumping pair in its first hundred
hands); other pairs are decided as their shared hands accumulate.

Calibration: ``THRESHOLD``, ``MIN_HANDS`` and the early look were chosen on the
honest pairs of the project's simulator and of the independent population
(``tests.population``, written apart from the detector), measured in docs/figures.md
(*Collusion: honest against planted pairs*, *Collusion on the independent population*).
Rings: suspected pairs are joined into connected components; a component of three or
more players is reported as a ring (its score: the mean of its suspected pairs' scores).

Evidence: per pair, the ``evidence`` hands that weigh most (largest departures: chips
lost folding to the partner, re-raises over the partner, checked-down heads-up pots, the
better hand folded to the partner's river bet, a made hand checked to him),
by hand id, for ``casino-audit hand ID``.

Streaming: ``CollusionDetector.observe`` takes one hand's flat events at a time; memory
is per pair and per player (counts and sums, a few evidence hand ids), never per hand.
Deterministic: no randomness; ties are broken by ids.

Citations (the rule a finding protects): GG-2022's collusion policy ("política de
conluio"), to which its house rules refer under "Política de desconexões" (players
agreeing to sit out together) and for bounty agreements; not "Política sobre mãos em
jogo", which forbids influencing a hand by chat, emoji or SnapCam, something the
detector does not measure. PT-217/2007 II n.º 56 ("É especialmente vedado o
entendimento entre os jogadores"); MO-97/2010 has no article on
collusion, the finding then cites the operator's house rules.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any

from pipelines.detectors.collusion_cards import EVIDENCE, Spot, card_spots
from pipelines.detectors.collusion_features import (
    FEATURES,
    PairCounts,
    PlayerCounts,
    combined,
    count_spot,
    features,
    shifted,
)
from pipelines.detectors.collusion_report import (  # the report's names, re-exported
    NOT_ENOUGH as NOT_ENOUGH,
)
from pipelines.detectors.collusion_report import (
    NOT_SUSPECTED as NOT_SUSPECTED,
)
from pipelines.detectors.collusion_report import (
    SUSPECTED as SUSPECTED,
)
from pipelines.detectors.collusion_report import (
    CollusionReport as CollusionReport,
)
from pipelines.detectors.collusion_report import (
    PairScore,
    Suspicion,
)
from pipelines.detectors.collusion_report import (
    PairVerdict as PairVerdict,
)
from replayer.events import FlatEvent

#: Score at or above which a pair is suspected: 0.8 above the highest honest score
#: measured over 2,804 honest pairs with 100+ shared hands on the project's simulator.
#: Kept with the card features: 4.0 found every method in 19-20 of 20 groups on the
#: independent population it was chosen on, but on two rooms it had not seen, 7 of 10
#: soft-playing pairs and 1.1% of honest pairs (docs/figures.md, *Collusion on the
#: independent population, 20 groups of every method*).
THRESHOLD = 5.5
#: Fewest shared hands before a pair is judged (suspected or not); below it "not enough
#: shared hands to judge" (honest pairs reach 11.8 under 50 shared hands).
MIN_HANDS = 100
#: The sequential test's early look: from ``EARLY_HANDS`` shared hands a pair whose score
#: reaches ``EARLY_THRESHOLD`` is suspected before ``MIN_HANDS`` (a chip-dumping pair in
#: its first hundred hands). The highest honest score measured at 50-99 shared hands is
#: 5.28 (2,628 pairs of the independent population, ``tests.population``, scored after
#: 200, 600 and 1,000 rounds) and 4.69 on the project's simulator (1,621 pairs).
EARLY_HANDS = 50
EARLY_THRESHOLD = 10.0
WINDOW_DAYS = 30
CITATIONS = {
    "gg": "GG-2022 política de conluio (Política de desconexões)",
    "pt": "PT-217/2007 II n.º 56 (entendimento entre os jogadores vedado)",
    "mo": "MO-97/2010 art.10(3) (no agreement between players to share the pot)",
}
_VOID = frozenset({"HandVoided", "HandReverted"})


class CollusionDetector:
    """Accumulates hands (``observe``) and scores pairs (``scores``, ``report``)."""

    def __init__(
        self,
        *,
        as_of: date,
        window_days: int = WINDOW_DAYS,
        min_hands: int = MIN_HANDS,
        evidence: int = 5,
        early_hands: int = EARLY_HANDS,
        early_threshold: float = EARLY_THRESHOLD,
    ) -> None:
        self.as_of = as_of
        self.early_hands = early_hands
        self.early_threshold = early_threshold
        self.window_days = window_days
        self.first_day = as_of - timedelta(days=window_days - 1)
        self.min_hands = min_hands
        self.evidence = evidence
        self.players: dict[str, PlayerCounts] = {}
        self.pairs: dict[tuple[str, str], PairCounts] = {}
        self.venues: dict[str, list[int]] = {}
        """Venue (rulebook prefix) -> [bets faced, folds]: the population's fold rate."""
        self._cleaned: tuple[set[tuple[str, str]], dict[str, PlayerCounts]] | None = None
        """First-pass suspects and the players' baselines without them (``_baselines``)."""

    # ----------------------------------------------------------------- one hand

    def observe(self, events: Sequence[FlatEvent]) -> None:
        """Add one hand (its flat events, any order); hands outside the window, void
        hands and hands without a HandStarted are ignored."""
        self._cleaned = None
        ordered = sorted(events, key=lambda e: e["sequence"])
        if not ordered or ordered[0]["type"] != "HandStarted":
            return
        start = ordered[0]
        started: datetime = start["occurred_at"]
        if not self.first_day <= started.date() <= self.as_of:
            return
        if any(e["type"] in _VOID for e in ordered):
            return
        unit = start["big_blind"] or start["min_bet"] or 1
        player_of = {s["seat"]: s["player_id"] for s in start["seats"]}
        venue = str(start.get("rulebook") or "")[:2]
        stats = self.players
        for pid in player_of.values():
            if pid not in stats:
                stats[pid] = PlayerCounts()
        put = dict.fromkeys(player_of, 0)
        paid = dict.fromkeys(player_of, 0)
        live = set(player_of)
        aggressor: int | None = None
        later = False
        touches: dict[tuple[int, int], float] = {}
        facing: list[tuple[int, int, bool, bool, bool]] = []
        heads_up: list[tuple[int, int, bool]] = []
        for event in ordered:
            kind = event["type"]
            if kind == "ActionTaken":
                seat = event["seat"]
                action = event["action"]
                put[seat] += event["amount"]
                if aggressor is not None and aggressor != seat and aggressor in live:
                    third = len(live) > 2
                    raised = action == "raise"
                    facing.append((seat, aggressor, action == "fold", third, raised))
                    if third and raised:
                        touches[(seat, aggressor)] = touches.get((seat, aggressor), 0.0) + 3.0
                if later and len(live) == 2 and seat in live:
                    other = next(s for s in live if s != seat)
                    aggressive = action in ("bet", "raise")
                    heads_up.append((seat, other, aggressive))
                    if not aggressive:
                        touches[(seat, other)] = touches.get((seat, other), 0.0) + 0.5
                if action == "fold":
                    live.discard(seat)
                elif action in ("bet", "raise"):
                    aggressor = seat
            elif kind == "BlindPosted":
                put[event["seat"]] += event["amount"]
            elif kind == "PotAwarded":
                paid[event["seat"]] += event["amount"]
            elif kind == "CardsDealt" and event["target"] == "board":
                later = True
                aggressor = None
        pot = _heads_up_pot(heads_up)
        spots = card_spots(ordered)
        for seat, other, spot, done in spots:
            touches[(seat, other)] = touches.get((seat, other), 0.0) + EVIDENCE[spot][done]
        self._record(start["hand_id"], venue, unit, player_of, put, paid, facing, heads_up, touches)
        self._record_spots(player_of, spots)
        if pot is not None:
            self._record_pot(player_of, *pot)

    def _record(
        self,
        hand_id: str,
        venue: str,
        unit: int,
        player_of: dict[int, str],
        put: dict[int, int],
        paid: dict[int, int],
        facing: list[tuple[int, int, bool, bool, bool]],
        heads_up: list[tuple[int, int, bool]],
        touches: dict[tuple[int, int], float],
    ) -> None:
        stats = self.players
        net = {seat: (paid[seat] - put[seat]) / unit for seat in player_of}
        gain = sum(v for v in net.values() if v > 0)
        seats = sorted(player_of, key=player_of.__getitem__)
        for seat in seats:
            record = stats[player_of[seat]]
            record.hands += 1
            record.net += net[seat]
            record.net_sq += net[seat] ** 2
        pairs = self.pairs
        for i, sa in enumerate(seats):
            a = player_of[sa]
            net_a = net[sa]
            loss_a, gain_a = max(-net_a, 0.0), max(net_a, 0.0)
            for sb in seats[i + 1 :]:
                b = player_of[sb]
                net_b = net[sb]
                pair = pairs.get((a, b))
                if pair is None:
                    pair = pairs[(a, b)] = PairCounts(a, b)
                flow = 0.0
                if gain > 0:
                    flow = (loss_a * max(net_b, 0.0) - max(-net_b, 0.0) * gain_a) / gain
                pair.n += 1
                pair.flow += flow
                pair.flow_sq += flow * flow
                pair.net_a += net_a
                pair.net_b += net_b
                pair.venues.add(venue)
                stats[b].flow_in += flow
                stats[a].flow_in -= flow
                stats[a].pair_hands += 1
                stats[b].pair_hands += 1
                stats[a].flow_sq += flow * flow
                stats[b].flow_sq += flow * flow
                weight = touches.get((sa, sb), 0.0) + touches.get((sb, sa), 0.0) + abs(flow)
                if weight:
                    self._keep_evidence(pair, (weight, hand_id))
        for seat, bettor, folded, third, raised in facing:
            a, b = player_of[seat], player_of[bettor]
            me, them = stats[a], stats[b]
            me.faced += 1
            me.folded += folded
            them.faced_by += 1
            them.folds_induced += folded
            venue_counts = self.venues.setdefault(venue, [0, 0])
            venue_counts[0] += 1
            venue_counts[1] += folded
            me.raised += raised
            me.third += third
            me.third_raised += third and raised
            pair = pairs[(a, b) if a < b else (b, a)]
            side = 0 if a < b else 1
            pair.faced[side] += 1
            pair.folded[side] += folded
            pair.raised[side] += raised
            pair.third[side] += third
            pair.third_raised[side] += third and raised
        for seat, other, aggressive in heads_up:
            a, b = player_of[seat], player_of[other]
            me = stats[a]
            me.hu += 1
            me.hu_aggr += aggressive
            pair = pairs[(a, b) if a < b else (b, a)]
            side = 0 if a < b else 1
            pair.hu[side] += 1
            pair.hu_aggr[side] += aggressive

    def _record_spots(self, player_of: dict[int, str], spots: list[Spot]) -> None:
        for seat, other, spot, done in spots:
            a, b = player_of[seat], player_of[other]
            pair = self.pairs[(a, b) if a < b else (b, a)]
            count_spot(self.players[a], pair, 0 if a < b else 1, spot, done)

    def _record_pot(self, player_of: dict[int, str], seats: tuple[int, int], bet: set[int]) -> None:
        """One heads-up pot after the flop: who of the two bet or raised in it."""
        a, b = sorted(player_of[s] for s in seats)
        pair = self.pairs[(a, b)]
        pair.hu_pots += 1
        pair.hu_quiet += not bet
        for seat in seats:
            player = self.players[player_of[seat]]
            player.hu_pots += 1
            player.hu_quiet += seat not in bet

    # ----------------------------------------------------------- partial states

    def state(self) -> dict[str, Any]:
        """Everything accumulated, JSON-able: the night stores one partition's state
        (``pipelines.nightly.judge_partition``) and the window's detector ``merge``s them, so
        no night re-reads a month of hands."""
        return {
            "players": {
                pid: [getattr(player, f) for f in PlayerCounts.FIELDS]
                for pid, player in sorted(self.players.items())
            },
            "pairs": [
                [
                    a,
                    b,
                    [getattr(pair, f) for f in PairCounts.SUMS],
                    [getattr(pair, f) for f in PairCounts.SIDES],
                    sorted(pair.venues),
                    sorted(pair.evidence, reverse=True),
                ]
                for (a, b), pair in sorted(self.pairs.items())
            ],
            "venues": {venue: list(counts) for venue, counts in sorted(self.venues.items())},
        }

    def merge(self, state: dict[str, Any]) -> None:
        """Add a ``state`` (of hands in this window, observed by another detector): counts
        and sums add, evidence keeps the heaviest hands of both. Merging states in a fixed
        order gives the same figures on every run."""
        self._cleaned = None
        for pid, values in state["players"].items():
            player = self.players.get(pid) or self.players.setdefault(pid, PlayerCounts())
            for name, value in zip(PlayerCounts.FIELDS, values, strict=False):
                setattr(player, name, getattr(player, name) + value)
        for a, b, sums, sides, venues, evidence in state["pairs"]:
            pair = self.pairs.get((a, b)) or self.pairs.setdefault((a, b), PairCounts(a, b))
            for name, value in zip(PairCounts.SUMS, sums, strict=False):
                setattr(pair, name, getattr(pair, name) + value)
            for name, (first, second) in zip(PairCounts.SIDES, sides, strict=False):
                mine = getattr(pair, name)
                mine[0] += first
                mine[1] += second
            pair.venues.update(venues)
            for weight, hand_id in evidence:
                self._keep_evidence(pair, (weight, hand_id))
        for venue, (faced, folds) in state["venues"].items():
            counts = self.venues.setdefault(venue, [0, 0])
            counts[0] += faced
            counts[1] += folds

    def _keep_evidence(self, pair: PairCounts, entry: tuple[float, str]) -> None:
        """Keep the ``evidence`` heaviest (weight, hand id) entries of the pair."""
        if len(pair.evidence) < self.evidence:
            heapq.heappush(pair.evidence, entry)
        elif entry > pair.evidence[0]:
            heapq.heapreplace(pair.evidence, entry)

    # ------------------------------------------------------------------ scoring

    def score(self, pair: tuple[str, str]) -> PairScore:
        """The pair's features and score (ids in either order), against baselines cleaned
        of the first pass's suspects (``_baselines``)."""
        a, b = sorted(pair)
        record = self.pairs[(a, b)]
        suspects, cleaned = self._baselines()
        pa, pb = cleaned.get(a, self.players[a]), cleaned.get(b, self.players[b])
        if (a, b) in suspects:  # its own hands come out in ``features``
            pa, pb = shifted(pa, record, 0, +1), shifted(pb, record, 1, +1)
        found = features(record, pa, pb, self.venues)
        return PairScore((a, b), record.n, combined(found), found)

    def _raw_score(self, record: PairCounts) -> float:
        players = self.players
        return combined(features(record, players[record.a], players[record.b], self.venues))

    def _baselines(self) -> tuple[set[tuple[str, str]], dict[str, PlayerCounts]]:
        """Two passes. A colluder's behaviour towards his partner is part of his behaviour
        "against everyone else" when any other pair of his is scored (a chip dumper's
        receiver raises most bets: against his partner's), so an honest player who sits
        with a colluder would look soft or folding against him. The first pass scores
        every pair with ``min_hands`` shared hands against the raw baselines; the players
        of the pairs at or above ``THRESHOLD`` then get baselines without those pairs'
        counts, and every pair is scored against them."""
        if self._cleaned is None:
            suspects = {
                key
                for key, record in self.pairs.items()
                if record.n >= self.min_hands and self._raw_score(record) >= THRESHOLD
            }
            cleaned: dict[str, PlayerCounts] = {}
            for key in sorted(suspects):
                record = self.pairs[key]
                for side, pid in enumerate(key):
                    cleaned[pid] = shifted(cleaned.get(pid, self.players[pid]), record, side, -1)
            self._cleaned = (suspects, cleaned)
        return self._cleaned

    def scores(self) -> list[PairScore]:
        """Every pair with at least ``min_hands`` shared hands, sorted by ids."""
        return [
            self.score(key) for key in sorted(self.pairs) if self.pairs[key].n >= self.min_hands
        ]

    def verdict(self, pair: tuple[str, str], threshold: float = THRESHOLD) -> PairVerdict:
        """The pair's verdict (ids in either order; a pair never seen together has 0 shared
        hands), a sequential test over the hands shared: suspected as soon as the score
        reaches ``early_threshold`` (from ``early_hands`` shared hands) or ``threshold``
        (from ``min_hands``); not suspected from ``min_hands`` below ``threshold``; else
        not enough shared hands to judge, with the number still needed."""
        a, b = sorted(pair)
        if (a, b) not in self.pairs:
            return PairVerdict((a, b), 0, self.min_hands, 0.0, NOT_ENOUGH, self.min_hands)
        item = self.score((a, b))
        n, still = item.shared_hands, 0
        if n >= self.min_hands:
            word = SUSPECTED if item.score >= threshold else NOT_SUSPECTED
        elif n >= self.early_hands and item.score >= self.early_threshold:
            word = SUSPECTED
        else:
            word, still = NOT_ENOUGH, self.min_hands - n
        return PairVerdict((a, b), n, self.min_hands, round(item.score, 4), word, still)

    def report(self, threshold: float = THRESHOLD) -> CollusionReport:
        """Suspected pairs and rings (see the module docstring), and the pairs left
        undecided."""
        scored = self.scores()
        suspected = [s for s in scored if s.score >= threshold]
        out = CollusionReport(self.as_of.isoformat(), self.window_days, threshold, len(scored))
        few = [
            self.verdict(key, threshold) for key, p in self.pairs.items() if p.n < self.min_hands
        ]
        early = {v.players for v in few if v.verdict == SUSPECTED}
        suspected += [self.score(key) for key in sorted(early)]
        out.undecided = sorted(
            (v for v in few if v.score >= threshold and v.verdict == NOT_ENOUGH),
            key=lambda v: (-v.score, v.players),
        )
        for item in suspected:
            record = self.pairs[item.players]
            out.suspicions.append(
                Suspicion(
                    subject=f"pair:{item.players[0]}|{item.players[1]}",
                    players=item.players,
                    score=round(item.score, 4),
                    shared_hands=item.shared_hands,
                    features=item.features,
                    evidence=tuple(h for _, h in sorted(record.evidence, reverse=True)),
                    citation=_citation(record.venues),
                    seated_together=self._seated_together(item.players),
                )
            )
        out.suspicions.extend(self._rings(suspected))
        out.suspicions.sort(key=lambda s: (-s.score, s.subject))
        return out

    def _rings(self, suspected: list[PairScore]) -> list[Suspicion]:
        """Connected components of three or more players among suspected pairs."""
        neighbours: dict[str, set[str]] = {}
        for item in suspected:
            a, b = item.players
            neighbours.setdefault(a, set()).add(b)
            neighbours.setdefault(b, set()).add(a)
        seen: set[str] = set()
        rings = []
        for root in sorted(neighbours):
            if root in seen:
                continue
            component, todo = set(), [root]
            while todo:
                node = todo.pop()
                if node not in component:
                    component.add(node)
                    todo.extend(neighbours[node] - component)
            seen |= component
            if len(component) < 3:
                continue
            members = tuple(sorted(component))
            edges = [s for s in suspected if set(s.players) <= component]
            records = [self.pairs[s.players] for s in edges]
            evidence = sorted((e for r in records for e in r.evidence), reverse=True)
            rings.append(
                Suspicion(
                    subject=f"ring:{'|'.join(members)}",
                    players=members,
                    score=round(sum(s.score for s in edges) / len(edges), 4),
                    shared_hands=min(s.shared_hands for s in edges),
                    features={f: round(max(s.features[f] for s in edges), 4) for f in FEATURES},
                    evidence=tuple(dict.fromkeys(h for _, h in evidence))[: self.evidence],
                    citation=_citation(set().union(*(r.venues for r in records))),
                    seated_together=min(self._seated_together(s.players) for s in edges),
                )
            )
        return rings

    def _seated_together(self, pair: tuple[str, str]) -> float:
        """Shared hands over the hands of the pair's member who played fewer."""
        fewer = min(self.players[p].hands for p in pair)
        return round(self.pairs[pair].n / fewer, 4) if fewer else 0.0


def _heads_up_pot(
    heads_up: list[tuple[int, int, bool]],
) -> tuple[tuple[int, int], set[int]] | None:
    """The hand's heads-up pot after the flop, if it had one: its two seats and those who
    bet or raised in it."""
    if not heads_up:
        return None
    seat, other, _ = heads_up[0]
    return (seat, other), {s for s, _, aggressive in heads_up if aggressive}


def _citation(venues: set[str]) -> str:
    return "; ".join(CITATIONS[v] for v in sorted(venues) if v in CITATIONS) or CITATIONS["gg"]
