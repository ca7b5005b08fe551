"""A linear pre-scan of TOML text, so ``tomllib`` never sees input it would choke on.

``tomllib`` has no limits: a 200 KB file holding one dotted key 100,000 parts deep makes
it build quadratic bookkeeping (tens of GB), 500 nested arrays exhaust the recursion
limit, and 16 MiB of ``[tN]`` headers take 1.6 GB. ``check_toml_shape`` walks the text
once, skipping strings and comments exactly as TOML does, and raises ``FieldError``
(field ``(limit)``) when

* a value would sit more than ``max_toml_depth`` levels deep: table header parts,
  dotted key parts, arrays and inline tables counted together; or
* the record holds more than ``max_toml_items`` keys, table headers and array elements
  (this bounds every array's length too).

It never parses values; malformed text is left for ``tomllib`` to reject. Strings are
matched with possessive patterns, so no input makes the scan backtrack.
"""

from __future__ import annotations

import re

from audit.ingest.errors import FieldError
from audit.ingest.limits import Limits

LIMIT_FIELD = "(limit)"

_INTERESTING = re.compile(r"""[\[\]{}=,.\n"'#]""")
_ML_BASIC = re.compile(r'"""(?:[^"\\]++|\\[\s\S]|"(?!""))*+"""(?:"{1,2}(?!"))?')
_BASIC = re.compile(r'"(?:[^"\\\n]++|\\.)*+"')
_LITERAL = re.compile(r"'[^'\n]*+'")
_ML_LITERAL_END = re.compile(r"'''(?:'{1,2}(?!'))?")


def _string_end(text: str, start: int) -> int:
    """Index just past the string starting at ``start``, or -1 when it never ends
    (``tomllib`` rejects the text there, so nothing after it is parsed)."""
    if text.startswith('"""', start):
        match = _ML_BASIC.match(text, start)
    elif text.startswith("'''", start):
        match = _ML_LITERAL_END.search(text, start + 3)
        return match.end() if match else -1
    elif text[start] == '"':
        match = _BASIC.match(text, start)
    else:
        match = _LITERAL.match(text, start)
    return match.end() if match else -1


class _Scan:
    def __init__(self, text: str, limits: Limits, first_line: int) -> None:
        self.text = text
        self.limits = limits
        self.first_line = first_line
        self.items = 0

    def fail(self, position: int, what: str, limit: str) -> FieldError:
        line = self.text.count("\n", 0, position) + self.first_line
        return FieldError(
            LIMIT_FIELD, f"{what} at line {line}, beyond {self.limits.describe(limit)}"
        )

    def count(self, position: int) -> None:
        self.items += 1
        if self.items > self.limits.max_toml_items:
            raise self.fail(
                position,
                f"more than {self.limits.max_toml_items:,} keys and values",
                "max_toml_items",
            )

    def deep(self, position: int, depth: int) -> None:
        if depth > self.limits.max_toml_depth:
            raise self.fail(position, f"a value nested {depth} levels deep", "max_toml_depth")

    def run(self) -> None:
        text = self.text
        base = 0  # depth of the current [table]
        stack: list[tuple[str, int]] = []  # open arrays / inline tables: (bracket, level)
        mode = "line"  # line start | key | header | value
        level, parts, header_array = base, 1, False
        position = 0
        while True:
            match = _INTERESTING.search(text, position)
            if match is None:
                return
            char, at = match.group(), match.start()
            position = at + 1
            if char == "#":
                end = text.find("\n", at)
                if end < 0:
                    return
                position = end
                continue
            if char in "\"'":
                end = _string_end(text, at)
                if end < 0:
                    return
                position = end
                if mode == "line":
                    mode, level, parts = "key", base, 1
                continue
            if char == "\n":
                if not stack and mode in ("value", "line"):
                    mode, level = "line", base
                continue
            if mode == "line":
                if char == "[":
                    mode, parts = "header", 1
                    header_array = text.startswith("[", position)
                    if header_array:
                        position += 1
                    continue
                mode, level, parts = "key", base, 1
            if mode == "header":
                if char == ".":
                    parts += 1
                elif char == "]":
                    base = parts + (1 if header_array else 0)
                    self.deep(at, base)
                    self.count(at)
                    if header_array and text.startswith("]", position):
                        position += 1
                    mode, level = "value", base
                continue
            if mode == "key":
                if char == ".":
                    parts += 1
                elif char == "=":
                    self.deep(at, level + parts)
                    self.count(at)
                    mode, level = "value", level + parts
                elif char == "}" and stack and stack[-1][0] == "{":
                    _, level = stack.pop()
                    mode = "value"
                continue
            # value mode
            if char in "[{":
                self.count(at)
                stack.append((char, level))
                level += 1
                self.deep(at, level)
                if char == "{":
                    mode, parts = "key", 1
            elif char in "]}":
                if stack:
                    _, level = stack.pop()
            elif char == "," and stack:
                self.count(at)
                if stack[-1][0] == "{":
                    mode, parts = "key", 1
                    level = stack[-1][1] + 1


def check_toml_shape(text: str, limits: Limits, *, first_line: int = 1) -> None:
    """Raise FieldError (field ``(limit)``) if ``text`` is nested or sized beyond limits."""
    # Depth only grows at '[', '{' and '.', items only at '=', ',', '[' and '{': when
    # those characters are few (every real hand history), no scan is needed.
    openers = text.count("[") + text.count("{")
    if (
        openers + text.count(".") < limits.max_toml_depth
        and openers + text.count("=") + text.count(",") <= limits.max_toml_items
    ):
        return
    _Scan(text, limits, first_line).run()
