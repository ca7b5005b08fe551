"""``adjudicate_round``: judge one banked round from its flat events.

1. Read the record (order, envelope, bets, money per bet; ``record.py``).
2. Choose the rulebook: the one RoundOpened names, else the game's rulebook in force at
   the round's start; none is a ``no_rulebook`` finding and nothing else is judged.
3. Common table rules: the declared terms against the rulebook (the game's
   ``terms_findings``), late bets and table limits (``settlement.py``), bets recorded after
   betting closed (``past_posting.py``); late and past-posted bets are withdrawn.
4. A round declared void (RoundVoided, RoundMalfunction) owes every stake back; otherwise
   the game rebuilds the round and says what each bet should return (its module).
5. Compare what was returned and withheld with what was due.
"""

from __future__ import annotations

from collections.abc import Iterable

from replayer.casino import blackjack, chemin_de_fer, punto_banco, roulette
from replayer.casino.past_posting import past_posted, past_posted_findings, withdrawn
from replayer.casino.record import RoundRecord, read_round
from replayer.casino.settlement import (
    Expected,
    GameJudgement,
    GameSpec,
    betting_findings,
    compare,
    stakes_back,
)
from replayer.casino.steps import build_steps
from replayer.casino.verdict import RoundVerdict
from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.rulebooks.casino import casino_rulebook_for

GAMES: dict[str, GameSpec] = {
    "punto_banco": punto_banco.SPEC,
    "chemin_de_fer": chemin_de_fer.SPEC,
    "blackjack": blackjack.SPEC,
    "roulette": roulette.SPEC,
}


def adjudicate_round(events: Iterable[FlatEvent], *, with_steps: bool = True) -> RoundVerdict:
    """Re-adjudicate one round; deterministic and pure. ``with_steps`` builds the
    step-by-step view (``RoundVerdict.steps``; empty without it: what the round is
    judged to owe does not depend on it)."""
    record = read_round(events)
    findings = list(record.problems)
    opened = record.opened
    if opened is None:
        return _verdict(record, None, None, findings, GameJudgement(), False, with_steps)
    game = opened["game"]
    rules, why = casino_rulebook_for(opened.get("rulebook"), game, opened["occurred_at"])
    spec = GAMES.get(game)
    if rules is None or spec is None:
        findings.append(
            Finding(
                FindingKind.NO_RULEBOOK,
                record.round_id,
                "casino-audit rulebook registry",
                why or f"no rulebook judges {game} rounds",
                detail={"sequence": opened["sequence"]},
            )
        )
        return _verdict(record, None, spec, findings, GameJudgement(), False, with_steps)
    if spec.terms_findings is not None:
        findings += spec.terms_findings(record, rules)
    findings += betting_findings(record, spec)
    past = past_posted(record, spec)
    findings += past_posted_findings(record, spec, past)
    if not record.judgeable:
        return _verdict(record, rules.id, spec, findings, GameJudgement(), False, with_steps)
    returned_whole = withdrawn(record, spec, past)
    void_event = record.void_event
    if void_event is not None:
        malfunction = void_event["type"] == "RoundMalfunction"
        citation = spec.malfunction_citation if malfunction else spec.void_citation
        judged = GameJudgement(outcome={"void": void_event["reason"]})
        void_because: tuple[str, str] | None = (citation, f"round void: {void_event['reason']}")
    else:
        live = [bet for bet in record.bets.values() if bet.bet_id not in returned_whole]
        judged = spec.adjudicate(record, rules, live)
        findings += judged.findings
        void_because = judged.void
    if void_because is not None:
        citation, basis = void_because
        judged.expected = stakes_back(record.bets, citation, basis)
        judged.cagnotte = Expected(0, citation, basis)
    else:
        judged.expected.update(returned_whole)
    findings += compare(record, judged.expected, void=void_because is not None)
    findings += _cagnotte_findings(record, judged.cagnotte)
    return _verdict(record, rules.id, spec, findings, judged, void_because is not None, with_steps)


def _cagnotte_findings(record: RoundRecord, due: Expected | None) -> list[Finding]:
    if due is None or record.cagnotte == due.amount:
        return []
    return [
        Finding(
            FindingKind.MISPAID_BET,
            record.round_id,
            due.citation,
            f"cagnotte taken {record.cagnotte}, expected {due.amount} ({due.basis})",
            expected=due.amount,
            recorded=record.cagnotte,
            difference=record.cagnotte - due.amount,
            detail={"component": "cagnotte"},
        )
    ]


def _verdict(
    record: RoundRecord,
    rulebook_id: str | None,
    spec: GameSpec | None,
    findings: list[Finding],
    judged: GameJudgement,
    void: bool,
    with_steps: bool,
) -> RoundVerdict:
    hand_total = spec.hand_total if spec is not None else None
    steps = build_steps(record.events, hand_total, findings) if with_steps else ()
    return RoundVerdict(
        round_id=record.round_id,
        rulebook_id=rulebook_id,
        game=record.opened["game"] if record.opened is not None else None,
        findings=tuple(findings),
        steps=steps,
        expected_payouts={bet_id: due.amount for bet_id, due in judged.expected.items()},
        expected_commissions={bet_id: due.commission for bet_id, due in judged.expected.items()},
        expected_cagnotte=judged.cagnotte.amount if judged.cagnotte is not None else None,
        outcome=judged.outcome,
        void=void,
    )
