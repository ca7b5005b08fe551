"""``flat_toml`` (the PHH reader's fast path) agrees with ``tomllib`` exactly.

The oracle is ``tomllib.loads(text, parse_float=Decimal)``: on every document,
``flat_toml`` either returns ``None`` (the reader then asks ``tomllib``) or the very
value ``tomllib`` returns, types and ``Decimal`` exponents included (compared by
``repr``: ``True == 1`` and ``Decimal("1.0") == Decimal("1")`` would hide a difference).
Documents are generated line by line from TOML fragments inside and outside the subset,
valid and invalid, so both the fast path and every way out of it are exercised.
"""

from __future__ import annotations

import tomllib
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.ingest.phh.flat_toml import flat_toml

_KEYS = st.sampled_from(["a", "hand", "b-c", "d_e", "1", "true", "x.y", '"q"', "a b", ""])
_SPACE = st.sampled_from(["", " ", "  ", "\t", " \t"])
_NUMBERS = st.sampled_from(
    ["0", "-0", "+0", "7", "-12", "+3", "10000", "01", "1_000", "0x1f", "0o7", "0b1",
     "1.5", "-0.0", "10112.50", "0.000", "1.", ".5", "1e3", "1.5E-2", "inf", "nan", "-inf",
     "9" * 30, "1.5.2", "--1", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z"]
)  # fmt: skip
_TEXTS = st.text(
    st.sampled_from(["a", "Z", " ", "\t", "#", ",", "[", "]", "=", "é", "\x7f", "\x01", "\\"]),
    max_size=6,
)


def _string(text: str, quote: str) -> str:
    return f"{quote}{text}{quote}"


_STRINGS = st.builds(_string, _TEXTS, st.sampled_from(["'", '"', "'''", '"""']))
_SCALARS = st.one_of(_NUMBERS, _STRINGS, st.sampled_from(["true", "false", "True", "tru"]))


def _array(items: list[str], spaces: list[str], trailing: str) -> str:
    body = ",".join(f"{space}{item}{space}" for item, space in zip(items, spaces, strict=False))
    return f"[{body}{trailing}]"


_ARRAYS = st.builds(
    _array,
    st.lists(st.one_of(_SCALARS, st.sampled_from(["[]", "[1]", "{}", ""])), max_size=4),
    st.lists(_SPACE, min_size=4, max_size=4),
    st.sampled_from(["", ",", " , ", ",,", "\n"]),
)
_VALUES = st.one_of(_SCALARS, _ARRAYS, st.sampled_from(["", "{a = 1}", "[[1], 2]"]))
_COMMENTS = st.one_of(st.just(""), st.builds("#{}".format, _TEXTS))


def _line(key: str, before: str, value: str, after: str, comment: str) -> str:
    return f"{before}{key}{before}={after}{value}{after}{comment}"


_PLAIN_TEXTS = st.text(st.sampled_from(["a", "Z", " ", "\t", "#", ",", "[", "]", "é"]), max_size=6)
_PLAIN_INTEGERS = st.one_of(st.integers(-1000, 1000), st.integers(-(10**20), 10**20)).map(str)
_PLAIN_STRINGS = st.builds(_string, _PLAIN_TEXTS, st.sampled_from(["'", '"']))
_PLAIN_SCALARS = st.one_of(
    _PLAIN_INTEGERS,
    st.decimals(allow_nan=False, allow_infinity=False, places=3).map(str),
    _PLAIN_STRINGS,
    st.sampled_from(["true", "false"]),
)


def _plain_array(items: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(
        _array,
        st.lists(items, max_size=4),
        st.lists(_SPACE, min_size=4, max_size=4),
        st.sampled_from(["", ",", " , "]),
    )


_PLAIN_VALUES = st.one_of(
    _PLAIN_SCALARS,
    _plain_array(_PLAIN_INTEGERS),
    _plain_array(_PLAIN_STRINGS),
    _plain_array(_PLAIN_SCALARS),
)
_PLAIN_KEYS = st.text(st.sampled_from("ahnd_-19"), min_size=1, max_size=4)
_PLAIN_LINE = st.builds(_line, _PLAIN_KEYS, _SPACE, _PLAIN_VALUES, _SPACE, _COMMENTS)
"""Lines of the subset (a decimal's ``str`` may still leave it: ``1E+2``)."""
_LINES = st.one_of(
    _PLAIN_LINE,
    _PLAIN_LINE,
    st.builds(_line, _KEYS, _SPACE, _VALUES, _SPACE, _COMMENTS),
    _COMMENTS,
    _SPACE,
    st.sampled_from(["[table]", "[[table]]", "a.b = 1", "a = 1 2", "= 1", "\ufeffa = 1"]),
)


def _documents(lines: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(
        lambda lines, newline, end: newline.join(lines) + end,
        st.lists(lines, max_size=8),
        st.sampled_from(["\n", "\n", "\n", "\r\n", "\r"]),
        st.sampled_from(["", "\n", "\n\n"]),
    )


_DOCUMENTS = _documents(_LINES)
"""Lines in and out of the subset, mostly declined."""
_PLAIN_DOCUMENTS = _documents(st.one_of(_PLAIN_LINE, _PLAIN_LINE, _COMMENTS, _SPACE))
"""Lines of the subset and blank lines, mostly read by the fast path."""


def _tomllib(text: str) -> str:
    """``repr`` of tomllib's value, or ``"error"``."""
    try:
        return repr(tomllib.loads(text, parse_float=Decimal))
    except tomllib.TOMLDecodeError:
        return "error"


def _agrees(text: str) -> Any:
    fast = flat_toml(text)
    if fast is not None:
        assert repr(fast) == _tomllib(text), text
    return fast


@settings(max_examples=2000, deadline=None)
@given(st.one_of(_DOCUMENTS, _PLAIN_DOCUMENTS))
def test_flat_toml_is_tomllib_or_declines(text: str) -> None:
    _agrees(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", {}),
        ("# only a comment\n\n", {}),
        (
            "a = 'x' # c\nb = \"y\"\nc = [1, -2, +3,]\nd = [ 'p1 f' , 'p2 cc' ]\n",
            {"a": "x", "b": "y", "c": [1, -2, 3], "d": ["p1 f", "p2 cc"]},
        ),
        ("e = 10112.50\nf = true\ng = []\nh = [1, 'a', false, 0.5]", None),
    ],
)
def test_flat_toml_reads_the_subset(text: str, expected: dict[str, Any] | None) -> None:
    """The PHH shapes are read by the fast path itself, not handed to ``tomllib``."""
    fast = _agrees(text)
    assert fast is not None
    if expected is not None:
        assert fast == expected


@pytest.mark.parametrize(
    "text",
    [
        "a = 1\na = 2",  # a key twice: tomllib's error
        "a = 1\r\n",  # a carriage return
        "[t]\na = 1",  # a table
        "a = 1_000",  # an underscore
        "a = 'x\\n'",  # fine as a literal, but
        'a = "x\\n"',  # an escape in a basic string
        "a = [\n1]",  # a multi-line array
        "a = 1979-05-27",  # a date
        "a = 1e3",  # an exponent
        "a = 01",  # a leading zero: tomllib's error
        "a = " + "9" * 5000,  # beyond int's 4,300 digits: the reader's error
    ],
)
def test_flat_toml_declines_the_rest(text: str) -> None:
    """Outside the subset ``flat_toml`` declines (``a = 'x\\n'`` is in it: a literal)."""
    fast = _agrees(text)
    assert (fast is None) == (text != "a = 'x\\n'")
