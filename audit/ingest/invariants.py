"""Record invariants checked at ingest, for every event family.

Schema conformance comes from Avro itself; these are the rules a schema cannot say:

* amounts, stacks, meters, seats and sequences are non-negative integers (money is
  integer minor units, never negative on the wire; a correction is a new event);
* card strings are real cards (rank ``23456789TJQKA``, suit ``cdhs``) or ``??``
  (not disclosed), and no card appears twice within one subject (one deck per hand for
  poker; banked games deal from multi-deck shoes, so uniqueness applies to poker only);
* currency codes are three upper-case letters (ISO 4217 form);
* within one input unit, sequence numbers do not repeat.

Whether the chips of a hand are conserved is *not* an ingest rule: a hand whose recorded
payouts do not add up is a faithful record of a mispayment, and hiding it in quarantine
would hide the finding. The replayer reports it as ``mispaid_pot``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from audit.ingest.errors import FieldError

CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|\?\?)$")
CURRENCY = re.compile(r"^[A-Z]{3}$")
CARD_FIELDS = frozenset({"cards", "card", "order"})
UNIQUE_CARD_FAMILIES = frozenset({"poker"})


def _walk(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _walk(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")
    else:
        yield path, value


def check_record(record: Mapping[str, Any]) -> None:
    """Raise FieldError for the first invariant a flat record breaks."""
    for path, value in _walk(record, ""):
        leaf = path.split(".")[-1].split("[")[0]
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and value < 0:
            raise FieldError(path, f"must not be negative, got {value}")
        if leaf in CARD_FIELDS and isinstance(value, str) and not CARD.match(value):
            raise FieldError(path, f"{value!r} is not a card (rank 2-9TJQKA, suit cdhs, or ??)")
        if leaf == "currency" and isinstance(value, str) and not CURRENCY.match(value):
            raise FieldError(path, f"{value!r} is not an ISO 4217 currency code")


class UnitChecker:
    """Cross-record rules within one subject's run of records."""

    def __init__(self, family: str):
        self.unique_cards = family in UNIQUE_CARD_FAMILIES
        self.cards_seen: set[str] = set()
        self.sequences: set[int] = set()

    def check(self, record: Mapping[str, Any]) -> None:
        """Raise FieldError when the record clashes with earlier ones of the unit."""
        sequence = record["sequence"]
        if sequence in self.sequences:
            raise FieldError("sequence", f"sequence {sequence} appears twice for this subject")
        if self.unique_cards:
            dealt = [
                (path, value)
                for path, value in _walk(record, "")
                if path.split(".")[-1].split("[")[0] in ("cards",) and value != "??"
            ]
            if record.get("type") == "CardsDealt":
                seen = set(self.cards_seen)
                for path, card in dealt:
                    if card in seen:
                        raise FieldError(path, f"card {card} was already dealt in this hand")
                    seen.add(card)
                self.cards_seen = seen
        self.sequences.add(sequence)
