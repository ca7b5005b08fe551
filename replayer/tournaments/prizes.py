"""Cash prizes by finishing place, when the tournament fixed them in advance.

PT-217/2007 II n.º 115: the operator communicates a tournament's specifications before it
is played; ``TournamentAnnounced.payouts`` records its prize per finishing place (1st
first). n.º 118: the tournament ends when its winner is found, so once it is completed
the one player never eliminated finishes 1st. Each player's cash prizes must add up to
the prizes of the places the rules give him: the recorded places, reordered within a
hand that eliminated several by the same-hand rule (``eliminations.rule_places``), so a
place recorded against that rule is also a wrong prize when the two places pay
differently. A place beyond the list pays nothing.

Choice: n.º 119 lets the final table agree to share the prizes otherwise; the schema has
no event for such a deal, so a prize that follows a deal is reported like any other
difference, and the finding says so. A completed tournament with other than one player
never eliminated cannot be judged: a ``data_quality`` finding.

Not judged here: tournaments without fixed payouts (a pool shared by a percentage table
the records do not carry), cancelled tournaments (``cancellation``: refunds, not
prizes), satellites (their places win seats: ``satellites``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.tournaments.eliminations import rule_places

PRIZES = "PT-217/2007 II n.º 115, n.º 118"


def prize_findings(tournament_id: str, events: Sequence[FlatEvent]) -> list[Finding]:
    """``mispaid_prize`` for each player whose cash prizes differ from his places'."""
    kinds = {e["type"] for e in events}
    announced = next((e for e in events if e["type"] == "TournamentAnnounced"), None)
    payouts = list(announced.get("payouts") or []) if announced else []
    if (
        not payouts
        or announced is None
        or announced.get("satellite_for")
        or "TournamentCompleted" not in kinds
        or "TournamentCancelled" in kinds
    ):
        return []
    places = rule_places(events)
    entries = Counter(str(e["player_id"]) for e in events if e["type"] == "PlayerRegistered")
    # Standing: a player with an entry never eliminated (re-entries: one place each).
    standing = sorted(p for p, n in entries.items() if len(places.get(p, ())) < n)
    if len(standing) != 1:
        reason = f"completed with {len(standing)} players never eliminated: no winner"
        return [Finding(FindingKind.DATA_QUALITY, tournament_id, PRIZES, reason)]
    places.setdefault(standing[0], []).insert(0, 1)
    paid: dict[str, int] = {}
    for event in events:
        if event["type"] == "PrizePaid" and event.get("kind", "cash") == "cash":
            player = str(event["player_id"])
            paid[player] = paid.get(player, 0) + int(event["amount"])
    findings = []
    for player in sorted(set(places) | set(paid)):
        owed = sum(payouts[p - 1] for p in places.get(player, []) if 0 < p <= len(payouts))
        if paid.get(player, 0) != owed:
            findings.append(
                Finding(
                    FindingKind.MISPAID_PRIZE,
                    tournament_id,
                    PRIZES,
                    f"{player} finished {_ordinals(places.get(player, []))}: prize {owed} "
                    f"due, {paid.get(player, 0)} paid in cash (a final-table deal, n.º 119, "
                    "is not recorded)",
                    expected=owed,
                    recorded=paid.get(player, 0),
                    difference=paid.get(player, 0) - owed,
                    detail={"player_id": player, "places": places.get(player, [])},
                )
            )
    return findings


def _ordinals(places: Sequence[int]) -> str:
    return ", ".join(str(p) for p in places) if places else "out of the places recorded"
