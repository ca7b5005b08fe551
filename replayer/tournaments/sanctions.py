"""Sanctions (``PlayerSanctioned``): PT-217/2007 n.º 122.

"Ao jogador sancionado com o abandono da mesa, é atribuído, para efeitos de
classificação final, o último lugar em disputa no momento em que cometeu a falta assim
sancionada, salvo em caso de desclassificação, em que perderá o direito a qualquer
prémio." So:

* a player ``removed`` finishes in the last place in dispute at the sanction: the number
  of players in then (himself included). His exit is the ``PlayerEliminated`` recorded
  after the sanction; a place other than that is ``wrong_place``;
* a player ``disqualified`` is due no prize (``prizes`` owes him nothing, so a prize paid
  to him is a ``mispaid_prize`` citing n.º 122).
"""

from __future__ import annotations

from collections.abc import Sequence

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind

SANCTION = "PT-217/2007 n.º 122"


def disqualified(events: Sequence[FlatEvent]) -> set[str]:
    """Players the tournament disqualified."""
    return {
        str(e["player_id"])
        for e in events
        if e["type"] == "PlayerSanctioned" and e.get("sanction") == "disqualified"
    }


def sanction_findings(tournament_id: str, events: Sequence[FlatEvent]) -> list[Finding]:
    """``wrong_place`` for a removed player who finishes other than last in dispute."""
    playing: set[str] = set()
    last_place: dict[str, int] = {}
    findings = []
    for event in sorted(events, key=lambda e: e["sequence"]):
        player = str(event.get("player_id"))
        if event["type"] == "PlayerRegistered":
            playing.add(player)
        elif event["type"] == "PlayerUnregistered":
            playing.discard(player)
        elif event["type"] == "PlayerSanctioned" and event.get("sanction") == "removed":
            last_place[player] = len(playing)
        elif event["type"] == "PlayerEliminated":
            playing.discard(player)
            due = last_place.pop(player, None)
            if due is not None and int(event["place"]) != due:
                findings.append(
                    Finding(
                        FindingKind.WRONG_PLACE,
                        tournament_id,
                        SANCTION,
                        f"{player}, removed from the table with {due} players in, finishes "
                        f"{due} (the last place in dispute), recorded {event['place']}",
                        expected=due,
                        recorded=int(event["place"]),
                        difference=int(event["place"]) - due,
                        detail={"player_id": player, "sequence": event["sequence"]},
                    )
                )
    return findings
