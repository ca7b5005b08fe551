"""Event families: one Avro schema each (``schemas/*.avsc``), one subject per aggregate.

A family's envelope names its subject (``hand_id``, ``round_id``, ``machine_id``, ...);
its ``body`` is a union of past-tense record types. This module is the one place that
maps schema files to families.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import fastavro
from fastavro.types import Schema

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


@dataclass(frozen=True)
class Family:
    """An event family and its schema."""

    name: str
    schema_file: str
    subject_key: str

    @property
    def schema_path(self) -> Path:
        return SCHEMA_DIR / self.schema_file

    @property
    def raw_schema(self) -> dict[str, Any]:
        return _load_json(self.schema_path)

    @property
    def version(self) -> int:
        return int(self.raw_schema.get("version", 1))

    @property
    def full_name(self) -> str:
        raw = self.raw_schema
        return f"{raw['namespace']}.{raw['name']}"

    @property
    def parsed_schema(self) -> Schema:
        return _parse(self.schema_path)

    @cached_property
    def namespace(self) -> str:
        return str(self.raw_schema["namespace"])

    @property
    def record_names(self) -> tuple[str, ...]:
        """Names of the body's record types, in schema order."""
        body = next(f for f in self.raw_schema["fields"] if f["name"] == "body")
        return tuple(t["name"] for t in body["type"])

    @cached_property
    def later_optional_fields(self) -> frozenset[str]:
        """Body fields a later schema version added (``"added_in"``), each optional.

        A record read without one (written under the earlier version, resolved to the
        field's null default) is stored without it, so the same declaration is stored
        the same way under every version and re-ingesting an old file is not a conflict.
        """
        body = next(f for f in self.raw_schema["fields"] if f["name"] == "body")
        return frozenset(
            field["name"]
            for record in body["type"]
            for field in record["fields"]
            if "added_in" in field
        )

    def without_unset_additions(self, flat: dict[str, Any]) -> dict[str, Any]:
        """``flat`` without the later optional fields that are null (see above)."""
        for name in self.later_optional_fields:
            if name in flat and flat[name] is None:
                del flat[name]
        return flat


FAMILIES: dict[str, Family] = {
    family.name: family
    for family in (
        Family("poker", "poker_hand.avsc", "hand_id"),
        Family("banked", "banked_round.avsc", "round_id"),
        Family("slots", "slot_machine.avsc", "machine_id"),
        Family("tournament", "tournament.avsc", "tournament_id"),
        Family("incident", "incident.avsc", "incident_id"),
        Family("table", "table_terms.avsc", "table_id"),
    )
}


def family_named(name: str) -> Family:
    return FAMILIES[name]


def family_of_schema(full_name: str) -> Family | None:
    """The family whose envelope record has this full name (as in an Avro file header)."""
    for family in FAMILIES.values():
        if family.schema_path.exists() and family.full_name == full_name:
            return family
    return None


@cache
def _load_json(path: Path) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(path.read_text())  # our schema: a JSON object
    return schema


@cache
def _parse(path: Path) -> Schema:
    return fastavro.parse_schema(_load_json(path))
