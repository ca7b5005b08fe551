"""Required against recorded, per subject in flight and per player.

Each subject in flight is judged by its rule (``replayer.refunds``,
``replayer.tournaments``); what the rule requires back is summed per player and set
against what the operator recorded as given back:

* poker hand: chips returned on the hand (PotAwarded after HandReverted/HandVoided, or
  HandEnded.finishing_stacks), as the poker replayer reads them;
* live round, RNG round cancelled: every PayoutMade and RefundPaid on the player's bets;
  RNG round resumed in time: RefundPaid only (none is due);
* tournament cancelled: every RefundPaid to the player (or backer).

Every player whose figures differ gets one ``refund_mismatch`` finding citing the rule,
with ``expected`` (required), ``recorded``, ``difference`` = recorded - expected (the
sign every finding uses) and ``detail.owed_to_player`` = required - recorded: positive
is owed to the player, negative was given back in excess. A tournament in flight is
also adjudicated (same-hand places, bounty splits).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from audit.incidents.record import RecordedIncident
from replayer.findings import Finding, FindingKind
from replayer.refunds import (
    Refund,
    hand_at_failure,
    live_round_at_failure,
    rng_round_at_failure,
    totals,
)
from replayer.tournaments import (
    CancellationPolicy,
    adjudicate_tournament,
    cancellation_refunds,
    state_before,
)

Events = Sequence[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One player's required and recorded totals on one subject."""

    player_id: str
    required: int
    recorded: int

    @property
    def owed(self) -> int:
        """Positive: still owed to the player; negative: given back in excess."""
        return self.required - self.recorded


@dataclass(frozen=True, slots=True)
class SubjectResult:
    """One subject in flight: its state at the failure, the rule, and the comparison."""

    family: str
    """``poker``, ``live``, ``rng`` or ``tournament``."""
    subject: str
    currency: str
    status: str
    citation: str
    state: dict[str, Any]
    """JSON-able state at the failure (for the report)."""
    required: tuple[Refund, ...]
    lines: tuple[PlayerLine, ...]
    """Empty when nothing is compared (nothing due yet, or not cancelled)."""
    findings: tuple[Finding, ...]


def compare(
    incident: RecordedIncident,
    subject: str,
    required: Sequence[Refund],
    recorded: Mapping[str, int],
    citation: str,
) -> tuple[tuple[PlayerLine, ...], tuple[Finding, ...]]:
    """Per-player lines and a ``refund_mismatch`` for every player whose totals differ."""
    owed = totals(required)
    players = list(owed) + [p for p in recorded if p not in owed]
    lines = tuple(
        PlayerLine(p, owed.get(p, 0), recorded.get(p, 0))
        for p in players
        if owed.get(p, 0) or recorded.get(p, 0)
    )
    findings = []
    for line in lines:
        if line.owed == 0:
            continue
        components: dict[str, int] = {}
        cites = []
        for refund in required:
            if refund.player_id == line.player_id:
                components[refund.component] = components.get(refund.component, 0) + refund.amount
                if refund.citation not in cites:
                    cites.append(refund.citation)
        direction = "still owed to" if line.owed > 0 else "given back in excess to"
        findings.append(
            Finding(
                FindingKind.REFUND_MISMATCH,
                subject,
                "; ".join(cites) or citation,
                f"{line.player_id}: required {line.required}, recorded {line.recorded}: "
                f"{abs(line.owed)} {direction} the player",
                expected=line.required,
                recorded=line.recorded,
                difference=line.recorded - line.required,
                detail={
                    "incident_id": incident.incident_id,
                    "player_id": line.player_id,
                    "owed_to_player": line.owed,
                    "components": components,
                },
            )
        )
    return lines, tuple(findings)


def _step_words(events: Events, sequence: int | None) -> str | None:
    """The hand's last step as ``show`` says it: players by name, money in its currency."""
    from audit.show.poker import HandVoice  # the show layer's voice of a hand
    from replayer.poker.wording import words

    event = next((e for e in events if e.get("sequence") == sequence), None)
    if event is None:
        return None
    start = next((e for e in events if e.get("type") == "HandStarted"), {})
    players = {str(s.get("seat")): str(s.get("player_id")) for s in start.get("seats") or ()}
    return words(event, HandVoice(events, players))


def judge_hand(incident: RecordedIncident, hand_id: str, events: Events) -> SubjectResult:
    hand = hand_at_failure(events)
    step = hand.step
    state = {
        "table_id": hand.table_id,
        "started_at": hand.started_at.isoformat(),
        "rulebook": hand.rulebook_id,
        "stacks_at_start": hand.stacks_at_start,
        "contributions": hand.contributions,
        "step": None
        if step is None
        else {
            "sequence": step.sequence,
            "street": step.street,
            "text": step.text,
            "words": _step_words(events, step.sequence),
            "pot": step.pot,
        },
        "outcome": hand.outcome,
    }
    if not hand.refunds and hand.currency == "XXX":
        return SubjectResult(
            "poker", hand_id, hand.currency, "tournament chips", hand.citation, state, (), (), ()
        )
    lines, findings = compare(incident, hand_id, hand.refunds, hand.recorded_returns, hand.citation)
    status = (
        "reverted"
        if hand.outcome in ("HandReverted", "HandVoided")
        else (f"not reverted ({hand.outcome or 'no outcome'})")
    )
    return SubjectResult(
        "poker", hand_id, hand.currency, status, hand.citation, state, hand.refunds, lines, findings
    )


def judge_round(
    incident: RecordedIncident, round_id: str, events: Events, *, as_of: datetime, hold: timedelta
) -> SubjectResult:
    opened = next(e for e in events if e["type"] == "RoundOpened")
    if opened["game"] == "rng":
        judged = rng_round_at_failure(events, incident.window_start, as_of, hold)
        family = "rng"
    else:
        judged = live_round_at_failure(events)
        family = "live"
    state = {
        "table_id": judged.table_id,
        "game": judged.game,
        "opened_at": judged.opened_at.isoformat(),
        "last_event": judged.last_event,
        "stakes": judged.stakes,
        "due_at": None if judged.due_at is None else judged.due_at.isoformat(),
    }
    lines: tuple[PlayerLine, ...] = ()
    findings: tuple[Finding, ...] = ()
    if judged.recorded is not None:
        lines, findings = compare(
            incident, round_id, judged.refunds, judged.recorded, judged.citation
        )
    return SubjectResult(
        family,
        round_id,
        judged.currency,
        judged.status,
        judged.citation,
        state,
        judged.refunds,
        lines,
        findings,
    )


def judge_tournament(
    incident: RecordedIncident, tournament_id: str, events: Events, policy: CancellationPolicy
) -> SubjectResult:
    state = state_before(events, incident.window_start)
    adjudicated = adjudicate_tournament(events, bounty_remainder=policy.remainder).findings
    summary: dict[str, Any] = {
        "started": state.started,
        "entries": len(state.entries),
        "remaining": list(state.remaining),
        "chips": {p: state.chips.get(p) for p in state.remaining},
        "collected": state.collected,
        "guarantee": state.guarantee,
        "payouts": list(state.payouts),
    }
    if not any(e["type"] == "TournamentCancelled" for e in events):
        return SubjectResult(
            "tournament",
            tournament_id,
            state.currency,
            "not cancelled",
            "",
            summary,
            (),
            (),
            adjudicated,
        )
    cancellation = cancellation_refunds(state, policy)
    summary |= {
        "case": str(cancellation.case),
        "prize_pool": cancellation.prize_pool,
        "guarantee_met": cancellation.guarantee_met,
        "problems": list(cancellation.problems),
    }
    recorded: dict[str, int] = {}
    for event in events:
        if event["type"] == "RefundPaid":
            player = str(event["player_id"])
            recorded[player] = recorded.get(player, 0) + int(event["amount"])
    lines, findings = compare(
        incident, tournament_id, cancellation.refunds, recorded, cancellation.citation
    )
    problems = tuple(
        Finding(FindingKind.DATA_QUALITY, tournament_id, cancellation.citation, problem)
        for problem in cancellation.problems
    )
    return SubjectResult(
        "tournament",
        tournament_id,
        state.currency,
        f"cancelled: {cancellation.case}",
        cancellation.citation,
        summary,
        cancellation.refunds,
        lines,
        findings + adjudicated + problems,
    )
