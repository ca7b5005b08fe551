"""One PHH record (``audit.ingest.phh.reader``) into the poker family's flat events.

``hand_events`` turns one record into the events of ``schemas/poker_hand.avsc``, flat as
in ``replayer/events.py``, or raises ``RecordRejected`` naming the offending field.

Conventions (see also ``actions``, ``money``, ``time``, ``cards`` beside this module):

* hand id: ``table/hand`` when the record has both (our ``_table`` overrides PHH
  ``table``), else ``<parent folder>/<file stem>``; ``#<section>`` is appended inside a
  ``.phhs``; ``event_id`` is ``<hand id>#<sequence>``;
* seats are the PHH player indices (``p1`` is seat 1, PHH order); the button is the last
  player in button games, including heads-up (phh-std ``spec.rst``, "Position");
* ``PotAwarded`` per seat is ``finishing - starting + contributed``: what the player took
  from the pot, uncalled bets returned included.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

from audit.ingest.errors import FieldError, RecordRejected
from audit.ingest.file_names import file_identity
from audit.ingest.limits import DEFAULT_LIMITS, Limits
from audit.ingest.notation.amounts import Money, money_of
from audit.ingest.notation.cards import CardTracker, ranks_of
from audit.ingest.notation.time import start_time
from audit.ingest.phh.actions import ActionReplay, Body, Chips, blind_kinds, post_forced_bets
from audit.ingest.phh.reader import PhhRecord
from audit.notation.money import CHIPS

#: PHH stud variants (``bring_in`` instead of ``blinds_or_straddles``; no button).
STUD_VARIANTS = frozenset({"F7S", "F7S/8", "FR"})


def hand_events(
    record: PhhRecord,
    *,
    default_rulebook: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> list[dict[str, Any]]:
    """The flat events of one PHH hand; ``RecordRejected`` names the invalid field."""
    try:
        return _events(record, default_rulebook, limits)
    except FieldError as error:
        raise RecordRejected(
            record.source, record.position, error.field, error.reason, record.raw
        ) from None


def _events(
    record: PhhRecord, default_rulebook: str | None, limits: Limits
) -> list[dict[str, Any]]:
    fields = record.fields
    variant = _variant(fields)
    _check_required(fields, variant)
    money = money_of(fields.get("currency"))
    stacks = _starting_stacks(fields, money)
    antes = _per_player(fields, "antes", len(stacks), money)
    blinds = _blinds(fields, len(stacks), money)
    occurred_at, notes = start_time(fields)
    rulebook = _text(fields, "_rulebook", default_rulebook)
    file_name = _file_name(record)
    table_id = _table_name(fields) or file_name
    started = _hand_started(
        record, table_id, rulebook, variant, money, stacks, antes, blinds, notes
    )
    chips = Chips(list(stacks))
    trimming = _flag(fields, "ante_trimming_status")
    bodies: list[Body] = [("HandStarted", started)]
    bodies += post_forced_bets(chips, antes, blinds, ante_trimming=trimming)
    bodies += _action_bodies(fields, variant, money, chips)
    bodies += _settlement(fields, money, stacks, chips.contributed)
    if len(bodies) > limits.max_events_per_subject:
        raise FieldError(
            "actions",
            f"the hand has {len(bodies):,} events, beyond "
            f"{limits.describe('max_events_per_subject')}",
        )
    hand_id = _hand_id(record, file_name)
    return [
        poker_event(hand_id, sequence, occurred_at, name, body)
        for sequence, (name, body) in enumerate(bodies)
    ]


def _action_bodies(fields: dict[str, Any], variant: str, money: Money, chips: Chips) -> list[Body]:
    """PHH ``actions`` replayed in order (``bring_in`` is what a stud ``pN pb`` posts)."""
    bring_in = _positive(fields, "bring_in", money) if "bring_in" in fields else None
    replay = ActionReplay(chips, CardTracker(ranks_of(variant)), money, bring_in)
    bodies = (replay.apply(i, action) for i, action in enumerate(_array(fields, "actions")))
    return [body for body in bodies if body is not None]


def poker_event(
    hand_id: str, sequence: int, occurred_at: dt.datetime, name: str, body: dict[str, Any]
) -> dict[str, Any]:
    """One flat poker event as the ingest stores it: envelope (``event_id`` =
    ``<hand id>#<sequence>``, ``hand_id``, ``sequence``, ``occurred_at``), type, body."""
    return {
        "event_id": f"{hand_id}#{sequence}",
        "hand_id": hand_id,
        "sequence": sequence,
        "occurred_at": occurred_at,
        "type": name,
        **body,
    }


def _variant(fields: dict[str, Any]) -> str:
    """PHH ``variant``: its first letter gives the betting structure (F, N or P)."""
    variant = fields.get("variant")
    if variant is None:
        raise FieldError("variant", "required field is missing")
    if not isinstance(variant, str) or variant[:1] not in ("F", "N", "P"):
        raise FieldError(
            "variant", f"{variant!r} is not a variant code such as 'NT', 'PO' or 'F7S'"
        )
    return variant


def _check_required(fields: dict[str, Any], variant: str) -> None:
    """phh-std ``required.rst``: the required fields of the variant, and no mixed bets."""
    forced = "bring_in" if variant in STUD_VARIANTS else "blinds_or_straddles"
    other = "blinds_or_straddles" if variant in STUD_VARIANTS else "bring_in"
    limits = ("small_bet", "big_bet") if variant.startswith("F") else ("min_bet",)
    for name in ("antes", forced, *limits, "starting_stacks", "actions"):
        if name not in fields:
            raise FieldError(name, f"required field is missing (variant {variant})")
    if other in fields:
        raise FieldError(other, f"must not be given in variant {variant} (it uses {forced})")


def _array(fields: dict[str, Any], name: str) -> list[Any]:
    value = fields[name]
    if not isinstance(value, list):
        raise FieldError(name, f"{value!r} is not an array")
    return value


def _starting_stacks(fields: dict[str, Any], money: Money) -> list[int]:
    """PHH ``starting_stacks``: one positive amount per player, at least two players."""
    stacks = money.to_minor_list(_array(fields, "starting_stacks"), "starting_stacks")
    if len(stacks) < 2:
        raise FieldError("starting_stacks", f"{len(stacks)} players: a hand needs at least 2")
    for index, stack in enumerate(stacks):
        if stack == 0:
            raise FieldError(f"starting_stacks[{index}]", "a starting stack must be positive")
    return stacks


def _per_player(fields: dict[str, Any], name: str, count: int, money: Money) -> list[int]:
    """A per-player PHH array of amounts (``antes``, ``finishing_stacks``, ...)."""
    values = _array(fields, name)
    if len(values) != count:
        raise FieldError(name, f"has {len(values)} entries for {count} players")
    return money.to_minor_list(values, name)


def _blinds(fields: dict[str, Any], count: int, money: Money) -> list[int] | None:
    """PHH ``blinds_or_straddles`` (button games); ``None`` in stud games."""
    if "blinds_or_straddles" not in fields:
        return None
    return _per_player(fields, "blinds_or_straddles", count, money)


def _positive(fields: dict[str, Any], name: str, money: Money) -> int:
    amount = money.to_minor(fields[name], name)
    if amount == 0:
        raise FieldError(name, "must be positive")
    return amount


def _flag(fields: dict[str, Any], name: str) -> bool:
    value = fields.get(name, False)
    if not isinstance(value, bool):
        raise FieldError(name, f"{value!r} is not a boolean")
    return value


def _text(fields: dict[str, Any], name: str, default: str | None) -> str | None:
    value = fields.get(name, default)
    if value is not None and not isinstance(value, str):
        raise FieldError(name, f"{value!r} is not a string")
    return value


def _hand_started(
    record: PhhRecord,
    table_id: str,
    rulebook: str | None,
    variant: str,
    money: Money,
    stacks: list[int],
    antes: list[int],
    blinds: list[int] | None,
    notes: list[str],
) -> dict[str, Any]:
    """The ``HandStarted`` body."""
    fields = record.fields
    count = len(stacks)
    table_blinds = _table_blinds(blinds)
    source = f"{file_identity(record.source)}, {record.position}"
    return {
        "rulebook": rulebook,
        "table_id": table_id,
        "variant": variant,
        "currency": money.currency,
        "smallest_chip": _smallest_chip(fields, money),
        "small_blind": table_blinds.get("small_blind", 0),
        "big_blind": table_blinds.get("big_blind", 0),
        "ante": max(antes),
        "min_bet": _positive(fields, "small_bet" if variant[0] == "F" else "min_bet", money),
        "button": _button(fields, count, blinds is not None),
        "seats": [
            {"seat": index + 1, "player_id": player, "stack": stack}
            for index, (player, stack) in enumerate(
                zip(_players(fields, count), stacks, strict=True)
            )
        ],
        "start_time_known": "time unknown" not in notes,
        "shuffle_commitment": None,
        "source": "; ".join([source, *notes]),
    }


def _table_blinds(blinds: list[int] | None) -> dict[str, int]:
    """Small and big blind of the table, from the non-zero ``blinds_or_straddles``."""
    if blinds is None:
        return {}
    nonzero = [blind for blind in blinds if blind]
    return dict(zip(blind_kinds(len(nonzero)), nonzero, strict=True))


def _smallest_chip(fields: dict[str, Any], money: Money) -> int:
    """Our ``_smallest_chip`` (major units), else one chip, else one minor unit."""
    if "_smallest_chip" in fields:
        return _positive(fields, "_smallest_chip", money)
    return money.minor_per_major if money.currency == CHIPS else 1


def _button(fields: dict[str, Any], count: int, button_game: bool) -> int | None:
    """Our ``_button`` (seat number), else the last player in button games, else null."""
    if "_button" not in fields:
        return count if button_game else None
    button = fields["_button"]
    if isinstance(button, bool) or not isinstance(button, int) or not 1 <= button <= count:
        raise FieldError("_button", f"{button!r} is not a seat number 1..{count}")
    return button


def _players(fields: dict[str, Any], count: int) -> list[str]:
    """PHH ``players``; an absent or empty (anonymous) name becomes ``p<i>``."""
    names = fields.get("players", [""] * count)
    if not isinstance(names, list) or len(names) != count:
        raise FieldError("players", f"expected an array of {count} names")
    for index, name in enumerate(names):
        if not isinstance(name, str):
            raise FieldError(f"players[{index}]", f"{name!r} is not a string")
    return [name or f"p{index + 1}" for index, name in enumerate(names)]


def _table_name(fields: dict[str, Any]) -> str | None:
    """Our ``_table`` overrides PHH ``table``."""
    table = fields.get("_table", fields.get("table"))
    return None if table is None else str(table)


def _file_name(record: PhhRecord) -> str:
    """``<folder>/<stem>`` of the file's absolute path: the same however it was given."""
    absolute = Path(os.path.abspath(record.source))
    return f"{absolute.parent.name}/{absolute.stem}"


def _hand_id(record: PhhRecord, file_name: str) -> str:
    """Our ``_hand_id``; else ``table/hand`` when both are known, else ``folder/stem``;
    ``#section`` appended in a .phhs."""
    if "_hand_id" in record.fields:  # our export's id, kept whole
        return str(record.fields["_hand_id"])
    table, hand = _table_name(record.fields), record.fields.get("hand")
    base = f"{table}/{hand}" if table is not None and hand is not None else file_name
    return base if record.section is None else f"{base}#{record.section}"


def _settlement(
    fields: dict[str, Any], money: Money, starting: list[int], contributed: list[int]
) -> list[Body]:
    """``RakeTaken`` (our ``_rake``), ``PotAwarded`` per paid seat, ``HandEnded``.

    With PHH ``finishing_stacks``, each seat was paid ``finishing - starting +
    contributed``. Whether those payouts and the rake add up to everything put in is
    *not* checked here: a hand whose books do not balance is a faithful record of a
    mispayment, so it is stored and the replayer reports it (``mispaid_pot``) from
    ``HandEnded.finishing_stacks``, which keeps even a payout below zero (a player who
    ends with less than he had left after his bets).
    """
    bodies: list[Body] = []
    if "_rake" in fields:
        rake = money.to_minor(fields["_rake"], "_rake")
        bodies.append(("RakeTaken", {"amount": rake, "pot_index": None}))
    if "finishing_stacks" not in fields:
        return [*bodies, ("HandEnded", {"finishing_stacks": []})]
    finishing = _per_player(fields, "finishing_stacks", len(starting), money)
    bodies += [
        ("PotAwarded", {"seat": index + 1, "amount": finish - start + put, "pot_index": None})
        for index, (start, finish, put) in enumerate(
            zip(starting, finishing, contributed, strict=True)
        )
        if finish - start + put > 0
    ]
    return [*bodies, ("HandEnded", {"finishing_stacks": finishing})]
