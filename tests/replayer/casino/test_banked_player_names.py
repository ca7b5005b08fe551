"""Banked-game players in owed totals (issue #23 item 1), on SQLite and PostgreSQL: a
round's ``player_id`` is the operator's account only where the table declares it
(``TableTermsDeclared.player_accounts``); otherwise it is a seat label, named with its
table (``table bac-1 seat p0``) and never added up with the same label at another table."""

from __future__ import annotations

import io
from pathlib import Path

from audit.families import family_named
from audit.ingest.avro_files import write_events
from audit.judging import current_findings, replay
from audit.show.finding_rows import write_owed_summary
from audit.store import AuditStore
from audit.wording import owed_totals
from cli.main import main
from simulate.tables import operator_declarations
from tests.project.test_banked_slots_cli import write_day

LABELLED = ("bac-1", "rou-1")
"""Two tables of the folder whose rounds owe money to the seat labelled p0."""


def _players(store: AuditStore) -> dict[str, int]:
    totals = owed_totals(current_findings(store))
    return {party: sum(s.to_player for s in by.values()) for party, by in totals.players.items()}


def test_seat_labels_are_per_table_until_the_table_declares_accounts(
    store_url: str, tmp_path: Path
) -> None:
    write_day(tmp_path / "day", faults=True)
    assert main(["--store", store_url, "ingest", str(tmp_path / "day")]) == 0
    store = AuditStore(store_url)
    try:
        replay(store)
        players = _players(store)
        per_table = {f"table {t} seat p0": players.get(f"table {t} seat p0") for t in LABELLED}
        assert all(per_table.values()), players  # both tables owe p0 something
        assert "p0" not in players  # never one "p0" across tables
        out = io.StringIO()
        write_owed_summary(list(current_findings(store)), out)
        assert "table bac-1 seat p0" in out.getvalue()
        assert "\n    p0 " not in out.getvalue()

        # The operator declares that these tables' rounds carry its player accounts: the
        # same account at two tables is one player, owed the sum.
        declared = tmp_path / "tables" / "tables.avro"
        declared.parent.mkdir()
        tables = [(t, "punto_banco" if t.startswith("bac") else "roulette") for t in LABELLED]
        write_events(
            declared,
            family_named("table"),
            operator_declarations(tables, "Casino Estoril", "EUR", player_accounts=True),
        )
        assert main(["--store", store_url, "ingest", str(declared.parent)]) == 0
        [stored] = store.records_of("table", "bac-1")
        assert stored["player_accounts"] is True
        replay(store)
        after = _players(store)
        assert after["p0"] == sum(per_table.values())
        assert not any(party.endswith("seat p0") for party in after)
        assert "table bj-1 seat p1" in after  # an undeclared table keeps its labels
    finally:
        store.close()
