"""One text hand's facts turned into the poker family's event bodies, in a fixed order.

Order of the events (``schemas/poker_hand.avsc``): ``HandStarted``; the forced bets,
hole cards, actions and board cards in the order of the text; cards shown or mucked
(those only the summary reveals last); then the settlement: uncalled bets returned
(``PotAwarded`` with ``pot_index`` null, as PHH import records them), the pots collected
(``PotAwarded`` per pot, ``BoardRun`` before each run's when the hand was run twice),
each summary fee (``FeeTaken``), the rake (``RakeTaken``), cash-out payments
(``CashoutPaid``) and ``HandEnded``. Amounts of zero are not events.

``HandEnded.finishing_stacks`` are derived from the text, which gives none: starting
stack, less what the player put in, plus what was returned and collected. A cash-out or
insurance premium is settled with the house outside the pot and is not in them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from audit.ingest.phh_money import Money
from audit.ingest.room_text.common import TextError

Body = tuple[str, dict[str, Any]]

#: Hole cards per variant (PHH codes).
HOLE_CARDS = {"NT": 2, "NO": 4, "PO": 4}
UNKNOWN = "??"


@dataclass
class Header:
    """What a hand's first lines say: room, ids, game, stakes, time, table, button."""

    room: str
    hand_number: str
    variant: str
    money: Money
    small_blind: int
    big_blind: int
    occurred_at: dt.datetime
    notes: list[str] = field(default_factory=list)
    table: str = ""
    button: int | None = None


@dataclass
class _Seat:
    seat: int
    name: str
    stack: int
    behind: int
    street: int = 0
    put: int = 0
    back: int = 0


class HandBuilder:
    """Collects a hand's bodies while the lines are read, tracking each seat's chips."""

    def __init__(self, header: Header) -> None:
        self.header = header
        self.seats: dict[int, _Seat] = {}
        self.play: list[Body] = []
        self.shows: list[Body] = []
        self.late_shows: list[Body] = []
        self.returns: list[Body] = []
        self.awards: list[Body] = []
        self.fees: list[Body] = []
        self.cashouts: list[Body] = []
        self.rake = 0
        self.known: set[str] = set()
        self.run = 0
        self.award_run = 0
        self.dealt: set[int] = set()

    # -- seats and forced bets ------------------------------------------------------

    def sit(self, seat: int, name: str, stack: int) -> None:
        if seat in self.seats:
            raise TextError(f"seat {seat} is listed twice")
        if stack <= 0:
            raise TextError(f"seat {seat} has no chips")
        self.seats[seat] = _Seat(seat, name, stack, stack)

    def post(self, seat: int, kind: str, chips: int) -> None:
        """A forced bet; ante and dead blinds do not count toward the street's bet."""
        self._put(seat, chips, live=kind not in ("ante", "dead_small_blind", "dead_big_blind"))
        self.play.append(("BlindPosted", {"seat": seat, "kind": kind, "amount": chips}))

    def _put(self, seat: int, chips: int, *, live: bool = True) -> None:
        player = self.seats[seat]
        if chips > player.behind:
            raise TextError(f"seat {seat} puts in more than the chips it has behind")
        player.behind -= chips
        player.put += chips
        if live:
            player.street += chips

    # -- cards ------------------------------------------------------------------------

    def _claim(self, cards: list[str]) -> None:
        for card in cards:
            if card in self.known:
                raise TextError(f"card {card} is dealt twice")
            self.known.add(card)

    def hole(self, seat: int, cards: list[str] | None) -> None:
        """``Dealt to``: the cards, or ``None`` when the line leaves them blank."""
        count = HOLE_CARDS[self.header.variant]
        if seat in self.dealt:
            raise TextError(f"seat {seat} is dealt twice")
        if cards is not None and len(cards) != count:
            raise TextError(f"{len(cards)} hole cards where {self.header.variant} deals {count}")
        if cards is not None:
            self._claim(cards)
        self.dealt.add(seat)
        body = {"target": "hole", "seat": seat, "cards": cards or [UNKNOWN] * count}
        self.play.append(("CardsDealt", body))

    def deal_unseen(self) -> None:
        """PokerStars lists only its own player's cards: the others get ``??`` cards,
        in seat order from the first seat left of the button, before the first action."""
        order = sorted(self.seats)
        button = self.header.button or 0
        order = [s for s in order if s > button] + [s for s in order if s <= button]
        for seat in order:
            if seat not in self.dealt:
                self.hole(seat, None)

    def board(self, cards: list[str], run: int) -> None:
        """Board cards; ``run`` is 0 outside run-it-twice, else 1, 2, ..."""
        if run != self.run:
            self.run = run
            self.play.append(("BoardRun", {"run": run}))
        self._claim(cards)
        for player in self.seats.values():
            player.street = 0
        self.play.append(("CardsDealt", {"target": "board", "seat": None, "cards": cards}))

    def show(self, seat: int, cards: list[str], *, mucked: bool, late: bool = False) -> None:
        """Cards shown (or mucked, with the cards when the text gives them)."""
        known = {
            card
            for b in self.play
            if b[0] == "CardsDealt" and b[1]["seat"] == seat
            for card in b[1]["cards"]
        }
        self._claim([card for card in cards if card not in known])
        body = {"seat": seat, "cards": cards, "mucked": mucked}
        (self.late_shows if late else self.shows).append(("CardsShown", body))

    # -- betting ----------------------------------------------------------------------

    def act(self, seat: int, action: str, chips: int = 0, to: int | None = None) -> None:
        """``folds``, ``checks``, ``calls X``, ``bets X``, ``raises X to Y`` (Y: the street
        total, so the chips added are Y less what the seat had in on this street)."""
        if to is not None:
            chips = to - self.seats[seat].street
            if chips <= 0:
                raise TextError(f"seat {seat} raises to no more than it has in")
        self._put(seat, chips)
        self.play.append(("ActionTaken", {"seat": seat, "action": action, "amount": chips}))

    def returned(self, seat: int, chips: int) -> None:
        player = self.seats[seat]
        if chips > player.street:
            raise TextError(f"seat {seat} gets back more than it bet on this street")
        player.street -= chips
        player.back += chips
        self.returns.append(("PotAwarded", {"seat": seat, "amount": chips, "pot_index": None}))

    # -- settlement ---------------------------------------------------------------------

    def collect(self, seat: int, chips: int, pot: int, run: int) -> None:
        if run != self.award_run:
            self.award_run = run
            self.awards.append(("BoardRun", {"run": run}))
        self.seats[seat].back += chips
        self.awards.append(("PotAwarded", {"seat": seat, "amount": chips, "pot_index": pot}))

    def fee(self, kind: str, chips: int, seat: int | None = None) -> None:
        if chips:
            self.fees.append(
                ("FeeTaken", {"kind": kind, "amount": chips, "pot_index": None, "seat": seat})
            )

    def cashout(self, seat: int, chips: int) -> None:
        if chips:
            self.cashouts.append(("CashoutPaid", {"seat": seat, "amount": chips}))

    def bodies(self, rulebook: str | None, source: str) -> list[Body]:
        """Every body of the hand, ``HandStarted`` first (see the module docstring)."""
        header = self.header
        if len(self.seats) < 2:
            raise TextError("fewer than two players are dealt in")
        started = {
            "rulebook": rulebook,
            "table_id": f"{header.room}/{header.table}",
            "variant": header.variant,
            "currency": header.money.currency,
            "smallest_chip": 1,
            "small_blind": header.small_blind,
            "big_blind": header.big_blind,
            "ante": max(
                (
                    b[1]["amount"]
                    for b in self.play
                    if b[0] == "BlindPosted" and b[1]["kind"] == "ante"
                ),
                default=0,
            ),
            "min_bet": header.big_blind,
            "button": header.button,
            "seats": [
                {"seat": s.seat, "player_id": s.name, "stack": s.stack}
                for s in sorted(self.seats.values(), key=lambda s: s.seat)
            ],
            "start_time_known": True,
            "shuffle_commitment": None,
            "source": "; ".join([source, *header.notes]),
        }
        rake = [("RakeTaken", {"amount": self.rake, "pot_index": None})] if self.rake else []
        finishing = [
            s.stack - s.put + s.back for s in sorted(self.seats.values(), key=lambda s: s.seat)
        ]
        return [
            ("HandStarted", started),
            *self.play,
            *self.shows,
            *self.late_shows,
            *self.returns,
            *self.awards,
            *self.fees,
            *rake,
            *self.cashouts,
            ("HandEnded", {"finishing_stacks": finishing}),
        ]
