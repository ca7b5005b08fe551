"""Files a user hands in, read within bounds: size, kind of file, nesting, YAML aliases.

Every file given on the command line that is not an ingest input (a rake schedule, an
evidence bundle, a key, a manifest) is read through here, so no input makes a command
hang, exhaust memory or end in a traceback (issue #26, item 1):

* ``read_bounded`` reads only a regular file (a FIFO, a device or a directory is refused
  before it is opened, so ``/dev/zero`` or a pipe never blocks the command) and at most
  ``max_bytes`` of it;
* ``json_bounded`` refuses JSON nested more than ``max_depth`` arrays and objects deep
  before ``json`` (whose C scanner recurses) sees it;
* ``yaml_bounded`` composes YAML (``yaml.SafeLoader``) counting every node as it would be
  once its aliases are expanded, and refuses more than ``max_nodes`` of them or nesting
  deeper than ``max_depth`` (a 642-byte "billion laughs" file expands to 10^9 nodes),
  before any value is built or formatted; a recursive alias is refused.

Each raises ``UnusableInput`` whose message names the file and the limit.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml
from yaml.events import AliasEvent

#: Strings of JSON (skipped by the depth scan); possessive, so nothing backtracks.
_JSON_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class UnusableInput(ValueError):
    """A file that cannot be read within the bounds; the message names it."""


def read_bounded(path: Path, max_bytes: int) -> bytes:
    """The bytes of ``path``, a regular file of at most ``max_bytes`` bytes."""
    try:
        mode = path.stat().st_mode
    except OSError as error:
        raise UnusableInput(f"{path}: {error.strerror or error}") from None
    if not stat.S_ISREG(mode):
        raise UnusableInput(f"{path}: not a regular file")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as file:
            data = file.read(max_bytes + 1)
    except OSError as error:
        raise UnusableInput(f"{path}: {error.strerror or error}") from None
    if len(data) > max_bytes:
        raise UnusableInput(f"{path}: larger than {max_bytes:,} bytes")
    return data


def json_depth(text: str) -> int:
    """How many arrays and objects deep ``text`` nests (strings skipped), in one pass."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def json_bounded(text: str, where: str, *, max_depth: int, **options: Any) -> Any:
    """``json.loads(text, **options)`` once ``text`` nests at most ``max_depth`` deep;
    raises UnusableInput naming ``where`` for deeper or malformed text."""
    if json_depth(text) > max_depth:
        raise UnusableInput(f"{where}: JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(text, **options)
    except (ValueError, RecursionError) as error:
        raise UnusableInput(f"{where}: not valid JSON ({error})"[:500]) from None


class _BoundedLoader(yaml.SafeLoader):  # type: ignore[misc]  # no PyYAML stubs: SafeLoader is Any
    """A SafeLoader that charges each node composed, aliases at their expanded size."""

    max_depth = 0
    max_nodes = 0

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._nodes = 0
        self._sizes: dict[int, int] = {}

    def _charge(self, count: int) -> None:
        self._nodes += count
        if self._nodes > self.max_nodes:
            raise UnusableInput(
                f"more than {self.max_nodes:,} values once its aliases are expanded"
            )

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(AliasEvent):
            node = super().compose_node(parent, index)
            size = self._sizes.get(id(node))
            if size is None:
                raise UnusableInput("an alias refers to the node that holds it (recursive)")
            self._charge(size)
            return node
        self._depth += 1
        if self._depth > self.max_depth:
            raise UnusableInput(f"nested deeper than {self.max_depth} levels")
        before = self._nodes
        node = super().compose_node(parent, index)
        self._depth -= 1
        self._charge(1)
        self._sizes[id(node)] = self._nodes - before
        return node


def yaml_bounded(text: str, where: str, *, max_depth: int, max_nodes: int) -> Any:
    """``yaml.safe_load(text)`` within the bounds; raises UnusableInput naming ``where``."""
    loader = type("Loader", (_BoundedLoader,), {"max_depth": max_depth, "max_nodes": max_nodes})
    try:
        composer = loader(text)
        try:
            return composer.get_single_data()
        finally:
            composer.dispose()
    except UnusableInput as error:
        raise UnusableInput(f"{where}: YAML {error}") from None
    except (yaml.YAMLError, ValueError, TypeError, RecursionError) as error:
        raise UnusableInput(f"{where}: not valid YAML ({error})"[:500]) from None


__all__ = ["UnusableInput", "json_bounded", "json_depth", "read_bounded", "yaml_bounded"]
