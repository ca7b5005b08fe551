"""The examples in the replayer's docstrings are true: ``doctest`` over every module.

The examples document the rules with their articles (pots and the odd chip, rake under a
cap, hand rankings, the minimum raise); a failing example is a wrong rule or a wrong
document, so it fails the suite. A module compiled by mypyc (``replayer.compiled``) keeps
no docstrings doctest can find: its examples are read from its ``.py`` source and run
against the compiled module's names.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import replayer

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(replayer.__path__, prefix=f"{replayer.__name__}.")
)


def with_examples(name: str) -> tuple[ModuleType, dict[str, Any]]:
    """(the module whose docstrings hold the examples, the names they run with): the
    module itself, or for a compiled one its source executed apart and the compiled
    module's names."""
    module = importlib.import_module(name)
    names = dict(vars(module))
    built = Path(str(module.__file__))
    if built.suffix == ".py":
        return module, names
    source = built.with_name(f"{built.name.split('.')[0]}.py")
    spec = importlib.util.spec_from_file_location(f"{name}__examples", source)
    assert spec is not None and spec.loader is not None
    examples = sys.modules.get(spec.name)
    if examples is None:  # registered first: dataclasses look their module up
        examples = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(examples)
    return examples, names


@pytest.mark.parametrize("name", ["replayer", *MODULES])
def test_docstring_examples_hold(name: str) -> None:
    module, names = with_examples(name)
    result = doctest.testmod(module, globs=names, optionflags=doctest.ELLIPSIS, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_rules_have_examples() -> None:
    finder = doctest.DocTestFinder()
    examples = sum(
        len(test.examples) for name in MODULES for test in finder.find(with_examples(name)[0])
    )
    assert examples >= 8
