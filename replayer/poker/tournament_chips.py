"""Tournament chips are conserved across a hand, whatever rulebook judges it, or none.

A tournament hand (``HandStarted.tournament_id`` set) is played for chips: the house's
fee is in the buy-in (GG-2022 Política de taxas e de ancinho: no rake in tournaments), so
every chip put in a pot goes back to the players and none comes from outside. The check
holds for every tournament hand, including one whose source names no rulebook (a
PokerStars tournament: ``no_rulebook``), from its stored events alone:

* the chips at the table when it ended (``HandEnded.finishing_stacks``, else the chips
  put in less the chips awarded) equal those when it began (``HandStarted.seats``);
* no chip is taken as rake or fee (``RakeTaken``, ``FeeTaken``) or paid by the house
  (``CashoutPaid``).

A departure is one ``mispaid_pot`` finding naming both counts and what left or entered
(``casino-audit tournament chips``). Under a rulebook, a fault the settlement already
reported (a rake out of its band, a fee not allowed, a pot mispaid) is not reported twice
(``conservation_finding``'s ``reported``). A hand without its outcome is not checked: it
is incomplete, and the replay says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from replayer.events import HeldEvent
from replayer.findings import Finding, FindingKind

CITATION = "casino-audit tournament chips"
#: Findings that already report chips leaving a judged hand.
_SAME_FAULT = frozenset(
    {
        FindingKind.MISPAID_POT,
        FindingKind.RAKE_RATE_OUT_OF_BAND,
        FindingKind.RAKE_CAP_BREACH,
        FindingKind.FEE_NOT_ALLOWED,
    }
)
_PUT = frozenset({"BlindPosted", "ActionTaken"})


def is_tournament(start: HeldEvent) -> bool:
    """A hand played in a tournament: ``HandStarted.tournament_id`` set."""
    return start.get("tournament_id") is not None


def _amount(event: HeldEvent) -> int:
    value = event.get("amount")
    return value if isinstance(value, int) else 0


def _chips(count: int) -> str:
    return f"{count:,} chips"


def conservation_finding(
    hand_id: str, start: HeldEvent, ordered: Sequence[HeldEvent], reported: Iterable[Finding]
) -> Finding | None:
    """The ``mispaid_pot`` finding of a tournament hand whose chips are not conserved, or
    None (a cash hand, a hand without its outcome, a fault already ``reported``)."""
    if not is_tournament(start) or any(f.kind in _SAME_FAULT for f in reported):
        return None
    ended = next((e for e in ordered if e.get("type") == "HandEnded"), None)
    if ended is None:
        return None
    began = sum(int(seat.get("stack") or 0) for seat in start.get("seats") or [])
    finishing = ended.get("finishing_stacks")
    if finishing:
        left = sum(int(chips) for chips in finishing)
    else:
        put = sum(_amount(e) for e in ordered if e.get("type") in _PUT)
        paid = sum(_amount(e) for e in ordered if e.get("type") == "PotAwarded")
        left = began - put + paid
    taken = {
        "rake": sum(_amount(e) for e in ordered if e.get("type") == "RakeTaken"),
        "fees": sum(_amount(e) for e in ordered if e.get("type") == "FeeTaken"),
        "paid by the house": sum(_amount(e) for e in ordered if e.get("type") == "CashoutPaid"),
    }
    moved = {what: chips for what, chips in taken.items() if chips}
    if left == began and not moved:
        return None
    parts = [f"{_chips(began)} at the table when the hand began, {_chips(left)} when it ended"]
    parts += [f"{_chips(chips)} {what}" for what, chips in moved.items()]
    return Finding(
        FindingKind.MISPAID_POT,
        hand_id,
        CITATION,
        "tournament chips not conserved: " + "; ".join(parts),
        expected={"chips": began, "rake": 0, "fees": 0, "paid by the house": 0},
        recorded={"chips": left, **taken},
        difference=left - began,
        detail={"sequence": ended.get("sequence"), "event": "HandEnded"},
    )
