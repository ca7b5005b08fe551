"""Play one poker hand by the rulebook and record it as flat events (``replayer.events``).

The betting state is the replayer's own ``betting.Betting`` machine, so the generator
and the replayer agree on every rule (turn order, minimum and maximum raise, raise caps,
all-ins): each generated action is checked by it and a departure is a generator bug
(``AssertionError``). The settlement uses the replayer's public functions: pots and
uncalled bets (``pots.build_pots``), rake bounds and allocation (``rake``), hand values
and winners (``showdown``, ``evaluator``), shares and odd chips (``pots.split``). So a
clean hand is, by construction, what the rules say; ``faults`` then changes the recorded
settlement of a few hands.

Dealing follows the rulebooks' commitment order: hole cards one at a time round the
table from the first player left of the button (MO-97/2010 art.6(1); PT-217/2007 n.º 35),
then for each betting round a burn (none in "sintético", PT n.º 100) and its board cards
from the top (from the bottom in "sintético", PT n.º 107).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from replayer.poker.betting import Betting, Issue
from replayer.poker.cards import full_deck, synthetic_deck
from replayer.poker.pots import build_pots, split_pots
from replayer.poker.rake import expected_rake, rake_bounds
from replayer.poker.showdown import hand_values, winners
from replayer.poker.showdown_order import last_round_opener
from replayer.rulebooks.poker import VARIANTS, PokerRulebook, RaiseMax, SplitUnit, Structure
from simulate.envelope import envelope
from simulate.manifest import CollusionGroup
from simulate.players import Player
from simulate.strategy import CHIP_DUMPING, WHIPSAW, Spot, colluding, honest
from simulate.strength import strength
from simulate.tables import TableSpec

Award = tuple[int, int, int | None]
"""(position, chips, pot index or None for an uncalled bet or a refund)."""


@dataclass(slots=True)
class Settlement:
    """What the operator pays: awards per position and pot, rake per pot."""

    awards: list[Award]
    rake: list[tuple[int, int]]
    """(chips, pot index)."""

    def copy(self) -> Settlement:
        return Settlement(list(self.awards), list(self.rake))

    def paid(self, n: int) -> list[int]:
        out = [0] * n
        for pos, chips, _ in self.awards:
            out[pos] += chips
        return out


@dataclass(slots=True)
class PlayedHand:
    """A hand as played, its correct settlement, and what faults need to know."""

    hand_id: str
    table: TableSpec
    players: list[str]
    """Player id per position (0 = first left of the button; the button last)."""
    seats: list[int]
    starting: list[int]
    put: list[int]
    events: list[dict[str, Any]]
    """Events before the settlement (HandStarted .. CardsShown, or HandVoided)."""
    settlement: Settlement
    pots: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    winners: list[tuple[int, ...]] = field(default_factory=list)
    retained: list[int] = field(default_factory=list)
    shown: tuple[int, ...] = ()
    """Positions that showed their cards at showdown."""
    void: bool = False
    rake_bounds: tuple[int, int, int | None] = (0, 0, None)
    """(lowest, highest, cap) of the hand's rake."""
    revealed: tuple[list[str], str] | None = None
    ended_at: datetime | None = None

    def finishing(self, settlement: Settlement) -> list[int]:
        paid = settlement.paid(len(self.players))
        return [s - p + a for s, p, a in zip(self.starting, self.put, paid, strict=True)]

    def render(self, settlement: Settlement | None = None) -> list[dict[str, Any]]:
        """Every event of the hand, with ``settlement`` (default: the correct one)."""
        settlement = self.settlement if settlement is None else settlement
        out = list(self.events)
        seq = len(out)
        at = self.ended_at
        assert at is not None
        for chips, index in settlement.rake:
            out.append(_event(self.hand_id, seq, at, "RakeTaken", amount=chips, pot_index=index))
            seq += 1
        for pos, chips, pot_index in settlement.awards:
            out.append(
                _event(
                    self.hand_id,
                    seq,
                    at,
                    "PotAwarded",
                    seat=self.seats[pos],
                    amount=chips,
                    pot_index=pot_index,
                )
            )
            seq += 1
        out.append(
            _event(self.hand_id, seq, at, "HandEnded", finishing_stacks=self.finishing(settlement))
        )
        if self.revealed is not None:
            order, salt = self.revealed
            out.append(_event(self.hand_id, seq + 1, at, "DeckRevealed", order=order, salt=salt))
        return out


def _event(hand_id: str, seq: int, at: datetime, event_type: str, /, **body: Any) -> dict[str, Any]:
    return envelope("hand_id", hand_id, seq, at, event_type, **body)


@dataclass(slots=True)
class HandPlan:
    """Who sits where and what happens to the hand before it is played."""

    hand_id: str
    started_at: datetime
    button_seat: int
    seated: list[tuple[int, Player, int]]
    """(seat, player, stack) in position order: first left of the button .. the button."""
    event_gap: timedelta = timedelta(seconds=2)
    misdeal: bool = False
    groups: list[CollusionGroup] = field(default_factory=list)
    """Colluding groups with at least two members dealt in."""


class _Hand:
    """The mutable state while one hand is played."""

    def __init__(self, table: TableSpec, book: PokerRulebook, plan: HandPlan) -> None:
        self.table = table
        self.book = book
        self.plan = plan
        self.structure, self.game = VARIANTS[table.variant]
        self.n = len(plan.seated)
        self.seats = [seat for seat, _, _ in plan.seated]
        self.players = [player for _, player, _ in plan.seated]
        self.starting = [stack for _, _, stack in plan.seated]
        self.betting = Betting(
            book,
            self.structure,
            list(self.starting),
            table.small_blind,
            table.big_blind,
            table.ante,
            table.min_bet,
        )
        self.events: list[dict[str, Any]] = []
        self.at = plan.started_at
        self.holes: list[list[str]] = [[] for _ in range(self.n)]
        self.board: list[str] = []
        self.cache: dict[tuple[int, int], float] = {}
        self.team: dict[int, CollusionGroup] = {}
        self.roles: dict[int, str] = {}

    def emit(self, event_type: str, /, **body: Any) -> None:
        self.events.append(_event(self.plan.hand_id, len(self.events), self.at, event_type, **body))
        self.at += self.plan.event_gap

    def check(self, issues: list[Issue]) -> None:
        if issues:
            raise AssertionError(f"generator broke a rule in {self.plan.hand_id}: {issues}")


def play_hand(
    table: TableSpec, book: PokerRulebook, plan: HandPlan, rng: random.Random
) -> PlayedHand:
    """Play ``plan`` at ``table`` under ``book`` with ``rng`` (see the module docstring)."""
    hand = _Hand(table, book, plan)
    n = hand.n
    deck = full_deck() if book.deck_size == 52 else synthetic_deck()
    rng.shuffle(deck)
    salt = f"{rng.getrandbits(64):016x}"
    commitment = (
        hashlib.sha256((" ".join(deck) + ":" + salt).encode()).hexdigest()
        if table.committed
        else None
    )
    hand.emit(
        "HandStarted",
        rulebook=table.rulebook,
        table_id=table.table_id,
        variant=table.variant,
        currency=table.currency,
        smallest_chip=table.smallest_chip,
        small_blind=table.small_blind,
        big_blind=table.big_blind,
        ante=table.ante,
        min_bet=table.min_bet,
        button=plan.button_seat,
        seats=[
            {"seat": seat, "player_id": player.player_id, "stack": stack}
            for seat, player, stack in plan.seated
        ],
        shuffle_commitment=commitment,
        source=None,
    )
    _forced_bets(hand)
    top = 0
    for _ in range(book.hole_cards):
        for pos in range(n):
            hand.holes[pos].append(deck[top])
            top += 1
    for pos in range(n):
        hand.emit("CardsDealt", target="hole", seat=hand.seats[pos], cards=list(hand.holes[pos]))
    _assign_roles(hand, rng)
    if plan.misdeal:
        return _void(hand, rng, deck, salt)
    bottom = len(deck) - 1
    betting = hand.betting
    for round_number, count in enumerate(book.board_schedule):
        if betting.in_hand() < 2:
            break
        if count:
            if book.burns:
                hand.emit("CardsDealt", target="burn", seat=None, cards=[deck[top]])
                top += 1
            cards = []
            for _ in range(count):
                if book.board_from_bottom:
                    cards.append(deck[bottom])
                    bottom -= 1
                else:
                    cards.append(deck[top])
                    top += 1
            hand.board.extend(cards)
            hand.emit("CardsDealt", target="board", seat=None, cards=cards)
        betting.start_round(round_number)
        while betting.next >= 0:
            _act(hand, rng, round_number)
    return _settle(hand, rng, deck, salt)


def _forced_bets(hand: _Hand) -> None:
    table = hand.table
    betting = hand.betting
    issues: list[Issue] = []
    if table.ante:
        for pos in range(hand.n):
            amount = min(table.ante, betting.stack[pos])
            betting.post(pos, "ante", amount, issues)
            hand.emit("BlindPosted", seat=hand.seats[pos], kind="ante", amount=amount)
    if table.big_blind:
        sb_pos = hand.n - 1 if hand.n == 2 and hand.book.heads_up_button_small_blind else 0
        for pos, kind, amount in (
            (sb_pos, "small_blind", table.small_blind),
            ((sb_pos + 1) % hand.n, "big_blind", table.big_blind),
        ):
            amount = min(amount, betting.stack[pos])
            betting.post(pos, kind, amount, issues)
            hand.emit("BlindPosted", seat=hand.seats[pos], kind=kind, amount=amount)
    hand.check(issues)


def _assign_roles(hand: _Hand, rng: random.Random) -> None:
    """Decide, per colluding group dealt in, whether its method runs in this hand."""
    position = {player.player_id: pos for pos, player in enumerate(hand.players)}
    for group in hand.plan.groups:
        members = [position[p] for p in group.players if p in position]
        if len(members) < 2:
            continue
        active = rng.random() < group.intensity
        for pos in members:
            hand.team[pos] = group
        if not active:
            continue
        if group.method == CHIP_DUMPING:
            receiver = position.get(group.players[0])
            if receiver is None:
                continue
            for pos in members:
                hand.roles[pos] = "receiver" if pos == receiver else "dumper"
        elif group.method == WHIPSAW:
            for pos in members:
                hand.roles[pos] = "whipsaw"


def _strength(hand: _Hand, pos: int, round_number: int) -> float:
    key = (pos, round_number)
    value = hand.cache.get(key)
    if value is None:
        value = strength(hand.holes[pos], hand.board, hand.game, hand.book.ranking)
        hand.cache[key] = value
    return value


def _act(hand: _Hand, rng: random.Random, round_number: int) -> None:
    betting = hand.betting
    table = hand.table
    pos = betting.next
    to_call = max(0, betting.current - betting.bet[pos])
    stack = betting.stack[pos]
    pot = sum(betting.put)
    max_to = _max_to(hand, pos, to_call, pot)
    if betting.current == 0:
        min_to = table.min_bet
    elif hand.book.min_raise.value == "last_bet_or_raise":
        min_to = betting.current + betting.full_raise
    else:
        min_to = betting.current + table.big_blind
    spot = Spot(
        to_call=to_call,
        stack=stack,
        pot=pot,
        current=betting.current,
        my_bet=betting.bet[pos],
        min_to=min_to,
        max_to=max_to,
        chip=table.smallest_chip,
        big_blind=table.big_blind or table.min_bet,
        street=round_number,
        strength=_strength(hand, pos, round_number),
        no_limit=hand.structure is Structure.NO_LIMIT,
        opponents=betting.in_hand() - 1,
        was_aggressor=round_number > 0 and betting.prev_aggressor == pos,
    )
    style = hand.players[pos].style
    group = hand.team.get(pos)
    if group is not None:
        live = [p for p in range(hand.n) if not betting.folded[p] and p != pos]
        partners = [p for p in live if hand.team.get(p) is group]
        if partners:
            spot.only_partners_left = len(partners) == len(live)
            spot.third_party_in = len(partners) < len(live)
            spot.aggressor_is_partner = betting.aggressor in partners and to_call > 0
            spot.team_strength = max(_strength(hand, p, round_number) for p in [pos, *partners])
            spot.role = hand.roles.get(pos, "")
            action, amount = colluding(rng, style, group.method, spot)
        else:
            action, amount = honest(rng, style, spot)
    else:
        action, amount = honest(rng, style, spot)
    issues: list[Issue] = []
    betting.act(pos, action, amount, issues)
    hand.check(issues)
    hand.emit("ActionTaken", seat=hand.seats[pos], action=action, amount=amount)


def _max_to(hand: _Hand, pos: int, to_call: int, pot: int) -> int | None:
    """Largest total bet allowed now, or None when a bet or raise is not allowed."""
    betting = hand.betting
    stack = betting.stack[pos]
    if stack <= to_call or not betting.allow_reraise[pos]:
        return None
    others = [p for p in range(hand.n) if p != pos and not betting.folded[p]]
    if not any(betting.stack[p] > 0 for p in others):
        return None
    if (
        betting.current > 0
        and betting.cap is not None
        and betting.raises >= betting.cap
        and not (betting.cap_lifted_heads_up and betting.in_hand() == 2)
    ):
        return None
    all_in = betting.bet[pos] + stack
    rule = betting.max_rule
    if rule is RaiseMax.UNLIMITED:
        return all_in
    if betting.current == 0:
        minimum = betting.min_bet
    elif betting.min_rule.value == "last_bet_or_raise":
        minimum = betting.full_raise
    else:
        minimum = betting.bb
    most = pot + to_call if rule is RaiseMax.POT else pot
    chip = hand.table.smallest_chip
    limit = betting.current + max(most, minimum) // chip * chip
    return min(limit, all_in)


def _void(hand: _Hand, rng: random.Random, deck: list[str], salt: str) -> PlayedHand:
    """A misdeal discovered during the first betting round: the hand is void and every
    chip put in goes back (MO-97/2010 art.9(2); PT-217/2007 n.º 69; GG-2022 reembolso)."""
    betting = hand.betting
    if hand.book.board_schedule[0] == 0:
        betting.start_round(0)
        for _ in range(rng.randrange(0, hand.n)):
            if betting.next < 0:
                break
            _act(hand, rng, 0)
    if hand.table.venue == "gg":
        hand.emit(
            "HandReverted",
            reason="server failure during the hand",
            incident_id=f"inc-{hand.plan.hand_id}",
        )
    else:
        hand.emit("HandVoided", reason="misdeal: a card exposed during the deal")
    put = list(betting.put)
    awards: list[Award] = [(pos, chips, None) for pos, chips in enumerate(put) if chips]
    return PlayedHand(
        hand_id=hand.plan.hand_id,
        table=hand.table,
        players=[p.player_id for p in hand.players],
        seats=hand.seats,
        starting=hand.starting,
        put=put,
        events=hand.events,
        settlement=Settlement(awards, []),
        void=True,
        revealed=(deck, salt) if hand.table.committed else None,
        ended_at=hand.at,
    )


def _settle(hand: _Hand, rng: random.Random, deck: list[str], salt: str) -> PlayedHand:
    table = hand.table
    book = hand.book
    betting = hand.betting
    n = hand.n
    chip = table.smallest_chip
    pots, returned = build_pots(betting.put, betting.dead, betting.folded)
    amounts = [amount for amount, _ in pots]
    terms = table.rake_terms if table.rake_terms is not None else book.rake
    board_dealt = bool(hand.board)
    lowest, highest, cap = rake_bounds(amounts, terms, chip, table.big_blind, board_dealt)
    # The table's rate on the hand's whole pot, rounded once (``rake.rake_bounds``).
    at_rate = sum(amounts) * table.rate_bps // 10_000 // chip * chip
    total = min(max(at_rate, lowest), highest)
    issues: list[Issue] = []
    per_pot = expected_rake(book, terms, amounts, total, chip, table.big_blind, board_dealt, issues)
    hand.check(issues)
    live = [not folded for folded in betting.folded]
    contested = [p for p in range(n) if live[p]]
    values = (
        hand_values(book, hand.game, contested, hand.holes, hand.board)
        if len(contested) > 1
        else {}
    )
    unit = chip
    if book.split_unit is SplitUnit.TABLE_MINIMUM:
        unit = max(chip, table.big_blind or table.min_bet)
    seat_of = tuple(hand.seats)
    awards: list[Award] = []
    won_by: list[tuple[int, ...]] = []
    retained: list[int] = []
    for index, (_, eligible) in enumerate(pots):
        won = winners(eligible, live, values)
        if won is None:
            raise AssertionError(f"{hand.plan.hand_id}: pot {index} has no winner")
        won_by.append(tuple(sorted(won)))
    nets = [amount - chips for (amount, _), chips in zip(pots, per_pot, strict=True)]
    settled = split_pots(
        [(net, list(won)) for net, won in zip(nets, won_by, strict=True)],
        unit,
        book.odd_chip,
        seat_of,
    )
    for index, (shares, kept) in enumerate(settled):
        awards.extend((p, chips, index) for p, chips in sorted(shares.items()) if chips)
        retained.append(kept)
    awards.extend((p, chips, None) for p, chips in enumerate(returned) if chips)
    shown: list[int] = []
    if len(contested) > 1:
        winning = {p for won in won_by for p in won}
        mucks = {p: p not in winning and rng.random() < 0.4 for p in contested}
        for p in _showdown_order(book, hand, contested):
            if mucks[p]:
                hand.emit("CardsShown", seat=hand.seats[p], cards=[], mucked=True)
            else:
                hand.emit("CardsShown", seat=hand.seats[p], cards=list(hand.holes[p]), mucked=False)
                shown.append(p)
    return PlayedHand(
        hand_id=hand.plan.hand_id,
        table=table,
        players=[p.player_id for p in hand.players],
        seats=hand.seats,
        starting=hand.starting,
        put=list(betting.put),
        events=hand.events,
        settlement=Settlement(awards, [(r, i) for i, r in enumerate(per_pot) if r]),
        pots=pots,
        winners=won_by,
        retained=retained,
        shown=tuple(shown),
        rake_bounds=(lowest, highest, cap),
        revealed=(deck, salt) if table.committed else None,
        ended_at=hand.at,
    )


def _showdown_order(book: PokerRulebook, hand: _Hand, contested: list[int]) -> list[int]:
    """The order the players in the showdown show: where the rulebook orders it
    (PT-217/2007 n.º 62), the opener of the last betting round first, then clockwise;
    else position order."""
    opener = last_round_opener(hand.events)
    if book.showdown_order_by is None or opener not in hand.seats:
        return contested
    start = hand.seats.index(opener)
    return sorted(contested, key=lambda p: (p - start) % hand.n)
