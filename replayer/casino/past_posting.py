"""Past posting: a bet recorded after betting closed is late, whatever flag it carries.

The order of a round's events is evidence: their sequence numbers (``record.py``). Each
game's rules close betting at an event the record shows (``GameSpec.closes_betting``):

* punto banco: "No More Bets" is called before the first card leaves the shoe, and no bet
  is accepted after it (GG-2022 live II 2.1.6, 3.4.2): the first CardDealt;
* blackjack: the bet is made before the first card is dealt and "No More Bets" precedes
  it (GG-2022 live III 2.1.1, 2.1.3): the first CardDealt. The rules take three wagers
  later (III 2.1.2): a split's second stake, a double and insurance; their own timing and
  size are the game's rules (III 2.5-2.7, ``blackjack.py``);
* roulette: bets until "no more bets" (GG-2022 live IV 2.1.1); a bet may be rejected only
  "before the ball is spun" (IV 2.1.5). The record shows the spin by its result alone
  (SpinResult): a bet after it is past-posted; one taken between the launch and the
  result cannot be told from the record;
* chemin de fer: bets are placed before the cards are drawn (PT-217/2007 I.38); the
  croupier closes them ("Jogo feito. Nada mais.") before the banker may draw and has any
  bet made after it withdrawn (I.40): the first CardDealt. I.51 lets a bancô suivi be
  declared after the draw, provided no other ponto has taken the cards
  (``chemin_de_fer.may_follow_the_deal``).

Rule (one for every game): a bet flagged ``after_no_more_bets`` is the operator's own
admission, an ``illegal_action`` (``settlement.betting_findings``). A bet recorded after
the close and *not* flagged is a ``past_posted_bet``: the record hid it. Either way the bet
is withdrawn: it takes no part in the game (never a winner, never a loser) and its stake
is due back, as a RefundPaid or a PayoutMade of the stake. What was returned on it is
compared with that stake (``settlement.compare``): paying a past-posted bet as a winner,
or keeping it as a loser, is a ``mispaid_bet`` for the difference; the past-posted
finding itself states what was returned and what is due.
"""

from __future__ import annotations

from replayer.casino.record import Bet, RoundRecord
from replayer.casino.settlement import Expected, GameSpec
from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind


def betting_closed(record: RoundRecord, spec: GameSpec) -> FlatEvent | None:
    """The event that closed betting in the round (the first of the game's closing
    events in sequence order), or None when the round never reached it."""
    return next((event for event in record.events if event["type"] in spec.closes_betting), None)


def past_posted(record: RoundRecord, spec: GameSpec) -> list[Bet]:
    """Bets recorded after betting closed, not flagged late, and not among the wagers the
    rules take after the close; in sequence order."""
    close = betting_closed(record, spec)
    if close is None:
        return []
    allowed = spec.open_after_close
    return [
        bet
        for bet in sorted(record.bets.values(), key=lambda bet: bet.sequence)
        if not bet.late
        and bet.sequence > close["sequence"]
        and not (allowed is not None and allowed(record, bet))
    ]


def citation(spec: GameSpec) -> str:
    """The article that closes betting in the game."""
    return spec.past_post_citation or spec.late_bet_citation


def past_posted_findings(record: RoundRecord, spec: GameSpec, bets: list[Bet]) -> list[Finding]:
    """One ``past_posted_bet`` per bet of ``past_posted``, stating what was returned on it
    and what is due (its stake)."""
    close = betting_closed(record, spec)
    if close is None:
        return []
    findings = []
    for bet in bets:
        returned = record.returned(bet.bet_id)
        findings.append(
            Finding(
                FindingKind.PAST_POSTED_BET,
                record.round_id,
                citation(spec),
                f"bet {bet.bet_id} ({bet.bet_type} {bet.amount}) recorded at sequence "
                f"{bet.sequence}, after the {close['type']} at sequence {close['sequence']} "
                f"closed betting, and not flagged after 'no more bets': past-posted; "
                f"{returned} returned on it, its stake {bet.amount} due back",
                expected={"placed_before_sequence": close["sequence"]},
                recorded={"sequence": bet.sequence, "after_no_more_bets": False},
                detail={
                    "bet_id": bet.bet_id,
                    "player_id": bet.player_id,
                    "sequence": bet.sequence,
                    "closed_by": {"type": close["type"], "sequence": close["sequence"]},
                    "returned": returned,
                    "due": bet.amount,
                },
            )
        )
    return findings


def withdrawn(record: RoundRecord, spec: GameSpec, past: list[Bet]) -> dict[str, Expected]:
    """The stake due back on every bet withdrawn from the game: flagged late, or
    past-posted."""
    due = {
        bet.bet_id: Expected(
            bet.amount, spec.late_bet_citation, "accepted after 'no more bets': returned"
        )
        for bet in record.bets.values()
        if bet.late
    }
    for bet in past:
        due[bet.bet_id] = Expected(
            bet.amount, citation(spec), "recorded after betting closed (past-posted): returned"
        )
    return due
