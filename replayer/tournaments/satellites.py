"""An extra satellite seat (GG-2022 Política de prêmios para vários satélites/assentos).

A player who wins a seat in a target tournament he is already registered for receives
tournament dollars "no valor do torneio-alvo buy-in menos a taxa de registro" instead of
the seat (US$100 = 90 + 10 fee: T$ 90). In our schema the entry price is buy_in (prize
pool part) + bounty + fee, so the T$ due is ``buy_in + bounty`` of the target.

``TournamentAnnounced.satellite_for`` names the target; the caller (``audit.judging``)
passes the target's events (``adjudicate_tournament(..., target_events=...)``), since
the replayer reads one subject at a time and no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind

EXTRA_SEAT = "GG-2022 Política de prêmios para vários satélites/assentos"
SEAT_PRIZES = ("satellite_seat", "tournament_money")


def seat_value(target_events: Sequence[FlatEvent]) -> int:
    """T$ owed for an extra seat in the target: its entry price minus the fee."""
    announced = next(e for e in target_events if e["type"] == "TournamentAnnounced")
    return int(announced["buy_in"]) + int(announced.get("bounty") or 0)


def satellite_findings(
    tournament_id: str, events: Sequence[FlatEvent], target_events: Sequence[FlatEvent]
) -> list[Finding]:
    """``mispaid_prize`` for a seat given to a player already registered in the target,
    or T$ in the wrong amount."""
    value = seat_value(target_events)
    registered = [
        (e["occurred_at"], str(e["player_id"]))
        for e in target_events
        if e["type"] == "PlayerRegistered"
    ]
    findings = []
    for prize in sorted(events, key=lambda e: e["sequence"]):
        if prize["type"] != "PrizePaid" or prize.get("kind") not in SEAT_PRIZES:
            continue
        player = str(prize["player_id"])
        already = any(at < prize["occurred_at"] and p == player for at, p in registered)
        if not already:
            continue
        recorded = {"kind": prize["kind"], "amount": int(prize["amount"])}
        expected = {"kind": "tournament_money", "amount": value}
        if recorded != expected:
            findings.append(
                Finding(
                    FindingKind.MISPAID_PRIZE,
                    tournament_id,
                    EXTRA_SEAT,
                    f"{player} is already registered in the target: T$ {value} is due "
                    f"instead of the seat, recorded {prize['kind']} {prize['amount']}",
                    expected=expected,
                    recorded=recorded,
                    difference=recorded["amount"] - value,
                    detail={"player_id": player, "sequence": prize["sequence"]},
                )
            )
    return findings
