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
from collections.abc import Mapping
from typing import Any

from audit.ingest.errors import FieldError

CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|\?\?)$")
CURRENCY = re.compile(r"^[A-Z]{3}$")
CARD_FIELDS = frozenset({"cards", "card", "order"})
UNIQUE_CARD_FAMILIES = frozenset({"poker"})


def _check_mapping(mapping: Mapping[str, Any], prefix: str) -> None:
    # Hot path (every ingested record): the common values (non-negative ints, plain text,
    # None, timestamps) are judged inline; a field's path is built only for an error.
    for key, value in mapping.items():
        kind = type(value)
        if kind is int:
            if value < 0:
                raise FieldError(f"{prefix}{key}", f"must not be negative, got {value}")
        elif kind is str:
            if key in CARD_FIELDS or key == "currency":
                _check_value(key, value, f"{prefix}{key}")
        elif kind is dict or kind is list or kind is tuple:
            _check_value(key, value, f"{prefix}{key}")


def _check_value(key: str, value: Any, path: str) -> None:
    kind = type(value)
    if kind is int:
        if value < 0:
            raise FieldError(path, f"must not be negative, got {value}")
    elif kind is str:
        if key in CARD_FIELDS and not CARD.match(value):
            raise FieldError(path, f"{value!r} is not a card (rank 2-9TJQKA, suit cdhs, or ??)")
        if key == "currency" and not CURRENCY.match(value):
            raise FieldError(path, f"{value!r} is not an ISO 4217 currency code")
    elif kind is dict:
        _check_mapping(value, f"{path}.")
    elif kind is list or kind is tuple:
        for index, item in enumerate(value):
            _check_value(key, item, f"{path}[{index}]")


def check_record(record: Mapping[str, Any]) -> None:
    """Raise FieldError for the first invariant a flat record breaks."""
    _check_mapping(record, "")


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
        if self.unique_cards and record.get("type") == "CardsDealt":
            seen = set(self.cards_seen)
            for index, card in enumerate(record.get("cards", ())):
                if card == "??":
                    continue
                if card in seen:
                    raise FieldError(
                        f"cards[{index}]", f"card {card} was already dealt in this hand"
                    )
                seen.add(card)
            self.cards_seen = seen
        self.sequences.add(sequence)
