"""Stakes in an entry withdrawn before the start: GG-2022 Política de apostas em torneios.

"Se um jogador decidir vender parte de sua ação no torneio, mas cancelar o registro do
torneio antes que ele comece, os fundos de staking serão devolvidos aos jogadores que
compraram uma aposta e não serão retidos pelo jogador vendedor." The entry's price
(buy-in, bounty, fee) goes back, each backer's share (``Stake.share_bps``) of each part
to the backer and the rest to the player, as a refund before the start is split
(``cancellation._staked``). Choice: a stake is valued at its share of the entry's price;
what a backer paid above it (a markup) is not in the records.

The refunds of an unregistration are the ``RefundPaid`` records that follow its
``PlayerUnregistered``; each person's total against what is due is a ``refund_mismatch``
(recorded minus due). An entry without stakes is not judged: the policy speaks of stakes.
"""

from __future__ import annotations

from collections.abc import Sequence

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.tournaments.cancellation import stakes_back
from replayer.tournaments.state import state_before

STAKING = "GG-2022 Política de apostas em torneios"


def staking_findings(tournament_id: str, events: Sequence[FlatEvent]) -> list[Finding]:
    """``refund_mismatch`` for each person refunded other than his share of a staked
    entry withdrawn before the start."""
    ordered = sorted(events, key=lambda e: e["sequence"])
    findings = []
    for index, event in enumerate(ordered):
        if event["type"] != "PlayerUnregistered":
            continue
        state = state_before(ordered[:index])
        entry = next((e for e in state.entries if e.entry_id == event["entry_id"]), None)
        if entry is None or not entry.stakes:
            continue
        due: dict[str, int] = {}
        for refund in stakes_back(state, entry, STAKING):
            due[refund.player_id] = due.get(refund.player_id, 0) + refund.amount
        paid: dict[str, int] = {}
        for after in ordered[index + 1 :]:
            if after["type"] != "RefundPaid":
                break
            person = str(after["player_id"])
            paid[person] = paid.get(person, 0) + int(after["amount"])
        for person in sorted(set(due) | set(paid)):
            if paid.get(person, 0) != due.get(person, 0):
                findings.append(
                    Finding(
                        FindingKind.REFUND_MISMATCH,
                        tournament_id,
                        STAKING,
                        f"{entry.player_id} withdrew staked entry {entry.entry_id} before the "
                        f"start: {person} is due {due.get(person, 0)} back, refunded "
                        f"{paid.get(person, 0)}",
                        expected=due.get(person, 0),
                        recorded=paid.get(person, 0),
                        difference=paid.get(person, 0) - due.get(person, 0),
                        detail={
                            "player_id": person,
                            "entry_id": entry.entry_id,
                            "sequence": event["sequence"],
                        },
                    )
                )
    return findings
