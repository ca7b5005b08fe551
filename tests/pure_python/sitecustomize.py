"""The project's packages from their ``.py`` sources only: never a compiled extension module.

Python imports ``sitecustomize`` at start-up from the first folder of ``sys.path`` holding
one; ``tests/project/test_compiled_build.py`` puts this folder first on ``PYTHONPATH`` to run the
pure-Python fallback beside the compiled build (``replayer.compiled``). ``PYTHONPATH`` is
inherited, so the nightly's spawned workers load the sources too.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from types import ModuleType

PROJECT_PACKAGES = frozenset({"replayer", "audit", "pipelines", "simulate", "console", "cli"})


class SourceOnlyFinder:
    """A meta-path finder ahead of the standard one: a module of the project's packages is
    found only as a ``.py`` file (or a package's ``__init__.py``) on its search path."""

    @classmethod
    def find_spec(
        cls, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name.partition(".")[0] not in PROJECT_PACKAGES:
            return None
        for entry in sys.path if path is None else path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name)
            if spec is not None and spec.loader is not None:
                return spec
        return None


sys.meta_path.insert(0, SourceOnlyFinder)
