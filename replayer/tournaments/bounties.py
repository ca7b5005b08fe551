"""Bounties paid for an elimination (GG-2022 Bounty Política de torneios).

A player who eliminates an opponent adds the opponent's bounty to his own total; when
the winners split the pot that eliminated him, "qualquer bounty concedido será dividido
igualmente entre os jogadores que tiverem as mãos vencedoras". The winners are the
players BountyAwarded names for that elimination; the bounty is the one on the
eliminated player's entry. Equal shares are floored to the minor unit and the units left
over follow ``money.Remainder`` (default: dropped, GG-2022 4.096 -> 4.09), in the order
the awards were recorded.
"""

from __future__ import annotations

from collections.abc import Sequence

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.tournaments.money import Remainder, equal_shares

SPLIT_BOUNTY = "GG-2022 Bounty Política de torneios"


def bounty_findings(
    tournament_id: str, events: Sequence[FlatEvent], remainder: Remainder = Remainder.DROP
) -> list[Finding]:
    """``mispaid_bounty`` for every winner paid other than his equal share."""
    on_head: dict[str, int] = {}
    awards: dict[str, list[FlatEvent]] = {}
    for event in sorted(events, key=lambda e: e["sequence"]):
        if event["type"] == "PlayerRegistered":
            on_head[str(event["player_id"])] = int(event.get("bounty") or 0)
        elif event["type"] == "BountyAwarded":
            awards.setdefault(str(event["eliminated_player_id"]), []).append(event)
    findings = []
    for eliminated, paid in awards.items():
        bounty = on_head.get(eliminated, 0)
        winners: dict[str, int] = {}
        for award in paid:
            player = str(award["player_id"])
            winners[player] = winners.get(player, 0) + int(award["amount"])
        due = equal_shares(bounty, len(winners), remainder)
        for (player, recorded), expected in zip(winners.items(), due, strict=True):
            if recorded != expected:
                findings.append(
                    Finding(
                        FindingKind.MISPAID_BOUNTY,
                        tournament_id,
                        SPLIT_BOUNTY,
                        f"bounty {bounty} on {eliminated} split {len(winners)} way(s): "
                        f"{player} is due {expected}, recorded {recorded}",
                        expected=expected,
                        recorded=recorded,
                        difference=recorded - expected,
                        detail={"player_id": player, "eliminated_player_id": eliminated},
                    )
                )
    return findings
