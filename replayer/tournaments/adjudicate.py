"""``adjudicate_tournament``: judge a tournament's places, bounties, prizes and satellite
seats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from replayer.events import FlatEvent
from replayer.findings import Finding
from replayer.tournaments.bounties import bounty_findings
from replayer.tournaments.continuity import continuity_findings
from replayer.tournaments.deals import deal_findings
from replayer.tournaments.eliminations import place_findings
from replayer.tournaments.money import Remainder
from replayer.tournaments.prizes import prize_findings
from replayer.tournaments.sanctions import sanction_findings
from replayer.tournaments.satellites import satellite_findings
from replayer.tournaments.staking import staking_findings


@dataclass(frozen=True, slots=True)
class TournamentVerdict:
    tournament_id: str
    rulebook_id: str | None
    findings: tuple[Finding, ...]


def adjudicate_tournament(
    events: Sequence[FlatEvent],
    *,
    target_events: Sequence[FlatEvent] | None = None,
    bounty_remainder: Remainder = Remainder.DROP,
) -> TournamentVerdict:
    """Same-hand places, bounty splits, cash prizes by place, chips, eliminations and
    late entries across the hands (``continuity``), deals (``deals``), sanctions
    (``sanctions``), stakes in a withdrawn entry (``staking``) and, given the target's events,
    satellite seats."""
    tournament_id = str(events[0]["tournament_id"]) if events else ""
    findings = place_findings(tournament_id, events)
    findings += bounty_findings(tournament_id, events, bounty_remainder)
    findings += prize_findings(tournament_id, events)
    findings += continuity_findings(tournament_id, events)
    findings += deal_findings(tournament_id, events)
    findings += sanction_findings(tournament_id, events)
    findings += staking_findings(tournament_id, events)
    if target_events:
        findings += satellite_findings(tournament_id, events, target_events)
    announced = next((e for e in events if e["type"] == "TournamentAnnounced"), None)
    rulebook = announced.get("rulebook") if announced is not None else None
    return TournamentVerdict(tournament_id, rulebook, tuple(findings))
