"""Chemin de fer garage: how a banker may take money out of the bank during his run.

The bank a banker plays with in a coup is what the previous coup of his run left in it
(the bank bet's settlement, ``adjudicate_round``'s expected payout). PT-217/2007 allows
exactly two ways to play on with less:

* I.34: at the end of the third won coup, and of every later odd-numbered won coup (5th,
  7th, ...), the bank may be cut by 50%; ties do not count as won coups, and a new banker
  starts his own count when the hand passes;
* I.46: when the punters' stakes did not match the bank and the banker won the coup, he
  may reduce the bank to twice the stakes he won in that coup.

The part set aside is the garage. At the end of a sabot (the next coup names another
``shoe_id``) the hand stays with a banker who won the sabot's last coup, and passes to
his right if he lost it (I.32); a banker who keeps it may keep the bank or halve it
(I.33). Any other reduction between two coups of one banker's run at one table, and a
banker who lost the sabot's last coup banking the next sabot's first, is an
``illegal_action``. A run is the consecutive coups of one table
(in start order) whose bank bet is held by the same player; a void coup (a malfunction)
leaves the bank as it was. Adding money to a running bank is not judged here (the
copy is silent on it).

Choice (named): ``GARAGE_HALF_ROUNDING``: "reduzir o capital da banca em 50%" on an odd
amount leaves the banker the larger half in play (the bank is never cut below half).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from replayer.casino.adjudicate import adjudicate_round
from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.frozen import rebuilt_by_init

GARAGE = "PT-217/2007 I.34, I.46"
NEW_SABOT = "PT-217/2007 I.33"
SABOT_HAND = "PT-217/2007 I.32"
GARAGE_HALF_ROUNDING = "banker keeps the larger half"
FIRST_GARAGE_WIN = 3  # I.34: "no final do terceiro golpe ganho e em números ímpares seguintes"


@dataclass(frozen=True, slots=True)
class RunVerdict:
    """Findings on the banker runs at one table."""

    table_id: str
    rulebook_id: str | None
    findings: tuple[Finding, ...]

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


@dataclass
class _Run:
    banker: str
    bank_after: int
    wins: int = 0
    won_last: bool = False
    stakes_won_last: int = 0
    bank_matched_last: bool = True
    lost_last: bool = False
    shoe: str | None = None
    """The shoe the last coup was dealt from (``RoundOpened.shoe_id``; None: not recorded)."""


def _bank_bet(events: Sequence[FlatEvent]) -> FlatEvent | None:
    banks = [e for e in events if e.get("type") == "BetPlaced" and e.get("bet_type") == "bank"]
    return banks[0] if len(banks) == 1 else None


def _allowed(run: _Run, new_sabot: bool) -> set[int]:
    """Bank amounts the banker may play the next coup with (PT-217/2007 I.34, I.46; at a
    new sabot, I.33: keep or halve)."""
    allowed = {run.bank_after}
    if new_sabot:
        allowed.add(run.bank_after - run.bank_after // 2)
    if run.won_last and run.wins >= FIRST_GARAGE_WIN and run.wins % 2 == 1:
        allowed.add(run.bank_after - run.bank_after // 2)
    if run.won_last and not run.bank_matched_last:
        allowed.add(min(run.bank_after, 2 * run.stakes_won_last))
    return allowed


def check_banker_runs(rounds: Iterable[Sequence[FlatEvent]]) -> RunVerdict:
    """Judge the garage rule over one table's chemin de fer coups (see the module doc)."""
    ordered = sorted(
        (r for r in rounds if r),
        key=lambda r: (r[0]["occurred_at"], str(r[0].get("round_id", ""))),
    )
    table_id = str(ordered[0][0].get("table_id", "")) if ordered else ""
    rulebook = ordered[0][0].get("rulebook") if ordered else None
    findings: list[Finding] = []
    run: _Run | None = None
    for events in ordered:
        bank = _bank_bet(events)
        if bank is None:
            run = None
            continue
        verdict = adjudicate_round(events, with_steps=False)
        shoe = events[0].get("shoe_id")
        if run is not None and run.banker == bank["player_id"]:
            new_sabot = shoe != run.shoe
            if new_sabot and run.lost_last:
                findings.append(_kept_after_loss(events, bank, table_id))
            allowed = _allowed(run, new_sabot)
            if bank["amount"] < run.bank_after and bank["amount"] not in allowed:
                findings.append(
                    Finding(
                        FindingKind.ILLEGAL_ACTION,
                        str(events[0].get("round_id", "")),
                        f"{GARAGE}, I.33" if new_sabot else GARAGE,
                        f"banker {bank['player_id']} plays {bank['amount']} after "
                        f"{run.wins} won coup(s) with {run.bank_after} in the bank: a "
                        "garage is allowed only after the 3rd and later odd won coups "
                        "(I.34) or down to twice the stakes won (I.46)"
                        + (", and at a new sabot to half the bank (I.33)" if new_sabot else ""),
                        expected=sorted(allowed),
                        recorded=bank["amount"],
                        difference=bank["amount"] - run.bank_after,
                        detail={"table_id": table_id, "won_coups": run.wins},
                    )
                )
        else:
            run = _Run(bank["player_id"], bank["amount"])
        after = verdict.expected_payouts.get(bank["bet_id"], bank["amount"])
        pontos = sum(
            e["amount"]
            for e in events
            if e.get("type") == "BetPlaced" and e.get("bet_type") == "ponto"
        )
        won = not verdict.void and after > bank["amount"]
        run.wins += won
        run.won_last = won
        run.stakes_won_last = min(pontos, bank["amount"]) if won else 0
        run.bank_matched_last = pontos >= bank["amount"]
        run.bank_after = after
        run.lost_last = not verdict.void and after < bank["amount"]
        run.shoe = shoe
    return RunVerdict(table_id, rulebook, tuple(findings))


def _kept_after_loss(events: Sequence[FlatEvent], bank: FlatEvent, table_id: str) -> Finding:
    """PT-217/2007 I.32: a banker who lost the sabot's last coup banks the next sabot."""
    return Finding(
        FindingKind.ILLEGAL_ACTION,
        str(events[0].get("round_id", "")),
        SABOT_HAND,
        f"banker {bank['player_id']} lost the last coup of the sabot and banks the first "
        "coup of the next: the hand passes to the player on his right",
        expected=[],
        recorded=bank["amount"],
        detail={
            "table_id": table_id,
            "shoe_id": events[0].get("shoe_id"),
            "banker": bank["player_id"],
        },
    )
