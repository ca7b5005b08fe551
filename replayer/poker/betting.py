"""The betting state machine: forced bets, turn order and the legality of every action.

Players are addressed by *position*: 0 is the first player dealt in left of the button,
``n - 1`` the button (or the last player before an empty button seat). State is plain
ints, lists and bools; each transition appends an ``Issue`` for every departure from the
rulebook, then applies the action *as recorded* ("the replay continues as recorded").

Transitions (the checks each makes, with the rulebook field that cites it):

``post`` (forced bet, BlindPosted)
    small/big blind by the right position and for the table amount unless all-in
    (``blinds``); ante, dead and missed blinds for the table amounts. Live blinds and
    straddles count toward the player's bet; antes and dead blinds go to the pot and do
    not (GG-2022 Apostas perdidas; PT-217/2007 n.º 90). With no small blind posted (its
    seat empty: a dead small blind, as when players leave or a tournament breaks tables,
    GG-2022 Política de torneios "postar vários big blinds em uma fileira") the big blind
    may be the first player left of the button. When the big blind's poster is all-in for
    less, or could post none (all-in from the ante), the bet to match is what the
    rulebook names (``ShortBlind``): as posted, or the table's whole big blind.
``act`` (ActionTaken)
    turn order: pre-flop left of the largest live forced bet, the big blind having the
    option (``first_round_order``); later rounds per ``FirstToAct``
    (``later_round_order``). fold: always legal; a player already all-in who folds (a
    room folds a sitting-out player's hand) concedes his claim and takes no turn. check:
    only with nothing to call. call: the recorded amount must be what is owed, or the
    whole stack (``call_amount``); what is owed never exceeds what another player still
    in the hand has put in or can still put in this round (more would be an uncalled bet
    returned, so the rooms write the call as that much). bet
    or raise (judged by amount, not by label): opening bet >= ``HandStarted.min_bet``
    unless all-in (``min_bet``); raise increment >= last full bet/raise or the table
    minimum, unless all-in (``min_raise``); a player who already acted may not re-raise
    when the betting was reopened only by an all-in for less than a full raise
    (``min_raise``: such an all-in is not a raise; successive short all-ins that add up
    to a full raise do reopen, as in PokerKit); at most ``RaiseMax`` (``max_raise``:
    ``POT``, the pot after calling, holds every chip in it, the house's money put in by
    a promotion too, as GGPoker's Cash Drop hands are raised; ``BETS_SO_FAR``, PT-217/2007
    n.º 86 "o total das apostas até aí efectuadas", the players' bets alone); at
    most ``raise_cap`` raises per round unless two players remain (``raise_cap``), and no
    ``RaiseMax`` heads-up if ``raise_amount_unlimited_heads_up`` (MO-97/2010 art.12(4)).
``start_round`` (board dealt)
    resets the round; opens with the player the rulebook names. (An action larger than
    the stack is a data-quality issue; the stack goes to zero.)
"""

from __future__ import annotations

from typing import Any, NamedTuple

from replayer.findings import FindingKind
from replayer.rulebooks.poker import (
    FirstToAct,
    MinRaise,
    PokerRulebook,
    RaiseMax,
    ShortBlind,
    Structure,
)


class Issue(NamedTuple):
    """A departure found while replaying; ``replay`` turns it into a ``Finding``."""

    kind: FindingKind
    citation: str
    reason: str
    expected: Any = None
    recorded: Any = None
    difference: Any = None
    detail: dict[str, Any] | None = None


ILLEGAL = FindingKind.ILLEGAL_ACTION
QUALITY = FindingKind.DATA_QUALITY

_LIVE_FORCED = frozenset({"small_blind", "big_blind", "straddle", "missed_big_blind", "bring_in"})
_DEAD_FORCED = frozenset({"ante", "dead_small_blind", "dead_big_blind"})


class Betting:
    """Chips and turn order of one hand (see the module docstring)."""

    __slots__ = (
        "acted",
        "aggressor",
        "allow_reraise",
        "anchor",
        "ante",
        "bb",
        "bet",
        "big_blind_posted",
        "cap",
        "cap_lifted_heads_up",
        "cite",
        "current",
        "dead",
        "folded",
        "free_heads_up",
        "full_raise",
        "house",
        "later_first",
        "max_rule",
        "min_bet",
        "min_rule",
        "n",
        "next",
        "prev_aggressor",
        "put",
        "raises",
        "round",
        "sb",
        "sb_expected",
        "short_blind",
        "short_sum",
        "small_blind_pos",
        "stack",
        "started",
        "straddled",
    )

    def __init__(
        self,
        book: PokerRulebook,
        structure: Structure,
        stacks: list[int],
        small_blind: int,
        big_blind: int,
        ante: int,
        min_bet: int,
    ) -> None:
        n = len(stacks)
        self.n = n
        self.cite = book.cite
        self.stack = list(stacks)
        self.bet = [0] * n
        self.put = [0] * n
        self.dead = [0] * n
        # Chips the house put into the pot (HouseMoneyAdded): no player's bet, but in the
        # pot a RaiseMax.POT raise is measured by and in the main pot (pots.build_pots).
        self.house = 0
        self.folded = [False] * n
        self.acted = [False] * n
        self.allow_reraise = [True] * n
        self.sb = small_blind
        self.bb = big_blind
        self.ante = ante
        self.min_bet = min_bet
        self.min_rule = book.min_raise
        self.max_rule = book.max_raise(structure)
        self.cap = book.raise_cap(structure)
        self.cap_lifted_heads_up = book.raise_cap_lifted_heads_up
        self.free_heads_up = book.raise_amount_unlimited_heads_up
        self.later_first = book.later_rounds_first
        self.sb_expected = n - 1 if n == 2 and book.heads_up_button_small_blind else 0
        self.small_blind_pos = -1
        self.big_blind_posted = False
        self.short_blind = book.short_blind
        self.anchor = -1
        self.straddled = False
        self.current = 0
        self.full_raise = 0
        self.short_sum = 0
        self.raises = 0
        self.round = 0
        self.started = False
        self.next = -1
        self.aggressor = -1
        self.prev_aggressor = -1

    # ------------------------------------------------------------------ forced bets

    def post(self, pos: int, kind: str, amount: int, issues: list[Issue]) -> None:
        """A forced bet (BlindPosted)."""
        cite = self.cite.blinds
        amount = self._take(pos, amount, issues)
        all_in = self.stack[pos] == 0
        if kind in _LIVE_FORCED:
            self.bet[pos] += amount
            if kind == "small_blind":
                if pos != self.sb_expected:
                    issues.append(
                        Issue(
                            ILLEGAL,
                            cite,
                            "small blind posted out of position",
                            {"position": self.sb_expected},
                            {"position": pos},
                        )
                    )
                self.small_blind_pos = pos
                if self.anchor < 0:
                    self.anchor = pos
                self._forced_amount("small blind", self.sb, amount, all_in, issues)
            elif kind == "big_blind":
                sb_pos = self.small_blind_pos if self.small_blind_pos >= 0 else self.sb_expected
                expected = (sb_pos + 1) % self.n
                dead_small = self.small_blind_pos < 0 and self.n > 2 and pos == self.sb_expected
                if pos != expected and not dead_small:
                    issues.append(
                        Issue(
                            ILLEGAL,
                            cite,
                            "big blind posted out of position",
                            {"position": expected},
                            {"position": pos},
                        )
                    )
                if not self.straddled:
                    self.anchor = pos
                self._forced_amount("big blind", self.bb, amount, all_in, issues)
            elif kind == "straddle":
                self.straddled = True
                self.anchor = pos
            elif kind == "missed_big_blind":
                self._forced_amount(
                    "live big blind after missed blinds", self.bb, amount, all_in, issues
                )
            if kind == "big_blind":
                self.big_blind_posted = True
                if all_in and self.short_blind is ShortBlind.FULL_BLIND:
                    self.current = max(self.current, self.bb)
            self.current = max(self.current, self.bet[pos])
            self.full_raise = max(self.bb, self.current)
            if self.started and not self.round:  # posted after the deal began
                self.started = False
                self.start_round(0)
        elif kind in _DEAD_FORCED:
            self.dead[pos] += amount
            table = {"ante": self.ante, "dead_small_blind": self.sb, "dead_big_blind": self.bb}
            self._forced_amount(kind.replace("_", " "), table[kind], amount, all_in, issues)
        else:
            issues.append(
                Issue(
                    QUALITY,
                    "schemas/poker_hand.avsc ForcedBetKind",
                    f"unknown forced bet kind {kind!r}",
                    None,
                    kind,
                )
            )

    def _forced_amount(
        self, what: str, table: int, amount: int, all_in: bool, issues: list[Issue]
    ) -> None:
        if amount != table and not (all_in and amount < table):
            issues.append(
                Issue(
                    ILLEGAL,
                    self.cite.blinds,
                    f"{what} of {amount}, the table's is {table}",
                    table,
                    amount,
                )
            )

    def _take(self, pos: int, amount: int, issues: list[Issue]) -> int:
        """Move chips from the stack to the pot; never more than the stack."""
        if amount < 0:
            issues.append(Issue(QUALITY, "schemas/poker_hand.avsc", "negative amount", 0, amount))
            return 0
        stack = self.stack[pos]
        if amount > stack:
            issues.append(
                Issue(
                    QUALITY,
                    "schemas/poker_hand.avsc",
                    f"puts in {amount} with {stack} behind; counted as all-in for {stack}",
                    stack,
                    amount,
                )
            )
            amount = stack
        self.stack[pos] = stack - amount
        self.put[pos] += amount
        return amount

    # -------------------------------------------------------------------- rounds

    def start_round(self, number: int) -> None:
        """Open betting round ``number`` (0 = the round after the hole cards)."""
        if number == self.round and self.started:
            return
        n = self.n
        if number > 0:
            self.prev_aggressor = self.aggressor
            self.bet = [0] * n
            self.current = 0
            self.full_raise = 0
            first = self._later_opener()
        else:
            first = (self.anchor + 1) % n if self.anchor >= 0 else 0
            if (
                self.short_blind is ShortBlind.FULL_BLIND
                and self.small_blind_pos >= 0
                and not self.big_blind_posted
            ):  # the big blind's player could post none (all-in from the ante, say)
                self.current = max(self.current, self.bb)
        self.round = number
        self.started = True
        self.acted = [False] * n
        self.allow_reraise = [True] * n
        self.short_sum = 0
        self.raises = 0
        self.aggressor = -1
        self.next = self._next_from(first)

    def _later_opener(self) -> int:
        rule = self.later_first
        if rule is FirstToAct.BUTTON:
            return self.n - 1
        if rule is FirstToAct.LAST_HIGHEST_BETTOR and self.prev_aggressor >= 0:
            return self.prev_aggressor
        return 0

    def pending(self) -> list[int]:
        """Positions that still owe an action in the open round."""
        if not self.started:
            return []
        return self._owing(0, first_only=False)

    def _next_from(self, start: int) -> int:
        owing = self._owing(start % self.n, first_only=True)
        return owing[0] if owing else -1

    def _owing(self, start: int, first_only: bool) -> list[int]:
        """Positions owing an action, clockwise from ``start``: not folded, chips behind,
        and either short of the bet or not yet acted while someone else can still bet."""
        folded = self.folded
        stack = self.stack
        n = self.n
        in_hand = 0
        able = 0
        for p in range(n):
            if not folded[p]:
                in_hand += 1
                if stack[p]:
                    able += 1
        if in_hand < 2:
            return []
        bet = self.bet
        acted = self.acted
        current = self.current
        best, best_at, second = self._reaches()
        owing: list[int] = []
        for step in range(n):
            p = start + step
            if p >= n:
                p -= n
            if folded[p] or not stack[p]:
                continue
            due = min(current, second if p == best_at else best)
            if bet[p] < due or (not acted[p] and able > 1):
                owing.append(p)
                if first_only:
                    break
        return owing

    def _due(self, pos: int) -> int:
        """The bet ``pos`` must match: the bet to match, but never more than another
        player still in the hand has put in or can still put in this round."""
        best, best_at, second = self._reaches()
        return min(self.current, second if pos == best_at else best)

    def _reaches(self) -> tuple[int, int, int]:
        """(best, best_at, second): the most a player still in the hand has put in or can
        still put in this round, that player's position, and the most of the others. So
        what the players other than ``pos`` can reach is ``best``, or ``second`` when
        ``pos`` is ``best_at`` (a tie makes both equal); 0 and -1 when nobody is in."""
        bet = self.bet
        stack = self.stack
        folded = self.folded
        best = 0
        best_at = -1
        second = 0
        for q in range(self.n):
            if folded[q]:
                continue
            reach = bet[q] + stack[q]
            if reach > best:
                second = best
                best = reach
                best_at = q
            elif reach > second:
                second = reach
        return best, best_at, second

    def in_hand(self) -> int:
        """Players who have not folded."""
        return self.n - sum(self.folded)

    # ------------------------------------------------------------------- actions

    def act(self, pos: int, action: str, amount: int, issues: list[Issue]) -> None:
        """A voluntary action (ActionTaken); ``amount`` = chips added by it.

        Minimum raise (MO-97/2010 art.12(1)): at least the last bet or raise. Blinds 50
        and 100, a raise to 300 (by 200); re-raising to 400 is a raise of only 100:

        >>> from replayer.rulebooks.mo_97_2010 import OMAHA
        >>> betting = Betting(OMAHA, Structure.NO_LIMIT, [10_000] * 3, 50, 100, 0, 100)
        >>> issues = []
        >>> betting.post(0, "small_blind", 50, issues)
        >>> betting.post(1, "big_blind", 100, issues)
        >>> betting.act(2, "raise", 300, issues)
        >>> betting.act(0, "raise", 350, issues)
        >>> [(issue.citation, issue.reason) for issue in issues]
        [('MO-97/2010 art.12(1)', 'raise of 100 below the minimum raise')]
        >>> issues[0].expected
        {'raise_at_least': 200, 'to_at_least': 500}
        """
        if not self.started:
            self.start_round(self.round)
        cite = self.cite
        if action == "fold" and not amount and not self.stack[pos] and not self.folded[pos]:
            # All-in already: no action was due; folding concedes the claim, takes no turn.
            self.folded[pos] = True
            self.next = self._next_from(self.next) if self.next >= 0 else -1
            return
        if self.folded[pos]:
            issues.append(
                Issue(
                    ILLEGAL,
                    cite.later_round_order if self.round else cite.first_round_order,
                    "acts after folding",
                    None,
                    {"action": action, "position": pos},
                )
            )
        elif pos != self.next and not (
            # A check nobody needed (e.g. the big blind left alone with chips): harmless.
            self.next < 0 and action == "check" and self.bet[pos] >= self._due(pos)
        ):
            order_cite = cite.later_round_order if self.round else cite.first_round_order
            expected = None if self.next < 0 else {"position": self.next}
            reason = "acts when no action is due" if self.next < 0 else "acts out of turn"
            issues.append(Issue(ILLEGAL, order_cite, reason, expected, {"position": pos}))
        before = self.stack[pos]
        to_call = max(0, self._due(pos) - self.bet[pos])
        if action == "fold":
            if amount:
                issues.append(
                    Issue(
                        QUALITY,
                        "schemas/poker_hand.avsc ActionTaken",
                        "a fold with chips",
                        0,
                        amount,
                    )
                )
                self.bet[pos] += self._take(pos, amount, issues)
            self.folded[pos] = True
        elif action == "check":
            if to_call:
                issues.append(
                    Issue(ILLEGAL, cite.call_amount, f"checks facing {to_call} to call", to_call, 0)
                )
            if amount:
                issues.append(
                    Issue(ILLEGAL, cite.call_amount, "a check that puts in chips", 0, amount)
                )
                self._put(pos, amount, issues)
        elif action == "call":
            owed = min(to_call, before)
            if amount != owed:
                issues.append(
                    Issue(ILLEGAL, cite.call_amount, f"calls {amount}, owed {owed}", owed, amount)
                )
            self._put(pos, amount, issues)
        elif action in ("bet", "raise"):
            self._aggress(pos, amount, before, to_call, issues)
        else:
            issues.append(
                Issue(
                    QUALITY,
                    "schemas/poker_hand.avsc BettingAction",
                    f"unknown action {action!r}",
                    None,
                    action,
                )
            )
        self.acted[pos] = True
        self.allow_reraise[pos] = False
        self.next = self._next_from(pos + 1)

    def _put(self, pos: int, amount: int, issues: list[Issue]) -> None:
        """Chips from a call or check as recorded; a mis-recorded excess raises the bet."""
        amount = self._take(pos, amount, issues)
        self.bet[pos] += amount
        if self.bet[pos] > self.current:
            self._increase(pos, self.bet[pos] - self.current, full=False)

    def _aggress(
        self, pos: int, amount: int, before: int, to_call: int, issues: list[Issue]
    ) -> None:
        cite = self.cite
        new = self.bet[pos] + min(max(amount, 0), before)
        increment = new - self.current
        all_in = amount >= before
        if increment <= 0:
            issues.append(
                Issue(
                    ILLEGAL,
                    cite.min_raise,
                    f"raise to {new} does not exceed the bet of {self.current}",
                    {"more_than": self.current},
                    {"to": new},
                )
            )
            self._put(pos, amount, issues)
            return
        opening = self.current == 0
        if opening:
            minimum = self.min_bet
            if new < minimum and not all_in:
                issues.append(
                    Issue(
                        ILLEGAL,
                        cite.min_bet,
                        f"bet of {new} below the minimum",
                        {"at_least": minimum},
                        {"to": new},
                    )
                )
        else:
            minimum = self.full_raise if self.min_rule is MinRaise.LAST_BET_OR_RAISE else self.bb
            if increment < minimum and not all_in:
                issues.append(
                    Issue(
                        ILLEGAL,
                        cite.min_raise,
                        f"raise of {increment} below the minimum raise",
                        {"raise_at_least": minimum, "to_at_least": self.current + minimum},
                        {"raise": increment, "to": new},
                    )
                )
            if not self.allow_reraise[pos]:
                issues.append(
                    Issue(
                        ILLEGAL,
                        cite.min_raise,
                        "re-raises after an all-in for less than a full raise",
                        "call or fold",
                        {"to": new},
                    )
                )
            if (
                self.cap is not None
                and self.raises >= self.cap
                and not (self.cap_lifted_heads_up and self.in_hand() == 2)
            ):
                issues.append(
                    Issue(
                        ILLEGAL,
                        cite.raise_cap,
                        f"raise number {self.raises + 1} in the round",
                        {"max_raises": self.cap},
                        {"raises": self.raises + 1},
                    )
                )
            self.raises += 1
        heads_up_free = self.free_heads_up and self.in_hand() == 2
        if self.max_rule is not RaiseMax.UNLIMITED and not heads_up_free:
            bets = sum(self.put)
            most = bets + self.house + to_call if self.max_rule is RaiseMax.POT else bets
            most = max(most, minimum)
            if increment > most:
                issues.append(
                    Issue(
                        ILLEGAL,
                        cite.max_raise,
                        f"raise of {increment} above the maximum of {most}",
                        {"to_at_most": self.current + most},
                        {"to": new},
                    )
                )
        self._take(pos, amount, issues)
        self.bet[pos] = new
        if opening:
            full = True
        elif self.min_rule is MinRaise.LAST_BET_OR_RAISE:
            full = increment >= self.full_raise
        else:
            full = increment >= self.bb
        self._increase(pos, increment, full)

    def _increase(self, pos: int, increment: int, full: bool) -> None:
        """The bet to match went up by ``increment`` (reopening only on a full raise)."""
        self.current = self.bet[pos]
        self.aggressor = pos
        acted = self.acted
        for p in range(self.n):
            acted[p] = False
        if not full:
            self.short_sum += increment
            full = self.short_sum >= self.full_raise > 0
        if full:
            if self.min_rule is MinRaise.LAST_BET_OR_RAISE:
                self.full_raise = max(self.full_raise, increment)
            self.short_sum = 0
            self.allow_reraise = [True] * self.n
