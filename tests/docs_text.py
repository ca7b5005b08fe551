"""The project's documentation as the tests read it: the README (the map) and the
chapters of ``docs/`` (the reference), so a test checks the text where it now lives.

``chapter("console")`` is ``docs/console.md``; ``all_text()`` is the README followed by
every chapter, in name order.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def chapter(name: str) -> str:
    """The text of ``docs/<name>.md``."""
    return (DOCS / f"{name}.md").read_text(encoding="utf-8")


def all_text() -> str:
    """The README, then every chapter of ``docs/`` in name order, one after another."""
    parts = [README, *sorted(DOCS.glob("*.md"))]
    return "\n".join(path.read_text(encoding="utf-8") for path in parts)
