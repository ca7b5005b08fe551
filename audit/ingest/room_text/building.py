"""One text hand's facts turned into the poker family's event bodies, in a fixed order.

Order of the events (``schemas/poker_hand.avsc``): ``HandStarted``; the house's money
put into the pot (``HouseMoneyAdded``, GGPoker's Cash Drop), the forced bets, hole
cards, actions and board cards in the order of the text; cards shown or mucked
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

from audit.ingest.notation.amounts import Money
from audit.ingest.room_text.common import TextError, shown

Body = tuple[str, dict[str, Any]]

#: Hole cards per variant (PHH codes).
#: Variants whose stakes are the small and big bet (the big bet twice the small bet).
FIXED_LIMIT = frozenset({"FT"})
HOLE_CARDS = {"NT": 2, "FT": 2, "NS": 2, "NO": 4, "PO": 4, "PO5": 5, "PO6": 6}
UNKNOWN = "??"
#: Hand-history trackers (Holdem Manager's export) write every raise ``raises Y to Y``:
#: the street total twice, the increment lost. The total is the line's meaning.
TRACKER_RAISE = "raises written 'raises Y to Y' (a tracker's export): read as raises to Y"


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
    header_ante: int = 0
    tournament_id: str | None = None
    level: str | None = None
    local_time: dt.datetime | None = None
    """The header's time when it gives no zone (GGPoker): ``occurred_at`` is then only
    known once the operator's zone is declared (``headers.in_declared_zone``)."""


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
        #: The summary's figures (``headers.Totals``) and each seat's ``won``/``collected``
        #: (amount, line number), checked against the action lines (``reconcile``).
        self.totals: Any = None
        self.summary_won: dict[int, tuple[int, int]] = {}
        #: The board the street lines dealt, by run (0 outside run-it-twice), and the
        #: summary's ``[FIRST ]Board [...]`` by run (cards, line number).
        self.boards: dict[int, list[str]] = {}
        self.summary_boards: dict[int, tuple[list[str], int]] = {}
        self.collected: dict[int, int] = {}
        #: Money the house put into the pot (``HouseMoneyAdded``), in the summary's total.
        self.house = 0
        self.blinds_posted: dict[str, int] = {}
        #: Street cards the text left blank (``board_unwritten``): (street, run, place
        #: on the board, the CardsDealt body), filled from the summary's board.
        self.unwritten: list[tuple[str, int, int, dict[str, Any]]] = []

    def note(self, text: str) -> None:
        """A note for the hand's ``source`` (once)."""
        if text not in self.header.notes:
            self.header.notes.append(text)

    # -- seats and forced bets ------------------------------------------------------

    def sit(self, seat: int, name: str, stack: int) -> None:
        if seat in self.seats:
            raise TextError(f"seat {seat} is listed twice")
        if stack <= 0:
            raise TextError(f"seat {seat} has no chips")
        self.seats[seat] = _Seat(seat, name, stack, stack)

    def post_kinds(self, seat: int, kinds: tuple[str, ...], total: int) -> None:
        """``posts …``: one forced bet, or a live big blind and a dead small blind
        (``posts small & big blinds``). A second big blind in a hand is a player's
        entry or missed big blind, posted out of position: ``missed_big_blind``. A
        second small blind is a returning player's missed small blind, posted dead
        (PokerStars writes ``posts small blind`` for it; the player then calls the whole
        big blind): ``dead_small_blind``. A straddle's amount is the seat's total on the
        street once posted, as GGPoker writes a re-straddle by the seat that posted the
        big or button blind (``posts big blind $50``, ``straddle $100``: 50 more; the
        room's summary totals agree): the chips added are that less what it had in."""
        if len(kinds) == 2:
            big = min(self.header.big_blind, total)
            self.post(seat, kinds[0], big)
            if total > big:
                self.post(seat, kinds[1], total - big)
            return
        kind = kinds[0]
        if kind == "straddle":  # GGPoker: the seat's street total, as a raise's "to"
            total -= self.seats[seat].street
            if total <= 0:
                raise TextError(f"seat {seat} straddles to no more than it has in")
        if kind == "big_blind" and "big_blind" in self.blinds_posted:
            kind = "missed_big_blind"
        elif kind == "small_blind" and "small_blind" in self.blinds_posted:
            kind = "dead_small_blind"
        self.blinds_posted.setdefault(kind, total)
        self.post(seat, kind, total)

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

    def house_money(self, chips: int, promotion: str) -> None:
        """The house's own money put into the pot (GGPoker ``Cash Drop to Pot : total
        $X``): no player's chips, dead money of the main pot (``HouseMoneyAdded``)."""
        if chips <= 0:
            raise TextError(f"{promotion} of no money")
        self.house += chips
        self.play.append(("HouseMoneyAdded", {"amount": chips, "promotion": promotion}))

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
        self.boards.setdefault(run, []).extend(cards)
        for player in self.seats.values():
            player.street = 0
        self.play.append(("CardsDealt", {"target": "board", "seat": None, "cards": cards}))

    def board_unwritten(self, street: str, run: int) -> None:
        """A turn or river line whose card is blank (``*** TURN *** [3c Jd 6d] []``, as
        PokerStars' client wrote some 2022 hands; its next street line leaves the card
        out too): dealt as ``??``, then given the card the summary's board names at
        that place (``fill_unwritten``), noted in the hand's source."""
        place = len(self.boards.get(0, [])) + (len(self.boards.get(run, [])) if run else 0)
        self.board([UNKNOWN], run)
        self.known.discard(UNKNOWN)
        self.unwritten.append((street, run, place, self.play[-1][1]))

    def fill_unwritten(self) -> None:
        """Each blank street card (``board_unwritten``) from the summary's board of its
        run: that board must be written whole (every card the street lines dealt, not a
        later run's own cards alone); TextError when it is not."""
        for street, run, place, body in self.unwritten:
            board = self.summary_boards.get(run, ([], 0))[0]
            dealt = self.boards.get(0, []) + (self.boards[run] if run else [])
            if len(board) != len(dealt):
                raise TextError(f"the {street} line deals no card and no summary board names it")
            card = board[place]
            self._claim([card])
            body["cards"] = [card]
            run_cards = self.boards[run]
            run_cards[run_cards.index(UNKNOWN)] = card
            self.note(f"the {street} line deals no card: its card {card} is the summary's board")

    def show(self, seat: int, cards: list[str], *, mucked: bool, late: bool = False) -> None:
        """Cards shown (or mucked, with the cards when the text gives them). A board run
        more than once has a showdown per run, where each player shows the same cards
        again (``*** SECOND SHOW DOWN ***``): shown once, one event; other cards than
        those it showed are a misread."""
        before = [b[1] for b in (*self.shows, *self.late_shows) if b[1]["seat"] == seat]
        if any(b["cards"] == cards and b["mucked"] == mucked for b in before):
            return
        if cards and any(b["cards"] and b["cards"] != cards for b in before):
            raise TextError(
                f"seat {seat} shows [{' '.join(cards)}] after showing "
                f"[{' '.join(next(b['cards'] for b in before if b['cards']))}]"
            )
        known = {
            card
            for b in self.play
            if b[0] == "CardsDealt" and b[1]["seat"] == seat
            for card in b[1]["cards"]
        } | {card for b in before for card in b["cards"]}
        self._claim([card for card in cards if card not in known])
        body = {"seat": seat, "cards": cards, "mucked": mucked}
        (self.late_shows if late else self.shows).append(("CardsShown", body))

    # -- betting ----------------------------------------------------------------------

    def act(
        self, seat: int, action: str, chips: int = 0, to: int | None = None, by: int | None = None
    ) -> None:
        """``folds``, ``checks``, ``calls X``, ``bets X``, ``raises X to Y`` (Y: the street
        total, so the chips added are Y less what the seat had in on this street; X: the
        increment over the street's highest bet, which must be Y less that bet, or the
        line is misread; X equal to Y is a tracker's export, ``TRACKER_RAISE``). Older
        PokerStars tournament files write X as the chips a blind adds (``raises 30 to 40``
        from a small blind of 10 facing 20): read so, and noted, only when the seat had
        chips in on the street (else X would be Y)."""
        if to is not None:
            own = self.seats[seat].street
            chips = to - own
            if chips <= 0:
                raise TextError(f"seat {seat} raises to no more than it has in")
            highest = max(s.street for s in self.seats.values())
            if by is not None and by == to != to - highest:
                self.note(TRACKER_RAISE)
            elif by is not None and by != to - highest and own and by == chips:
                self.note("a raise written as the chips added (raises X to Y, X = Y less own bet)")
            elif by is not None and by != to - highest:
                money = self.header.money
                raise TextError(
                    f"raises {shown(by, money)} to {shown(to, money)}: the street's bet "
                    f"was {shown(highest, money)}, so the raise is {shown(to - highest, money)}"
                )
        self._shared_first_street()
        self._put(seat, chips)
        self.play.append(("ActionTaken", {"seat": seat, "action": action, "amount": chips}))

    def _shared_first_street(self) -> None:
        """GGPoker heads a street ``*** FIRST FLOP ***`` when the hand is run twice from
        a later street, although that flop is dealt once and bet on: a bet after the first
        run's streets, before any second run, makes those cards the board every run
        shares (run 0, no ``BoardRun``), noted in the hand's source."""
        if self.run != 1 or 2 in self.boards:
            return
        start = max(i for i, (name, body) in enumerate(self.play) if name == "BoardRun")
        del self.play[start]
        self.boards.setdefault(0, []).extend(self.boards.pop(1, []))
        self.run = 0
        self.note("a FIRST street bet on: its cards are the board every run shares")

    def unwritten_return(self, excess: int) -> bool:
        """Whether the summary's total is short by exactly the uncalled part of the last
        bet, which the text did not return in a line (PokerStars before about 2008 wrote
        no ``Uncalled bet`` line: the bettor's ``collected`` counts only what was
        called): what the seat that put in most put in, less what the next one put in
        (the hand's totals, not the last street's: an all-in called short before the
        flop leaves nothing to bet on the river). Then it is returned, noted in the
        source."""
        bets = sorted((self._net_put(s.seat), s.seat) for s in self.seats.values())
        if len(bets) < 2 or bets[-1][0] - bets[-2][0] != excess or excess <= 0:
            return False
        self.returned(bets[-1][1], excess, street=False)
        self.note("uncalled bet returned, the text writing no line for it")
        return True

    def _net_put(self, seat: int) -> int:
        """What ``seat`` put in over the hand, less the uncalled bets returned to it."""
        back: int = sum(b[1]["amount"] for b in self.returns if b[1]["seat"] == seat)
        return self.seats[seat].put - back

    def returned(self, seat: int, chips: int, *, street: bool = True) -> None:
        """An uncalled bet back to ``seat``: of this street's bet (``street``), or of
        what it put in over the hand (``unwritten_return``)."""
        player = self.seats[seat]
        if chips > (player.street if street else self._net_put(seat)):
            raise TextError(f"seat {seat} gets back more than it bet on this street")
        player.street = max(0, player.street - chips)
        player.back += chips
        self.returns.append(("PotAwarded", {"seat": seat, "amount": chips, "pot_index": None}))

    # -- settlement ---------------------------------------------------------------------

    def collect(self, seat: int, chips: int, pot: int | None, run: int) -> None:
        """``NAME collected X from pot`` (``main pot``, ``side pot-N``). GGPoker writes
        ``from pot`` for every pot: with side pots in the summary its pot is not said,
        so the award is kept as a total (``pot_index`` null), never guessed as the main
        pot (``unindexed``)."""
        if run != self.award_run:
            self.award_run = run
            self.awards.append(("BoardRun", {"run": run}))
        self.seats[seat].back += chips
        self.collected[seat] = self.collected.get(seat, 0) + chips
        self.awards.append(("PotAwarded", {"seat": seat, "amount": chips, "pot_index": pot}))

    def unindexed(self) -> None:
        """The pot of ``from pot`` awards: the main pot (0) when the hand has one pot,
        else unsaid (null). One pot: the summary names no side pot and, for GGPoker,
        no player went all-in for less than another put in (PokerStars writes ``from
        pot`` only for a hand of one pot; GGPoker writes it for every pot and may name no
        side pot in its summary, so its lines are then kept as each seat's total, never
        all put in the main pot)."""
        pots = getattr(self.totals, "pots", None)
        single = (pots is None or len(pots) <= 1) and not (
            self.header.room == "ggpoker" and self._short_all_in()
        )
        for _, body in self.awards:
            if "pot_index" in body and body["pot_index"] is None:
                body["pot_index"] = 0 if single else None

    def _short_all_in(self) -> bool:
        """A player went all-in for less than another player put in (less what came back
        uncalled): the action may have made a side pot."""
        returned: dict[int, int] = {}
        for _, body in self.returns:
            returned[body["seat"]] = returned.get(body["seat"], 0) + body["amount"]
        called = {seat: s.put - returned.get(seat, 0) for seat, s in self.seats.items()}
        most = max(called.values(), default=0)
        return any(s.behind == 0 and s.put and called[n] < most for n, s in self.seats.items())

    def ps_cashout(self, seat: int, chips: int, fee: int) -> None:
        """PokerStars' all-in cash-out: ``NAME cashed out the hand for $X | Cash Out Fee
        $Y``: the house buys the player's equity, X + Y, and keeps the fee Y
        (``CashoutPaid`` X + Y, ``FeeTaken`` kind ``other`` Y paid by the seat); the
        line without a fee (``NAME cashed out the hand for $X``) is ``CashoutPaid`` X."""
        self.cashout(seat, chips + fee)
        self.fee("other", fee, seat)

    def not_awarded(self, seat: int, chips: int) -> None:
        """``won ($X) … (pot not awarded as player cashed out)``: the player who cashed
        out won X, which goes to the house that bought the hand (the pot is awarded, then
        passed to the house as ``FeeTaken`` kind ``cashout_risk``, as GGPoker's ``Pays
        Cashout Risk`` line records it)."""
        if chips and seat not in self.collected:
            self.collect(seat, chips, None, self.award_run)
            self.fee("cashout_risk", chips, seat)

    def fee(self, kind: str, chips: int, seat: int | None = None) -> None:
        if chips:
            self.fees.append(
                ("FeeTaken", {"kind": kind, "amount": chips, "pot_index": None, "seat": seat})
            )

    def cashout(self, seat: int, chips: int) -> None:
        if chips:
            self.cashouts.append(("CashoutPaid", {"seat": seat, "amount": chips}))

    def _tournament_blinds(self) -> tuple[int, int]:
        """A tournament hand's blinds are those its table posted: the header names the
        tournament's level when the hand began, and a table moves to a new level only
        from its next deal (GGPoker writes ``Level3 (80/160)`` above blinds of 60/120
        on the first hands of a level). A blind posted all-in for less says nothing of
        the level: then the header's. A difference is noted in the source."""
        header = self.header
        small = self.full_blind("small_blind", header.small_blind)
        big = self.full_blind("big_blind", header.big_blind)
        if (small, big) != (header.small_blind, header.big_blind):
            money = header.money
            self.note(
                f"blinds as posted, {shown(small, money)}/{shown(big, money)}, under the "
                f"header's level {header.level} "
                f"({shown(header.small_blind, money)}/{shown(header.big_blind, money)})"
            )
        return small, big

    def full_blind(self, kind: str, default: int) -> int:
        """The first ``kind`` blind, when its seat had chips left behind it (not all-in
        for less), else ``default``."""
        before: dict[int, int] = {}
        for name, body in self.play:
            if name != "BlindPosted":
                continue
            seat, chips = body["seat"], body["amount"]
            if body["kind"] == kind:
                left = self.seats[seat].stack - before.get(seat, 0) - chips
                return chips if left > 0 else default
            before[seat] = before.get(seat, 0) + chips
        return default

    def bodies(self, rulebook: str | None, source: str) -> list[Body]:
        """Every body of the hand, ``HandStarted`` first (see the module docstring)."""
        header = self.header
        if len(self.seats) < 2:
            raise TextError("fewer than two players are dealt in")
        small, big, min_bet = header.small_blind, header.big_blind, header.big_blind
        if header.variant in FIXED_LIMIT:  # the stakes are the small and big bet
            min_bet = header.small_blind
            small = self.blinds_posted.get("small_blind", header.small_blind // 2)
            big = self.blinds_posted.get("big_blind", header.small_blind)
        elif header.tournament_id is not None:
            small, big = self._tournament_blinds()
            min_bet = big
        started = {
            "rulebook": rulebook,
            "table_id": f"{header.room}/{header.table}",
            "variant": header.variant,
            "currency": header.money.currency,
            "smallest_chip": 1,
            "small_blind": small,
            "big_blind": big,
            "ante": max(
                (
                    b[1]["amount"]
                    for b in self.play
                    if b[0] == "BlindPosted" and b[1]["kind"] == "ante"
                ),
                default=0,
            ),
            "min_bet": min_bet,
            "button": header.button,
            "seats": [
                {"seat": s.seat, "player_id": s.name, "stack": s.stack}
                for s in sorted(self.seats.values(), key=lambda s: s.seat)
            ],
            "start_time_known": True,
            "shuffle_commitment": None,
            "source": "; ".join([source, *header.notes]),
        }
        if header.tournament_id is not None:  # poker_hand v4; left out when null
            started["tournament_id"] = header.tournament_id
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
