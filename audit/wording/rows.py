"""Reading a finding row: its detail, players, currency, seats and citation, as words.

A *finding row* is the stored finding record plus the context the store adds (see
``audit.wording``); a missing key counts as None (``{}`` for ``players``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal, TypeGuard

from audit.notation.money import format_money
from audit.wording.citing import cited

Direction = Literal["to_player", "to_house"]
TO_PLAYER: Direction = "to_player"
TO_HOUSE: Direction = "to_house"

NO_TABLE = "(no table)"
NO_OPERATOR = "(operator not declared)"
"""The words for a finding whose table declared no operator (``operator_name``)."""

_SPACE = re.compile(r"\s+")
RAKE_KINDS = frozenset({"rake_cap_breach", "rake_rate_out_of_band"})
PAYOUT_SIDE = frozenset({"mispaid_bet", "void_hand_not_refunded", "refund_mismatch"})


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


def _is_amount(value: object) -> TypeGuard[int]:
    """An amount in minor units: an integer that is not a boolean."""
    return isinstance(value, int) and not isinstance(value, bool)


def _money(row: Mapping[str, Any], amount: Any) -> str:
    if _is_amount(amount):
        return format_money(amount, _currency(row))
    return "an unknown amount" if amount is None else str(amount)


def operator_name(row: Mapping[str, Any]) -> str:
    """The one operator rule (report, ``findings --summary``, console): the operator the
    table's declared terms name, as the verdict recorded it (``TableTermsDeclared``,
    ``audit.judging``), else ``NO_OPERATOR``; never guessed from a table id."""
    operator = row.get("operator")
    return str(operator) if operator else NO_OPERATOR


def _seat_order(seat: str) -> tuple[int, str]:
    return (int(seat), seat) if seat.isdigit() else (1 << 30, seat)


def _seat_words(row: Mapping[str, Any], seat: Any) -> str:
    player = _players(row).get(str(seat))
    return f"seat {seat} ({player})" if player else f"seat {seat}"


def _seat_party(row: Mapping[str, Any], seat: Any) -> str:
    return _players(row).get(str(seat)) or f"seat {seat} of {row.get('subject', '?')}"


def player_named(row: Mapping[str, Any], player: Any) -> str:
    """A player as people read him: the operator's id where the records carry it; a
    banked round's player id whose table does not declare it an account
    (``player_accounts``, ``schemas/table_terms.avsc``) is a seat label naming him only at
    that table, so it reads ``table <table> seat <label>`` and is never added up with the
    same label at another table."""
    if row.get("subject_kind") == "banked" and row.get("player_accounts") is not True:
        return f"table {row.get('table') or '?'} seat {player}"
    return str(player)


def _player(row: Mapping[str, Any]) -> str | None:
    """The player a finding is about: its detail's ``player_id``, else the player who
    placed its bet (a banked round's ``players``: bet id -> player)."""
    detail = _detail(row)
    player = detail.get("player_id")
    if player is None and detail.get("bet_id") is not None:
        player = _players(row).get(str(detail["bet_id"]))
    return player_named(row, player) if player is not None else None


def banker(row: Mapping[str, Any]) -> str:
    """The chemin de fer banker of a round: the player of its ``bank`` bet, by name where
    the round names him."""
    player = _players(row).get("bank")
    return player_named(row, player) if player else f"the banker of {row.get('subject', '?')}"


def _bet_party(row: Mapping[str, Any]) -> str:
    player = _player(row)
    if player:
        return player
    bet = _detail(row).get("bet_id")
    subject = row.get("subject", "?")
    return f"player of bet {bet} in {subject}" if bet is not None else f"player in {subject}"


def _cite(row: Mapping[str, Any]) -> str:
    """The citation as the subject of a sentence (``audit.wording.citing.cited``)."""
    return cited(str(row.get("citation") or ""))


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
