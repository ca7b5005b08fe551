"""Findings in words: one sentence an inspector can act on, and who is owed what.

Input is a *finding row*: the stored finding record (``finding_id, kind, subject,
citation, reason, expected, recorded, difference, detail``; ``Finding.to_record``) plus
the context the store adds (``audit.adjudicate.current_findings``): ``subject_kind``,
``currency`` (ISO 4217, ``XXX`` for chips, or None), ``table``, ``players`` (poker: seat
number as a string -> player id), ``operator``, ``rulebook``, ``started_at``. A row
without the context keys (older callers) works: a missing key counts as None (``{}`` for
``players``); amounts are then written in minor units and seats without names.

Money is always written by ``audit.money.format_money``; the functions here never turn
an amount into a float.

Sign convention
---------------
Every finding about money stores ``difference = recorded - expected``, in integer
minor units of the subject's currency (for a poker payout, a dict seat -> difference):

* **negative**: the player got less than the rules give; the amount is **owed to the
  player**;
* **positive**: the player got more than the rules give (overpaid); the amount is
  **owed back to the house**.

Checked where each money kind is raised: ``mispaid_pot`` and poker
``void_hand_not_refunded`` (``replayer.poker.replay._payout_issue``: recorded payout
minus expected, per seat); ``mispaid_bet``, banked ``void_hand_not_refunded`` and
``refund_mismatch`` (``replayer.casino.settlement``: returned minus due); incident
``refund_mismatch`` (``audit.incident_compare``: recorded minus required, and
``detail.owed_to_player`` = its negation); ``mispaid_bounty`` and cash ``mispaid_prize``
(``replayer.tournaments``: paid minus due); satellite ``mispaid_prize`` (recorded amount
minus the T$ due). Three amounts are the **house's** side, so the same arithmetic reads
the other way: a ``mispaid_bet`` on the ``commission`` or the ``cagnotte`` (recorded minus
due: positive = the house withheld too much, owed to the player) and the rake findings,
which store no ``difference`` (``recorded`` is the rake taken, ``expected`` the bounds
``{"at_most": cap}`` or ``{"at_least": low, "at_most": high}``): rake above the bound is
owed to the pot's winners, rake below the least allowed means the winners were paid that
much too much (owed back to the house). Differences that are not money follow the same
``recorded - expected`` rule and owe nothing: ``meter_discrepancy`` (meter units),
``return_out_of_band`` (basis points), ``terms_outside_rulebook`` (declared minus allowed
rate, basis points), ``wrong_place`` (places), ``collusion_suspected`` (score above the
threshold), ``data_quality`` (rows failing); the chemin de fer garage ``illegal_action``
stores the bank played minus the bank before it. A ``past_posted_bet`` (like a late bet's
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
   (``replayer.poker.replay._settle``); should both ever be stored for one subject, the
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

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from audit.money import format_money

__all__ = [
    "Owed",
    "OwedTotals",
    "Sums",
    "csv_safe",
    "owed",
    "owed_totals",
    "sentence",
    "terminal_safe",
]

Direction = Literal["to_player", "to_house"]
TO_PLAYER: Direction = "to_player"
TO_HOUSE: Direction = "to_house"

NO_TABLE = "(no table)"
NO_OPERATOR = "(unknown operator)"

RAKE_KINDS = frozenset({"rake_cap_breach", "rake_rate_out_of_band"})
PAYOUT_SIDE = frozenset({"mispaid_bet", "void_hand_not_refunded", "refund_mismatch"})


# -- rows ---------------------------------------------------------------------------


def _detail(row: Mapping[str, Any]) -> dict[str, Any]:
    detail = row.get("detail")
    return detail if isinstance(detail, dict) else {}


def _players(row: Mapping[str, Any]) -> dict[str, str]:
    players = row.get("players")
    if not isinstance(players, Mapping):
        return {}
    return {str(seat): str(player) for seat, player in players.items() if player is not None}


def _currency(row: Mapping[str, Any]) -> str | None:
    currency = row.get("currency")
    return currency if isinstance(currency, str) and currency else None


def _is_amount(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _money(row: Mapping[str, Any], amount: Any) -> str:
    if _is_amount(amount):
        return format_money(amount, _currency(row))
    return "an unknown amount" if amount is None else str(amount)


def _seat_order(seat: str) -> tuple[int, str]:
    return (int(seat), seat) if seat.isdigit() else (1 << 30, seat)


def _seat_words(row: Mapping[str, Any], seat: Any) -> str:
    player = _players(row).get(str(seat))
    return f"seat {seat} ({player})" if player else f"seat {seat}"


def _seat_party(row: Mapping[str, Any], seat: Any) -> str:
    return _players(row).get(str(seat)) or f"seat {seat} of {row.get('subject', '?')}"


def _player(row: Mapping[str, Any]) -> str | None:
    player = _detail(row).get("player_id")
    return str(player) if player is not None else None


def _bet_party(row: Mapping[str, Any]) -> str:
    player = _player(row)
    if player:
        return player
    bet = _detail(row).get("bet_id")
    subject = row.get("subject", "?")
    return f"player of bet {bet} in {subject}" if bet is not None else f"player in {subject}"


def _cite(row: Mapping[str, Any]) -> str:
    """The citation as the subject of a sentence (several joined by "and")."""
    citation = _SPACE.sub(" ", str(row.get("citation") or "")).strip()
    return citation.replace("; ", " and ") if citation else "the rules"


# -- owed ---------------------------------------------------------------------------


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


def _winners(row: Mapping[str, Any]) -> list[str]:
    """Seats that won the hand's pots, when the finding's detail says (``winners`` or
    ``pots[].winners``)."""
    detail = _detail(row)
    seats: list[str] = [str(s) for s in detail.get("winners") or []]
    for pot in detail.get("pots") or []:
        if isinstance(pot, dict):
            seats.extend(str(s) for s in pot.get("winners") or [])
    return sorted(set(seats), key=_seat_order)


def _winners_party(row: Mapping[str, Any]) -> str:
    seats = _winners(row)
    if len(seats) == 1:
        return _seat_party(row, seats[0])
    return f"winners of {row.get('subject', '?')}"


def _winners_words(row: Mapping[str, Any]) -> str:
    seats = _winners(row)
    if len(seats) == 1:
        return _seat_words(row, seats[0])
    if seats:
        return "the pot's winners (" + ", ".join(_seat_words(row, s) for s in seats) + ")"
    return "the pot's winners"


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


def _seat_owed(row: Mapping[str, Any]) -> list[Owed]:
    difference, currency = row.get("difference"), _currency(row)
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
        settled = isinstance(difference, dict) and detail.get("pots")
        return _seat_owed(row) if settled else []
    if kind == "void_hand_not_refunded" and isinstance(difference, dict):
        return _seat_owed(row)
    if kind == "mispaid_prize" and isinstance(row.get("expected"), dict):
        return _satellite_owed(row)
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
        return _by_sign(f"banker of {row.get('subject', '?')}", difference, currency, True)
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
            bet_players[subject, str(detail["bet_id"])] = str(detail["player_id"])
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
        operator = str(row.get("operator") or NO_OPERATOR)
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


# -- sentences ----------------------------------------------------------------------


def _owed_words(
    row: Mapping[str, Any], difference: int, house_side: bool = False, whom: str = "the player"
) -> str:
    if difference == 0:
        return "nothing owed"
    amount = _money(row, abs(difference))
    if house_side:
        if difference > 0:
            return f"{amount} withheld too much, owed to {whom}"
        return f"{amount} too little withheld, owed back to the house"
    if difference < 0:
        return f"{amount} owed to {whom}"
    return f"{amount} overpaid, owed back to the house"


def _paid_clause(
    who: str,
    row: Mapping[str, Any],
    recorded: Any,
    expected: Any,
    difference: Any,
    *,
    verb: str = "was paid",
    what: str = "",
) -> str:
    """``<who> was paid <recorded><what>; <citation> gives <expected>: <owed>``."""
    text = f"{who} {verb} {_money(row, recorded)}{what}; {_cite(row)} gives {_money(row, expected)}"
    if _is_amount(difference):
        text += f": {_owed_words(row, difference)}"
    return text


def _mispaid_pot(row: Mapping[str, Any]) -> str | None:
    expected, recorded, difference = row.get("expected"), row.get("recorded"), row.get("difference")
    if not isinstance(difference, dict):
        return None
    expected = expected if isinstance(expected, dict) else {}
    recorded = recorded if isinstance(recorded, dict) else {}
    seats = sorted(difference, key=_seat_order)
    if not _detail(row).get("pots"):
        paid = "; ".join(
            f"{_seat_words(row, s)} was paid {_money(row, recorded.get(s))}" for s in seats
        )
        return (
            f"the recorded payouts and rake do not add up to the chips put in ({_cite(row)}),"
            f" and a pot cannot be judged from the record, so who is owed cannot be told; "
            f"{paid}"
        )
    return _clauses(
        _paid_clause(_seat_words(row, s), row, recorded.get(s), expected.get(s), difference[s])
        for s in seats
    )


def _clauses(parts: Iterable[str]) -> str:
    """One clause per seat: ``seat 1 ... . Seat 4 ...`` (player ids are never recased)."""
    parts = list(parts)
    return ". ".join([parts[0], *("S" + p[1:] if p.startswith("seat ") else p for p in parts[1:])])


def _void(row: Mapping[str, Any]) -> str | None:
    expected, recorded, difference = row.get("expected"), row.get("recorded"), row.get("difference")
    if isinstance(difference, dict):
        expected = expected if isinstance(expected, dict) else {}
        recorded = recorded if isinstance(recorded, dict) else {}
        clauses = []
        for s in sorted(difference, key=_seat_order):
            d = difference[s]
            clauses.append(
                f"{_seat_words(row, s)} got back {_money(row, recorded.get(s))} of the "
                f"{_money(row, expected.get(s))} put into the void hand; {_cite(row)} returns "
                f"every chip put in" + (f": {_owed_words(row, d)}" if _is_amount(d) else "")
            )
        return _clauses(clauses)
    if not _is_amount(difference):
        return None
    bet = _detail(row).get("bet_id")
    on_bet = f" on bet {bet}" if bet is not None else ""
    return (
        f"{_bet_party(row)} got back {_money(row, recorded)} of the {_money(row, expected)} "
        f"stake{on_bet} in a void round; {_cite(row)} returns every stake: "
        f"{_owed_words(row, difference)}"
    )


def _mispaid_bet(row: Mapping[str, Any]) -> str | None:
    expected, recorded, difference = row.get("expected"), row.get("recorded"), row.get("difference")
    if not _is_amount(difference):
        return None
    detail = _detail(row)
    component, bet = detail.get("component"), detail.get("bet_id")
    if component == "commission":
        return (
            f"commission of {_money(row, recorded)} taken on bet {bet}; {_cite(row)} gives "
            f"{_money(row, expected)}: "
            f"{_owed_words(row, difference, True, f'the player of bet {bet}')}"
            " (the same money as the bet's payout finding, when there is one)"
        )
    if component == "cagnotte":
        return (
            f"cagnotte of {_money(row, recorded)} taken; {_cite(row)} gives "
            f"{_money(row, expected)}: {_owed_words(row, difference, True, 'the banker')}"
        )
    on_bet = f" on bet {bet}" if bet is not None else ""
    return _paid_clause(_bet_party(row), row, recorded, expected, difference, what=on_bet)


def _refund_mismatch(row: Mapping[str, Any]) -> str | None:
    expected, recorded, difference = row.get("expected"), row.get("recorded"), row.get("difference")
    if not _is_amount(difference):
        return None
    detail = _detail(row)
    if detail.get("incident_id") is not None:
        if difference < 0:
            owed_text = f"{_money(row, -difference)} still owed to the player"
        else:
            owed_text = f"{_money(row, difference)} given back in excess, owed back to the house"
        return (
            f"{_bet_party(row)} was given back {_money(row, recorded)}; {_cite(row)} requires "
            f"{_money(row, expected)}: {owed_text} (incident {detail['incident_id']})"
        )
    bet = detail.get("bet_id")
    on_bet = f" on bet {bet}" if bet is not None else ""
    return (
        f"{_bet_party(row)} got back {_money(row, recorded)}{on_bet} in a void round, where "
        f"{_cite(row)} returns the {_money(row, expected)} stake: {_owed_words(row, difference)}"
    )


def _mispaid_bounty(row: Mapping[str, Any]) -> str | None:
    if not _is_amount(row.get("difference")):
        return None
    eliminated = _detail(row).get("eliminated_player_id")
    what = f" for the bounty on {eliminated}" if eliminated is not None else " for a bounty"
    return _paid_clause(
        _bet_party(row),
        row,
        row.get("recorded"),
        row.get("expected"),
        row.get("difference"),
        what=what,
    )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _mispaid_prize(row: Mapping[str, Any]) -> str | None:
    expected, recorded, difference = row.get("expected"), row.get("recorded"), row.get("difference")
    player = _bet_party(row)
    if isinstance(expected, dict):
        recorded = recorded if isinstance(recorded, dict) else {}
        due = expected.get("amount")
        given = str(recorded.get("kind", "something else")).replace("_", " ")
        if recorded.get("kind") != expected.get("kind"):
            return (
                f"{player}, already registered in the target tournament, was given a {given} "
                f"({_money(row, recorded.get('amount'))}); {_cite(row)} gives "
                f"{_money(row, due)} in tournament money instead: {_money(row, due)} owed to "
                "the player in tournament money"
            )
        return _paid_clause(
            player,
            row,
            recorded.get("amount"),
            due,
            difference,
            verb="was given",
            what=" in tournament money",
        )
    if not _is_amount(difference):
        return None
    places = [p for p in _detail(row).get("places") or [] if isinstance(p, int)]
    finished = f" (finished {', '.join(_ordinal(p) for p in places)})" if places else " (no place)"
    return (
        _paid_clause(player + finished, row, recorded, expected, difference, what=" in cash")
        + ", unless a final-table deal (not recorded) explains it"
    )


def _rake_cap(row: Mapping[str, Any]) -> str | None:
    expected, recorded = row.get("expected"), row.get("recorded")
    cap = expected.get("at_most") if isinstance(expected, dict) else None
    if not (_is_amount(cap) and _is_amount(recorded)):
        return None
    over = recorded - cap
    return (
        f"rake of {_money(row, recorded)} taken, {_money(row, over)} over the cap of "
        f"{_money(row, cap)} ({_cite(row)}): {_money(row, over)} owed to {_winners_words(row)}"
    )


def _rake_rate(row: Mapping[str, Any]) -> str | None:
    expected, recorded = row.get("expected"), row.get("recorded")
    if not isinstance(expected, dict) or not _is_amount(recorded):
        return None
    low, high = expected.get("at_least"), expected.get("at_most")
    if _is_amount(low) and _is_amount(high):
        allowed = (
            f"exactly {_money(row, high)}"
            if low == high
            else f"{_money(row, low)} to {_money(row, high)}"
        )
    else:
        return None
    excess = _rake_excess(row)
    if excess > 0:
        owed_text = f"{_money(row, excess)} over the most allowed, owed to {_winners_words(row)}"
    elif excess < 0:
        owed_text = (
            f"{_money(row, -excess)} under the least allowed, so the pot's winners were paid "
            "that much too much (owed back to the house)"
        )
    else:
        owed_text = "outside the allowed range"
    return f"rake of {_money(row, recorded)} taken where {_cite(row)} allows {allowed}: {owed_text}"


def _meters(row: Mapping[str, Any]) -> str | None:
    detail = _detail(row)
    meter, metered, events = detail.get("meter"), detail.get("metered"), detail.get("event_sum")
    window = detail.get("window")
    if not (meter and _is_amount(metered) and _is_amount(events)):
        return None
    between = (
        f" between sequences {window[0]} and {window[1]}"
        if isinstance(window, list) and len(window) == 2
        else ""
    )
    gap = metered - events
    more = "more" if gap > 0 else "fewer"
    rollover = " (after a rollover)" if detail.get("rollover") else ""
    return (
        f"the {meter} meter advanced {_units(metered)}{between}{rollover} while the "
        f"events add up to {events:,}: {_units(abs(gap))} {more} than the events "
        f"({row.get('citation') or 'the rules'})"
    )


def _units(count: int) -> str:
    return f"{count:,} meter unit{'' if abs(count) == 1 else 's'}"


def _collusion(row: Mapping[str, Any]) -> str | None:
    detail = _detail(row)
    players = [str(p) for p in detail.get("players") or []]
    if not players:
        return None
    who = " and ".join(players) if len(players) <= 2 else ", ".join(players)
    threshold = (
        row.get("expected", {}).get("score_below")
        if isinstance(row.get("expected"), dict)
        else None
    )
    above = f", above the threshold of {threshold}" if threshold is not None else ""
    hands = [str(h) for h in detail.get("evidence_hands") or []][:5]
    review = f"; hands to review first: {', '.join(hands)}" if hands else ""
    return (
        f"{who} suspected of colluding: {_clean(row, row.get('reason'))}{above}{review} "
        f"({_cite(row)})"
    )


def _past_posted(row: Mapping[str, Any]) -> str | None:
    detail = _detail(row)
    closed = detail.get("closed_by")
    due, returned = detail.get("due"), detail.get("returned")
    if not (isinstance(closed, dict) and _is_amount(due) and _is_amount(returned)):
        return None
    return (
        f"bet {detail.get('bet_id')} of {_bet_party(row)} was recorded at sequence "
        f"{detail.get('sequence')}, after the {closed.get('type')} at sequence "
        f"{closed.get('sequence')} closed betting, and not flagged late: past-posted; "
        f"{_cite(row)} withdraws it, so its stake of {_money(row, due)} is due back and "
        f"{_money(row, returned)} was returned (any difference is the bet's payout finding)"
    )


def _terms_missing(row: Mapping[str, Any]) -> str | None:
    recorded = row.get("recorded")
    if not (_is_amount(recorded) and str(row.get("reason", "")).startswith("rake of")):
        return None
    return (
        f"rake of {_money(row, recorded)} taken, but the table declared no rake terms in "
        f"force at the hand's start, so the rake cannot be checked ({_cite(row)})"
    )


def _illegal_action(row: Mapping[str, Any]) -> str | None:
    expected, recorded, detail = row.get("expected"), row.get("recorded"), _detail(row)
    if not (
        isinstance(expected, dict)
        and set(expected) == {"min", "max"}
        and _is_amount(recorded)
        and detail.get("bet_id") is not None
    ):
        return None
    low, high = expected["min"], expected["max"]
    limits = (
        f"{_money(row, low)} to {_money(row, high)}"
        if _is_amount(high)
        else f"at least {_money(row, low)}"
    )
    return (
        f"bet {detail['bet_id']} of {_money(row, recorded)} is outside the table limits of "
        f"{limits}; having been accepted, it is settled as placed ({_cite(row)})"
    )


_SEAT = re.compile(r"\bseat (\d+)\b(?! \()")
_SPACE = re.compile(r"\s+")


def _clean(row: Mapping[str, Any], text: Any) -> str:
    """A reason as one tidy line, poker seats named with their player."""
    cleaned = _SPACE.sub(" ", str(text or "")).strip().rstrip(".")
    if _players(row):
        cleaned = _SEAT.sub(lambda m: _seat_words(row, m.group(1)), cleaned)
    return cleaned


def _fallback(row: Mapping[str, Any]) -> str:
    reason = _clean(row, row.get("reason")) or str(row.get("kind") or "finding")
    citation = _SPACE.sub(" ", str(row.get("citation") or "")).strip()
    return f"{reason} ({citation})" if citation and citation not in reason else reason


SENTENCES: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    "mispaid_pot": _mispaid_pot,
    "void_hand_not_refunded": _void,
    "mispaid_bet": _mispaid_bet,
    "refund_mismatch": _refund_mismatch,
    "mispaid_bounty": _mispaid_bounty,
    "mispaid_prize": _mispaid_prize,
    "rake_cap_breach": _rake_cap,
    "rake_rate_out_of_band": _rake_rate,
    "meter_discrepancy": _meters,
    "collusion_suspected": _collusion,
    "past_posted_bet": _past_posted,
    "terms_missing": _terms_missing,
    "illegal_action": _illegal_action,
}


def sentence(row: Mapping[str, Any]) -> str:
    """The finding as one sentence an inspector can act on: who, how much in money,
    what the cited rule gives and who is owed; a finding that is not about money (or
    whose shape is not recognised) reads as its reason and citation."""
    build = SENTENCES.get(str(row.get("kind")))
    try:
        text = build(row) if build is not None else None
    except (AttributeError, KeyError, TypeError, ValueError, IndexError):
        text = None  # an unexpected shape: never lose the finding, say it plainly
    return text if text else _fallback(row)


# -- escaping -----------------------------------------------------------------------

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\x1b": "\\e"}


def _escaped(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: Any) -> str:
    """``text`` safe to print on a terminal, on one line: control characters (ANSI
    escape sequences start with ESC, so they are disarmed), newlines, line and paragraph
    separators and bidirectional overrides are written as visible escapes (``\\e``,
    ``\\n``, ``\\x07``, ``\\u202e``)."""
    text = "" if text is None else str(text)
    return "".join(
        _escaped(c) if c in _BIDI or unicodedata.category(c) in ("Cc", "Zl", "Zp") else c
        for c in text
    )


_FORMULA_START = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")
_PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def csv_safe(cell: Any) -> str:
    """A CSV cell a spreadsheet will not run as a formula: a cell starting with ``=``,
    ``+``, ``-``, ``@``, tab, CR or LF (or their full-width forms, or any of these after
    leading spaces) gets a leading ``'``; a plain negative number (``-35``, ``-0.35``)
    stays a number. None is the empty cell."""
    if cell is None:
        return ""
    text = str(cell)
    if _PLAIN_NUMBER.fullmatch(text):
        return text
    first = text.lstrip(" ")[:1]
    return "'" + text if first and first in _FORMULA_START else text
