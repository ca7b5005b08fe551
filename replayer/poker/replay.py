"""Re-adjudicate one poker hand from its flat events (``replayer.events``).

``adjudicate_hand`` is pure and deterministic: same events, same verdict, byte for byte.
It never raises on bad input; what it cannot judge it reports (``data_quality``,
``no_rulebook``). Steps:

1. HandStarted chooses the rulebook (``rulebooks.registry.choose_rulebook``) by id or by
   variant and start time; a rulebook of the other play (``PokerRulebook.play``: a
   cash-game book for a tournament hand, or the reverse) is ``no_rulebook``. It deals the
   hand (``hand.open_hand``): the table
   (``table``: seats, positions, stacks, stakes; too few or too many players is
   ``invalid_deal``), the betting state machine (``betting``) and the board (``board``).
2. Each event, in sequence order, is applied by its handler (``dispatch.HANDLERS``); the
   issues it raises become findings of that event, and the state after it a ``Step``
   (``steps``). A gap in the sequence numbers is a data-quality finding.
3. At the end the hand is settled (``settlement``): deal checks, pots, rake, fees other
   than rake, winners and shares (per run when the board was run more than once), or the
   refund of a void hand, against the payouts recorded. Cash-outs the house paid outside
   the pot are reported (``HandVerdict.cashouts``), never counted as payouts.
4. A tournament hand's chips are conserved, judged or not (``tournament_chips``).
5. Under a rulebook with a clock, no action but a fold or a check comes after the
   player's time ran out, by the events' own times (``clock``).

Findings are ordered by (event sequence, kind, canonical JSON).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from operator import itemgetter
from typing import Any

from replayer.events import FlatEvent, HeldEvent
from replayer.findings import Finding, FindingKind
from replayer.poker.betting import QUALITY, Issue
from replayer.poker.clock import late_actions
from replayer.poker.dispatch import apply
from replayer.poker.hand import SCHEMA, Hand, open_hand
from replayer.poker.limits import Stakes, action_issues, hand_stakes, opening_issues
from replayer.poker.settlement import settle
from replayer.poker.showdown_order import ShowdownOrder
from replayer.poker.steps import StepLog
from replayer.poker.table import seating_issues
from replayer.poker.tournament_chips import conservation_finding, is_tournament
from replayer.poker.verdict import HandVerdict
from replayer.rulebooks.poker import VARIANTS, FeeTerms, PokerRulebook, RakeTerms
from replayer.rulebooks.registry import choose_rulebook
from replayer.terms import declared_chip, declared_fees, declared_rake

__all__ = ["SCHEMA", "adjudicate_hand"]

_BY_SEQUENCE = itemgetter("sequence")


def adjudicate_hand(
    events: Sequence[FlatEvent],
    *,
    rulebook_override: str | None = None,
    rake_terms: RakeTerms | None = None,
    table_terms: Mapping[str, Any] | None = None,
    with_steps: bool = True,
    fee_terms: FeeTerms | None = None,
) -> HandVerdict:
    """Judge one hand's events under the rulebook in force (see the module docstring).

    ``rulebook_override`` replaces HandStarted.rulebook. The table's declared rake is
    ``rake_terms``, else the one ``table_terms`` (the ``TableTermsDeclared`` record in force
    at the hand's start, ``replayer.terms.terms_in_force``) states; it narrows a rulebook
    that fixes its own band and governs alone where the rulebook leaves the rake to the
    table (``replayer.terms.rake_in_force``). ``with_steps=False`` skips building the
    step-by-step replay (batch jobs). ``fee_terms`` (else those ``table_terms`` states,
    ``replayer.terms.declared_fees``) are the table's fees other than rake, judged with the
    rulebook's own (``replayer.terms.fees_in_force``). A smallest chip ``table_terms``
    declares is the table's, in place of HandStarted.smallest_chip
    (``replayer.terms.declared_chip``): the room's text does not name its chips.
    """
    if rake_terms is None and table_terms is not None:
        try:
            rake_terms = declared_rake(table_terms)
        except ValueError:  # a malformed declaration is judged on the table itself
            rake_terms = None
    if fee_terms is None and table_terms is not None:
        try:
            fee_terms = declared_fees(table_terms)
        except ValueError:
            fee_terms = None
    ordered = _in_sequence(events)
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
        tournament=is_tournament(start),
    )
    if isinstance(chosen, Finding):
        return _with_chips(_empty(hand_id, None, chosen), start, ordered)
    chip = declared_chip(table_terms)
    if chip is not None:
        start = {**start, "smallest_chip": chip}
    if not isinstance(chosen, PokerRulebook) or variant not in VARIANTS:
        return _with_chips(
            _empty(
                hand_id,
                None,
                Finding(
                    FindingKind.NO_RULEBOOK,
                    hand_id,
                    "casino-audit rulebook registry",
                    f"rulebook {chosen.id!r} is not a poker rulebook for variant {variant!r}",
                ),
            ),
            start,
            ordered,
        )
    if not chosen.play.judges(is_tournament(start)):
        return _with_chips(
            _empty(hand_id, None, _wrong_play(hand_id, chosen, start)), start, ordered
        )
    try:
        hand = open_hand(chosen, start, ordered[0], hand_id, rake_terms, fee_terms)
        log = StepLog(hand.table, hand.board) if with_steps else None
        stakes = hand_stakes(chosen.table_limits, start, table_terms)
        verdict = _with_chips(_replay(hand, ordered, log, stakes), start, ordered)
        return _with_clock(verdict, chosen, ordered)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        return _empty(
            hand_id,
            chosen.id,
            Finding(
                FindingKind.DATA_QUALITY, hand_id, SCHEMA, f"hand cannot be replayed: {error!r}"
            ),
        )


def _wrong_play(hand_id: str, book: PokerRulebook, start: HeldEvent) -> Finding:
    """``no_rulebook``: the rulebook named judges the other play (a cash-game book for a
    tournament hand, or a tournament book for a cash hand)."""
    tournament = start.get("tournament_id")
    hand = f"a hand of tournament {tournament}" if tournament else "a cash-game hand"
    return Finding(
        FindingKind.NO_RULEBOOK,
        hand_id,
        "casino-audit rulebook registry",
        f"rulebook {book.id!r} judges {book.play} play, and this is {hand}",
        expected="a rulebook judging the hand's play",
        recorded={"rulebook": book.id, "play": str(book.play), "tournament_id": tournament},
    )


def _with_chips(verdict: HandVerdict, start: HeldEvent, ordered: list[HeldEvent]) -> HandVerdict:
    """The verdict with the tournament-chips finding, when chips were not conserved
    (``tournament_chips``)."""
    finding = conservation_finding(verdict.hand_id, start, ordered, verdict.findings)
    if finding is None:
        return verdict
    findings = tuple(sorted((*verdict.findings, finding), key=_finding_order))
    return replace(verdict, findings=findings)


def _with_clock(verdict: HandVerdict, book: PokerRulebook, ordered: list[HeldEvent]) -> HandVerdict:
    """The verdict with an ``acted_out_of_time`` finding for each action taken after the
    rulebook's clock ran out (``clock``)."""
    late = late_actions(verdict.hand_id, book.clock, ordered)
    if not late:
        return verdict
    return replace(verdict, findings=tuple(sorted((*verdict.findings, *late), key=_finding_order)))


def _in_sequence(events: Sequence[FlatEvent]) -> list[HeldEvent]:
    """The events in sequence order: a stable sort, and by ``_sequence`` when a sequence
    is missing or not comparable. Events already in order (as a store reads them back)
    are only checked: the same adjacent comparisons the sort makes of an ordered run. An
    event that is a mapping but not a ``dict`` is copied into one (``HeldEvent``)."""
    listed = [event if isinstance(event, dict) else dict(event) for event in events]
    if len(listed) < 2:
        return listed
    try:
        previous = listed[0]["sequence"]
        for i in range(1, len(listed)):
            sequence = listed[i]["sequence"]
            if sequence < previous:
                return sorted(listed, key=_BY_SEQUENCE)
            previous = sequence
    except (KeyError, TypeError):
        return sorted(listed, key=_sequence)
    return listed


def _sequence(event: HeldEvent) -> int:
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


def _replay(
    hand: Hand, ordered: list[HeldEvent], log: StepLog | None, stakes: Stakes | None
) -> HandVerdict:
    """Apply every event, settle, and assemble the verdict; the stakes against the
    table's limits and the showdown's order where the rulebook sets them (``limits``,
    ``showdown_order``)."""
    issues = hand.issues
    issues.extend(seating_issues(hand.book, hand.table))
    if stakes is not None:
        issues.extend(opening_issues(stakes, hand.table))
    order_by = hand.book.showdown_order_by
    showdown = None if order_by is None else ShowdownOrder(order_by, hand.table)
    findings: list[Finding] = []
    previous = None
    for event in ordered:
        sequence = event.get("sequence")
        if previous is not None and sequence != previous + 1:
            issues.append(
                Issue(
                    QUALITY,
                    f"{SCHEMA} sequence",
                    f"sequence {sequence} follows {previous}",
                    previous + 1,
                    sequence,
                )
            )
        previous = sequence if isinstance(sequence, int) else previous
        seat = apply(hand, event)
        if stakes is not None and event.get("type") == "ActionTaken":
            issues.extend(action_issues(stakes, event))
        if showdown is not None:
            issues.extend(showdown.see(event))
        if issues or log is not None:
            raised = [_event_finding(hand, issue, event, seat) for issue in issues]
            issues.clear()
            findings.extend(raised)
            if log is not None:
                log.record(event, seat, hand.betting, raised)
    settled = settle(hand)
    anchor = log.outcome_index() if log is not None else None
    if log is None or anchor is None:
        sequence = ordered[-1].get("sequence")
    else:
        sequence = log.steps[anchor].sequence
    closing = [_settlement_finding(hand, issue, sequence) for issue in issues]
    issues.clear()
    findings.extend(closing)
    if log is not None and anchor is not None:
        log.attach(anchor, closing)
    table = hand.table
    seat_of = table.seat_of
    put = hand.betting.put
    positions = range(len(seat_of))
    return HandVerdict(
        hand_id=hand.hand_id,
        rulebook_id=hand.book.id,
        findings=tuple(sorted(findings, key=_finding_order)),
        expected_payouts={seat_of[p]: settled.expected[p] for p in positions},
        recorded_payouts=(
            {} if settled.recorded is None else {seat_of[p]: settled.recorded[p] for p in positions}
        ),
        contributions={seat_of[p]: put[p] for p in table.by_seat},
        expected_rake=settled.rake,
        recorded_rake=hand.rake_recorded,
        house_retained=settled.retained,
        pots=settled.pots,
        steps=() if log is None else tuple(log.steps),
        conserved=settled.conserved,
        determined=settled.determined,
        expected_fees=settled.fees,
        recorded_fees=sum(fee.amount for fee in hand.fees),
        cashouts=_by_seat(seat_of, hand.cashouts),
        paid_outside=_by_seat(seat_of, [(p, chips) for p, _, chips in hand.paid_outside]),
    )


def _by_seat(seat_of: tuple[int, ...], paid: list[tuple[int, int]]) -> dict[int, int]:
    """Seat -> chips, summed, from (position, chips) pairs."""
    totals: dict[int, int] = {}
    for pos, chips in paid:
        totals[seat_of[pos]] = totals.get(seat_of[pos], 0) + chips
    return dict(sorted(totals.items()))


def _event_finding(hand: Hand, issue: Issue, event: HeldEvent, seat: int | None) -> Finding:
    """A finding of the event that raised ``issue``, naming its seat when it has one."""
    detail: dict[str, Any] = {"sequence": event.get("sequence"), "event": event.get("type")}
    if seat is not None:
        detail["seat"] = seat
    reason = issue.reason if seat is None else f"seat {seat}: {issue.reason}"
    return _finding(hand, issue, reason, detail)


def _settlement_finding(hand: Hand, issue: Issue, sequence: Any) -> Finding:
    """A finding of the settlement, dated by the outcome event's sequence."""
    detail = {"sequence": sequence, "event": "settlement", **(issue.detail or {})}
    return _finding(hand, issue, issue.reason, detail)


def _finding(hand: Hand, issue: Issue, reason: str, detail: dict[str, Any]) -> Finding:
    table = hand.table
    return Finding(
        issue.kind,
        hand.hand_id,
        issue.citation,
        reason,
        table.seated(issue.expected),
        table.seated(issue.recorded),
        issue.difference,
        detail,
    )


def _finding_order(finding: Finding) -> tuple[int, str, str]:
    sequence = finding.detail.get("sequence")
    return (
        sequence if isinstance(sequence, int) else -1,
        str(finding.kind),
        finding.canonical_json(),
    )
