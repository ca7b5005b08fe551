"""The architecture chapter (``docs/architecture.md``) and the README's recipes stay true:
every top-level module and subpackage of ``replayer``, ``audit``, ``pipelines`` and
``cli`` is named in the chapter's table of where things live, no module of the first
three passes the 600 lines the chapter promises (the declarative citation data aside),
and every file a recipe sends the reader to exists."""

from __future__ import annotations

import re

import pytest

from tests.docs_text import README, ROOT, chapter

LIMIT = 600
EXEMPT = {"replayer/rulebooks/citations_data.py"}
"""Declarative data, named by the chapter as the one exception."""


def _table() -> str:
    text = chapter("architecture")
    return text[text.index("## Where things live") : text.index("No module in")]


@pytest.mark.parametrize("package", ["replayer", "audit", "pipelines", "cli"])
def test_the_table_names_every_module_and_subpackage(package: str) -> None:
    table = _table()
    entries = [
        path.stem if path.suffix == ".py" else path.name
        for path in sorted((ROOT / package).iterdir())
        if not path.name.startswith(("_", "."))
        and (path.suffix == ".py" or (path / "__init__.py").is_file())
    ]
    missing = [name for name in entries if f"`{name}" not in table]
    assert not missing, f"docs/architecture.md's table misses {package}: {missing}"


def test_no_module_passes_the_limit() -> None:
    assert f"exceeds {LIMIT} lines" in chapter("architecture")
    longer = {
        str(path.relative_to(ROOT)): n
        for package in ("audit", "replayer", "pipelines")
        for path in (ROOT / package).rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert set(longer) <= EXEMPT, longer


def test_every_file_a_recipe_names_exists() -> None:
    text = README.read_text(encoding="utf-8")
    recipes = text[text.index("## Recipes") :]
    named = set(
        re.findall(r"`((?:replayer|audit|pipelines|tests|schemas)/[\w/.]+\.(?:py|avsc))`", recipes)
    )
    assert "tests/pipelines/test_event_tables.py" in named
    missing = sorted(path for path in named if "<" not in path and not (ROOT / path).is_file())
    assert not missing, missing
