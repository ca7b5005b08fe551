"""A shoe (``shoe:<table id>:<shoe id>``): the rounds one table dealt from one shoe, judged
whole by ``replayer.casino.shoes.check_shoe`` (``audit.judging.shoes``). Who and what its
verdict is about comes from its first round's ``RoundOpened`` and its table's terms in
force, as a banked round's does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from audit.grouping.subject_index import SubjectIndex
from audit.judging.inputs import Inputs
from audit.judging.kinds.banked import player_accounts, rounds_of
from audit.judging.kinds.record import EvidencePart, Feed, SubjectKind
from audit.store import StoreReads
from replayer.casino.shoes import SHOE_ARTICLES, ShoeVerdict, check_shoe

SHOE = "shoe"
"""The subject kind of a shoe (``shoe:<table id>:<shoe id>``)."""


ShoeKey = tuple[str, str]
"""(table id, shoe id)."""


def shoe_subject(key: ShoeKey) -> str:
    """The subject id of the shoe ``key``."""
    return f"{SHOE}:{key[0]}:{key[1]}"


def shoe_of(records: Sequence[Mapping[str, Any]]) -> ShoeKey | None:
    """The shoe a banked round was dealt from: (table, shoe id) of its ``RoundOpened``;
    None for a round of a game without a shoe, or one naming none."""
    first = records[0] if records else {}
    if first.get("type") != "RoundOpened" or first.get("game") not in SHOE_ARTICLES:
        return None
    shoe = first.get("shoe_id")
    return None if shoe is None else (str(first.get("table_id")), str(shoe))


BATCH = 24
"""Rounds read at a time while looking for a shoe's rounds at its table."""


def rounds_of_shoe(
    store: StoreReads,
    subject: str,
    index: SubjectIndex | None = None,
    judged: Mapping[str, Any] | None = None,
) -> list[list[dict[str, Any]]]:
    """The stored banked rounds dealt from the shoe ``subject``: by default a scan of the
    rounds; with an ``index`` and the shoe's ``judged`` verdict (its context names the
    table and the first round's start), the table's rounds from that start on, read a
    batch at a time up to the first round dealt from another shoe (a table deals from one
    shoe at a time: a round from another shoe closes it, as the nightly judges shoes,
    ``pipelines.detectors.shoes``), so a page reads its shoe, not the store."""
    about = (judged or {}).get("context") or {}
    table, since = about.get("table"), about.get("started_at")
    if index is None or not table or not since:
        return [
            list(records)
            for _, records in store.iter_subjects("banked")
            if (key := shoe_of(records)) is not None and shoe_subject(key) == subject
        ]
    later = list(index.subjects_at("banked", str(table), str(since)))
    dealt: list[list[dict[str, Any]]] = []
    for start in range(0, len(later), BATCH):
        batch = later[start : start + BATCH]
        found = store.records_of_many("banked", batch)
        for round_id in batch:
            records = found.get(round_id) or []
            key = shoe_of(records)
            if key is not None and shoe_subject(key) == subject:
                dealt.append(list(records))
            elif key is not None and dealt:
                return dealt
    return dealt


def _shoe_inputs(
    store: StoreReads, subject: str, record: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """A shoe's inputs: its stored rounds, then its table's declarations when stored."""
    rounds = rounds_of_shoe(store, subject)
    key = shoe_of(rounds[0]) if rounds else None
    groups = [("banked", str(r[0]["round_id"])) for r in rounds]
    if key is not None and store.records_of("table", key[0]):
        groups.append(("table", key[0]))
    return groups


def _table_of_round(records: Sequence[dict[str, Any]]) -> str | None:
    """The table of a round dealt from a shoe (None: dealt from none)."""
    key = shoe_of(records)
    return None if key is None else key[0]


def _adjudicate(inputs: Inputs, with_steps: bool) -> ShoeVerdict:
    return check_shoe(rounds_of(inputs.events))


def _named(subject: str) -> bool:
    return subject.startswith(f"{SHOE}:")


SHOES = SubjectKind[ShoeVerdict](
    SHOE,
    _adjudicate,
    "RoundOpened",
    title="SHOE",
    noun="shoe",
    about=player_accounts,
    across=_named,
    feed=Feed("banked", _table_of_round),
    evidence=EvidencePart(
        _shoe_inputs,
        "round",
        "the bundle holds the rounds stored under this shoe when it was made; a round of it "
        "stored later, outside the signed history, is not in it",
    ),
)
