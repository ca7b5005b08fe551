"""Python source generated from a storage schema, then exec'd: how the compact state's
reader (``audit.store.compact_reader``) and writer (``audit.store.compact_writer``) turn
each storage schema, once, into a function for exactly that schema.

The source is built only from this project's own parsed schemas (names are generated
here, every schema value enters as a named constant or through ``repr``), never from
stored or input data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Source:
    """Python source being generated: lines, fresh local names, the constants it uses
    (``constants``: the helpers the generated code calls, by name)."""

    def __init__(self, constants: Mapping[str, Any]) -> None:
        self.lines: list[str] = []
        self.constants: dict[str, Any] = dict(constants)
        self._count = 0

    def name(self, prefix: str = "v") -> str:
        """A fresh local name."""
        self._count += 1
        return f"{prefix}{self._count}"

    def constant(self, value: Any) -> str:
        """The name the generated code reads ``value`` by."""
        name = self.name("k")
        self.constants[name] = value
        return name

    def add(self, depth: int, line: str) -> None:
        """Append ``line``, indented ``depth`` levels."""
        self.lines.append("    " * depth + line)

    def compiled(self, function: str) -> Any:
        """The function named ``function`` of the source, executed with its constants."""
        namespace = dict(self.constants)
        exec("\n".join(self.lines), namespace)  # source built here from a parsed schema
        return namespace[function]
