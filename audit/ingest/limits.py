"""Bounds on what one input may make ingest hold in memory, and integer widths.

Every limit is a named default, overridable by an environment variable (read when an
ingest starts) or by passing ``Limits(...)`` to ``audit.ingest.pipeline.ingest``. Input
beyond a limit is quarantined with a reason naming the limit and its variable; it never
reaches the parser that would blow up on it (TOML is pre-scanned before ``tomllib`` sees
it, Avro blocks are decompressed with a ceiling before ``fastavro`` decodes them).

* ``max_phh_file_bytes`` (16 MiB, ``CASINO_AUDIT_MAX_PHH_FILE_BYTES``): one PHH file
  (``.phh``/``.phhs``);
* ``max_toml_depth`` (64, ``CASINO_AUDIT_MAX_TOML_DEPTH``): how deep a TOML value may
  sit, table header parts, dotted key parts, arrays and inline tables counted together;
* ``max_toml_items`` (100,000, ``CASINO_AUDIT_MAX_TOML_ITEMS``): keys, table headers and
  array elements of one PHH record (so also the length of any one array);
* ``max_phhs_sections`` (100,000, ``CASINO_AUDIT_MAX_PHHS_SECTIONS``): sections of one
  ``.phhs`` file;
* ``max_events_per_subject`` (100,000, ``CASINO_AUDIT_MAX_EVENTS_PER_SUBJECT``): events
  of one subject in one input unit (a PHH hand, a run of Avro records);
* ``max_values_per_subject`` (2,500,000, ``CASINO_AUDIT_MAX_VALUES_PER_SUBJECT``):
  fields, array items and map entries of one subject in one input unit (a slot machine's
  100,000 meter readings hold about 2,000,000);
* ``max_avro_block_bytes`` (4 MiB, ``CASINO_AUDIT_MAX_AVRO_BLOCK_BYTES``): one Avro
  container block, decompressed (a record never spans blocks, so this bounds a record;
  writers cut blocks at 16-64 KiB by default, and decoded Avro can take 80 times its
  encoded size: an array of three-byte records becomes an array of dicts).

Integer widths are the schemas' and are not configurable: an Avro ``int`` field holds
-2^31..2^31-1, a ``long`` -2^63..2^63-1; every family's ``sequence`` must fit an ``int``
whatever its schema says (the store's aggregate version is ``sequence + 2``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields

INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1
#: Largest envelope ``sequence`` in any family.
MAX_SEQUENCE = INT_MAX

MIB = 1 << 20
ENV_PREFIX = "CASINO_AUDIT_"


class BadLimit(ValueError):
    """A limit's environment variable is not a positive integer."""


@dataclass(frozen=True)
class Limits:
    """The bounds one ingest applies (see the module docstring)."""

    max_phh_file_bytes: int = 16 * MIB
    max_toml_depth: int = 64
    max_toml_items: int = 100_000
    max_phhs_sections: int = 100_000
    max_events_per_subject: int = 100_000
    max_values_per_subject: int = 2_500_000
    max_avro_block_bytes: int = 4 * MIB

    @staticmethod
    def env_name(name: str) -> str:
        """``max_toml_depth`` -> ``CASINO_AUDIT_MAX_TOML_DEPTH``."""
        return ENV_PREFIX + name.upper()

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Limits:
        """The defaults, each overridden by its environment variable when set."""
        environ = dict(os.environ) if environ is None else environ
        values: dict[str, int] = {}
        for item in fields(cls):
            text = environ.get(cls.env_name(item.name), "").strip().replace("_", "")
            if not text:
                continue
            try:
                value = int(text)
            except ValueError:
                value = 0
            if value <= 0:
                raise BadLimit(f"{cls.env_name(item.name)}={text!r} is not a positive integer")
            values[item.name] = value
        return cls(**values)

    def describe(self, name: str) -> str:
        """``the limit of 64 (CASINO_AUDIT_MAX_TOML_DEPTH)``, for rejection reasons."""
        return f"the limit of {getattr(self, name):,} ({self.env_name(name)})"


DEFAULT_LIMITS = Limits()
