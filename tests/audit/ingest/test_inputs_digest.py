"""A verdict's inputs digest (its unit id's last part) is the SHA-256 of each input's
canonical JSON followed by a zero byte: the digest every stored verdict was named by. It
is made from bytes now (``canonical_bytes``, ``bytes_digest``), and must stay the same
digest, or re-judging a store would store every verdict again under a new id.

The oracle is the standard library: ``json.dumps`` with sorted keys and no spaces, each
part UTF-8 encoded and hashed one by one.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from audit.judging import Inputs
from audit.store import bytes_digest, record_digest

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def oracle_json(record: dict[str, Any]) -> str:
    def default(value: Any) -> str:
        assert isinstance(value, datetime)
        return value.isoformat()

    return json.dumps(
        record, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=default
    )


def oracle_digest(parts: list[str]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\x00")
    return digest.hexdigest()[:32]


EVENTS = [
    {
        "type": "HandStarted",
        "sequence": 0,
        "hand_id": "t/1",
        "occurred_at": T0,
        "seats": [{"seat": 1, "player_id": "Zoë"}],
    },
    {
        "type": "ActionTaken",
        "sequence": 1,
        "hand_id": "t/1",
        "occurred_at": T0.replace(microsecond=120),
        "amount": 22_500,
    },
]
TERMS = {"type": "TableTermsDeclared", "sequence": 0, "rake_percent": 5, "currency": "EUR"}
CONFLICT = {"event_sequence": 1, "received": "{}", "stored": None}


@pytest.mark.parametrize(
    "inputs",
    [
        Inputs("poker", "t/1", EVENTS),
        Inputs("poker", "t/1", EVENTS, terms=TERMS, related=EVENTS[:1], conflicts=[CONFLICT]),
        Inputs("table", "t", []),
    ],
    ids=["events", "every input", "none"],
)
def test_the_inputs_digest_is_the_digest_verdicts_were_always_named_by(inputs: Inputs) -> None:
    parts = [oracle_json(r) for r in inputs.events]
    parts.append("terms:" + (oracle_json(inputs.terms) if inputs.terms is not None else "none"))
    parts += ["related:" + oracle_json(r) for r in inputs.related]
    parts += ["conflict:" + oracle_json(r) for r in inputs.conflicts]
    parts.append("rulebook:gg-2022-cash-holdem")
    assert inputs.digest("gg-2022-cash-holdem") == oracle_digest(parts)


@pytest.mark.parametrize("parts", [[], [""], ["a", "b"], ["€", "", "x\x00y"]])
def test_a_digest_of_bytes_is_the_digest_of_the_strings_they_encode(parts: list[str]) -> None:
    assert bytes_digest([p.encode() for p in parts]) == record_digest(parts) == oracle_digest(parts)
