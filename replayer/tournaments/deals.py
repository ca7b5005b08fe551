"""Deals (``DealAgreed``): PT-217/2007 n.º 119 and GG-2022 Política de negociação de
torneios.

n.º 119: "Na mesa final, os jogadores podem estabelecer entre si acordos que visem,
unicamente, permitir terminar o torneio sem necessidade de encontrar o vencedor, o que
inclui acordos quanto à distribuição de prémios". GG-2022: "Se todos os jogadores
restantes em um torneio concordarem em fazer um acordo ...". So a deal:

* has every player still in as a party, and no one else (GG-2022);
* is made at the final table: no more players in than its seats
  (``TournamentAnnounced.final_table_seats``; not judged when the tournament does not
  state them) (n.º 119);
* shares the prizes left to win, ``payouts`` of the places still in dispute (1st to the
  number of players in), neither more nor less (n.º 119: it distributes the prizes; it
  cannot make or keep prize money). Not judged without fixed ``payouts``.

Each departure is a ``deal_outside_rules`` finding at the deal. The prizes paid after it
follow it (``prizes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind

DEAL = "PT-217/2007 n.º 119; GG-2022 Política de negociação de torneios"


def deal_shares(events: Sequence[FlatEvent]) -> dict[str, int]:
    """Player -> the prize the tournament's last deal gives him ({} without a deal)."""
    deals = [e for e in events if e["type"] == "DealAgreed"]
    if not deals:
        return {}
    last = max(deals, key=lambda e: e["sequence"])
    shares: dict[str, int] = {}
    for share in last["shares"]:
        player = str(share["player_id"])
        shares[player] = shares.get(player, 0) + int(share["amount"])
    return shares


def deal_findings(tournament_id: str, events: Sequence[FlatEvent]) -> list[Finding]:
    """``deal_outside_rules`` for each deal of the wrong parties, before the final table or
    sharing other than the prizes left."""
    ordered = sorted(events, key=lambda e: e["sequence"])
    announced = next((e for e in ordered if e["type"] == "TournamentAnnounced"), None)
    if announced is None:
        return []
    seats = announced.get("final_table_seats")
    payouts = [int(p) for p in announced.get("payouts") or ()]
    playing: set[str] = set()
    findings = []
    for event in ordered:
        if event["type"] == "PlayerRegistered":
            playing.add(str(event["player_id"]))
        elif event["type"] in ("PlayerEliminated", "PlayerUnregistered"):
            playing.discard(str(event["player_id"]))
        elif event["type"] == "DealAgreed":
            findings += _judged(tournament_id, event, sorted(playing), seats, payouts)
    return findings


def _judged(
    tournament_id: str,
    deal: FlatEvent,
    playing: list[str],
    seats: Any,
    payouts: list[int],
) -> list[Finding]:
    shares = {str(s["player_id"]): int(s["amount"]) for s in deal["shares"]}
    at = {"sequence": deal["sequence"]}
    found = []
    if sorted(shares) != playing:
        found.append(
            _outside(
                tournament_id,
                f"the deal's parties are {', '.join(sorted(shares))}; the players in are "
                f"{', '.join(playing)}: every remaining player must agree, no one else",
                expected=playing,
                recorded=sorted(shares),
                detail={
                    **at,
                    "left_out": sorted(set(playing) - set(shares)),
                    "not_in": sorted(set(shares) - set(playing)),
                },
            )
        )
    if isinstance(seats, int) and len(playing) > seats:
        found.append(
            _outside(
                tournament_id,
                f"a deal with {len(playing)} players in, more than the final table's {seats} "
                "seats: deals only at the final table",
                expected=f"at most {seats} players in",
                recorded=len(playing),
                detail=at,
            )
        )
    left = sum(payouts[: len(playing)])
    if payouts and sum(shares.values()) != left:
        dealt = sum(shares.values())
        found.append(
            _outside(
                tournament_id,
                f"the deal shares {dealt} where the prizes of places 1-{len(playing)} left "
                f"to win are {left}",
                expected=left,
                recorded=dealt,
                difference=dealt - left,
                detail=at,
            )
        )
    return found


def _outside(tournament_id: str, reason: str, **parts: Any) -> Finding:
    return Finding(FindingKind.DEAL_OUTSIDE_RULES, tournament_id, DEAL, reason, **parts)
