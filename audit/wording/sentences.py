"""Findings as sentences: one per finding kind about money, a plain fallback otherwise."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any

from audit.wording import jackpots
from audit.wording.labels import meter_label
from audit.wording.owed import _rake_excess
from audit.wording.rows import (
    _SPACE,
    _bet_party,
    _cite,
    _currency,
    _detail,
    _is_amount,
    _money,
    _players,
    _seat_order,
    _seat_words,
    _winners_words,
    banker,
    player_named,
)
from replayer.slots.meters import COMPOSITES, COUNT_METERS


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
            f"{_owed_words(row, difference, True, _bet_party(row))}"
            " (the same money as the bet's payout finding, when there is one)"
        )
    if component == "cagnotte":
        return (
            f"cagnotte of {_money(row, recorded)} taken; {_cite(row)} gives "
            f"{_money(row, expected)}: {_owed_words(row, difference, True, banker(row))}"
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
    if not isinstance(expected, dict):
        return None
    cap = expected.get("at_most")
    if not (_is_amount(cap) and _is_amount(recorded)):
        return None
    over = recorded - cap
    above = f"the cap of {_money(row, cap)}"
    if _is_amount(expected.get("cap")) and expected["cap"] != cap:
        # the rate allows less than the cap: the excess is over what the rate allows
        above = f"the {_money(row, cap)} the rate allows (cap {_money(row, expected['cap'])})"
    return (
        f"rake of {_money(row, recorded)} taken, {_money(row, over)} over {above} "
        f"({_cite(row)}): {_money(row, over)} owed to {_winners_words(row)}"
    )


def _rake_rate(row: Mapping[str, Any]) -> str | None:
    expected, recorded = row.get("expected"), row.get("recorded")
    if not isinstance(expected, dict) or not _is_amount(recorded):
        return None
    low, high = expected.get("at_least"), expected.get("at_most")
    if _is_amount(low) and _is_amount(high):
        allowed = f"{_money(row, low)} to {_money(row, high)}"
    else:
        return None
    if low == high:  # the band's lowest and highest rate, capped, meet on this pot
        allowed = f"a band that comes to {_money(row, high)} at both ends on this pot"
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
    """A slot finding in the machine's money (games for the counting meters): a bad
    reading with every meter it concerns (``check`` "reading", replayer 5), a single game
    above the paytable's largest win, or (verdicts of replayer 4 and before) one meter's
    window."""
    detail = _detail(row)
    if detail.get("check") == "reading":
        return _bad_reading(row, detail)
    meter, metered, events = detail.get("meter"), detail.get("metered"), detail.get("event_sum")
    if not (meter and _is_amount(metered) and _is_amount(events)):
        return None
    amount = partial(_meter_amount, row, str(meter))
    if detail.get("check") == "single_play":
        return (
            f"one game won {amount(metered)} on the {meter_label(meter)} meter, above the "
            f"paytable's largest win of {amount(events)} ({_cite(row)})"
        )
    window = detail.get("window")
    between = (
        f" between sequences {window[0]} and {window[1]}"
        if isinstance(window, list) and len(window) == 2
        else ""
    )
    gap = metered - events
    more = "more" if gap > 0 else "less"
    rollover = " (after a rollover)" if detail.get("rollover") else ""
    return (
        f"the {meter} meter advanced {amount(metered)}{between}{rollover} while the "
        f"events add up to {amount(events)}: {amount(abs(gap))} {more} than the events "
        f"({_cite(row)})"
    )


def _bad_reading(row: Mapping[str, Any], detail: Mapping[str, Any]) -> str | None:
    """One bad reading: each meter whose advance since the reading before is not what the
    events add, and each composite its parts do not add up to, in money."""
    window, said = detail.get("window"), []
    if not (isinstance(window, list) and len(window) == 2):
        return None
    for meter, figures in (detail.get("window_meters") or {}).items():
        amount = partial(_meter_amount, row, str(meter))
        metered, events = figures["metered"], figures["event_sum"]
        gap = metered - events
        rollover = " (after a rollover)" if figures.get("rollover") else ""
        said.append(
            f"{meter_label(meter)} advanced {amount(metered)}{rollover} where the events add "
            f"up to {amount(events)}, {amount(abs(gap))} {'more' if gap > 0 else 'less'}"
        )
    for composite, figures in (detail.get("composites") or {}).items():
        amount = partial(_meter_amount, row, str(composite))
        parts = " + ".join(meter_label(p) for p in COMPOSITES.get(str(composite), ()))
        said.append(
            f"{meter_label(composite)} reads {amount(figures['read'])} where {parts} add up "
            f"to {amount(figures['parts'])}"
        )
    if not said:
        return None
    since = f" (since the reading at {window[0]})" if window[0] != window[1] else ""
    return f"the meter reading at sequence {window[1]}{since}: {'; '.join(said)} ({_cite(row)})"


def _meter_amount(row: Mapping[str, Any], meter: str, count: int) -> str:
    """A meter's figure as it reads: games for the counting meters, money for every
    other one (minor units of the machine's currency, ``schemas/slot_machine.avsc``);
    meter units only when the currency is not known."""
    if meter in COUNT_METERS:
        return f"{count:,} game{'' if abs(count) == 1 else 's'}"
    if _currency(row) is not None:
        return _money(row, count)
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
    recorded, reason = row.get("recorded"), str(row.get("reason", ""))
    if not _is_amount(recorded):
        return None
    if reason.startswith("fees of") and "(" in reason:
        kinds = reason[reason.index("(") + 1 : reason.index(")")]
        return (
            f"fees of {_money(row, recorded)} ({kinds}) taken from the pot besides the rake, "
            "but neither the rulebook nor the table's terms in force say which fees may be "
            f"taken, so the fees cannot be checked ({_cite(row)})"
        )
    if not reason.startswith("rake of"):
        return None
    return (
        f"rake of {_money(row, recorded)} taken, but the table declared no rake terms in "
        f"force at the hand's start, so the rake cannot be checked ({_cite(row)})"
    )


def _fee_not_allowed(row: Mapping[str, Any]) -> str | None:
    """A fee other than rake beyond the fee terms; its money is in the hand's payouts."""
    expected, recorded = row.get("expected"), row.get("recorded")
    most = expected.get("at_most") if isinstance(expected, dict) else None
    if not (_is_amount(most) and _is_amount(recorded)):
        return None
    kind = _detail(row).get("fee_kind")
    what = f"{kind} fee" if kind else "fees other than rake"
    allowed = "none" if most == 0 else f"at most {_money(row, most)}"
    return (
        f"{what} of {_money(row, recorded)} taken from the pot where {_cite(row)} and the "
        f"table's terms allow {allowed}: {_money(row, recorded - most)} belongs to "
        f"{_winners_words(row)} (counted in the hand's payouts)"
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


def _acted_late(row: Mapping[str, Any]) -> str | None:
    """An action after the clock ran out (``replayer.poker.clock``): who, what, how long."""
    detail = _detail(row)
    seconds, amount = detail.get("seconds"), detail.get("amount")
    if not isinstance(seconds, (int, float)) or detail.get("seat") is None:
        return None
    action = str(row.get("recorded"))
    stake = f" {_money(row, amount)}" if _is_amount(amount) and amount else ""
    return (
        f"{_seat_words(row, detail['seat'])} {action}s{stake} after {seconds:g} s, past "
        f"{detail.get('limit_seconds', 0):g} s to act and a time bank of at most "
        f"{detail.get('time_bank_seconds', 0):g} s: the room folds him, or checks when he "
        f"faces no bet ({_cite(row)})"
    )


_SEAT = re.compile(r"\bseat (\d+)\b(?! \()")


def _clean(row: Mapping[str, Any], text: Any) -> str:
    """A reason as one tidy line, poker seats named with their player."""
    cleaned = _SPACE.sub(" ", str(text or "")).strip().rstrip(".")
    if _players(row):
        cleaned = _SEAT.sub(lambda m: _seat_words(row, m.group(1)), cleaned)
    return cleaned


def _chips_vanished(row: Mapping[str, Any]) -> str | None:
    detail, difference = _detail(row), row.get("difference")
    hands = detail.get("hands")
    if not (_is_amount(difference) and isinstance(hands, list) and len(hands) == 2):
        return None
    who = player_named(row, detail.get("player"))
    return (
        f"{who} left hand {hands[0]} with {_money(row, row.get('expected'))} and started the "
        f"next hand {hands[1]} at the same seat with {_money(row, row.get('recorded'))}: "
        f"{_money(row, -difference)} taken off the table with no leave or cash-out recorded "
        f"({_cite(row)}): {_owed_words(row, difference, whom=who)}"
    )


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
    "fee_not_allowed": _fee_not_allowed,
    "illegal_action": _illegal_action,
    "chips_vanished": _chips_vanished,
    "acted_out_of_time": _acted_late,
    "jackpot_contribution": jackpots.contribution,
    "jackpot_liability": jackpots.liability,
    "jackpot_transfer": jackpots.transfer,
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
