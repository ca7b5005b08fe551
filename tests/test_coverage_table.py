"""The coverage table of docs/replayer.md ("Coverage of the regulations") stays true.

Every row has one of the five statuses; a judged or partly judged row names tests that
pytest collects; a row that is not judged says why; every citation the code emits (the
same collection ``tests/test_citations.py`` resolves) names a row; and only the rows
``PENDING_MERGE`` lists may wait for the merge of the cross-record work.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from replayer.rulebooks.citations import keys
from tests.test_citations import EMITTED

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "replayer.md"
SECTION = "## Coverage of the regulations"
STATUSES = frozenset({"judged", "partly", "no record", "not judged", "pending-merge"})
REGULATIONS = ("MO-97/2010 ", "PT-217/2007 ", "GG-2022 ")
_QUIET = ("-p", "no:cacheprovider", "-p", "no:xdist")
NODE = re.compile(r"`(tests/[\w/]+\.py::[\w:]+)`")

#: Rows judged across records by the work merged beside this table (sessions at a poker
#: table, tournaments across hands and the clock, shoes and chemin de fer across coups):
#: (article, rule) as the table writes them. The lead fills their status at the merge.
PENDING_MERGE: frozenset[tuple[str, str]] = frozenset(
    {
        ("MO-97/2010 art.1(2)", "the button passes clockwise after each hand"),
        ("MO-97/2010 art.4(2)", "tournament: no chips taken from the table"),
        ("PT-217/2007 I.4", "six decks (a card no more often than the shoe holds)"),
        ("PT-217/2007 I.13", "the cut, the warning card, the first card burnt"),
        ("PT-217/2007 I.14", "the warning card out: the current coup is the shoe's last"),
        ("PT-217/2007 I.16", "at least four seated players"),
        (
            "PT-217/2007 I.29, I.32",
            "the first hand right of the croupier; a winning banker keeps it at a sabot's end",
        ),
        ("PT-217/2007 I.33", "a continuing banker may keep or halve the bank at a new sabot"),
        (
            "PT-217/2007 I.48-50, I.55-57, I.59",
            "banco priority; banco avec la table; no pooled stakes",
        ),
        ("PT-217/2007 I.60-61", "the cards to the highest seated stake, ties by seat"),
        ("PT-217/2007 I.77-91", "passing the hand; the auction; exclusions from bidding"),
        ("PT-217/2007 I.97", "every card drawn is given and never put back"),
        (
            "PT-217/2007 I.107",
            "play past closing only if the sabot began at least 20 minutes before",
        ),
        ("PT-217/2007 n.º 13", "rest at most two hands; no bet in three or more: leave"),
        ("PT-217/2007 n.º 24", "at least four players; suspended below; closed after 15 minutes"),
        ("PT-217/2007 n.º 26", "a table change only after losing the cave"),
        ("PT-217/2007 n.º 28", "a joining player brings the table's average capital"),
        ("PT-217/2007 n.º 29-30", "the mão rotates clockwise each deal"),
        (
            "PT-217/2007 n.º 75, 78-79",
            "the initial cave, the minimum entry, a rebuy below the minimum",
        ),
        ("PT-217/2007 n.º 80", "an entrant may not take the mão's seat that hand"),
        ("PT-217/2007 n.º 89", "no bet for five hands: post a big bet"),
        ("PT-217/2007 n.º 90", "a returning player posts the missed blinds, dead"),
        (
            "PT-217/2007 n.º 91, 111",
            "a missing first bet: the hand valid, the player posts to play",
        ),
        ("PT-217/2007 n.º 117", "an entry is personal, not transferable"),
        ("PT-217/2007 n.º 119", "deals only at the final table"),
        ("PT-217/2007 n.º 122", "a sanctioned player the last place; disqualified, no prize"),
        ("PT-217/2007 n.º 123", "the button and blinds as notified"),
        ("PT-217/2007 n.º 124", "win-the-button tournaments"),
        ("GG-2022 Apostas perdidas Blind", "a new cash player posts an entry blind or waits"),
        (
            "GG-2022 Política de limite de tempo de jogo",
            "out of time: fold, or check when not facing a bet",
        ),
        (
            "GG-2022 Política de tabela de férias",
            "leaving within ten hands; blocks in twelve hours",
        ),
        (
            "GG-2022 Política de torneios",
            "late registration closes in the money; then no guarantee",
        ),
        (
            "GG-2022 Política de desconexões de torneios e de não participação",
            "timeout fold or check; absent players still post",
        ),
        (
            "GG-2022 Política de desconexões de torneios e de não participação",
            "two players may not sit out together",
        ),
        ("GG-2022 Poker Regras", "chips added only between hands, never removed"),
        ("GG-2022 Política de torneios", "tournament deals"),
        ("GG-2022 Bounty Política de torneios", "a bounty paid only when the bubble bursts"),
        (
            "GG-2022 Política de reembolso (staking)",
            "unregistered before the start: stakes returned",
        ),
        ("GG-2022 live II 1.3.1", "eight decks; the cut card seven from the back"),
        ("GG-2022 live II 3.2.2, 3.5.4", "a reshuffle after the cut card; the last hand"),
        ("GG-2022 live III 3.3", "the cut card four decks from the back"),
    }
)


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


def test_only_the_named_rows_wait_for_the_merge() -> None:
    pending = {(article, rule) for article, rule, status, _ in ROWS if status == "pending-merge"}
    assert pending <= PENDING_MERGE, sorted(pending - PENDING_MERGE)


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
