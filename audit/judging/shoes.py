"""Shoes: the rounds one table dealt from one shoe, judged together as a ``shoe`` subject.

A shoe (``RoundOpened.shoe_id`` at a table, card games only) is judged whole
(``replayer.casino.shoes.check_shoe``): no single round shows that a card came out more
often than the decks hold, or that a round was dealt after the shoe's last coup. Its
subject id is ``shoe:<table id>:<shoe id>``. ``replay`` judges every shoe of the rounds it
judges and the nightly every shoe the night closes (``pipelines.detectors.shoes``), both
through ``judge_shoe``: the same rounds give the same inputs, so the same verdict unit,
whichever path judged them. The inputs are the rounds' events in play order and the
table's terms in force at the shoe's first round (who runs the table).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.shoe import SHOE, SHOES, ShoeKey, shoe_of, shoe_subject
from audit.judging.path import TermsBook, started_at
from audit.store import StoreReads
from replayer.casino.shoes import ShoeVerdict, play_order

__all__ = ["ShoeKey", "judge_shoe", "shoe_of", "shoe_subject", "shoes_of_rounds"]


def shoes_of_rounds(
    store: StoreReads, round_ids: Iterable[str]
) -> dict[ShoeKey, list[list[dict[str, Any]]]]:
    """The stored rounds among ``round_ids`` by shoe, each shoe's rounds in play order."""
    shoes: dict[ShoeKey, list[list[dict[str, Any]]]] = {}
    for _, records in store.iter_records("banked", round_ids):
        key = shoe_of(records)
        if key is not None:
            shoes.setdefault(key, []).append(list(records))
    for rounds in shoes.values():
        rounds.sort(key=play_order)
    return shoes


def judge_shoe(
    key: ShoeKey, rounds: Sequence[Sequence[dict[str, Any]]], terms: TermsBook | None = None
) -> tuple[Inputs, ShoeVerdict]:
    """The inputs (the rounds' events in play order, the table's terms in force at the
    first) and the verdict of one shoe (its kind's adjudicator,
    ``audit.judging.kinds.shoe``)."""
    ordered = sorted((r for r in rounds if r), key=play_order)
    events = [event for records in ordered for event in records]
    declared = None
    if terms is not None and ordered:
        declared = terms.in_force(key[0], started_at("banked", ordered[0]))
    inputs = Inputs(SHOE, shoe_subject(key), events, terms=declared)
    return inputs, SHOES.adjudicate(inputs, False)
