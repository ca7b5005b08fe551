"""Baccarat chemin de fer (PT-217/2007 Section I): the coup, the bank and the cagnotte.

The game is not banked by the house: one player holds the bank (a 'bank' bet, I.30, I.39)
and the punters ('ponto' bets) stake against it, never more in all than the bank
(I.45, I.58); the cards are played by the ponto with the largest stake or the bancô
(I.60). The house's profit is the cagnotte on the bank's win (I.47).

Drawing: four cards alternately, the ponto's first (I.62); a natural 8 or 9 is shown at
once (the "8", "9" announcements of I.96); the ponto draws on 0-4, chooses on 5 (I.99),
stands on 6-7; the banker follows the table of I.67, cut from the copy, here the classic
table of RULES.md (``CheminDeFerRules.banker_table``), with his two optional cases (I.102).
A choice the table leaves open is read from PlayerDecision, else from the cards dealt.
A draw against the table is reconstructed by the table and surplus cards burned (I.71,
I.100), except in a bancô, where ponto and banker may draw falsely at their own risk
(I.70) - but not a banker holding "bacará" (0).

Settlement: equal points void the coup and every stake returns (I.2, I.76); otherwise
the covered stakes are won or lost 1:1 against the bank, the part of a stake beyond the
bank returns, and the cagnotte is the house's declared rate of the bank's win.

Declared terms: the Portaria fixes no cagnotte rate (I.47 only lets the banker pay the
house's percentage; I.37 has the minimums posted by the table), so a declared
``cagnotte_bps`` is never outside the rulebook: it is the rate the coup is judged by.

Closing the bets: they are placed before the cards are drawn (I.38) and the croupier's
"Jogo feito. Nada mais." closes them before the banker may draw, bets made after it
withdrawn (I.40): a bet recorded after the first card is past-posted
(``past_posting.py``), except a bancô suivi, which I.51 lets be declared after the draw
while no other ponto holds the cards (``may_follow_the_deal``: a lone bancô before the
fourth card).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from replayer.casino.cards import baccarat_points, baccarat_total
from replayer.casino.coup import (
    BANKER,
    PLAYER,
    Coup,
    NextSide,
    deal_finding,
    initial_side,
    is_natural,
    rebuild,
)
from replayer.casino.record import Bet, RoundRecord
from replayer.casino.settlement import Expected, GameJudgement, GameSpec
from replayer.findings import Finding, FindingKind
from replayer.rulebooks.casino import CheminDeFerRules

DEAL = "PT-217/2007 I.62"
TABLE = "PT-217/2007 I.64-67, I.71, I.100 (I.67 table missing from the copy: classic table)"
TIE = "PT-217/2007 I.2, I.76"
COVER = "PT-217/2007 I.45, I.58"
MULTIPLE = "PT-217/2007 I.36"
SETTLE = "PT-217/2007 I.2, I.45"
CAGNOTTE = "PT-217/2007 I.47"
BANK_WINS = "PT-217/2007 I.2, I.45, I.47"
"""The bank's due when it wins and pays a cagnotte: its stake and the stakes it covered
(I.2, I.45), less the cagnotte on its win (I.47): a payout short by a cagnotte overcharge
cites the cagnotte's article."""


def ponto_draws(rules: CheminDeFerRules, total: int, choice: bool) -> bool:
    """The ponto's draw on two cards: 0-4 draws, 5 his choice, 6-7 stands."""
    if total in rules.ponto_optional:
        return choice
    return total <= rules.ponto_draws_to


def banker_draws(
    rules: CheminDeFerRules, total: int, ponto_third: int | None, choice: bool
) -> bool:
    """The banker's draw by the table; ``choice`` decides the optional cases."""
    if ponto_third is None:
        return total <= rules.banker_draws_to_when_ponto_stood
    draws, optional = rules.banker_table.get(total, (frozenset(), frozenset()))
    return ponto_third in draws or (ponto_third in optional and choice)


def table(
    rules: CheminDeFerRules, ponto_choice: bool, banker_choice: bool, banco: bool
) -> NextSide:
    """The deal rule of a coup whose open choices are ``ponto_choice``/``banker_choice``.

    In a bancô the choices stand even against the table (I.70), save a banker on 0.
    """

    def next_side(player: Sequence[int], banker: Sequence[int]) -> str | None:
        first = initial_side(player, banker)
        if first is not None or len(banker) == 3 or is_natural(player) or is_natural(banker):
            return first
        if len(player) == 2:
            by_table = ponto_draws(rules, baccarat_total(player), ponto_choice)
            if ponto_choice if banco else by_table:
                return PLAYER
        banker_total = baccarat_total(banker)
        third = player[2] if len(player) == 3 else None
        by_table = banker_draws(rules, banker_total, third, banker_choice)
        free = banco and banker_total != 0
        return BANKER if (banker_choice if free else by_table) else None

    return next_side


def adjudicate(record: RoundRecord, rules: CheminDeFerRules, bets: list[Bet]) -> GameJudgement:
    """Rebuild the coup by the table, then settle the bank against the covered stakes."""
    result = GameJudgement()
    banks = [bet for bet in bets if bet.bet_type == "bank"]
    pontos = [bet for bet in bets if bet.bet_type == "ponto"]
    for bet in bets:
        if bet.bet_type not in ("bank", "ponto"):
            result.findings.append(_quality(record, f"bet {bet.bet_id} has type {bet.bet_type!r}"))
    banco = len(banks) == 1 and len(pontos) == 1 and pontos[0].amount == banks[0].amount
    coup = _rebuild(record, rules, banco, result)
    result.outcome = {**coup.as_outcome(), "banco": banco}
    if len(banks) != 1:
        result.findings.append(_quality(record, f"{len(banks)} bank bets; a coup has one"))
        return result
    covered = _cover(record, banks[0], pontos, result)
    if coup.complete:
        _settle(record, rules, coup, banks[0], pontos, covered, result)
    return result


def _rebuild(
    record: RoundRecord, rules: CheminDeFerRules, banco: bool, result: GameJudgement
) -> Coup:
    dealt = record.of_type("CardDealt")
    shoe = [event["card"] for event in dealt]
    recorded = [event["to"] for event in dealt]
    choices = {PLAYER: recorded.count(PLAYER) == 3, BANKER: recorded.count(BANKER) == 3}
    for decision in record.of_type("PlayerDecision"):
        choices[decision["actor"]] = decision["decision"] == "draw"
    coup = rebuild(shoe, table(rules, choices[PLAYER], choices[BANKER], banco))
    finding = deal_finding(
        record.round_id, recorded, coup, shoe, (DEAL, TABLE), choices=choices, banco=banco
    )
    if finding is not None:
        result.findings.append(finding)
    return coup


def _cover(
    record: RoundRecord, bank: Bet, pontos: list[Bet], result: GameJudgement
) -> dict[str, int]:
    """Stakes covered by the bank, first placed first covered; flag what the bank can't cover."""
    minimum = record.opened["min_bet"] if record.opened else 0
    covered: dict[str, int] = {}
    left = bank.amount
    for bet in sorted(pontos, key=lambda bet: bet.sequence):
        covered[bet.bet_id] = min(bet.amount, left)
        left -= covered[bet.bet_id]
        if covered[bet.bet_id] < bet.amount:
            result.findings.append(
                _illegal(
                    record,
                    COVER,
                    bet,
                    f"stakes exceed the bank of {bank.amount}",
                    bet.amount,
                    covered[bet.bet_id],
                )
            )
        if minimum and bet.amount % minimum:
            result.findings.append(
                _illegal(
                    record,
                    MULTIPLE,
                    bet,
                    f"stake is not a multiple of the minimum {minimum}",
                    bet.amount,
                    minimum,
                )
            )
    return covered


def _settle(
    record: RoundRecord,
    rules: CheminDeFerRules,
    coup: Coup,
    bank: Bet,
    pontos: list[Bet],
    covered: dict[str, int],
    result: GameJudgement,
) -> None:
    score = f"ponto {coup.player_total}, banker {coup.banker_total}"
    if coup.winner == "tie":
        for bet in (bank, *pontos):
            result.expected[bet.bet_id] = Expected(
                bet.amount, TIE, f"equal points ({score}): coup void"
            )
        return
    won = sum(covered.values())
    for bet in pontos:
        excess = bet.amount - covered[bet.bet_id]
        if coup.winner == PLAYER:
            due = Expected(2 * covered[bet.bet_id] + excess, SETTLE, f"ponto wins {score}: 1:1")
        else:
            due = Expected(excess, SETTLE, f"banker wins {score}: stake lost, uncovered part back")
        result.expected[bet.bet_id] = due
    if coup.winner == PLAYER:
        result.expected[bank.bet_id] = Expected(bank.amount - won, SETTLE, f"ponto wins {score}")
        result.cagnotte = Expected(0, CAGNOTTE, "no cagnotte when the bank loses")
        return
    rate = record.opened.get("cagnotte_bps") if record.opened else None
    if rate is None:
        result.findings.append(_quality(record, "the house's cagnotte rate is not declared"))
        cagnotte = record.cagnotte
    else:
        cagnotte = rules.cagnotte_rounding.apply(Fraction(won * rate, 10_000))
        result.cagnotte = Expected(cagnotte, CAGNOTTE, f"{rate} bps of the bank's win {won}")
    result.expected[bank.bet_id] = Expected(
        bank.amount + won - cagnotte,
        BANK_WINS if cagnotte else SETTLE,
        f"banker wins {score}: wins {won} less cagnotte",
    )


def may_follow_the_deal(record: RoundRecord, bet: Bet) -> bool:
    """A bet the rules take after the first card: a bancô suivi (I.51), declared "even
    after the extraction, provided the cards have not been taken in hand by another
    ponto". One coup's record cannot show that the ponto lost a bancô in the previous coup
    (the condition of I.51), nor when the cards were taken in hand; it shows the rest: the
    bet is the coup's only ponto stake, equal to the bank (a bancô, I.45), so no other
    ponto holds the cards, and it comes before the fourth card (and any decision): the
    ponto's two cards are handed to him once the four are drawn (I.62-63), so after that
    they may have been seen, and the bet is past-posted."""
    pontos = [other for other in record.bets.values() if other.bet_type == "ponto"]
    banks = [other for other in record.bets.values() if other.bet_type == "bank"]
    if bet.bet_type != "ponto" or len(pontos) != 1 or len(banks) != 1:
        return False
    cards = [event["sequence"] for event in record.of_type("CardDealt")]
    decisions = [event["sequence"] for event in record.of_type("PlayerDecision")]
    play_on = [*cards[3:4], *decisions[:1]]  # the fourth card, the first decision
    return bet.amount == banks[0].amount and all(bet.sequence < seq for seq in play_on)


def _quality(record: RoundRecord, reason: str) -> Finding:
    return Finding(FindingKind.DATA_QUALITY, record.round_id, "PT-217/2007 I.30, I.45", reason)


def _illegal(
    record: RoundRecord, citation: str, bet: Bet, reason: str, recorded: int, expected: int
) -> Finding:
    return Finding(
        FindingKind.ILLEGAL_ACTION,
        record.round_id,
        citation,
        f"bet {bet.bet_id}: {reason}",
        expected=expected,
        recorded=recorded,
        detail={"bet_id": bet.bet_id, "sequence": bet.sequence},
    )


SPEC = GameSpec(
    late_bet_citation="PT-217/2007 I.40",
    limits_citation="PT-217/2007 I.35-37",
    void_citation="PT-217/2007 I.75",
    malfunction_citation="PT-217/2007 I.75",
    adjudicate=adjudicate,
    hand_total=baccarat_points,
    limited_bet_types=frozenset({"ponto"}),
    past_post_citation="PT-217/2007 I.38, I.40",
    open_after_close=may_follow_the_deal,
)
