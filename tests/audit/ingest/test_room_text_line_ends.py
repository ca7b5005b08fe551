"""Room text read with every line-end form (issue 41 item 4): LF, CRLF, a CR alone (old
Mac OS exports: before, a CR-only GG file was refused whole, 0 of 14 hands stored),
CRLF with an extra CR, and the forms mixed in one file. The same hands are stored the
same whatever the ends, and a broken line is named by the same line number."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.ingest.errors import RecordRejected
from audit.ingest.limits import Limits
from audit.ingest.room_text.reader import iter_text_units
from audit.store import SubjectRecords
from tests.audit.ingest.test_import_real_cash_forms import GG_FLOP_ORDER, GG_THRICE

HANDS = (GG_THRICE, GG_FLOP_ORDER)
FORMS = {
    "LF": lambda lines: "\n".join(lines) + "\n",
    "CRLF": lambda lines: "\r\n".join(lines) + "\r\n",
    "CR": lambda lines: "\r".join(lines) + "\r",
    "CR, no final end": lambda lines: "\r".join(lines),
    "CRCRLF": lambda lines: "\r\r\n".join(lines) + "\r\r\n",
    "mixed": lambda lines: "".join(
        line + ("\r", "\n", "\r\n")[n % 3] for n, line in enumerate(lines)
    ),
}


def _lines() -> list[str]:
    lines: list[str] = []
    for hand in HANDS:
        lines += [*hand.splitlines(), ""]
    return lines


def _units(tmp_path: Path, data: bytes) -> list[SubjectRecords | RecordRejected]:
    path = tmp_path / "hands.txt"
    path.write_bytes(data)
    return list(iter_text_units(path, (), Limits(), header_zone="UTC"))


def _records(units: list[SubjectRecords | RecordRejected]) -> list[list[dict[str, object]]]:
    assert all(isinstance(u, SubjectRecords) for u in units), units
    return [
        [{k: v for k, v in r.items() if k != "source"} for r in u.records]
        for u in units
        if isinstance(u, SubjectRecords)
    ]


@pytest.mark.parametrize("form", FORMS)
def test_every_line_end_form_stores_the_same_hands(tmp_path: Path, form: str) -> None:
    expected = _records(_units(tmp_path, FORMS["LF"](_lines()).encode()))
    assert len(expected) == len(HANDS)
    got = _records(_units(tmp_path, FORMS[form](_lines()).encode()))
    assert got == expected


@pytest.mark.parametrize("form", ["CR", "mixed", "CRLF"])
def test_a_broken_line_is_named_by_its_number_whatever_the_ends(tmp_path: Path, form: str) -> None:
    lines = _lines()
    broken = next(n for n, line in enumerate(lines) if line.startswith("Hero: calls"))
    lines[broken] = "Hero: calls $abc"
    units = _units(tmp_path, FORMS[form](lines).encode())
    [bad] = [u for u in units if isinstance(u, RecordRejected)]
    assert f"line {broken + 1}" in str(bad.reason) + str(bad.field), bad
    assert sum(isinstance(u, SubjectRecords) for u in units) == len(HANDS) - 1
