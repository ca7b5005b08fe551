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
and the reference (``tests/project/test_compiled_build.py`` proves an ingest stores the same
bytes, chain hashes and Merkle root either way).

The list is a literal: ``setup.py`` reads it without importing ``audit``. Importing a
package checks nothing: the check that no compiled module of either package is older
than its source is explicit (``check_build``), at the command line's start
(``cli.main``) and in ``make test``, which also reads the sources the install stamp
depends on from here (``python -m audit.compiled sources``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from replayer import compiled as replayer_compiled
from replayer.compiled import MANIFEST_NAME, check_sources, source_path

MANIFEST = Path(__file__).with_name(MANIFEST_NAME)
"""Module -> SHA-256 of the source it was compiled from; written by ``setup.py``."""

COMPILED_MODULES = (
    "audit.ingest.avro_files",
    "audit.ingest.avro_shape",
    "audit.ingest.invariants",
    "audit.ingest.phh.actions",
    "audit.ingest.phh.building",
    "audit.ingest.notation.cards",
    "audit.ingest.phh.flat_toml",
    "audit.ingest.notation.amounts",
    "audit.ingest.phh.reader",
    "audit.ingest.notation.time",
    "audit.ingest.toml_guard",
    "audit.store.canonical_json",
    "audit.store.chain",
    "audit.store.compact",
    "audit.store.merkle",
    "audit.store.versions",
)
"""The per-event work of an ingest: decode (Avro, PHH), flatten, invariants, encode, digest,
chain."""


def check_build() -> None:
    """Raise ``StaleBuildError`` naming every compiled module, the replayer's or these,
    whose source changed since it was compiled (``replayer.compiled.check_sources``)."""
    check_sources()
    check_sources(COMPILED_MODULES, MANIFEST)


def source_files() -> list[str]:
    """The source file of every compiled module of both packages, relative to the tree."""
    modules = replayer_compiled.COMPILED_MODULES + COMPILED_MODULES
    return [str(source_path(m).relative_to(replayer_compiled.ROOT)) for m in modules]


def main(argv: list[str]) -> int:
    """``python -m audit.compiled sources``: the compiled sources, one a line (the
    ``Makefile``'s install stamp); ``check``: ``check_build``, its message and exit 2 when
    the build is stale."""
    if argv == ["sources"]:
        print("\n".join(source_files()))
        return 0
    if argv == ["check"]:
        try:
            check_build()
        except replayer_compiled.StaleBuildError as error:
            print(error, file=sys.stderr)
            return 2
        return 0
    print("usage: python -m audit.compiled sources|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
