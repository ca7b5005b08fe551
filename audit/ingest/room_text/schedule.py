"""A room's published rake schedule (``ingest --rake-schedule FILE``) as table terms.

GG-2022 ("Política de taxas e de ancinho") leaves the rake rate and cap to each game's
page, so a GGPoker hand is judged under its table's declared terms
(``schemas/table_terms.avsc``, ``TableTermsDeclared``). A room publishes one schedule
for all its tables by game and stakes; this module turns it into one declaration per
table met in the ingest, so verdicts stay a function of stored events. The file, JSON
or YAML (``yaml.safe_load``), a regular file of at most ``MAX_BYTES``, ``MAX_DEPTH`` levels
deep and ``MAX_NODES`` values once YAML aliases are expanded (``audit.bounded``)::

    {"room": "ggpoker", "operator": "GGPoker", "source": "rake page, 2024-01-15",
     "effective_from": "2022-09-28T00:00:00+00:00",
     "stakes": [{"game": "NT", "currency": "USD", "small_blind": "0.05",
                 "big_blind": "0.10", "rake_bps": 500, "cap": "1.00",
                 "cap_per": "hand", "no_flop_no_drop": true,
                 "fees": {"kinds": ["jackpot"], "max_bps": 100, "cap": "0.50"}}]}

Amounts are decimal text in major units (never floats). ``fees`` (optional) declares
the fees other than rake the room takes from a pot (``table_terms.avsc`` v2 ``fee_kinds``,
``fee_max_bps``, ``fee_cap``): the kinds allowed (``DeclaredFeeKind`` symbols; an empty
list allows none), at most ``max_bps`` of the hand's pots and ``cap`` together (each
optional). Without ``fees`` the declaration states no fee terms, and a fee the room took
is judged ``terms_missing``: a schedule never allows a fee by omission.

A hand of the room whose game, currency and blinds match an entry gives its table
(``HandStarted.table_id``) the declaration: table subject, sequence 0,
``effective_from`` from the file. The same schedule read again gives the same
declaration (idempotent); a table that already has a different one is a conflict,
quarantined by the ingest like any other.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from audit.bounded import UnusableInput, json_bounded, read_bounded, yaml_bounded
from audit.ingest.errors import FieldError, RecordRejected
from audit.ingest.notation.amounts import money_of
from audit.store import SubjectRecords
from replayer.rulebooks.poker import POT_FEE_KINDS

MAX_BYTES = 1 << 20
#: Nesting and values (aliases expanded) a schedule may hold; a real one needs 4 and a
#: few hundred (``audit.bounded``).
MAX_DEPTH = 16
MAX_NODES = 100_000
_BASES = ("hand", "pot")

Stakes = tuple[str, str, int, int]
"""What a schedule entry matches: (game, currency, small blind, big blind)."""


class BadSchedule(ValueError):
    """The schedule file cannot be used; the message names the field."""


def _text(entry: Mapping[str, Any], name: str, where: str) -> str:
    value = entry.get(name)
    if not isinstance(value, str) or not value:
        raise BadSchedule(f"{where}.{name}: expected text, got {value!r}"[:300])
    return value


def _minor(entry: Mapping[str, Any], name: str, currency: str, where: str) -> int:
    text = _text(entry, name, where)
    try:
        return money_of(currency).to_minor(Decimal(text), f"{where}.{name}")
    except InvalidOperation:
        raise BadSchedule(f"{where}.{name}: {text[:40]!r} is not a decimal amount") from None
    except FieldError as error:
        raise BadSchedule(f"{error.field}: {error.reason}") from None


def _entry(entry: Any, index: int, common: dict[str, Any]) -> tuple[Stakes, dict[str, Any]]:
    """(match key, declaration body) of one stakes entry."""
    where = f"stakes[{index}]"
    if not isinstance(entry, dict):
        raise BadSchedule(f"{where}: expected an object")
    currency = _text(entry, "currency", where)
    try:
        money_of(currency)
    except FieldError as error:
        raise BadSchedule(f"{where}.currency: {error.reason}") from None
    bps = entry.get("rake_bps")
    if isinstance(bps, bool) or not isinstance(bps, int) or not 0 <= bps <= 10_000:
        raise BadSchedule(f"{where}.rake_bps: expected 0..10000 basis points, got {bps!r}"[:300])
    basis = entry.get("cap_per", "hand")
    if basis not in _BASES:
        raise BadSchedule(f"{where}.cap_per: expected 'hand' or 'pot'")
    no_drop = entry.get("no_flop_no_drop", False)
    if not isinstance(no_drop, bool):
        raise BadSchedule(f"{where}.no_flop_no_drop: expected true or false")
    game = _text(entry, "game", where)
    key = (
        game,
        currency,
        _minor(entry, "small_blind", currency, where),
        _minor(entry, "big_blind", currency, where),
    )
    body = {
        **common,
        "game": game,
        "currency": currency,
        "rake_min_bps": bps,
        "rake_max_bps": bps,
        "rake_cap": _minor(entry, "cap", currency, where) if "cap" in entry else None,
        "rake_cap_big_blinds": None,
        "rake_cap_per": basis,
        "no_flop_no_drop": no_drop,
    }
    if "fees" in entry:
        body.update(_fees(entry["fees"], currency, f"{where}.fees"))
    return key, body


def _fees(fees: Any, currency: str, where: str) -> dict[str, Any]:
    """The declaration's fee fields from a stakes entry's ``fees`` object."""
    if not isinstance(fees, dict):
        raise BadSchedule(f"{where}: expected an object")
    kinds = fees.get("kinds")
    if not isinstance(kinds, list) or not all(k in POT_FEE_KINDS for k in kinds):
        allowed = ", ".join(POT_FEE_KINDS)
        raise BadSchedule(f"{where}.kinds: expected a list of {allowed}; got {kinds!r}"[:300])
    bps = fees.get("max_bps")
    if bps is not None and (
        isinstance(bps, bool) or not isinstance(bps, int) or not 0 <= bps <= 10_000
    ):
        raise BadSchedule(f"{where}.max_bps: expected 0..10000 basis points, got {bps!r}"[:300])
    cap = _minor(fees, "cap", currency, where) if "cap" in fees else None
    return {"fee_kinds": sorted(set(kinds)), "fee_max_bps": bps, "fee_cap": cap}


class RakeSchedule:
    """A parsed schedule; ``with_terms`` adds each matching table's declaration once."""

    def __init__(self, path: Path) -> None:
        try:
            self.room, self.by_stakes = _load(path)
        except BadSchedule as error:  # every message names the file
            named = str(error).startswith(str(path))
            raise (error if named else BadSchedule(f"{path}: {error}")) from None
        self.declared: set[str] = set()

    def with_terms(
        self, items: Iterator[SubjectRecords | RecordRejected]
    ) -> Iterator[SubjectRecords | RecordRejected]:
        """``items``, each hand of the room followed, the first time its table is met, by
        its table's declaration."""
        for item in items:
            yield item
            if isinstance(item, SubjectRecords) and item.kind == "poker":
                declaration = self.declaration(item)
                if declaration is not None:
                    yield declaration

    def declaration(self, hand: SubjectRecords) -> SubjectRecords | None:
        start = hand.records[0]
        table = str(start.get("table_id", ""))
        key = _stakes_of(start)
        body = self.by_stakes.get(key) if key is not None else None
        if body is None or table in self.declared or not table.startswith(f"{self.room}/"):
            return None
        self.declared.add(table)
        record = {
            "event_id": f"{table}#0",
            "table_id": table,
            "sequence": 0,
            "occurred_at": body["effective_from"],
            "type": "TableTermsDeclared",
            **body,
        }
        return SubjectRecords(
            "table", table, [record], source=hand.source, position=f"rake schedule for {table}"
        )


def _stakes_of(start: Mapping[str, Any]) -> Stakes | None:
    """The stakes of a hand's first record, None when it does not state them (a unit that
    does not start with ``HandStarted``)."""
    game, currency = start.get("variant"), start.get("currency")
    small, big = start.get("small_blind"), start.get("big_blind")
    if (
        isinstance(game, str)
        and isinstance(currency, str)
        and isinstance(small, int)
        and isinstance(big, int)
    ):
        return game, currency, small, big
    return None


def _load(path: Path) -> tuple[str, dict[Stakes, dict[str, Any]]]:
    """(room, declaration body by (game, currency, small blind, big blind))."""
    try:
        text = read_bounded(path, MAX_BYTES).decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadSchedule(f"{path}: not UTF-8 text ({error.reason})") from None
    except UnusableInput as error:
        raise BadSchedule(str(error)) from None
    try:
        if path.suffix in (".yaml", ".yml"):
            raw = yaml_bounded(text, str(path), max_depth=MAX_DEPTH, max_nodes=MAX_NODES)
        else:
            raw = json_bounded(text, str(path), max_depth=MAX_DEPTH, parse_float=Decimal)
    except UnusableInput as error:
        raise BadSchedule(str(error)) from None
    if not isinstance(raw, dict) or not isinstance(raw.get("stakes"), list):
        raise BadSchedule(f"{path}: expected an object with a 'stakes' list")
    try:
        effective = dt.datetime.fromisoformat(_text(raw, "effective_from", "schedule"))
    except ValueError:
        raise BadSchedule("schedule.effective_from: not an ISO 8601 date-time") from None
    if effective.utcoffset() is None:
        raise BadSchedule("schedule.effective_from: give a UTC offset (+00:00)")
    common = {
        "effective_from": effective.astimezone(dt.UTC),
        "rulebook": raw.get("rulebook") if isinstance(raw.get("rulebook"), str) else None,
        "operator": raw.get("operator") if isinstance(raw.get("operator"), str) else None,
        "commission_bps": None,
        "cagnotte_bps": None,
        "min_bet": None,
        "max_bet": None,
        "smallest_chip": None,
        "source": f"rake schedule {path.name}: {raw.get('source', '')}"[:500],
    }
    entries = dict(_entry(entry, index, common) for index, entry in enumerate(raw["stakes"]))
    return _text(raw, "room", "schedule"), entries
