"""Cash prizes by finishing place, when the tournament fixed them in advance.

PT-217/2007 II n.º 115: the operator communicates a tournament's specifications before it
is played; ``TournamentAnnounced.payouts`` records its prize per finishing place (1st
first). n.º 118: the tournament ends when its winner is found, so once it is completed
the one player never eliminated finishes 1st. Each player's cash prizes must add up to
the prizes of the places the rules give him: the recorded places, reordered within a
hand that eliminated several by the same-hand rule (``eliminations.rule_places``), so a
place recorded against that rule is also a wrong prize when the two places pay
differently. A place beyond the list pays nothing.

n.º 119 lets the final table agree to share the prizes otherwise (``DealAgreed``,
schema v2): each party is then due his share of the deal (whether the deal itself keeps
the rules is ``deals``), and the tournament ends without a winner. n.º 122: a
disqualified player is due no prize (``sanctions``). A completed tournament without a
deal and with other than one player never eliminated cannot be judged: a
``data_quality`` finding.

Not judged here: tournaments without fixed payouts (a pool shared by a percentage table
the records do not carry), cancelled tournaments (``cancellation``: refunds, not
prizes), satellites (their places win seats: ``satellites``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.tournaments.deals import DEAL, deal_shares
from replayer.tournaments.eliminations import rule_places
from replayer.tournaments.sanctions import SANCTION, disqualified

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
    entries.subtract(str(e["player_id"]) for e in events if e["type"] == "PlayerUnregistered")
    shares, out = deal_shares(events), disqualified(events)
    # Standing: a player with an entry never eliminated (re-entries: one place each).
    standing = sorted(p for p, n in entries.items() if len(places.get(p, ())) < n)
    if len(standing) != 1 and not shares:
        reason = f"completed with {len(standing)} players never eliminated: no winner"
        return [Finding(FindingKind.DATA_QUALITY, tournament_id, PRIZES, reason)]
    if not shares:
        places.setdefault(standing[0], []).insert(0, 1)
    paid: dict[str, int] = {}
    for event in events:
        if event["type"] == "PrizePaid" and event.get("kind", "cash") == "cash":
            player = str(event["player_id"])
            paid[player] = paid.get(player, 0) + int(event["amount"])
    findings = []
    for player in sorted(set(places) | set(paid) | set(shares)):
        owed = sum(payouts[p - 1] for p in places.get(player, []) if 0 < p <= len(payouts))
        owed = 0 if player in out else owed + shares.get(player, 0)
        if paid.get(player, 0) != owed:
            findings.append(
                Finding(
                    FindingKind.MISPAID_PRIZE,
                    tournament_id,
                    SANCTION if player in out else DEAL if player in shares else PRIZES,
                    f"{player} finished {_ordinals(places.get(player, []))}"
                    f"{_why(player, shares, out)}: prize {owed} due, "
                    f"{paid.get(player, 0)} paid in cash",
                    expected=owed,
                    recorded=paid.get(player, 0),
                    difference=paid.get(player, 0) - owed,
                    detail={"player_id": player, "places": places.get(player, [])},
                )
            )
    return findings


def _why(player: str, shares: dict[str, int], out: set[str]) -> str:
    if player in out:
        return ", disqualified (no prize)"
    return f", the deal gives him {shares[player]}" if player in shares else ""


def _ordinals(places: Sequence[int]) -> str:
    return ", ".join(str(p) for p in places) if places else "out of the places recorded"
