"""The coverage table of docs/replayer.md ("Coverage of the regulations") stays true.

Every row has one of the four statuses; a judged or partly judged row names tests that
pytest collects; a row that is not judged says why; and every citation the code emits
(the same collection ``tests/audit/show/test_citations.py`` resolves) names a row.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from replayer.rulebooks.citations import keys
from tests.audit.show.test_citations import EMITTED

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "replayer.md"
SECTION = "## Coverage of the regulations"
STATUSES = frozenset({"judged", "partly", "no record", "not judged"})
REGULATIONS = ("MO-97/2010 ", "PT-217/2007 ", "GG-2022 ")
_QUIET = ("-p", "no:cacheprovider", "-p", "no:xdist")
NODE = re.compile(r"`(tests/[\w/]+\.py::[\w:]+)`")


def _rows() -> list[tuple[str, str, str, str]]:
    text = DOC.read_text(encoding="utf-8")
    assert SECTION in text, f"{DOC} has no section {SECTION!r}"
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in body.splitlines():
        if not line.startswith("| ") or line.startswith("| article "):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        assert len(cells) == 4, f"{DOC}: a row needs 4 cells: {line!r}"
        rows.append((cells[0], cells[1], cells[2], cells[3]))
    return rows


ROWS = _rows()


def _folded(key: str) -> str:
    match = re.fullmatch(r"(.*\S)\s+\([^()]*\)", key)
    return " ".join((match.group(1) if match else key).casefold().split())


def _row_keys() -> set[str]:
    return {_folded(key) for article, *_ in ROWS for key in keys(article)}


def _covered(key: str, rows: set[str]) -> bool:
    """``key`` is a row's article, encloses one (``GG-2022 live II``) or lies in one
    (``art.11(2)(2)`` in ``art.11(2)``)."""
    return any(
        key == row or key.startswith(row + sep) or row.startswith(key + sep)
        for row in rows
        for sep in (" ", ".", "(")
    )


def test_the_table_lists_every_audited_row() -> None:
    assert len(ROWS) >= 173
    assert all(article.startswith(REGULATIONS) for article, *_ in ROWS)


def test_every_row_has_a_status_and_its_proof_or_reason() -> None:
    for article, rule, status, proof in ROWS:
        where = f"{article} ({rule})"
        assert status in STATUSES, f"{where}: status {status!r} is not one of {sorted(STATUSES)}"
        if status in ("judged", "partly"):
            assert NODE.search(proof), f"{where}: {status} names no test"
        if status != "judged":
            assert NODE.sub("", proof).strip(" ;,"), f"{where}: {status} says nothing of why"


def test_every_test_the_table_names_is_collected() -> None:
    nodes = sorted({node for *_, proof in ROWS for node in NODE.findall(proof)})
    assert nodes
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", *_QUIET, *nodes],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    collected = {line.strip() for line in result.stdout.splitlines()}
    missing = [node for node in nodes if not any(c.startswith(node) for c in collected)]
    assert result.returncode == 0 and not missing, (missing, result.stdout[-2000:])


def test_every_citation_the_code_emits_names_a_row() -> None:
    rows = _row_keys()
    missing = sorted(
        {
            (key, citation)
            for citation in EMITTED
            for key in map(_folded, keys(citation))
            if key.startswith(tuple(r.casefold() for r in REGULATIONS)) and not _covered(key, rows)
        }
    )
    assert not missing, missing
