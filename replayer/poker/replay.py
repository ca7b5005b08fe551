"""Re-adjudicate one poker hand from its flat events (``replayer.events``).

``adjudicate_hand`` is pure and deterministic: same events, same verdict, byte for byte.
It never raises on bad input; what it cannot judge it reports (``data_quality``,
``no_rulebook``). Steps:

1. HandStarted chooses the rulebook (``rulebooks.registry.choose_rulebook``) by id or by
   variant and start time, and fixes the table: seats in clockwise order from the first
   seat left of the button (positions 0..n-1; the button is the last), stacks, blinds.
   Too few players (MO-97/2010 art.2(3); PT-217/2007 n.º 24) or too many seats
   (PT n.º 6, 99) is ``invalid_deal``.
2. Each event runs through the betting state machine (``betting``), the board schedule
   (board cards per betting round, ``board_schedule``) and card bookkeeping; the state
   after it is kept as a ``Step`` with the findings it raised.
3. At the end: deal and commitment checks (``deal``); pots (``pots``); winners
   (``showdown``); rake (``rake``); shares (``pots.split_pots``). A voided or reverted hand
   instead returns every chip put in (MO-97/2010 art.9(2); PT-217/2007 n.º 69; GG-2022
   Política de reembolso) and takes no rake.
4. Expected payout per seat vs recorded (HandEnded.finishing_stacks when present, else
   PotAwarded summed): ``mispaid_pot`` (one finding per hand, per-seat dicts, per-pot
   detail), or ``void_hand_not_refunded`` for a void hand.

Findings are ordered by (event sequence, kind, canonical JSON).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from operator import itemgetter
from typing import Any

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.poker.betting import QUALITY, Betting, Issue
from replayer.poker.deal import INVALID, check_cards, check_commitment
from replayer.poker.pots import build_pots, split_pots
from replayer.poker.rake import expected_rake
from replayer.poker.showdown import hand_values, winners
from replayer.poker.verdict import HandVerdict, PotResult, Step
from replayer.rulebooks.poker import VARIANTS, PokerRulebook, RakeTerms, SplitUnit
from replayer.rulebooks.registry import choose_rulebook
from replayer.terms import declared_rake, rake_in_force

SCHEMA = "schemas/poker_hand.avsc"
_STANDARD_STREETS = ("preflop", "flop", "turn", "river")
_END = ("HandEnded", "HandVoided", "HandReverted")
_BY_SEQUENCE = itemgetter("sequence")


def adjudicate_hand(
    events: Sequence[FlatEvent],
    *,
    rulebook_override: str | None = None,
    rake_terms: RakeTerms | None = None,
    table_terms: Mapping[str, Any] | None = None,
    with_steps: bool = True,
) -> HandVerdict:
    """Judge one hand's events under the rulebook in force (see the module docstring).

    ``rulebook_override`` replaces HandStarted.rulebook. The table's declared rake is
    ``rake_terms``, else the one ``table_terms`` (the ``TableTermsDeclared`` record in force
    at the hand's start, ``replayer.terms.terms_in_force``) states; it narrows a rulebook
    that fixes its own band and governs alone where the rulebook leaves the rake to the
    table (``replayer.terms.rake_in_force``). ``with_steps=False`` skips building the
    step-by-step replay (batch jobs).
    """
    if rake_terms is None and table_terms is not None:
        try:
            rake_terms = declared_rake(table_terms)
        except ValueError:  # a malformed declaration is judged on the table itself
            rake_terms = None
    try:
        ordered = sorted(events, key=_BY_SEQUENCE)
    except (KeyError, TypeError):
        ordered = sorted(events, key=_sequence)
    hand_id = str(ordered[0].get("hand_id", "")) if ordered else ""
    start = next((e for e in ordered if e.get("type") == "HandStarted"), None)
    if start is None:
        return _empty(
            hand_id,
            None,
            Finding(
                FindingKind.DATA_QUALITY,
                hand_id,
                SCHEMA,
                "no HandStarted event",
                expected="HandStarted",
                recorded=[str(e.get("type")) for e in ordered],
            ),
        )
    try:
        started_at = start["occurred_at"]
        variant = str(start["variant"])
        if not isinstance(started_at, datetime):
            raise TypeError("occurred_at is not a datetime")
    except (KeyError, TypeError) as error:
        return _empty(
            hand_id,
            None,
            Finding(FindingKind.DATA_QUALITY, hand_id, SCHEMA, f"HandStarted unreadable: {error}"),
        )
    chosen = choose_rulebook(
        rulebook_override or start.get("rulebook"),
        variant,
        started_at,
        subject=hand_id,
        time_known=bool(start.get("start_time_known", True)),
    )
    if isinstance(chosen, Finding):
        return _empty(hand_id, None, chosen)
    if not isinstance(chosen, PokerRulebook) or variant not in VARIANTS:
        return _empty(
            hand_id,
            None,
            Finding(
                FindingKind.NO_RULEBOOK,
                hand_id,
                "casino-audit rulebook registry",
                f"rulebook {chosen.id!r} is not a poker rulebook for variant {variant!r}",
            ),
        )
    try:
        return _Replay(chosen, start, hand_id, rake_terms, with_steps).run(ordered)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        return _empty(
            hand_id,
            chosen.id,
            Finding(
                FindingKind.DATA_QUALITY, hand_id, SCHEMA, f"hand cannot be replayed: {error!r}"
            ),
        )


def _sequence(event: FlatEvent) -> int:
    value = event.get("sequence")
    return value if isinstance(value, int) else -1


def _empty(hand_id: str, rulebook_id: str | None, finding: Finding) -> HandVerdict:
    return HandVerdict(
        hand_id=hand_id,
        rulebook_id=rulebook_id,
        findings=(finding,),
        expected_payouts={},
        recorded_payouts={},
        contributions={},
        expected_rake=0,
        recorded_rake=0,
        house_retained=0,
        pots=(),
        steps=(),
        conserved=False,
        determined=False,
    )


def _seated(value: Any, seat_of: tuple[int, ...]) -> Any:
    """Replace {"position": p} by {"seat": s} in an issue's expected/recorded value."""
    if isinstance(value, dict) and "position" in value:
        value = dict(value)
        value["seat"] = seat_of[value.pop("position")]
    return value


class _Replay:
    """One pass over a hand's events; ``run`` returns the verdict."""

    def __init__(
        self,
        book: PokerRulebook,
        start: FlatEvent,
        hand_id: str,
        rake_terms: RakeTerms | None,
        with_steps: bool,
    ) -> None:
        self.book = book
        self.hand_id = hand_id
        self.with_steps = with_steps
        self.rake_terms = rake_in_force(book.rake, rake_terms)
        self.structure, self.game = VARIANTS[start["variant"]]
        listed = [(int(s["seat"]), str(s["player_id"]), int(s["stack"])) for s in start["seats"]]
        self.listed = tuple(seat for seat, _, _ in listed)
        button = start.get("button")
        by_seat = sorted(listed)
        if button is not None:
            after = [entry for entry in by_seat if entry[0] > button]
            by_seat = after + [entry for entry in by_seat if entry[0] <= button]
        else:
            by_seat = listed
        self.seat_of = tuple(seat for seat, _, _ in by_seat)
        self.position = {seat: pos for pos, seat in enumerate(self.seat_of)}
        self.by_seat = sorted(range(len(self.seat_of)), key=self.seat_of.__getitem__)
        self.seats_sorted = tuple(self.seat_of[p] for p in self.by_seat)
        self.starting = [stack for _, _, stack in by_seat]
        self.chip = max(1, int(start["smallest_chip"]))
        self.big_blind = int(start["big_blind"])
        self.min_bet = int(start["min_bet"])
        self.betting = Betting(
            book,
            self.structure,
            self.starting,
            int(start["small_blind"]),
            self.big_blind,
            int(start.get("ante") or 0),
            self.min_bet,
        )
        self.commitment = start.get("shuffle_commitment")
        n = len(self.seat_of)
        self.holes: list[list[str]] = [[] for _ in range(n)]
        self.board: list[str] = []
        self.burns: list[str] = []
        self.shown: dict[int, list[str]] = {}
        self.mucked = [False] * n
        self.awards = [0] * n
        self.awards_by_pot: dict[tuple[int, int], int] = {}
        self.awarded = False
        self.rake_recorded = 0
        self.finishing: list[int] | None = None
        self.ended = False
        self.void: str | None = None
        self.revealed: tuple[list[str], str] | None = None
        self.board_round = 0
        self.board_needed = book.board_schedule[0]
        schedule = book.board_schedule
        self.street_names = (
            _STANDARD_STREETS
            if schedule == (0, 3, 1, 1)
            else tuple(f"round {i + 1}" for i in range(len(schedule)))
        )
        self.raw_steps: list[list[Any]] = []
        self.findings: list[Finding] = []
        self.issues: list[Issue] = []

    # ------------------------------------------------------------------ the loop

    def run(self, ordered: list[FlatEvent]) -> HandVerdict:
        book = self.book
        n = len(self.seat_of)
        first = ordered[0]
        if n < book.min_players:
            self.issues.append(
                Issue(
                    INVALID,
                    book.cite.min_players,
                    f"hand dealt to {n} players",
                    {"at_least": book.min_players},
                    n,
                )
            )
        if book.max_seats is not None and n > book.max_seats:
            self.issues.append(
                Issue(
                    INVALID,
                    book.cite.max_seats,
                    f"hand dealt to {n} players",
                    {"at_most": book.max_seats},
                    n,
                )
            )
        previous = None
        for event in ordered:
            sequence = event.get("sequence")
            if previous is not None and sequence != previous + 1:
                self.issues.append(
                    Issue(
                        QUALITY,
                        f"{SCHEMA} sequence",
                        f"sequence {sequence} follows {previous}",
                        previous + 1,
                        sequence,
                    )
                )
            previous = sequence if isinstance(sequence, int) else previous
            seat = self._apply(event, event is first)
            if self.issues or self.with_steps:
                self._flush(event, seat)
        return self._settle(ordered[-1])

    def _apply(self, event: FlatEvent, is_first: bool) -> int | None:
        kind = event.get("type")
        betting = self.betting
        issues = self.issues
        if kind == "ActionTaken":
            seat = event["seat"]
            pos = self._pos(seat)
            if pos is None:
                return seat
            if self.board_needed:
                issues.append(
                    Issue(
                        INVALID,
                        self.book.cite.board,
                        f"betting before {self.board_needed} more board card(s)",
                        self.board_needed,
                        0,
                    )
                )
                self._open_round()
            action = event["action"]
            amount = int(event["amount"])
            betting.act(pos, action, amount, issues)
            return seat
        if kind == "BlindPosted":
            seat = event["seat"]
            pos = self._pos(seat)
            if pos is None:
                return seat
            amount = int(event["amount"])
            betting.post(pos, event["kind"], amount, issues)
            return seat
        if kind == "CardsDealt":
            return self._dealt(event)
        if kind == "CardsShown":
            seat = event["seat"]
            pos = self._pos(seat)
            if pos is None:
                return seat
            cards = list(event.get("cards") or [])
            if event.get("mucked") or not cards:
                self.mucked[pos] = True
                return seat
            self.shown[pos] = cards
            return seat
        if kind == "PotAwarded":
            seat = event["seat"]
            pos = self._pos(seat)
            if pos is None:
                return seat
            amount = int(event["amount"])
            self.awards[pos] += amount
            self.awarded = True
            index = event.get("pot_index")
            if index is not None:
                key = (int(index), pos)
                self.awards_by_pot[key] = self.awards_by_pot.get(key, 0) + amount
            return seat
        if kind == "RakeTaken":
            amount = int(event["amount"])
            self.rake_recorded += amount
            return None
        if kind == "HandEnded":
            self.ended = True
            stacks = list(event.get("finishing_stacks") or [])
            if stacks:
                if len(stacks) == len(self.listed):
                    self.finishing = [int(chips) for chips in stacks]
                else:
                    issues.append(
                        Issue(
                            QUALITY,
                            f"{SCHEMA} HandEnded.finishing_stacks",
                            "finishing stacks do not match the seats",
                            len(self.listed),
                            len(stacks),
                        )
                    )
            return None
        if kind in ("HandVoided", "HandReverted"):
            self.void = str(kind)
            return None
        if kind == "DeckRevealed":
            self.revealed = (list(event["order"]), str(event["salt"]))
            return None
        if kind == "HandStarted":
            if not is_first:
                issues.append(Issue(QUALITY, SCHEMA, "a second HandStarted", None, kind))
            return None
        issues.append(Issue(QUALITY, SCHEMA, f"unknown event type {kind!r}", None, kind))
        return None

    def _pos(self, seat: Any) -> int | None:
        pos = self.position.get(seat)
        if pos is None:
            self.issues.append(
                Issue(
                    QUALITY,
                    f"{SCHEMA} seat",
                    f"seat {seat!r} is not dealt in",
                    list(self.seat_of),
                    seat,
                )
            )
        return pos

    def _dealt(self, event: FlatEvent) -> int | None:
        target = event["target"]
        cards = list(event.get("cards") or ())
        if target == "hole":
            seat = event.get("seat")
            pos = self._pos(seat)
            if pos is not None:
                self.holes[pos].extend(cards)
            if not self.board_needed:
                self.betting.start_round(0)
            return seat
        if target == "burn":
            self.burns.extend(cards)
            return None
        if target != "board":
            self.issues.append(
                Issue(
                    QUALITY, f"{SCHEMA} DealTarget", f"unknown deal target {target!r}", None, target
                )
            )
            return None
        book = self.book
        betting = self.betting
        if not self.board_needed:
            betting.start_round(betting.round)
            pending = betting.pending()
            if pending and betting.in_hand() > 1:
                self.issues.append(
                    Issue(
                        QUALITY,
                        book.cite.board,
                        "board dealt before the betting round closed",
                        [],
                        [self.seat_of[p] for p in pending],
                    )
                )
            self.board_round += 1
            if self.board_round >= len(book.board_schedule):
                self.issues.append(
                    Issue(
                        INVALID,
                        book.cite.board,
                        "more board cards than the game",
                        sum(book.board_schedule),
                        len(self.board) + len(cards),
                    )
                )
                self.board.extend(cards)
                return None
            self.board_needed = book.board_schedule[self.board_round]
        if len(cards) > self.board_needed:
            self.issues.append(
                Issue(
                    INVALID,
                    book.cite.board,
                    f"{len(cards)} board cards dealt where {self.board_needed} were due",
                    self.board_needed,
                    len(cards),
                )
            )
        self.board.extend(cards)
        self.board_needed = max(0, self.board_needed - len(cards))
        if not self.board_needed:
            self._open_round()
        return None

    def _open_round(self) -> None:
        self.board_needed = 0
        self.betting.start_round(self.board_round)

    def _flush(self, event: FlatEvent, seat: int | None) -> None:
        """Turn this event's issues into findings and record the step."""
        sequence = event.get("sequence")
        raised = []
        if self.issues:
            seat_of = self.seat_of
            for issue in self.issues:
                detail: dict[str, Any] = {"sequence": sequence, "event": event.get("type")}
                if seat is not None:
                    detail["seat"] = seat
                reason = issue.reason if seat is None else f"seat {seat}: {issue.reason}"
                raised.append(
                    Finding(
                        issue.kind,
                        self.hand_id,
                        issue.citation,
                        reason,
                        _seated(issue.expected, seat_of),
                        _seated(issue.recorded, seat_of),
                        issue.difference,
                        detail,
                    )
                )
            self.issues.clear()
            self.findings.extend(raised)
        if self.with_steps:
            betting = self.betting
            nxt = betting.next
            self.raw_steps.append(
                [
                    sequence,
                    str(event.get("type")),
                    seat,
                    _describe(event),
                    self.street_names[min(betting.round, len(self.street_names) - 1)],
                    sum(betting.put),
                    tuple(
                        zip(
                            self.seats_sorted,
                            map(betting.stack.__getitem__, self.by_seat),
                            strict=True,
                        )
                    ),
                    self.seat_of[nxt] if nxt >= 0 else None,
                    raised,
                ]
            )

    # ---------------------------------------------------------------- settlement

    def _settle(self, last: FlatEvent) -> HandVerdict:
        book = self.book
        betting = self.betting
        seat_of = self.seat_of
        n = len(seat_of)
        issues = self.issues
        check_cards(book, self.holes, self.board, self.burns, self.shown, seat_of, issues)
        if self.commitment and self.revealed is not None:
            order, salt = self.revealed
            check_commitment(
                book,
                self.commitment,
                order,
                salt,
                self.holes,
                self.board,
                self.burns,
                seat_of,
                issues,
            )
        elif self.commitment and self.ended:
            issues.append(
                Issue(
                    QUALITY,
                    book.cite.deal_order,
                    "shuffle committed but the deck was never revealed",
                    "DeckRevealed",
                    None,
                )
            )
        put = betting.put
        by_seat = self.by_seat
        contributions = {seat_of[p]: put[p] for p in by_seat}
        recorded = self._recorded_payouts()
        conserved = recorded is not None and sum(recorded) + self.rake_recorded == sum(put)
        determined = True
        pot_results: list[PotResult] = []
        retained = 0
        rake_total = 0
        if self.void is not None:
            expected = list(put)
            if recorded is not None and (recorded != expected or self.rake_recorded):
                self._payout_issue(
                    FindingKind.VOID_HAND_NOT_REFUNDED,
                    book.cite.void_refund,
                    f"{self.void}: every chip put in must be returned",
                    expected,
                    recorded,
                )
        else:
            expected, determined, retained, rake_total = self._award(pot_results)
            if recorded is None:
                if not self.ended:
                    issues.append(
                        Issue(
                            QUALITY,
                            SCHEMA,
                            "hand has no outcome: no HandEnded, HandVoided or HandReverted",
                            "an outcome",
                            None,
                        )
                    )
            elif determined:
                if recorded != expected:
                    self._payout_issue(
                        FindingKind.MISPAID_POT,
                        self._payout_cite(pot_results),
                        "payouts differ from the rules' outcome",
                        expected,
                        recorded,
                        pot_results,
                    )
            elif not conserved:
                self._payout_issue(
                    FindingKind.MISPAID_POT,
                    book.cite.side_pots,
                    "recorded payouts and rake do not add up to the chips put in",
                    expected,
                    recorded,
                )
        anchor = next((step for step in reversed(self.raw_steps) if step[1] in _END), None)
        if anchor is None and self.raw_steps:
            anchor = self.raw_steps[-1]
        self._flush_end(last, anchor)
        findings = sorted(self.findings, key=_finding_order)
        steps = tuple(Step(*raw[:8], tuple(raw[8])) for raw in self.raw_steps)
        return HandVerdict(
            hand_id=self.hand_id,
            rulebook_id=book.id,
            findings=tuple(findings),
            expected_payouts={seat_of[p]: expected[p] for p in range(n)},
            recorded_payouts=(
                {} if recorded is None else {seat_of[p]: recorded[p] for p in range(n)}
            ),
            contributions=contributions,
            expected_rake=rake_total,
            recorded_rake=self.rake_recorded,
            house_retained=retained,
            pots=tuple(pot_results),
            steps=steps,
            conserved=conserved,
            determined=determined,
        )

    def _flush_end(self, last: FlatEvent, anchor: list[Any] | None) -> None:
        sequence = anchor[0] if anchor is not None else last.get("sequence")
        for issue in self.issues:
            detail = {"sequence": sequence, "event": "settlement", **(issue.detail or {})}
            finding = Finding(
                issue.kind,
                self.hand_id,
                issue.citation,
                issue.reason,
                _seated(issue.expected, self.seat_of),
                _seated(issue.recorded, self.seat_of),
                issue.difference,
                detail,
            )
            self.findings.append(finding)
            if anchor is not None:
                anchor[8].append(finding)
        self.issues.clear()

    def _recorded_payouts(self) -> list[int] | None:
        """Per position, from finishing stacks when recorded, else PotAwarded."""
        n = len(self.seat_of)
        if self.finishing is not None:
            by_seat = dict(zip(self.listed, self.finishing, strict=True))
            put = self.betting.put
            payouts = [by_seat[self.seat_of[p]] - self.starting[p] + put[p] for p in range(n)]
            if self.awarded and payouts != self.awards:
                self.issues.append(
                    Issue(
                        QUALITY,
                        f"{SCHEMA} HandEnded.finishing_stacks",
                        "PotAwarded totals disagree with the finishing stacks",
                        {str(self.seat_of[p]): payouts[p] for p in range(n)},
                        {str(self.seat_of[p]): self.awards[p] for p in range(n)},
                    )
                )
            return payouts
        if self.awarded or self.ended or self.void is not None:
            return list(self.awards)
        return None

    def _award(self, results: list[PotResult]) -> tuple[list[int], bool, int, int]:
        """(expected payout per position, determined, chips retained, rake) of a played hand."""
        book = self.book
        betting = self.betting
        seat_of = self.seat_of
        n = len(seat_of)
        pots, returned = build_pots(betting.put, betting.dead, betting.folded)
        amounts = [amount for amount, _ in pots]
        rake = expected_rake(
            book,
            self.rake_terms,
            amounts,
            self.rake_recorded,
            self.chip,
            self.big_blind,
            bool(self.board),
            self.issues,
        )
        live = [not (betting.folded[p] or self.mucked[p]) for p in range(n)]
        cards = [self.shown.get(p) or self.holes[p] for p in range(n)]
        contested = [p for p in range(n) if live[p]]
        values = (
            hand_values(book, self.game, contested, cards, self.board) if len(contested) > 1 else {}
        )
        unit = self.chip
        if book.split_unit is SplitUnit.TABLE_MINIMUM:
            unit = max(self.chip, self.big_blind or self.min_bet)
        expected = list(returned)
        determined = True
        retained_total = 0
        won_by = [winners(eligible, live, values) if eligible else None for _, eligible in pots]
        nets = [amount - chips for (amount, _), chips in zip(pots, rake, strict=True)]
        settled = split_pots(list(zip(nets, won_by, strict=True)), unit, book.odd_chip, seat_of)
        for index, (amount, eligible) in enumerate(pots):
            won = won_by[index]
            shares, retained = settled[index]
            if won is None:
                determined = False
                self.issues.append(
                    Issue(
                        QUALITY,
                        book.cite.ranking,
                        f"pot {index} cannot be judged: undisclosed cards, "
                        "incomplete board or no live player",
                        None,
                        {"eligible": [seat_of[p] for p in eligible]},
                    )
                )
            else:
                for p, chips in shares.items():
                    expected[p] += chips
            retained_total += retained
            results.append(
                PotResult(
                    index=index,
                    amount=amount,
                    eligible=tuple(sorted(seat_of[p] for p in eligible)),
                    winners=None if won is None else tuple(sorted(seat_of[p] for p in won)),
                    rake=rake[index],
                    shares=tuple(sorted((seat_of[p], chips) for p, chips in shares.items())),
                    retained=retained,
                )
            )
        return expected, determined, retained_total, sum(rake)

    def _payout_cite(self, results: list[PotResult]) -> str:
        cite = self.book.cite
        if any(r.winners is not None and len(r.winners) > 1 for r in results):
            return _joined(cite.split, cite.odd_chip)
        if len(results) > 1:
            return _joined(cite.side_pots, cite.ranking)
        if results and len(results[0].eligible) == 1:
            return cite.uncontested
        return cite.ranking

    def _payout_issue(
        self,
        kind: FindingKind,
        citation: str,
        reason: str,
        expected: list[int],
        recorded: list[int],
        results: list[PotResult] | None = None,
    ) -> None:
        seat_of = self.seat_of
        differing = sorted(
            (p for p in range(len(seat_of)) if expected[p] != recorded[p]), key=seat_of.__getitem__
        )
        if differing:
            reason += f" (seats {', '.join(str(seat_of[p]) for p in differing)})"
        detail: dict[str, Any] = {"rake_recorded": self.rake_recorded}
        if results is not None:
            detail["pots"] = [
                {
                    "pot_index": r.index,
                    "amount": r.amount,
                    "rake": r.rake,
                    "winners": list(r.winners or ()),
                    "expected": {str(seat): chips for seat, chips in r.shares},
                    "recorded": {
                        str(seat_of[p]): chips
                        for (i, p), chips in sorted(self.awards_by_pot.items())
                        if i == r.index
                    },
                }
                for r in results
            ]
        self.issues.append(
            Issue(
                kind,
                citation,
                reason,
                {str(seat_of[p]): expected[p] for p in differing},
                {str(seat_of[p]): recorded[p] for p in differing},
                {str(seat_of[p]): recorded[p] - expected[p] for p in differing},
                detail,
            )
        )


def _finding_order(finding: Finding) -> tuple[int, str, str]:
    sequence = finding.detail.get("sequence")
    return (
        sequence if isinstance(sequence, int) else -1,
        str(finding.kind),
        finding.canonical_json(),
    )


def _describe(event: FlatEvent) -> str:
    """One line for the step-by-step view."""
    kind = event.get("type")
    seat = event.get("seat")
    amount = event.get("amount")
    cards = " ".join(map(str, event.get("cards") or ()))
    if kind == "ActionTaken":
        return (
            f"seat {seat} {event.get('action')} {amount}"
            if amount
            else (f"seat {seat} {event.get('action')}")
        )
    if kind == "BlindPosted":
        return f"seat {seat} posts {event.get('kind')} {amount}"
    if kind == "CardsDealt":
        target = event.get("target")
        return f"seat {seat} dealt {cards}" if target == "hole" else f"{target} {cards}"
    if kind == "CardsShown":
        return (
            f"seat {seat} shows {cards}"
            if cards and not event.get("mucked")
            else (f"seat {seat} mucks")
        )
    if kind == "PotAwarded":
        return f"seat {seat} awarded {amount}"
    if kind == "RakeTaken":
        return f"rake {amount}"
    if kind in ("HandVoided", "HandReverted"):
        return f"{kind}: {event.get('reason', '')}"
    if kind == "HandStarted":
        return f"hand started ({len(event.get('seats') or ())} players)"
    return {"HandEnded": "hand ended", "DeckRevealed": "deck revealed"}.get(str(kind), str(kind))


def _joined(*citations: str) -> str:
    """Citations joined with '; ', each part once (rulebooks may cite one text twice)."""
    parts: list[str] = []
    for citation in citations:
        parts.extend(p for p in citation.split("; ") if p not in parts)
    return "; ".join(parts)
