"""Shoes over a night's rounds, table by table: each shoe the night closes judged whole as
its ``shoe`` subject, through the path ``replay`` takes (``audit.judging.judge_shoe``),
stored as verdicts and listed in the night's ledger of shoes, ``<day>/shoes``, so the
report shows their findings. One table's rounds are in memory at a time.

A shoe is judged once, whole, even when it spans midnight:

* it is *closed* when one of its rounds records its last coup (``CutCardDrawn``, the cut
  card out, or ``ShoeEnded``), or when the table dealt a round from another shoe after
  its last round;
* the night judges every shoe it closes, with the rounds of the previous night that
  night left open (its ledger's ``open``), and every shoe the previous night left open,
  closed or not ("at the next night");
* a shoe still open at the end of the night, begun this night, is judged at the next:
  its rounds are listed in this night's ledger as ``open``.

The same rounds give the same inputs, so ``replay`` over them stores the same verdict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

from audit.judging import (
    SHOE,
    ShoeKey,
    TermsBook,
    judge_shoe,
    shoe_of,
    shoe_subject,
    shoes_of_rounds,
    verdict_unit,
)
from audit.store import AuditStore, SubjectRecords
from pipelines.night_units import LEDGER, UnitLookup, iter_days_units, unit

SCOPE = "shoes"
"""The ledger of the night's shoes: ``<day>/shoes``."""
Rounds = list[list[dict[str, Any]]]
LAST_COUP = ("CutCardDrawn", "ShoeEnded")
"""The records that make their round a shoe's last."""


def shoes_noted(family: str, dealt: Sequence[str]) -> dict[str, list[str]]:
    """What a partition's ledger of ``family`` notes for the night's shoes: for banked
    rounds, which were dealt from a shoe (``shoe_rounds``, sorted); nothing for another
    family."""
    return {"shoe_rounds": sorted(dealt)} if family == "banked" else {}


def dealt_from_a_shoe(family: str, records: Sequence[Mapping[str, Any]]) -> bool:
    """True when a subject of ``family`` is a banked round dealt from a shoe."""
    return family == "banked" and shoe_of(records) is not None


def night_shoes(
    store: AuditStore, day: date, unit_ids: UnitLookup | None = None
) -> tuple[dict[str, list[str]], set[str]]:
    """table -> the night's rounds dealt from a shoe (from its ledgers: the rounds a
    ledger notes, ``shoes_noted``, or every round it judged at the table when it notes
    none, a ledger stored before the night noted its shoes), with the rounds of the
    shoes the previous night left open; and those carried rounds."""
    tables: dict[str, list[str]] = {}
    for _, record in iter_days_units(store, [day], [LEDGER], unit_ids):
        if record["family"] == "banked":
            noted = set(record["shoe_rounds"]) if "shoe_rounds" in record else None
            for subject, entry in record["ledger"].items():
                if noted is None or subject in noted:
                    tables.setdefault(entry["table"], []).append(subject)
    carried: set[str] = set()
    before = day - timedelta(days=1)
    for _, record in iter_days_units(store, [before], [LEDGER], unit_ids, within=SCOPE):
        for entry in (record.get("open") or {}).values():
            tables.setdefault(entry["table"], []).extend(entry["rounds"])
            carried.update(entry["rounds"])
    return tables, carried


def _closed(key: ShoeKey, shoes: Mapping[ShoeKey, Rounds]) -> bool:
    """Whether the shoe's last coup is known: a round of it records it (``LAST_COUP``), or
    the table dealt from another shoe after its last round."""
    rounds = shoes[key]
    if any(e.get("type") in LAST_COUP for r in rounds for e in r):
        return True
    last = rounds[-1][0]["occurred_at"]
    return any(
        other != key and other[0] == key[0] and dealt[-1][0]["occurred_at"] > last
        for other, dealt in shoes.items()
    )


def shoe_units(
    store: AuditStore,
    day: date,
    tables: Mapping[str, Sequence[str]],
    carried: frozenset[str] | set[str] = frozenset(),
) -> list[SubjectRecords]:
    """The verdict of each shoe the night judges among ``tables``' rounds (the module
    doc; ``carried``: the rounds of the shoes the previous night left open), in table and
    shoe order, and the night's ledger of shoes (none when no table dealt from a shoe)."""
    units: list[SubjectRecords] = []
    ledger: dict[str, dict[str, str]] = {}
    left_open: dict[str, dict[str, Any]] = {}
    flagged: list[str] = []
    terms = TermsBook(store)
    for table, round_ids in sorted(tables.items()):
        shoes = shoes_of_rounds(store, list(dict.fromkeys(round_ids)))
        for key, rounds in sorted(shoes.items()):
            subject = shoe_subject(key)
            deferred = any(r[0]["round_id"] in carried for r in rounds)
            if not (deferred or _closed(key, shoes)):
                left_open[subject] = {"table": table, "rounds": [r[0]["round_id"] for r in rounds]}
                continue
            inputs, verdict = judge_shoe(key, rounds, terms)
            units.append(verdict_unit(inputs, verdict))
            ledger[subject] = {"verdict": units[-1].subject_id, "table": table}
            if verdict.findings:
                flagged.append(subject)
    if ledger or left_open:
        units.append(
            unit(
                LEDGER,
                f"{day.isoformat()}/{SCOPE}",
                [],
                family=SHOE,
                ledger=ledger,
                with_findings=sorted(flagged),
                open=left_open,
            )
        )
    return units
