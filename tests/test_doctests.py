"""The examples in the replayer's docstrings are true: ``doctest`` over every module.

The examples document the rules with their articles (pots and the odd chip, rake under a
cap, hand rankings, the minimum raise); a failing example is a wrong rule or a wrong
document, so it fails the suite.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import replayer

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(replayer.__path__, prefix=f"{replayer.__name__}.")
)


@pytest.mark.parametrize("name", ["replayer", *MODULES])
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_rules_have_examples() -> None:
    finder = doctest.DocTestFinder()
    examples = sum(
        len(test.examples)
        for name in MODULES
        for test in finder.find(importlib.import_module(name))
    )
    assert examples >= 8
