"""The ingest path's compiled modules: the per-event work of an ingest, compiled with mypyc.

``setup.py`` compiles ``COMPILED_MODULES`` with the replayer's (``replayer.compiled``,
which holds the build's rules and the guard against a stale build) unless
``CASINO_AUDIT_PURE_BUILD=1``. They are what ingest does for every event: reading an Avro
container's records and flattening them (``avro_files``, ``avro_shape``), reading a PHH
file into events (``phh.*``: its TOML, bounded by ``toml_guard`` and read by
``phh.flat_toml``, its actions, cards, amounts and time), the invariants
(``invariants``), the compact state's encoding (``compact``), the event digests
(``versions``, ``canonical_json``), the hash chain's links (``chain``) and the Merkle
tree (``merkle``). Their ``.py`` files stay beside the extension modules: the fallback
and the reference (``tests/test_compiled_build.py`` proves an ingest stores the same
bytes, chain hashes and Merkle root either way).

The list is a literal: ``setup.py`` and the ``Makefile`` read it without importing
``audit``. Importing ``audit`` checks that none of these is older than its source.
"""

from __future__ import annotations

from pathlib import Path

from replayer.compiled import MANIFEST_NAME, check_sources

MANIFEST = Path(__file__).with_name(MANIFEST_NAME)
"""Module -> SHA-256 of the source it was compiled from; written by ``setup.py``."""

COMPILED_MODULES = (
    "audit.ingest.avro_files",
    "audit.ingest.avro_shape",
    "audit.ingest.invariants",
    "audit.ingest.phh.actions",
    "audit.ingest.phh.building",
    "audit.ingest.phh.cards",
    "audit.ingest.phh.flat_toml",
    "audit.ingest.phh.money",
    "audit.ingest.phh.reader",
    "audit.ingest.phh.time",
    "audit.ingest.toml_guard",
    "audit.store.canonical_json",
    "audit.store.chain",
    "audit.store.compact",
    "audit.store.merkle",
    "audit.store.versions",
)
"""The per-event work of an ingest: decode (Avro, PHH), flatten, invariants, encode, digest,
chain."""


def check_ingest_sources() -> None:
    """``replayer.compiled.check_sources`` for these modules (``StaleBuildError``)."""
    check_sources(COMPILED_MODULES, MANIFEST)
