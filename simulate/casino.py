"""Synthetic banked rounds (flat events of ``schemas/banked_round.avsc``), clean or faulty.

Pure functions of a ``random.Random``: the same seed gives the same rounds. Clean rounds
follow the rules; their settlement is computed here, independently of the replayer's, so
that a clean batch judged with zero findings is a cross-check, not a tautology. The
punto banco and chemin de fer deals do use the replayer's tableau (``next_side``), which
the exact enumeration test checks against the published figures.

``plant`` turns a clean round into a faulty one and says which finding kinds the fault
must produce.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from replayer.casino import chemin_de_fer, punto_banco
from replayer.casino.cards import RANKS, SUITS, baccarat_points, blackjack_total, blackjack_value
from replayer.casino.coup import rebuild
from replayer.casino.roulette_layout import legal_bets
from replayer.rulebooks.casino import CASINO_RULEBOOKS, CheminDeFerRules
from simulate.envelope import envelope, renumbered

FlatEvent = dict[str, Any]

#: Schema defaults of every body field that may be left out when emitting.
_DEFAULTS: dict[str, dict[str, Any]] = {
    "RoundOpened": {
        "rulebook": None,
        "shoe_id": None,
        "max_bet": None,
        "commission_bps": None,
        "cagnotte_bps": None,
        "source": None,
    },
    "BetPlaced": {"numbers": [], "hand": None, "after_no_more_bets": False},
    "CardDealt": {"hand": None},
    "PlayerDecision": {"actor": "player", "hand": None, "new_hand": None},
}


@dataclass
class RoundWriter:
    """Emits the flat events of one round with consecutive sequences, one second apart."""

    round_id: str
    start: datetime
    events: list[FlatEvent] = field(default_factory=list)

    def emit(self, body_type: str, **fields: Any) -> FlatEvent:
        sequence = len(self.events)
        at = self.start + timedelta(seconds=sequence)
        body = {**_DEFAULTS.get(body_type, {}), **fields}
        event = envelope("round_id", self.round_id, sequence, at, body_type, **body)
        self.events.append(event)
        return event


def shoe(rng: random.Random, decks: int) -> list[str]:
    """A shuffled shoe of ``decks`` 52-card decks."""
    cards = [rank + suit for rank in RANKS for suit in SUITS] * decks
    rng.shuffle(cards)
    return cards


def _stake(rng: random.Random) -> int:
    return rng.choice([100, 200, 500, 1000, 1005, 2500, 9999])


def punto_banco_round(
    rng: random.Random, round_id: str, start: datetime, cards: Sequence[str] | None = None
) -> list[FlatEvent]:
    """A clean punto banco coup with one to four bets, dealt from ``cards`` (what is left
    in the shoe; default: a fresh 8-deck shoe)."""
    writer = RoundWriter(round_id, start)
    writer.emit(
        "RoundOpened",
        rulebook="gg-2022-live-baccarat",
        table_id="bac-1",
        game="punto_banco",
        currency="EUR",
        shoe_id="shoe-1",
        min_bet=100,
        max_bet=10_000,
    )
    bets = []
    for index in range(rng.randint(1, 4)):
        bet_type = rng.choice(["player", "banker", "tie"])
        bet = writer.emit(
            "BetPlaced",
            bet_id=f"b{index}",
            player_id=f"p{index}",
            bet_type=bet_type,
            amount=_stake(rng),
        )
        bets.append(bet)
    coup = rebuild((shoe(rng, 8) if cards is None else cards)[:6], punto_banco.next_side)
    hands = {"player": list(coup.player), "banker": list(coup.banker)}
    for side in coup.sides:
        writer.emit("CardDealt", to=side, card=hands[side].pop(0))
    player, banker = baccarat_points(coup.player), baccarat_points(coup.banker)
    winner = "tie" if player == banker else "player" if player > banker else "banker"
    for bet in bets:
        amount, commission = bet["amount"], 0
        if bet["bet_type"] == "tie":
            paid = 9 * amount if winner == "tie" else 0
        elif winner == "tie":
            paid = amount
        elif bet["bet_type"] != winner:
            paid = 0
        else:
            commission = amount * 5 // 100 if winner == "banker" else 0
            paid = 2 * amount - commission
        _settle(writer, bet, paid, commission)
    return writer.events


def _settle(writer: RoundWriter, bet: FlatEvent, paid: int, commission: int = 0) -> None:
    if commission:
        writer.emit("CommissionTaken", bet_id=bet["bet_id"], amount=commission)
    if paid:
        writer.emit("PayoutMade", bet_id=bet["bet_id"], player_id=bet["player_id"], amount=paid)


def chemin_de_fer_round(
    rng: random.Random,
    round_id: str,
    start: datetime,
    *,
    banker: str | None = None,
    bank: int = 20_000,
    cards: Sequence[str] | None = None,
) -> list[FlatEvent]:
    """A clean chemin de fer coup: a bank, one to three covered punter stakes, 5% cagnotte.

    ``banker`` holds the bank (default: a banker of this coup alone) with ``bank`` in it;
    a banker's run of coups passes what each coup left in the bank to the next. The
    cards come from ``cards`` (what is left in the sabot; default: a fresh 6-deck one)."""
    rules = CASINO_RULEBOOKS["pt-217-2007-chemin-de-fer"]
    assert isinstance(rules, CheminDeFerRules)
    writer = RoundWriter(round_id, start)
    writer.emit(
        "RoundOpened",
        rulebook=rules.id,
        table_id="chemmy-1",
        game="chemin_de_fer",
        currency="EUR",
        shoe_id="sabot-1",
        min_bet=500,
        cagnotte_bps=500,
    )
    bank_bet = writer.emit(
        "BetPlaced",
        bet_id="bank",
        player_id=banker or f"banker-{round_id}",
        bet_type="bank",
        amount=bank,
    )
    pontos = []
    left = bank
    for index in range(rng.randint(1, 3)):
        amount = min(500 * rng.randint(1, 20), left - left % 500)  # I.36: in 500s
        if amount:
            left -= amount
            pontos.append(
                writer.emit(
                    "BetPlaced",
                    bet_id=f"s{index}",
                    player_id=f"p{index}",
                    bet_type="ponto",
                    amount=amount,
                )
            )
    ponto_choice, banker_choice = rng.random() < 0.5, rng.random() < 0.5
    drawing = chemin_de_fer.table(rules, ponto_choice, banker_choice, False)
    coup = rebuild((shoe(rng, 6) if cards is None else cards)[:6], drawing)
    hands = {"player": list(coup.player), "banker": list(coup.banker)}
    for side in coup.sides[:4]:
        writer.emit("CardDealt", to=side, card=hands[side].pop(0))
    if max(baccarat_points(coup.player[:2]), baccarat_points(coup.banker[:2])) < 8:
        for actor in ("player", "banker"):
            drew = bool(hands[actor])
            writer.emit("PlayerDecision", actor=actor, decision="draw" if drew else "stand")
            if drew:
                writer.emit("CardDealt", to=actor, card=hands[actor].pop(0))
    player_points, banker_points = baccarat_points(coup.player), baccarat_points(coup.banker)
    won = sum(bet["amount"] for bet in pontos)
    if player_points == banker_points:
        for bet in [bank_bet, *pontos]:
            _settle(writer, bet, bet["amount"])
    elif player_points > banker_points:
        for bet in pontos:
            _settle(writer, bet, 2 * bet["amount"])
        _settle(writer, bank_bet, bank - won)
    else:
        cagnotte = won * 500 // 10_000
        if cagnotte:
            writer.emit("CagnotteTaken", amount=cagnotte)
        _settle(writer, bank_bet, bank + won - cagnotte)
    return writer.events


def roulette_round(rng: random.Random, round_id: str, start: datetime) -> list[FlatEvent]:
    """A clean single-zero spin with one to six legal bets of any type."""
    writer = RoundWriter(round_id, start)
    writer.emit(
        "RoundOpened",
        rulebook="gg-2022-live-roulette",
        table_id="rou-1",
        game="roulette",
        currency="EUR",
        min_bet=100,
        max_bet=10_000,
    )
    layout = legal_bets(True)
    pays = {"straight": 35, "split": 17, "street": 11, "corner": 8, "four_number": 8}
    pays |= {"six_line": 5, "column": 2, "dozen": 2}
    bets = []
    for index in range(rng.randint(1, 6)):
        bet_type = rng.choice(sorted(layout))
        numbers = sorted(rng.choice(sorted(layout[bet_type], key=sorted)))
        bets.append(
            writer.emit(
                "BetPlaced",
                bet_id=f"b{index}",
                player_id=f"p{index % 3}",
                bet_type=bet_type,
                numbers=numbers,
                amount=_stake(rng),
            )
        )
    pocket = rng.randrange(37)
    writer.emit("SpinResult", pocket=pocket, ball_revolutions=rng.randint(3, 12))
    for bet in bets:
        won = pocket in bet["numbers"]
        _settle(writer, bet, bet["amount"] * (pays.get(bet["bet_type"], 1) + 1) if won else 0)
    return writer.events


@dataclass(frozen=True)
class BlackjackPlay:
    """How the simulated dealer departs from S17: ``dealer_draw_error`` extra (or, when
    negative, missing) dealer cards."""

    dealer_draw_error: int = 0


def blackjack_round(
    rng: random.Random,
    round_id: str,
    start: datetime,
    play: BlackjackPlay = BlackjackPlay(),
    dealing: Sequence[str] | None = None,
) -> tuple[list[FlatEvent], int]:
    """A blackjack round with one to four boxes and legal random play, dealt from
    ``dealing`` (what is left in the shoe; default: a fresh 8-deck shoe).

    Returns the events and the number of dealer draws S17 requires (III 4.4), computed
    here independently of the replayer. The settlement follows the cards as dealt, so with
    a dealer draw error it is the settlement of the recorded, wrong, dealer hand.
    """
    cards = iter(shoe(rng, 8) if dealing is None else dealing)
    writer = RoundWriter(round_id, start)
    writer.emit(
        "RoundOpened",
        rulebook="gg-2022-live-blackjack",
        table_id="bj-1",
        game="blackjack",
        currency="EUR",
        shoe_id="shoe-1",
        min_bet=100,
        max_bet=10_000,
    )
    boxes = list(range(1, rng.randint(1, 4) + 1))
    wagers: dict[int, list[FlatEvent]] = {}
    for box in boxes:
        wagers[box] = [
            writer.emit(
                "BetPlaced",
                bet_id=f"m{box}",
                player_id=f"p{box}",
                bet_type="main",
                hand=box,
                amount=_stake(rng),
            )
        ]
    hands: dict[int, list[str]] = {box: [] for box in boxes}
    dealer: list[str] = []
    for _ in range(2):
        for box in boxes:
            hands[box].append(
                writer.emit("CardDealt", to="hand", hand=box, card=next(cards))["card"]
            )
        dealer.append(writer.emit("CardDealt", to="dealer", card=next(cards))["card"])
    insurance = {}
    if blackjack_value(dealer[0]) == 1:
        for box in boxes:
            if rng.random() < 0.3:
                insurance[box] = writer.emit(
                    "BetPlaced",
                    bet_id=f"i{box}",
                    player_id=f"p{box}",
                    bet_type="insurance",
                    hand=box,
                    amount=wagers[box][0]["amount"] // 2,
                )
    dealer_bj = _natural(dealer)
    split_from: dict[int, bool] = {}
    if not (dealer_bj and blackjack_value(dealer[0]) == 1):
        for box in boxes:
            _play_box(rng, writer, cards, box, hands, wagers, split_from)
    live = any(
        blackjack_total(hands[h])[0] <= 21 and not (_natural(hands[h]) and not split_from.get(h))
        for h in hands
    )
    draws = 0
    while live and blackjack_total(dealer)[0] < 17:
        dealer.append(next(cards))
        draws += 1
    if play.dealer_draw_error < 0:
        dealer = dealer[: max(2, len(dealer) + play.dealer_draw_error)]
    for _ in range(play.dealer_draw_error):
        dealer.append(next(cards))
    for card in dealer[2:]:
        writer.emit("CardDealt", to="dealer", card=card)
    for bet in insurance.values():
        _settle(writer, bet, 3 * bet["amount"] if dealer_bj else 0)
    for hand, bets in wagers.items():
        for bet in bets:
            _settle(
                writer,
                bet,
                _blackjack_return(bet, hands[hand], split_from.get(hand, False), dealer),
            )
    return writer.events, draws


def _natural(cards: list[str]) -> bool:
    return len(cards) == 2 and blackjack_total(cards)[0] == 21


def _play_box(
    rng: random.Random,
    writer: RoundWriter,
    cards: Any,
    box: int,
    hands: dict[int, list[str]],
    wagers: dict[int, list[FlatEvent]],
    split_from: dict[int, bool],
) -> None:
    if _natural(hands[box]):
        return
    first, second = hands[box]
    if blackjack_value(first) == blackjack_value(second) and rng.random() < 0.5:
        new = 10 + box
        writer.emit("PlayerDecision", hand=box, decision="split", new_hand=new)
        stake = wagers[box][0]["amount"]
        wagers[new] = [
            writer.emit(
                "BetPlaced",
                bet_id=f"s{box}",
                player_id=f"p{box}",
                bet_type="split_hand",
                hand=new,
                amount=stake,
            )
        ]
        hands[box], hands[new] = [first], [second]
        split_from[box] = split_from[new] = True
        for hand in (box, new):
            hands[hand].append(
                writer.emit("CardDealt", to="hand", hand=hand, card=next(cards))["card"]
            )
            if blackjack_value(first) != 1:
                _hit_or_stand(rng, writer, cards, hand, hands)
        return
    if blackjack_total(hands[box])[0] in (9, 10, 11) and rng.random() < 0.5:
        writer.emit("PlayerDecision", hand=box, decision="double")
        stake = wagers[box][0]["amount"]
        wagers[box].append(
            writer.emit(
                "BetPlaced",
                bet_id=f"d{box}",
                player_id=f"p{box}",
                bet_type="double",
                hand=box,
                amount=rng.randint(1, stake),
            )
        )
        hands[box].append(writer.emit("CardDealt", to="hand", hand=box, card=next(cards))["card"])
        return
    _hit_or_stand(rng, writer, cards, box, hands)


def _hit_or_stand(
    rng: random.Random, writer: RoundWriter, cards: Any, hand: int, hands: dict[int, list[str]]
) -> None:
    while blackjack_total(hands[hand])[0] < 21:
        total = blackjack_total(hands[hand])[0]
        if total >= 17 or (total >= 12 and rng.random() < 0.5):
            writer.emit("PlayerDecision", hand=hand, decision="stand")
            return
        writer.emit("PlayerDecision", hand=hand, decision="hit")
        hands[hand].append(writer.emit("CardDealt", to="hand", hand=hand, card=next(cards))["card"])


def _blackjack_return(bet: FlatEvent, hand: list[str], split: bool, dealer: list[str]) -> int:
    stake: int = bet["amount"]
    total, dealer_total = blackjack_total(hand)[0], blackjack_total(dealer)[0]
    player_bj = _natural(hand) and not split
    if total > 21:
        return 0
    if _natural(dealer):
        return stake if player_bj else 0
    if player_bj:
        return stake + (3 * stake + 1) // 2
    if dealer_total > 21 or total > dealer_total:
        return 2 * stake
    return stake if total == dealer_total else 0


#: Game name -> clean round simulator.
SIMULATORS: dict[str, Callable[[random.Random, str, datetime], list[FlatEvent]]] = {
    "punto_banco": punto_banco_round,
    "chemin_de_fer": chemin_de_fer_round,
    "roulette": roulette_round,
    "blackjack": lambda rng, round_id, start: blackjack_round(rng, round_id, start)[0],
}
#: Game name -> clean round simulator dealing from what is left in a shoe.
SHOE_DEALERS: dict[
    str, Callable[[random.Random, str, datetime, Sequence[str]], list[FlatEvent]]
] = {
    "punto_banco": punto_banco_round,
    "blackjack": lambda rng, round_id, start, cards: blackjack_round(
        rng, round_id, start, dealing=cards
    )[0],
}

#: The faults ``plant`` knows in every game's rounds (where the round offers a place).
FAULTS = ("overpaid", "unpaid_winner", "malfunction_not_refunded", "late_bet_refunded")
#: ``FAULTS`` and the commission fault, which only the baccarat games offer.
BANKED_FAULTS = (*FAULTS, "wrong_commission")


def plant(events: list[FlatEvent], fault: str) -> tuple[list[FlatEvent], list[str]] | None:
    """The round with ``fault`` planted, and the finding kinds it must raise; None when the
    round offers no place for that fault (e.g. no winning bet to leave unpaid).

    ``wrong_commission`` withholds a fifth more than due, 6% for 5% (the punto banco
    commission of GG-2022 live II 2.2; the chemin de fer cagnotte of PT-217/2007 I.47),
    and pays the bet that much less: the commission (or cagnotte) and the payout are each
    a ``mispaid_bet``."""
    events = [dict(event) for event in events]
    payouts = [event for event in events if event["type"] == "PayoutMade"]
    bets = [event for event in events if event["type"] == "BetPlaced"]
    if fault == "overpaid" and payouts:
        payouts[0]["amount"] += 1
        return events, ["mispaid_bet"]
    if fault == "wrong_commission":
        taken = next((e for e in events if e["type"] in ("CommissionTaken", "CagnotteTaken")), None)
        if taken is None or taken["amount"] < 5:
            return None
        payer = taken.get("bet_id") or next(b["bet_id"] for b in bets if b["bet_type"] == "bank")
        extra = taken["amount"] // 5
        taken["amount"] += extra
        next(p for p in payouts if p["bet_id"] == payer)["amount"] -= extra
        return events, ["mispaid_bet", "mispaid_bet"]
    if fault == "unpaid_winner":
        stakes = {bet["bet_id"]: bet["amount"] for bet in bets}
        winners = [p for p in payouts if p["amount"] > stakes[p["bet_id"]]]
        if not winners:
            return None
        return renumbered("round_id", [e for e in events if e is not winners[0]]), ["mispaid_bet"]
    if fault == "malfunction_not_refunded":
        keep = [e for e in events if e["type"] in ("RoundOpened", "BetPlaced", "CardDealt")]
        first = events[0]
        writer = RoundWriter(first["round_id"], first["occurred_at"], renumbered("round_id", keep))
        writer.emit("RoundMalfunction", reason="card scanner failure")
        for bet in bets[1:]:
            writer.emit(
                "RefundPaid", bet_id=bet["bet_id"], player_id=bet["player_id"], amount=bet["amount"]
            )
        return writer.events, ["void_hand_not_refunded"]
    if fault == "late_bet_refunded":
        late = next(
            (
                bet
                for bet in bets
                if bet["bet_type"] in ("player", "banker", "tie", "straight", "red", "dozen")
            ),
            None,
        )
        if late is None:
            return None
        late["after_no_more_bets"] = True
        rest = [
            e
            for e in events
            if not (
                e["type"] in ("PayoutMade", "CommissionTaken") and e["bet_id"] == late["bet_id"]
            )
        ]
        first = events[0]
        writer = RoundWriter(first["round_id"], first["occurred_at"], renumbered("round_id", rest))
        writer.emit(
            "RefundPaid", bet_id=late["bet_id"], player_id=late["player_id"], amount=late["amount"]
        )
        return writer.events, ["illegal_action"]
    return None
