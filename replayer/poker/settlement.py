"""End of hand: who is owed what, and the operator's payouts judged against it.

1. Deal and commitment checks (``deal``): the cards dealt, and the revealed deck against
   HandStarted.shuffle_commitment; a commitment never revealed is a data-quality issue.
2. A voided or reverted hand returns every chip put in, takes no rake nor fee (MO-97/2010
   art.9(2); PT-217/2007 n.º 69; GG-2022 Política de reembolso: ``book.cite.void_refund``).
3. A played hand: pots (``pots.build_pots``), rake (``rake.expected_rake``; a rake the
   rules do not allow is its own finding, and payouts right for the rake actually taken
   are not a mispaid pot too: one fault, one finding), fees other than rake (``fees``:
   judged apart from the rake, taken from the pots after it),
   winners (``showdown``), shares with the odd-chip rule (``pots.split_pots``); a board
   run more than once shares each pot between the runs (``runs.split_runs``). Cash-outs
   the house pays outside the pot are not payouts and settle nothing here; money the
   house puts into the pot (``HouseMoneyAdded``) is in the main pot and in the chips the
   payouts, rake and fees must add up to.
4. Expected payout per seat vs recorded (HandEnded.finishing_stacks when present, else
   PotAwarded summed): ``mispaid_pot`` (one issue per hand, per-seat dicts, per-pot
   detail), or ``void_hand_not_refunded`` for a void hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replayer.findings import FindingKind
from replayer.frozen import rebuilt_by_init
from replayer.poker.betting import QUALITY, Issue
from replayer.poker.deal import check_cards, check_commitment
from replayer.poker.fees import allocate, expected_fees
from replayer.poker.hand import SCHEMA, Hand
from replayer.poker.pots import build_pots, split_pots
from replayer.poker.rake import expected_rake, share_rake
from replayer.poker.runs import split_runs
from replayer.poker.showdown import hand_values, winners
from replayer.poker.verdict import PotResult
from replayer.rulebooks.poker import RakeSplit, SplitUnit


@dataclass(frozen=True, slots=True)
class Settlement:
    """What the hand owes and what was recorded; positions, as ``betting`` holds them."""

    expected: list[int]
    """Chips each position should get back (shares, uncalled bets, refunds)."""
    recorded: list[int] | None
    """Chips each position got back as recorded (None: no outcome recorded)."""
    conserved: bool
    determined: bool
    pots: tuple[PotResult, ...]
    retained: int
    rake: int
    fees: int = 0
    """The fees other than rake the rules allow (``fees.expected_fees``)."""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


def settle(hand: Hand) -> Settlement:
    """Settle the hand; every departure is appended to ``hand.issues``."""
    book = hand.book
    table = hand.table
    board = hand.board
    issues = hand.issues
    seat_of = table.seat_of
    if board.common is None:
        check_cards(book, hand.holes, board.cards, board.burns, hand.shown, seat_of, issues)
    else:  # run more than once: every card once; burns are not counted per run
        cards = board.all_cards() + board.burns
        check_cards(book, hand.holes, cards, [], hand.shown, seat_of, issues)
        _check_runs(hand)
    if hand.commitment and hand.revealed is not None:
        order, salt = hand.revealed
        check_commitment(
            book,
            hand.commitment,
            order,
            salt,
            hand.holes,
            board.all_cards(),
            board.burns,
            seat_of,
            issues,
        )
    elif hand.commitment and hand.ended:
        issues.append(
            Issue(
                QUALITY,
                book.cite.deal_order,
                "shuffle committed but the deck was never revealed",
                "DeckRevealed",
                None,
            )
        )
    put = hand.betting.put
    recorded = _recorded_payouts(hand)
    fees_recorded = sum(fee.amount for fee in hand.fees)
    taken = hand.rake_recorded + fees_recorded
    conserved = recorded is not None and sum(recorded) + taken == sum(put) + hand.betting.house
    determined = True
    pot_results: list[PotResult] = []
    retained = 0
    rake_total = 0
    fees_total = 0
    if hand.void is not None:
        expected = list(put)
        if recorded is not None and (recorded != expected or taken):
            _payout_issue(
                hand,
                FindingKind.VOID_HAND_NOT_REFUNDED,
                book.cite.void_refund,
                f"{hand.void}: every chip put in must be returned",
                expected,
                recorded,
            )
    else:
        expected, determined, retained, rake_total, fees_total, rake_explains = _award(
            hand, pot_results
        )
        if recorded is None:
            if not hand.ended:
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
            if recorded != expected and recorded not in rake_explains:
                _payout_issue(
                    hand,
                    FindingKind.MISPAID_POT,
                    _payout_cite(hand, pot_results),
                    "payouts differ from the rules' outcome",
                    expected,
                    recorded,
                    pot_results,
                )
        elif not conserved:
            _payout_issue(
                hand,
                FindingKind.MISPAID_POT,
                book.cite.side_pots,
                "recorded payouts, rake and fees do not add up to the chips put in"
                if hand.fees
                else "recorded payouts and rake do not add up to the chips put in",
                expected,
                recorded,
            )
    return Settlement(
        expected=expected,
        recorded=recorded,
        conserved=conserved,
        determined=determined,
        pots=tuple(pot_results),
        retained=retained,
        rake=rake_total,
        fees=fees_total,
    )


def _recorded_payouts(hand: Hand) -> list[int] | None:
    """Per position, from finishing stacks when recorded, else PotAwarded."""
    table = hand.table
    seat_of = table.seat_of
    n = len(seat_of)
    if hand.finishing is not None:
        by_seat = dict(zip(table.listed, hand.finishing, strict=True))
        put = hand.betting.put
        payouts = [by_seat[seat_of[p]] - table.starting[p] + put[p] for p in range(n)]
        if hand.awarded and payouts != hand.awards:
            hand.issues.append(
                Issue(
                    QUALITY,
                    f"{SCHEMA} HandEnded.finishing_stacks",
                    "PotAwarded totals disagree with the finishing stacks",
                    {str(seat_of[p]): payouts[p] for p in range(n)},
                    {str(seat_of[p]): hand.awards[p] for p in range(n)},
                )
            )
        return payouts
    if hand.awarded or hand.ended or hand.void is not None:
        return list(hand.awards)
    return None


def _award(
    hand: Hand, results: list[PotResult]
) -> tuple[list[int], bool, int, int, int, list[list[int]]]:
    """(expected payout per position, determined, chips retained, rake, fees, and, when
    the rake was judged a fault, the payouts that would be right for the rake actually
    taken) of a played hand."""
    book = hand.book
    table = hand.table
    betting = hand.betting
    board = hand.board.cards
    seat_of = table.seat_of
    n = len(seat_of)
    pots, returned = build_pots(betting.put, betting.dead, betting.folded, betting.house)
    amounts = [amount for amount, _ in pots]
    found = len(hand.issues)
    rake = expected_rake(
        book,
        hand.rake_terms,
        amounts,
        hand.rake_recorded,
        table.chip,
        table.big_blind,
        bool(hand.board.all_cards()),
        hand.issues,
        None if hand.fees else _paid_by_pot(hand, len(pots)),
    )
    rake_judged = len(hand.issues) > found  # a rake finding was made
    live = [not (betting.folded[p] or hand.mucked[p]) for p in range(n)]
    cards = [hand.shown.get(p) or hand.holes[p] for p in range(n)]
    contested = [p for p in range(n) if live[p]]
    unit = table.chip
    if book.split_unit is SplitUnit.TABLE_MINIMUM:
        unit = max(table.chip, table.big_blind or table.min_bet)
    expected = list(returned)
    determined = True
    retained_total = 0
    nets = [amount - chips for (amount, _), chips in zip(pots, rake, strict=True)]
    fees = [0] * len(pots)
    if hand.fees:
        allowed = expected_fees(book, hand.fee_terms, hand.fees, sum(amounts), hand.issues)
        fees = allocate(hand.fees, allowed, nets, hand.issues)
        nets = [net - fee for net, fee in zip(nets, fees, strict=True)]
    boards = hand.board.run_boards()
    values = hand_values(book, hand.game, contested, cards, board) if len(contested) > 1 else {}
    won_by, settled = _share(hand, pots, nets, live, cards, contested, boards, unit, values)
    rake_explains: list[list[int]] = []
    if rake_judged:
        # One fault, one finding: the rake finding says what the rake should have been;
        # payouts right for the rake actually taken are not a mispaid pot as well, with
        # that rake shared over the pots in proportion or, as the excess of a rake over
        # its due is taken, the due share of each pot and the excess from the main pot.
        taken = min(max(hand.rake_recorded, 0), sum(amounts))
        terms = hand.rake_terms
        shared = [
            share_rake(
                taken,
                amounts,
                table.chip,
                None,
                book.rake_split if terms is not None else RakeSplit.PROPORTIONAL,
                terms.max_bps if terms is not None else 0,
            )
        ]
        excess = taken - sum(rake)
        if amounts and 0 <= rake[0] + excess <= amounts[0]:
            shared.append([rake[0] + excess, *rake[1:]])
        for per_pot in shared:
            nets_at_taken = [a - t - f for a, t, f in zip(amounts, per_pot, fees, strict=True)]
            _, at_taken = _share(
                hand, pots, nets_at_taken, live, cards, contested, boards, unit, values
            )
            explained = list(returned)
            for shares, _ in at_taken:
                for p, chips in shares.items():
                    explained[p] += chips
            rake_explains.append(explained)
    for index, (amount, eligible) in enumerate(pots):
        won = won_by[index]
        shares, retained = settled[index]
        if won is None:
            determined = False
            hand.issues.append(
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
                index,
                amount,
                tuple(sorted([seat_of[p] for p in eligible])),
                None if won is None else tuple(sorted([seat_of[p] for p in won])),
                rake[index],
                tuple(sorted([(seat_of[p], chips) for p, chips in shares.items()])),
                retained,
            )
        )
    return expected, determined, retained_total, sum(rake), sum(fees), rake_explains


def _share(
    hand: Hand,
    pots: list[tuple[int, tuple[int, ...]]],
    nets: list[int],
    live: list[bool],
    cards: list[list[str]],
    contested: list[int],
    boards: list[list[str]],
    unit: int,
    values: dict[int, int],
) -> tuple[list[list[int] | None], list[tuple[dict[int, int], int]]]:
    """(winners or None, (shares, chips retained)) of each pot, ``nets`` being what each
    pot holds after rake and fees, by ``values`` (``showdown.hand_values``).

    A board run more than once (``boards``, one per run): each run's winners by its own
    board, each pot shared between the runs (``runs.split_runs``); a pot any run cannot
    judge is not judged, and its winners are those of every run."""
    book = hand.book
    if not boards:
        won_by = [winners(eligible, live, values) if eligible else None for _, eligible in pots]
        settled = split_pots(
            list(zip(nets, won_by, strict=True)), unit, book.odd_chip, hand.table.seat_of
        )
        return won_by, settled
    per_run = [
        hand_values(book, hand.game, contested, cards, board) if len(contested) > 1 else {}
        for board in boards
    ]
    by_run: list[list[list[int]] | None] = []
    for _, eligible in pots:
        runs = [winners(eligible, live, run_values) for run_values in per_run] if eligible else []
        judged = [won for won in runs if won is not None]
        by_run.append(judged if runs and len(judged) == len(runs) else None)
    won_by = [None if runs is None else sorted({p for won in runs for p in won}) for runs in by_run]
    settled = split_runs(
        list(zip(nets, by_run, strict=True)),
        unit,
        book.odd_chip,
        hand.table.seat_of,
        book.run_share,
    )
    return won_by, settled


def _paid_by_pot(hand: Hand, count: int) -> list[int | None]:
    """What the room's awards paid from each pot (None: that pot's awards not recorded)."""
    paid: list[int | None] = [None] * count
    for (index, _), chips in hand.awards_by_pot.items():
        if 0 <= index < count:
            paid[index] = (paid[index] or 0) + chips
    return paid


def _check_runs(hand: Hand) -> None:
    """Runs numbered 1..k, every run dealing its own cards; and a rulebook that forbids
    sharing a pot between runs (``PokerRulebook.board_runs_forbidden_by``: MO-97/2010
    art.10(3)) is told the board was run more than once."""
    board = hand.board
    runs = sorted(board.runs)
    forbidden = hand.book.board_runs_forbidden_by
    if forbidden is not None and len(runs) > 1:
        hand.issues.append(
            Issue(
                FindingKind.ILLEGAL_ACTION,
                forbidden,
                f"the board was run {len(runs)} times: the players agreed to share the pot "
                "instead of playing one board to the result",
                "one board played to the result",
                {"runs": len(runs)},
            )
        )
    common = board.common[0] if board.common is not None else 0
    empty = [run for run, (cards, _, _) in sorted(board.runs.items()) if len(cards) <= common]
    if runs != list(range(1, len(runs) + 1)) or empty:
        hand.issues.append(
            Issue(
                QUALITY,
                f"{SCHEMA} BoardRun.run",
                "board runs must be numbered 1, 2, ... and each deal its own cards",
                list(range(1, len(runs) + 1)),
                runs,
                None,
                {"runs_without_cards": empty} if empty else None,
            )
        )


def _payout_cite(hand: Hand, results: list[PotResult]) -> str:
    """The articles a mispaid pot breaks: split and odd chip, side pots, or ranking."""
    cite = hand.book.cite
    if hand.board.common is not None:
        return cite.board_runs  # names the split and odd-chip articles it applies
    if any(r.winners is not None and len(r.winners) > 1 for r in results):
        return _joined(cite.split, cite.odd_chip)
    if len(results) > 1:
        return _joined(cite.side_pots, cite.ranking)
    if results and len(results[0].eligible) == 1:
        return cite.uncontested
    return cite.ranking


def _payout_issue(
    hand: Hand,
    kind: FindingKind,
    citation: str,
    reason: str,
    expected: list[int],
    recorded: list[int],
    results: list[PotResult] | None = None,
) -> None:
    """One issue for the whole hand: the differing seats, per pot when pots are judged."""
    seat_of = hand.table.seat_of
    differing = sorted(
        (p for p in range(len(seat_of)) if expected[p] != recorded[p]), key=seat_of.__getitem__
    )
    if differing:
        reason += f" (seats {', '.join(str(seat_of[p]) for p in differing)})"
    detail: dict[str, Any] = {"rake_recorded": hand.rake_recorded}
    if hand.fees:
        detail["fees_recorded"] = sum(fee.amount for fee in hand.fees)
    if hand.board.common is not None:
        detail["boards"] = hand.board.run_boards()
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
                    for (i, p), chips in sorted(hand.awards_by_pot.items())
                    if i == r.index
                },
            }
            for r in results
        ]
    hand.issues.append(
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


def _joined(*citations: str) -> str:
    """Citations joined with '; ', each part once (rulebooks may cite one text twice)."""
    parts: list[str] = []
    for citation in citations:
        parts.extend(p for p in citation.split("; ") if p not in parts)
    return "; ".join(parts)
