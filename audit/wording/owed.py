"""Who is owed what: each money finding read alone (``owed``) and the totals that count
the same money once (``owed_totals``).

Sign convention
---------------
Every finding about money stores ``difference = recorded - expected``, in integer
minor units of the subject's currency (for a poker payout, a dict seat -> difference):

* **negative**: the player got less than the rules give; the amount is **owed to the
  player**;
* **positive**: the player got more than the rules give (overpaid); the amount is
  **owed back to the house**.

Checked where each money kind is raised: ``mispaid_pot`` and poker
``void_hand_not_refunded`` (``replayer.poker.settlement._payout_issue``: recorded payout
minus expected, per seat); ``mispaid_bet``, banked ``void_hand_not_refunded`` and
``refund_mismatch`` (``replayer.casino.settlement``: returned minus due); incident
``refund_mismatch`` (``audit.incidents.compare``: recorded minus required, and
``detail.owed_to_player`` = its negation); ``mispaid_bounty`` and cash ``mispaid_prize``
(``replayer.tournaments``: paid minus due); satellite ``mispaid_prize`` (recorded amount
minus the T$ due). Three amounts are the **house's** side, so the same arithmetic reads
the other way: a ``mispaid_bet`` on the ``commission`` or the ``cagnotte`` (recorded minus
due: positive = the house withheld too much, owed to the player) and the rake findings,
which store no ``difference`` (``recorded`` is the rake taken, ``expected`` the bounds
``{"at_most": cap}`` or ``{"at_least": low, "at_most": high}``): rake above the bound is
owed to the pot's winners, rake below the least allowed means the winners were paid that
much too much (owed back to the house). Differences that are not money follow the same
``recorded - expected`` rule and owe nothing: ``meter_discrepancy`` (per meter of the
reading: the machine's money or games), ``return_out_of_band`` (basis points),
``terms_outside_rulebook`` (declared minus allowed rate, basis points), ``wrong_place``
(places), ``tournament_chips_unbalanced``, ``tournament_chips_vanished`` and
``tournament_chips_appeared`` (tournament chips, not money),
``collusion_suspected`` (score above the threshold), ``data_quality`` (rows
failing); the chemin de fer garage ``illegal_action`` stores the bank played minus the
bank before it. A table session's ``chips_vanished`` (``replayer.sessions.continuity``)
stores the next hand's starting stack minus what the hand before left the player:
negative, owed to the player it names (``detail.player``). A ``past_posted_bet`` (like a late bet's
``illegal_action``) owes nothing itself: its stake is due back, and what was returned
short or over is the same bet's ``mispaid_bet``.

Counting once (``owed_totals``)
-------------------------------
``owed(row)`` says what one finding, read alone, says is owed (``[]`` when it is not about
money or cannot say whom: a ``mispaid_pot`` whose pots could not be judged, undisclosed
cards, only says the record does not add up). Two readings go beyond the difference: a
satellite seat given where T$ are due (``mispaid_prize`` of another kind) owes the T$
whole, the seat for an event already entered being worth nothing to the player; a rake
finding owes its excess to the pot's winners (one named player when the detail names a
single winning seat, else ``winners of <hand>``). Findings can describe the same money
twice, so the totals count it once:

1. **Rake and payout.** A poker hand's expected payouts are computed after the expected
   (capped, in-band) rake, so rake taken beyond the rules is already inside the
   ``mispaid_pot`` difference of the hand. When a subject has a ``mispaid_pot`` whose pots
   were settled (``detail.pots``), or a ``void_hand_not_refunded``, its
   ``rake_cap_breach`` and ``rake_rate_out_of_band`` findings add nothing to the totals.
2. **Commission, cagnotte and payout.** A banked bet's due payout is net of the due
   commission (punto banco) or cagnotte (chemin de fer), so what was withheld beyond the
   rule is inside that bet's payout finding (``replayer.casino.punto_banco`` raises both
   on purpose). A commission finding adds nothing when the same bet has a payout-side
   finding (``mispaid_bet`` payout, ``void_hand_not_refunded``, ``refund_mismatch``); a
   cagnotte finding adds nothing when the round has any payout-side finding.
3. **Void and payout.** The poker replayer judges a hand either void (every chip back:
   ``void_hand_not_refunded``) or played (``mispaid_pot``), never both
   (``replayer.poker.settlement.settle``); should both ever be stored for one subject, the
   void finding counts and the ``mispaid_pot`` adds nothing.
4. **Incident and replay.** An incident investigation's ``refund_mismatch``
   (``detail.incident_id``) is the complete required-vs-recorded account, per player, of
   a subject in flight at a failure: on such a subject the replayer's own money findings
   add nothing, and when several incidents cover one subject only the first incident id
   (in sorted order) counts.

Totals are kept apart by currency (never converted) and by direction: owed to players
and owed back to the house are both shown, never netted against each other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from audit.wording.rows import (
    NO_TABLE,
    PAYOUT_SIDE,
    RAKE_KINDS,
    TO_HOUSE,
    TO_PLAYER,
    Direction,
    _bet_party,
    _currency,
    _detail,
    _is_amount,
    _seat_order,
    _seat_party,
    _winners_party,
    banker,
    operator_name,
    player_named,
)


@dataclass(frozen=True, slots=True)
class Owed:
    """``amount`` minor units of ``currency`` owed because of one finding.

    ``direction`` ``to_player``: ``party`` (a player id, or a description such as
    ``seat 2 of <hand>`` or ``winners of <hand>`` when no id is known) is owed the amount;
    ``to_house``: ``party`` was overpaid and owes it back to the house.
    """

    party: str
    amount: int
    currency: str | None
    direction: Direction

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _by_sign(party: str, difference: int, currency: str | None, house_side: bool) -> list[Owed]:
    """Owed for one ``difference = recorded - expected`` (player side unless
    ``house_side``: an amount the house takes, where positive is owed to the player)."""
    if difference == 0:
        return []
    to_player = (difference > 0) if house_side else (difference < 0)
    return [Owed(party, abs(difference), currency, TO_PLAYER if to_player else TO_HOUSE)]


def _rake_excess(row: Mapping[str, Any]) -> int:
    """Rake taken beyond the finding's bounds: positive above the most allowed, negative
    below the least allowed, 0 when it cannot be told."""
    expected, recorded = row.get("expected"), row.get("recorded")
    if not isinstance(expected, dict) or not _is_amount(recorded):
        return 0
    high, low = expected.get("at_most"), expected.get("at_least")
    if _is_amount(high) and recorded > high:
        return recorded - high
    if _is_amount(low) and recorded < low:
        return recorded - low
    return 0


def _seat_owed(row: Mapping[str, Any], difference: Mapping[str, Any]) -> list[Owed]:
    """Owed seat by seat for a poker ``difference`` (seat -> recorded - expected)."""
    currency = _currency(row)
    found: list[Owed] = []
    for seat in sorted(difference, key=_seat_order):
        if _is_amount(difference[seat]):
            found += _by_sign(_seat_party(row, seat), difference[seat], currency, False)
    return found


def _owed(row: Mapping[str, Any], bet_players: Mapping[tuple[str, str], str]) -> list[Owed]:
    kind = row.get("kind")
    detail = _detail(row)
    difference = row.get("difference")
    currency = _currency(row)
    if kind in RAKE_KINDS:
        excess = _rake_excess(row)
        return _by_sign(_winners_party(row), excess, currency, True)
    if kind == "mispaid_pot":
        if isinstance(difference, dict) and detail.get("pots"):  # the pots were settled
            return _seat_owed(row, difference)
        return []
    if kind == "void_hand_not_refunded" and isinstance(difference, dict):
        return _seat_owed(row, difference)
    if kind == "mispaid_prize" and isinstance(row.get("expected"), dict):
        return _satellite_owed(row)
    if kind == "chips_vanished" and _is_amount(difference):  # chips taken off the table
        return _by_sign(player_named(row, detail.get("player")), difference, currency, False)
    if kind not in PAYOUT_SIDE | {"mispaid_bounty", "mispaid_prize"}:
        return []
    if not _is_amount(difference):
        return []
    component = detail.get("component")
    if kind == "mispaid_bet" and component == "commission":
        key = (str(row.get("subject")), str(detail.get("bet_id")))
        party = bet_players.get(key) or _bet_party(row)
        return _by_sign(party, difference, currency, True)
    if kind == "mispaid_bet" and component == "cagnotte":
        return _by_sign(banker(row), difference, currency, True)
    return _by_sign(_bet_party(row), difference, currency, False)


def _satellite_owed(row: Mapping[str, Any]) -> list[Owed]:
    expected, recorded = row.get("expected") or {}, row.get("recorded")
    recorded = recorded if isinstance(recorded, dict) else {}
    due = expected.get("amount")
    party = _bet_party(row)
    if recorded.get("kind") != expected.get("kind") and _is_amount(due):
        # A seat for an event already entered is worth nothing to him: the T$ are owed whole.
        return [Owed(party, due, _currency(row), TO_PLAYER)] if due else []
    difference = row.get("difference")
    return _by_sign(party, difference, _currency(row), False) if _is_amount(difference) else []


def owed(row: Mapping[str, Any]) -> list[Owed]:
    """Who is owed how much by this finding alone (see the module docstring); ``[]`` for
    findings that are not about money or do not say whom."""
    return _owed(row, {})


@dataclass(slots=True)
class Sums:
    """Minor units owed to players and owed back to the house, in one currency."""

    to_player: int = 0
    to_house: int = 0

    def add(self, item: Owed) -> None:
        if item.direction == TO_PLAYER:
            self.to_player += item.amount
        else:
            self.to_house += item.amount


Totals = dict[str, dict[str | None, Sums]]


@dataclass
class OwedTotals:
    """Owed amounts counted once (see "Counting once"), per player (``Owed.party``), per
    table, per operator and overall, each by currency."""

    players: Totals = field(default_factory=dict)
    tables: Totals = field(default_factory=dict)
    operators: Totals = field(default_factory=dict)
    currencies: dict[str | None, Sums] = field(default_factory=dict)
    counted: list[str] = field(default_factory=list)
    """Finding ids whose owed amounts are in the totals."""
    not_counted: list[str] = field(default_factory=list)
    """Finding ids whose owed amounts another finding already holds (not added)."""


def _add(totals: Totals, key: str, item: Owed) -> None:
    totals.setdefault(key, {}).setdefault(item.currency, Sums()).add(item)


def owed_totals(rows: Iterable[Mapping[str, Any]]) -> OwedTotals:
    """Owed totals per player, table and operator, by currency, counting each amount
    once (rules in the module docstring)."""
    rows = list(rows)
    settled: set[str] = set()
    void: set[str] = set()
    incident: dict[str, str] = {}
    payout_bets: set[tuple[str, str]] = set()
    payout_subjects: set[str] = set()
    bet_players: dict[tuple[str, str], str] = {}
    for row in rows:
        subject, kind, detail = str(row.get("subject")), row.get("kind"), _detail(row)
        if kind == "mispaid_pot" and detail.get("pots"):
            settled.add(subject)
        if kind == "void_hand_not_refunded":
            void.add(subject)
        if kind == "refund_mismatch" and detail.get("incident_id") is not None:
            first = incident.get(subject)
            incident_id = str(detail["incident_id"])
            incident[subject] = incident_id if first is None else min(first, incident_id)
        if kind in PAYOUT_SIDE and detail.get("component", "payout") == "payout":
            payout_subjects.add(subject)
            if detail.get("bet_id") is not None:
                payout_bets.add((subject, str(detail["bet_id"])))
        if detail.get("bet_id") is not None and detail.get("player_id") is not None:
            bet_players[subject, str(detail["bet_id"])] = player_named(row, detail["player_id"])
    totals = OwedTotals()
    for row in rows:
        items = _owed(row, bet_players)
        if not items:
            continue
        fid = str(row.get("finding_id", ""))
        if _covered(row, settled, void, incident, payout_bets, payout_subjects):
            totals.not_counted.append(fid)
            continue
        totals.counted.append(fid)
        table = str(row.get("table") or NO_TABLE)
        operator = operator_name(row)
        for item in items:
            _add(totals.players, item.party, item)
            _add(totals.tables, table, item)
            _add(totals.operators, operator, item)
            totals.currencies.setdefault(item.currency, Sums()).add(item)
    return totals


def _covered(
    row: Mapping[str, Any],
    settled: set[str],
    void: set[str],
    incident: Mapping[str, str],
    payout_bets: set[tuple[str, str]],
    payout_subjects: set[str],
) -> bool:
    """True when another finding already holds this finding's owed amounts."""
    subject, kind, detail = str(row.get("subject")), row.get("kind"), _detail(row)
    if subject in incident:
        own = kind == "refund_mismatch" and str(detail.get("incident_id")) == incident[subject]
        return not own
    if kind in RAKE_KINDS:
        return subject in settled or subject in void
    if kind == "mispaid_pot":
        return subject in void
    if kind == "mispaid_bet" and detail.get("component") == "commission":
        return (subject, str(detail.get("bet_id"))) in payout_bets
    if kind == "mispaid_bet" and detail.get("component") == "cagnotte":
        return subject in payout_subjects
    return False
