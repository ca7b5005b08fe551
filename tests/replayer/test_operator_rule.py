"""One operator rule (``audit.wording.operator_name``): the report's *By operator*
counts, the owed totals (report, console, ``findings --summary``) name the same
operator for the same finding: the table's declared one, never a guess from its id."""

from __future__ import annotations

import io

from audit.show.finding_rows import write_owed_summary
from audit.wording import NO_OPERATOR, operator_name, owed_totals
from pipelines.report_counts import by_operator


def _row(finding_id: str, table: str, operator: str | None) -> dict:
    return {
        "finding_id": finding_id,
        "kind": "mispaid_pot",
        "subject": f"{table}/1",
        "citation": "GG-2022 Política de mãos atadas",
        "reason": "",
        "expected": {"3": 1595},
        "recorded": {"3": 1545},
        "difference": {"3": -50},
        "detail": {
            "event": "settlement",
            "pots": [
                {
                    "amount": 1645,
                    "expected": {"3": 1595},
                    "pot_index": 0,
                    "rake": 50,
                    "recorded": {"3": 1545},
                    "winners": [3],
                }
            ],
            "rake_recorded": 50,
        },
        "subject_kind": "poker",
        "currency": "USD",
        "players": {"3": "b77e01d3"},
        "table": table,
        "operator": operator,
        "family": "poker",
    }


ROWS = [
    _row("f1", "gg-nt-001", "GGPoker"),
    _row("f2", "casino-lisboa/pb-3", None),  # a prefix is not a declaration
    _row("f3", "mo-po-002", ""),
]


def test_the_counts_and_the_owed_tables_name_the_same_operators() -> None:
    counted = set(by_operator(ROWS))
    owed = set(owed_totals(ROWS).operators)
    assert counted == owed == {"GGPoker", NO_OPERATOR}
    assert [operator_name(r) for r in ROWS] == ["GGPoker", NO_OPERATOR, NO_OPERATOR]
    assert by_operator(ROWS)[NO_OPERATOR]["mispaid_pot"] == 2


def test_findings_summary_uses_the_rule() -> None:
    out = io.StringIO()
    write_owed_summary(ROWS, out)
    text = out.getvalue()
    assert "GGPoker" in text and NO_OPERATOR in text
    assert "casino-lisboa" not in text.replace("casino-lisboa/pb-3", "")
    assert "(unnamed)" not in text and "(unknown operator)" not in text
