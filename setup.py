"""Build of casino-audit: the replayer's and the ingest path's hot paths compiled with mypyc
at install.

Everything else is declared in ``pyproject.toml``. ``pip install .`` and ``pip install -e .``
(``make install``) compile the modules each package lists in ``<package>/compiled.py``
(``COMPILED_MODULES``: ``replayer.compiled``, ``audit.compiled``) with mypyc and the
machine's C compiler, and record each compiled source's SHA-256 in its package's
``compiled-sources.json`` (the import-time guard against a stale build,
``replayer.compiled.check_sources``). ``CASINO_AUDIT_PURE_BUILD=1`` builds pure Python:
no extension modules, and those an earlier build left beside the sources removed.
"""

from __future__ import annotations

import ast
import json
import os
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
GROUP = "casino_audit_replayer"
"""mypyc's name for the compiled modules' shared library (``<GROUP>__mypyc``)."""
PACKAGES = ("replayer", "audit")
"""The packages that compile modules, each listing them in ``<package>/compiled.py``."""


def _load_build_rules() -> ModuleType:
    """``replayer/compiled.py`` read as a file: importing ``replayer`` would run the guard
    against the very build being replaced."""
    spec = spec_from_file_location("_replayer_compiled", HERE / "replayer" / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiled_modules(package: str) -> tuple[str, ...]:
    """The literal ``COMPILED_MODULES`` of ``<package>/compiled.py``, read without running
    the file (``audit/compiled.py`` imports ``replayer``)."""
    tree = ast.parse((HERE / package / "compiled.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "COMPILED_MODULES"
            for target in node.targets
        ):
            modules: tuple[str, ...] = ast.literal_eval(node.value)
            return modules
    raise SystemExit(f"{package}/compiled.py lists no COMPILED_MODULES")


_rules = _load_build_rules()
MANIFEST_NAME = _rules.MANIFEST_NAME
PURE_BUILD_VARIABLE = _rules.PURE_BUILD_VARIABLE
source_digest = _rules.source_digest
source_path = _rules.source_path
COMPILED = {package: compiled_modules(package) for package in PACKAGES}
"""Package -> the modules it compiles."""


def manifest(package: str) -> Path:
    """The package's manifest of compiled sources."""
    return HERE / package / MANIFEST_NAME


def remove_compiled() -> None:
    """Delete the manifest and the extension modules an earlier build left in the tree."""
    for package, modules in COMPILED.items():
        manifest(package).unlink(missing_ok=True)
        for module in modules:
            path = source_path(module)
            for built in path.parent.glob(f"{path.stem}.*.so"):
                built.unlink()
    for shared in HERE.glob(f"{GROUP}__mypyc.*.so"):
        shared.unlink()


def compiled_extensions() -> list[Extension]:
    """The mypyc extension modules, and the manifests of the sources they are built from."""
    from mypyc.build import mypycify

    paths = [
        str(source_path(module).relative_to(HERE))
        for modules in COMPILED.values()
        for module in modules
    ]
    for package, modules in COMPILED.items():
        manifest(package).write_text(
            json.dumps({module: source_digest(module) for module in modules}, indent=1) + "\n",
            encoding="utf-8",
        )
    return list(mypycify(paths, opt_level="3", group_name=GROUP))


class BuildMypyc(build_ext):
    """``build_ext`` that runs mypyc (type check and C generation) only when extension
    modules are built, not each time the build backend reads the metadata."""

    def finalize_options(self) -> None:
        self.distribution.ext_modules = compiled_extensions()
        super().finalize_options()


if os.environ.get(PURE_BUILD_VARIABLE) == "1":
    remove_compiled()
    setup()
else:
    # A stand-in until build_ext asks: marks the distribution as one with extension modules.
    setup(ext_modules=[Extension(f"{GROUP}__mypyc", [])], cmdclass={"build_ext": BuildMypyc})
