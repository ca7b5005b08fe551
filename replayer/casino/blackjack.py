"""Blackjack (GG-2022 live III): the deal, the players' options, the dealer's draw, settlement.

The round is replayed event by event:

* the deal (III 3.4): one card to each hand with a bet, one up card to the dealer, a
  second card to each hand, the hole card; any other order is an ``invalid_deal`` and
  the round is not judged further;
* insurance (III 2.5): only under a dealer ace, at most half the hand's bet, between the
  deal and the first further card; it pays 2:1 when the dealer has blackjack;
* the players' options, each checked (``illegal_action``): hit below 21 (III 4.4); double
  on the first two cards, one card, at most the original bet (III 2.6); split once, two
  cards of equal value, a stake equal to the original bet, split aces one card each, and
  A+10 after a split is 21, not blackjack (III 2.7); no surrender (not in III). Hands are
  settled as played: an illegal option is flagged, not undone. A card dealt to a hand
  that did not ask for one is an ``invalid_deal``;
* the dealer (III 4.4): draws to 16 and stands on every 17, hard or soft, and does not
  draw at all when every player hand is already decided (bust, or blackjack); too few or
  too many dealer cards is a ``wrong_draw``; surplus cards are burned, and when the dealer
  stopped short the hands that depend on the dealer's total cannot be settled;
* settlement (III 2.1.1, 2.2, 2.3): a bust loses even if the dealer busts; the dealer's
  blackjack beats a player's 21; blackjack against no dealer blackjack pays 3:2; equal
  totals push; otherwise the higher total wins 1:1 on every wager of the hand.

Betting closes at the first card (III 2.1.1, 2.1.3); only a split's second stake, a double
and insurance are taken after it (III 2.1.2, ``taken_after_the_deal``): any other bet
recorded after the first card is past-posted (``past_posting.py``). A box whose main bet
is withdrawn (late or past-posted) was never in play with a bet (III 2.1.1): the wagers
added to its hands (split, double, insurance) are withdrawn with it, their stakes due back.
The limits on those wagers (half, or at most, or equal to the original bet) are measured
against the bets as placed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from replayer.casino.cards import blackjack_total, blackjack_value
from replayer.casino.record import Bet, RoundRecord
from replayer.casino.settlement import Expected, GameJudgement, GameSpec
from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.rulebooks.casino import BlackjackRules

DEAL = "GG-2022 live III 3.4"
INSURANCE = "GG-2022 live III 2.5.1-2.5.2"
INSURANCE_PAYS = "GG-2022 live III 2.5.3"
HIT = "GG-2022 live III 4.4"
DOUBLE = "GG-2022 live III 2.6"
SPLIT = "GG-2022 live III 2.7"
PEEK = "GG-2022 live III 3.7"
OPTIONS = "GG-2022 live III 3.5"
DEALER = "GG-2022 live III 4.4"
SETTLE = "GG-2022 live III 2.1.1, 2.2, 2.3"
WITHDRAWN = "GG-2022 live III 2.1.1-2.1.3"
STAKE_TYPES = ("main", "split_hand")


def dealer_should_draw(cards: list[str], rules: BlackjackRules) -> bool:
    """The dealer draws below ``rules.dealer_stands_on`` (17), soft or hard (III 4.4)."""
    return blackjack_total(cards)[0] < rules.dealer_stands_on


def is_blackjack(cards: list[str], from_split: bool = False) -> bool:
    """An ace and a ten-value card as the two initial cards (III 1.1), never after a split."""
    return len(cards) == 2 and not from_split and blackjack_total(cards)[0] == 21


@dataclass(slots=True)
class BlackjackHand:
    """A player's blackjack hand as it is played: a box's, or one a split made."""

    number: int
    cards: list[str] = field(default_factory=list)
    from_split: bool = False
    split_aces: bool = False
    box: int = 0  # the hand dealt at the start that this hand comes from (itself, or a split's)
    owed: int = 0  # cards the hand asked for and has not yet received
    finished: bool = False
    doubled: bool = False

    @property
    def total(self) -> int:
        return blackjack_total(self.cards)[0]

    @property
    def bust(self) -> bool:
        return self.total > 21

    @property
    def blackjack(self) -> bool:
        return is_blackjack(self.cards, self.from_split)


@dataclass(slots=True)
class _Replay:
    record: RoundRecord
    rules: BlackjackRules
    bets: list[Bet]
    findings: list[Finding] = field(default_factory=list)
    hands: dict[int, BlackjackHand] = field(default_factory=dict)
    dealer: list[str] = field(default_factory=list)
    dealer_draws: list[tuple[str, int]] = field(default_factory=list)  # (card, sequence)
    splits: dict[int, int] = field(default_factory=dict)  # splits made per original box

    def flag(
        self, kind: FindingKind, citation: str, reason: str, event: FlatEvent, **detail: object
    ) -> None:
        self.findings.append(
            Finding(
                kind,
                self.record.round_id,
                citation,
                reason,
                detail={"sequence": event["sequence"], **detail},
            )
        )

    def stake(self, hand: int, *types: str) -> int:
        """The stakes placed on ``hand`` of ``types``, withdrawn bets included."""
        placed = self.record.bets.values()
        return sum(b.amount for b in placed if b.hand == hand and b.bet_type in types)


def adjudicate(record: RoundRecord, rules: BlackjackRules, bets: list[Bet]) -> GameJudgement:
    """Replay the deal, options and dealer's draw; settle every wager."""
    replay = _Replay(record, rules, bets)
    result = GameJudgement(findings=replay.findings)
    dealt = record.of_type("CardDealt")
    # A box is dealt for a live main bet; a withdrawn one's box only if it got cards.
    live = {b.bet_id for b in bets}
    served = {e.get("hand") for e in dealt if e["to"] == "hand"}
    boxes = sorted(
        {
            b.hand
            for b in record.bets.values()
            if b.bet_type == "main"
            and b.hand is not None
            and (b.bet_id in live or b.hand in served)
        }
    )
    order = [("hand", box) for box in boxes] + [("dealer", None)]
    initial = order + order
    recorded = [
        (event["to"], event.get("hand") if event["to"] == "hand" else None) for event in dealt
    ]
    if not boxes or recorded[: len(initial)] != initial:
        result.findings.append(
            Finding(
                FindingKind.INVALID_DEAL,
                record.round_id,
                DEAL,
                "the initial deal is not one card to each hand, the dealer, each hand, the dealer",
                expected=[_label(*target) for target in initial],
                recorded=[_label(*target) for target in recorded[: len(initial)]],
            )
        )
        return result
    replay.hands = {box: BlackjackHand(box, box=box) for box in boxes}
    for event in dealt[: len(initial)]:
        if event["to"] == "dealer":
            replay.dealer.append(event["card"])
        else:
            replay.hands[event["hand"]].cards.append(event["card"])
    for hand in replay.hands.values():
        hand.finished = hand.blackjack
    deal_end = dealt[len(initial) - 1]["sequence"]
    _check_insurance(replay, deal_end)
    for event in record.events:
        if event["sequence"] <= deal_end:
            continue
        if event["type"] == "PlayerDecision":
            _decide(replay, event)
        elif event["type"] == "CardDealt":
            _deal(replay, event)
    dealer = _dealer_hand(replay)
    result.outcome = {
        "dealer": dealer if dealer is not None else list(replay.dealer),
        "hands": {str(n): list(hand.cards) for n, hand in replay.hands.items()},
    }
    _settle(replay, dealer, result)
    return result


def _label(target: str, hand: int | None) -> str:
    return f"hand {hand}" if target == "hand" else target


def _check_insurance(replay: _Replay, deal_end: int) -> None:
    up_ace = blackjack_value(replay.dealer[0]) == 1
    later = [
        event["sequence"]
        for event in replay.record.events
        if event["sequence"] > deal_end
        and (
            event["type"] == "CardDealt"
            or (event["type"] == "PlayerDecision" and event["decision"] != "insurance")
        )
    ]
    window_end = later[0] if later else None
    for bet in replay.bets:
        if bet.bet_type != "insurance":
            continue
        event = {"sequence": bet.sequence}
        original = replay.stake(bet.hand, "main") if bet.hand is not None else 0
        if not up_ace:
            replay.flag(
                FindingKind.ILLEGAL_ACTION,
                INSURANCE,
                f"insurance {bet.bet_id} without a dealer ace",
                event,
                bet_id=bet.bet_id,
            )
        elif not (deal_end < bet.sequence and (window_end is None or bet.sequence < window_end)):
            replay.flag(
                FindingKind.ILLEGAL_ACTION,
                INSURANCE,
                f"insurance {bet.bet_id} not placed between the deal and the next card",
                event,
                bet_id=bet.bet_id,
            )
        if bet.amount > replay.rules.insurance_max * original:
            replay.flag(
                FindingKind.ILLEGAL_ACTION,
                INSURANCE,
                f"insurance {bet.bet_id} of {bet.amount} exceeds half the bet {original}",
                event,
                bet_id=bet.bet_id,
            )


def _decide(replay: _Replay, event: FlatEvent) -> None:
    decision, number = event["decision"], event.get("hand")
    hand = replay.hands.get(number) if number is not None else None
    rules = replay.rules
    if decision == "insurance":
        if blackjack_value(replay.dealer[0]) != 1:
            replay.flag(
                FindingKind.ILLEGAL_ACTION,
                INSURANCE,
                "insurance offered without a dealer ace",
                event,
            )
        return
    if hand is None:
        replay.flag(
            FindingKind.ILLEGAL_ACTION, OPTIONS, f"decision {decision} on no hand in play", event
        )
        return
    if is_blackjack(replay.dealer) and blackjack_value(replay.dealer[0]) == 1:
        replay.flag(
            FindingKind.ILLEGAL_ACTION,
            PEEK,
            f"{decision} on hand {number} after the dealer's ace showed blackjack",
            event,
        )
    one_card = hand.split_aces and rules.split_aces_one_card
    if hand.finished and decision != "stand":
        citation = SPLIT if one_card else HIT if decision in ("hit", "draw") else OPTIONS
        why = "split aces take one card each" if one_card else f"it is decided ({hand.total})"
        replay.flag(
            FindingKind.ILLEGAL_ACTION, citation, f"{decision} on hand {number}: {why}", event
        )
    if decision in ("hit", "draw"):
        if one_card and not hand.finished:
            replay.flag(FindingKind.ILLEGAL_ACTION, SPLIT, f"hit on split ace hand {number}", event)
        hand.owed += 1
    elif decision in ("stand", "surrender"):
        if decision == "surrender" and not rules.surrender_allowed:
            replay.flag(
                FindingKind.ILLEGAL_ACTION,
                OPTIONS,
                f"surrender on hand {number}: not an option",
                event,
            )
        hand.finished = True
    elif decision == "double":
        _double(replay, hand, event)
    elif decision == "split":
        _split(replay, hand, event)


def _double(replay: _Replay, hand: BlackjackHand, event: FlatEvent) -> None:
    rules = replay.rules
    if len(hand.cards) != 2 or (hand.from_split and not rules.double_after_split):
        replay.flag(
            FindingKind.ILLEGAL_ACTION,
            DOUBLE,
            f"double on hand {hand.number} beyond its first two cards",
            event,
        )
    original = replay.stake(hand.number, *STAKE_TYPES)
    extra = replay.stake(hand.number, "double")
    if extra > rules.double_max * original:
        replay.flag(
            FindingKind.ILLEGAL_ACTION,
            DOUBLE,
            f"double of {extra} on hand {hand.number} exceeds the bet {original}",
            event,
        )
    hand.doubled = True
    hand.owed += 1


def _split(replay: _Replay, hand: BlackjackHand, event: FlatEvent) -> None:
    rules = replay.rules
    new = event.get("new_hand")
    first, second = [*hand.cards, "", ""][:2]
    same = len(hand.cards) == 2 and (
        blackjack_value(first) == blackjack_value(second)
        if rules.split_by_value
        else first[0] == second[0]
    )
    if not same or replay.splits.get(hand.box, 0) >= rules.max_splits:
        replay.flag(
            FindingKind.ILLEGAL_ACTION,
            SPLIT,
            f"split of hand {hand.number} {hand.cards}: not a first pair, or a second split",
            event,
        )
    if new is None or new in replay.hands or len(hand.cards) != 2:
        replay.flag(
            FindingKind.ILLEGAL_ACTION,
            SPLIT,
            f"split of hand {hand.number} names no new hand",
            event,
        )
        return
    stake, original = replay.stake(new, "split_hand"), replay.stake(hand.number, "main")
    if stake != original:
        replay.flag(
            FindingKind.ILLEGAL_ACTION,
            SPLIT,
            f"split stake {stake} differs from the bet {original}",
            event,
        )
    replay.splits[hand.box] = replay.splits.get(hand.box, 0) + 1
    aces = blackjack_value(first) == 1 and blackjack_value(second) == 1
    replay.hands[new] = BlackjackHand(
        new, [second], from_split=True, split_aces=aces, box=hand.box, owed=1
    )
    hand.cards, hand.from_split, hand.split_aces, hand.owed = [first], True, aces, 1
    hand.finished = False


def _deal(replay: _Replay, event: FlatEvent) -> None:
    if event["to"] == "dealer":
        replay.dealer_draws.append((event["card"], event["sequence"]))
        return
    box: int | None = event.get("hand")
    hand = replay.hands.get(box) if event["to"] == "hand" and box is not None else None
    if hand is None or hand.owed == 0:
        replay.flag(
            FindingKind.INVALID_DEAL,
            DEAL,
            f"card {event['card']} to {event['to']} {event.get('hand')}, which did not ask for one",
            event,
        )
        if hand is None:
            return
    if replay.dealer_draws:
        replay.flag(
            FindingKind.INVALID_DEAL, DEALER, "a player card after the dealer began drawing", event
        )
    hand.cards.append(event["card"])
    hand.owed = max(hand.owed - 1, 0)
    one_card = hand.split_aces and replay.rules.split_aces_one_card
    if hand.total >= 21 or hand.doubled or (one_card and len(hand.cards) == 2):
        hand.finished = True


def _dealer_hand(replay: _Replay) -> list[str] | None:
    """The dealer's hand by the rules, from the cards the dealer drew; None if short."""
    rules = replay.rules
    live = any(not (hand.bust or hand.blackjack) for hand in replay.hands.values())
    hand = list(replay.dealer)
    draws = [card for card, _ in replay.dealer_draws]
    while live and dealer_should_draw(hand, rules) and len(hand) - 2 < len(draws):
        hand.append(draws[len(hand) - 2])
    short = live and dealer_should_draw(hand, rules)
    due = len(hand) - 2 + (1 if short else 0)
    if short or len(draws) != due:
        total = blackjack_total(hand)[0]
        why = (
            "every player hand is decided: the dealer does not draw"
            if not live
            else f"the dealer stands on {total}"
            if not short
            else f"the dealer must draw on {total}"
        )
        where = {"sequence": replay.dealer_draws[due][1]} if len(draws) > due else {}
        replay.findings.append(
            Finding(
                FindingKind.WRONG_DRAW,
                replay.record.round_id,
                DEALER,
                f"dealer drew {len(draws)} card(s), the rules {'at least ' if short else ''}"
                f"{due}: {why}",
                expected=due,
                recorded=len(draws),
                difference=len(draws) - due,
                detail={"dealer_cards": replay.dealer + draws, "short": short, **where},
            )
        )
    return None if short else hand


def taken_after_the_deal(record: RoundRecord, bet: Bet) -> bool:
    """The wagers III 2.1.2 takes after the first card: split, double, insurance."""
    return bet.bet_type in ("split_hand", "double", "insurance")


def _settle(replay: _Replay, dealer: list[str] | None, result: GameJudgement) -> None:
    rules = replay.rules
    dealer_bj = is_blackjack(replay.dealer)
    live_boxes = {bet.hand for bet in replay.bets if bet.bet_type == "main"}
    for bet in replay.bets:
        hand = replay.hands.get(bet.hand) if bet.hand is not None else None
        if hand is not None and hand.box not in live_boxes:
            result.expected[bet.bet_id] = Expected(
                bet.amount,
                WITHDRAWN,
                f"{bet.bet_type} on hand {hand.number}, whose box's bet was withdrawn: returned",
            )
            continue
        if bet.bet_type == "insurance":
            result.expected[bet.bet_id] = _insurance(bet, replay, dealer_bj)
            continue
        if hand is None or (bet.bet_type not in STAKE_TYPES and bet.bet_type != "double"):
            result.findings.append(
                Finding(
                    FindingKind.DATA_QUALITY,
                    replay.record.round_id,
                    "schemas/banked_round.avsc",
                    f"bet {bet.bet_id} ({bet.bet_type}) on no hand in play",
                    detail={"bet_id": bet.bet_id, "sequence": bet.sequence},
                )
            )
            continue
        due = _wager(bet, hand, dealer, dealer_bj, rules)
        if due is not None:
            result.expected[bet.bet_id] = due


def _insurance(bet: Bet, replay: _Replay, dealer_bj: bool) -> Expected:
    if blackjack_value(replay.dealer[0]) != 1:
        return Expected(bet.amount, INSURANCE, "insurance without a dealer ace: returned")
    if dealer_bj:
        pays = replay.rules.insurance_pays
        return Expected(
            bet.amount * (pays + 1), INSURANCE_PAYS, f"dealer blackjack: insurance {pays}:1"
        )
    return Expected(0, INSURANCE_PAYS, "no dealer blackjack: insurance loses")


def _wager(
    bet: Bet, hand: BlackjackHand, dealer: list[str] | None, dealer_bj: bool, rules: BlackjackRules
) -> Expected | None:
    stake = bet.amount
    extra = bet.bet_type == "double"
    if hand.bust:
        return Expected(0, SETTLE, f"hand {hand.number} busts on {hand.total}: loses")
    if dealer_bj:
        if hand.blackjack:
            return Expected(stake, SETTLE, "both have blackjack: push")
        if extra and not rules.dealer_blackjack_takes_all_wagers:
            return Expected(stake, SETTLE, "dealer blackjack: only the original bet is lost")
        return Expected(0, SETTLE, f"dealer blackjack beats hand {hand.number}'s {hand.total}")
    if hand.blackjack:
        win = rules.blackjack_rounding.apply(stake * Fraction(rules.blackjack_pays))
        return Expected(stake + win, SETTLE, f"blackjack pays {rules.blackjack_pays}")
    if dealer is None or hand.owed:
        return None
    dealer_total = blackjack_total(dealer)[0]
    if dealer_total > 21 or hand.total > dealer_total:
        return Expected(
            2 * stake, SETTLE, f"hand {hand.number} {hand.total} beats dealer {dealer_total}: 1:1"
        )
    if hand.total == dealer_total:
        return Expected(stake, SETTLE, f"hand {hand.number} and dealer {dealer_total}: push")
    return Expected(0, SETTLE, f"dealer {dealer_total} beats hand {hand.number} {hand.total}")


SPEC = GameSpec(
    late_bet_citation="GG-2022 live III 2.1.3",
    limits_citation="GG-2022 live III 2.1.4",
    void_citation="GG-2022 live III 2.1.5",
    malfunction_citation="GG-2022 live III 2.1.5",
    adjudicate=adjudicate,
    hand_total=lambda cards: blackjack_total(cards)[0],
    limited_bet_types=frozenset({"main"}),
    past_post_citation=WITHDRAWN,
    open_after_close=taken_after_the_deal,
)
