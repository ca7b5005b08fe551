"""The replayer's compiled hot path: which modules mypyc compiles, and the guard against a
stale build (for every package that compiles modules).

Each package that compiles modules lists them in its own ``<package>/compiled.py`` as a
literal ``COMPILED_MODULES`` tuple (``setup.py`` reads the literal without importing the
package; the ``Makefile`` asks ``python -m audit.compiled sources``): here the replayer's, in
``audit/compiled.py`` the ingest path's (``replayer`` never imports ``audit``).
``setup.py`` compiles every listed module with mypyc at install (``pip install .``,
``pip install -e .``, ``make install``) unless ``CASINO_AUDIT_PURE_BUILD=1`` (then the
package stays pure Python). The ``.py`` files stay beside their extension modules: they are
the fallback and the reference (``tests/project/test_compiled_build.py`` proves both give
byte-identical verdicts and findings).

A compiled build records the SHA-256 of every compiled module's source in its package's
manifest (``replayer/compiled-sources.json``, ``audit/compiled-sources.json``).
``check_sources`` (with a package's list and manifest; ``audit.compiled.check_build``
checks both packages, explicitly: at the command line's start and in ``make test``, never
on import) refuses to go on when a compiled module's ``.py`` has changed since it was compiled: the
old machine code would silently stand in for the edited source. Rebuild (``make install``)
or delete the extension modules (``make clean``) to go on.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path

PURE_BUILD_VARIABLE = "CASINO_AUDIT_PURE_BUILD"
"""Set to ``1`` at install to build the package without compiling anything."""

MANIFEST_NAME = "compiled-sources.json"
"""A package's manifest, beside its ``compiled.py``."""
MANIFEST = Path(__file__).with_name(MANIFEST_NAME)
"""Module -> SHA-256 of the source it was compiled from; written by ``setup.py``."""

COMPILED_MODULES = (
    "replayer.events",
    "replayer.findings",
    "replayer.casino.adjudicate",
    "replayer.casino.blackjack",
    "replayer.casino.cards",
    "replayer.casino.chemin_de_fer",
    "replayer.casino.coup",
    "replayer.casino.garage",
    "replayer.casino.past_posting",
    "replayer.casino.punto_banco",
    "replayer.casino.record",
    "replayer.casino.roulette",
    "replayer.casino.roulette_layout",
    "replayer.casino.settlement",
    "replayer.casino.steps",
    "replayer.casino.verdict",
    "replayer.poker.betting",
    "replayer.poker.board",
    "replayer.poker.cards",
    "replayer.poker.deal",
    "replayer.poker.dispatch",
    "replayer.poker.evaluator",
    "replayer.poker.fees",
    "replayer.poker.hand",
    "replayer.poker.pots",
    "replayer.poker.rake",
    "replayer.poker.replay",
    "replayer.poker.runs",
    "replayer.poker.settlement",
    "replayer.poker.showdown",
    "replayer.poker.steps",
    "replayer.poker.table",
    "replayer.poker.tournament_chips",
    "replayer.poker.verdict",
    "replayer.poker.wording",
)
"""The per-event work of a poker hand's replay (events, findings, betting, settlement) and
of a banked round's (its record, each game's rules, settlement, past posting)."""

ROOT = Path(__file__).resolve().parents[1]
"""The folder holding the project's packages (``replayer``, ``audit``)."""


class StaleBuildError(ImportError):
    """A compiled module's source changed after it was compiled."""


def source_path(module: str) -> Path:
    """The ``.py`` file of ``module`` (a compiled module of any package) under ``ROOT``."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(module: str) -> str:
    """SHA-256 (hex) of ``module``'s source file."""
    return hashlib.sha256(source_path(module).read_bytes()).hexdigest()


def recorded_digests(manifest: Path | None = None) -> dict[str, str]:
    """The manifest of the compiled build (the replayer's unless ``manifest``); empty for a
    pure build."""
    path = MANIFEST if manifest is None else manifest
    if not path.is_file():
        return {}
    recorded: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return recorded


def has_extension(module: str) -> bool:
    """Whether an extension module (``.so``/``.pyd``) of ``module`` sits beside its source."""
    path = source_path(module)
    return any(path.parent.glob(f"{path.stem}.*.so")) or any(path.parent.glob(f"{path.stem}.*.pyd"))


def stale_modules(
    modules: tuple[str, ...] = COMPILED_MODULES, manifest: Path | None = None
) -> list[str]:
    """Compiled modules (an extension module beside the source) whose source is not the one
    the manifest records: changed since it was compiled, or never recorded. The replayer's
    unless ``modules`` and their ``manifest`` are given (another package's)."""
    recorded = recorded_digests(manifest)
    return [
        module
        for module in modules
        if recorded.get(module) != source_digest(module) and has_extension(module)
    ]


def check_sources(
    modules: tuple[str, ...] = COMPILED_MODULES, manifest: Path | None = None
) -> None:
    """Raise ``StaleBuildError`` naming every compiled module whose source changed since it
    was compiled (the replayer's, or ``modules`` under ``manifest``). Without a manifest (a
    pure build, which removes the extension modules) this is one ``stat``; with one, a hash
    of each compiled module's source."""
    if not (MANIFEST if manifest is None else manifest).is_file():
        return
    stale = stale_modules(modules, manifest)
    if stale:
        raise StaleBuildError(
            "compiled modules older than their source (the machine code would "
            f"stand in for the edited .py): {', '.join(stale)}. Rebuild with `make install` "
            f"(or `pip install -e .`), or build pure with {PURE_BUILD_VARIABLE}=1"
        )


def loaded_compiled(modules: tuple[str, ...] = COMPILED_MODULES) -> dict[str, bool]:
    """Module -> whether the module imported is the compiled one (its file an extension)."""
    return {
        module: not str(importlib.import_module(module).__file__).endswith(".py")
        for module in modules
    }


def build_description(modules: tuple[str, ...] = COMPILED_MODULES) -> str:
    """One line for benchmark outputs: how many of the compiled modules are loaded compiled."""
    loaded = loaded_compiled(modules)
    compiled = sum(loaded.values())
    if compiled == len(loaded):
        return f"compiled (mypyc, {compiled} modules)"
    if not compiled:
        return "pure Python"
    return f"partly compiled ({compiled} of {len(loaded)} modules)"
