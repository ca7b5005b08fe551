"""Refunds when a tournament is cancelled after a server failure (GG-2022 Política de
reembolso, torneios), from its state just before the failure (``state.state_before``).

1. Not started: every entry's buy-in and fee back to whoever registered it. The entry's
   bounty part is part of what was paid in ("todos os buy-ins e taxas"), so it goes back
   too (``buy_in``, ``bounty``, ``fee`` components).
2. Started, in late registration or after it, not yet in the money: each remaining
   player gets his fee and his current bounty back ("bounty atual": the bounty on his
   own entry plus the bounties he had collected, not paid before the bubble, GG-2022
   Bounty Política); of the prize pool, 50% is shared equally by the remaining players
   (``prize_pool_equal``) and 50% by chip count (``prize_pool_chips``). The pool is what
   the entries collected: a guarantee not met pays only what was collected, and a
   guarantee met or exceeded is the collected amount anyway.
3. In the money: each remaining player gets his fee and the bounty on his own entry
   back (the bounties he collected were paid when the bubble burst), the next prize to be
   won (``next_payout``: the prize of place N when N players remain) and the rest of the
   unpaid prizes (places 1..N) by chip count (``prize_pool_chips``).

Staking (same policy): a backer who bought ``share_bps`` of an entry receives that share
of every amount refunded on it, floored to the minor unit; the backed player keeps the
rest (our choice: the policy is silent on the odd unit; nothing is lost).

Every share is exact (``Fraction``) and floored to the minor unit; the units left over
follow ``CancellationPolicy.remainder`` (``money.Remainder``, default: dropped, GG-2022
4.096 -> 4.09). Each share is floored on its own, as it is paid as its own RefundPaid.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from replayer.refunds.refund import Refund
from replayer.tournaments.money import Remainder, equal_shares, shares
from replayer.tournaments.state import Entry, TournamentState

REFUND_POLICY = "GG-2022 Política de reembolso, torneios"
STAKING = "GG-2022 Política de reembolso (staking)"
BASIS_POINTS = 10_000


class Case(StrEnum):
    """The policy's cases."""

    NOT_STARTED = "not_started"
    NOT_IN_THE_MONEY = "started_not_in_the_money"
    IN_THE_MONEY = "in_the_money"


CITATIONS = {
    Case.NOT_STARTED: f"{REFUND_POLICY} (1) não começado",
    Case.NOT_IN_THE_MONEY: f"{REFUND_POLICY} (2) começado, antes dos lugares pagos",
    Case.IN_THE_MONEY: f"{REFUND_POLICY} (3) lugares pagos",
}


class FeeRefund(StrEnum):
    """Which fees a remaining player gets back in cases 2 and 3 ("sua taxa")."""

    CURRENT_ENTRY = "current_entry"
    """Our reading (default): the fee of the entry still in play."""
    EVERY_ENTRY = "every_entry"
    """Alternative: the fees of his re-entries too."""


@dataclass(frozen=True, slots=True)
class CancellationPolicy:
    """The choices the policy leaves open (see the module docstring)."""

    remainder: Remainder = Remainder.DROP
    fee_refund: FeeRefund = FeeRefund.CURRENT_ENTRY


DEFAULT_POLICY = CancellationPolicy()


@dataclass(frozen=True, slots=True)
class Cancellation:
    """What the cancellation policy requires: the case, the pool and every refund line."""

    tournament_id: str
    case: Case
    citation: str
    prize_pool: int
    """Prize money distributed by the policy (collected; or the unpaid prizes, case 3)."""
    guarantee_met: bool | None
    """None when there is no guarantee."""
    refunds: tuple[Refund, ...]
    problems: tuple[str, ...]


def cancellation_refunds(
    state: TournamentState, policy: CancellationPolicy = DEFAULT_POLICY
) -> Cancellation:
    """The refunds GG-2022 requires for ``state`` (see the module docstring)."""
    guarantee_met = state.collected >= state.guarantee if state.guarantee else None
    if not state.started:
        case, pool = Case.NOT_STARTED, 0
        lines = [
            line for entry in state.entries for line in stakes_back(state, entry, CITATIONS[case])
        ]
        return Cancellation(
            state.tournament_id, case, CITATIONS[case], pool, guarantee_met, tuple(lines), ()
        )
    case = Case.IN_THE_MONEY if state.in_the_money else Case.NOT_IN_THE_MONEY
    cite = CITATIONS[case]
    players = state.remaining
    problems = tuple(
        f"no chip count for {player} before the failure"
        for player in players
        if player not in state.chips
    )
    weights = [state.chips.get(player, 0) for player in players]
    per_player: dict[str, list[tuple[str, int, str]]] = {p: [] for p in players}
    for player in players:
        entry = state.current_entry[player]
        fees = (
            entry.fee
            if policy.fee_refund is FeeRefund.CURRENT_ENTRY
            else sum(e.fee for e in state.entries if e.player_id == player)
        )
        bounty = entry.bounty
        if case is Case.NOT_IN_THE_MONEY:
            bounty += state.bounties_won.get(player, 0)
        per_player[player] += [("fee", fees, "fee back"), ("bounty", bounty, "bounty back")]
    if case is Case.NOT_IN_THE_MONEY:
        pool = state.collected
        half = Fraction(pool, 2)
        equal = equal_shares(half, len(players), policy.remainder)
        by_chips = shares(half, weights, policy.remainder)
        for player, one, other in zip(players, equal, by_chips, strict=True):
            per_player[player] += [
                ("prize_pool_equal", one, f"50% of the pool {pool} shared equally"),
                ("prize_pool_chips", other, f"50% of the pool {pool} by chips"),
            ]
    else:
        count = len(players)
        unpaid = state.payouts[:count]
        nxt = unpaid[-1]
        pool = sum(unpaid)
        rest = shares(pool - count * nxt, weights, policy.remainder)
        for player, other in zip(players, rest, strict=True):
            per_player[player] += [
                ("next_payout", nxt, f"the next prize (place {count})"),
                ("prize_pool_chips", other, f"the rest of the unpaid prizes {pool} by chips"),
            ]
    lines = [
        line
        for player in players
        for line in _staked(
            state,
            state.current_entry[player],
            [
                Refund(state.tournament_id, player, amount, component, cite, basis)
                for component, amount, basis in per_player[player]
                if amount
            ],
            cite,
        )
    ]
    return Cancellation(
        state.tournament_id, case, cite, pool, guarantee_met, tuple(lines), problems
    )


def _entry_back(state: TournamentState, entry: Entry) -> list[Refund]:
    cite = CITATIONS[Case.NOT_STARTED]
    parts = (("buy_in", entry.buy_in), ("bounty", entry.bounty), ("fee", entry.fee))
    return [
        Refund(
            state.tournament_id,
            entry.player_id,
            amount,
            component,
            cite,
            f"entry {entry.entry_id}: {component} back",
        )
        for component, amount in parts
        if amount
    ]


def stakes_back(state: TournamentState, entry: Entry, cite: str) -> list[Refund]:
    """An entry's price back before the start, each backer's share split off (the
    cancellation's first case; an unregistration, ``staking``)."""
    return _staked(state, entry, _entry_back(state, entry), cite)


def _staked(state: TournamentState, entry: Entry, lines: list[Refund], cite: str) -> list[Refund]:
    """``lines`` with each backer's share of ``entry`` split off (see the docstring)."""
    if not entry.stakes:
        return lines
    out = []
    for line in lines:
        kept = line.amount
        for backer, bps in entry.stakes:
            share = line.amount * bps // BASIS_POINTS
            kept -= share
            if share:
                out.append(
                    Refund(
                        state.tournament_id,
                        backer,
                        share,
                        line.component,
                        f"{cite}; {STAKING}",
                        f"{bps} bps stake in {entry.player_id}'s entry {entry.entry_id}: "
                        f"{line.basis}",
                    )
                )
        out.append(
            Refund(line.subject, line.player_id, kept, line.component, line.citation, line.basis)
        )
    return out
