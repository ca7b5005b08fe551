"""PHH export: stored hands out as PHH, back in unchanged, and PokerKit as the oracle.

* Round trip: a PHH hand -> events -> exported PHH has the same fields as the original
  (every field both hold), and reading the export back gives the same events.
* PokerKit (a test oracle only) loads every exported hand and replays it to the recorded
  finishing stacks, amounts scaled to integer minor units (PokerKit splits a Decimal pot
  into fractions of a cent). Hands PHH cannot express for PokerKit are skipped: run twice
  (``_runs``), forced bets PHH has no word for (``_forced_bets``), cash-outs, void hands.

CI runs the vendored sample (56 Pluribus hands, ``tests/data/phh``) and 200 simulator
hands; ``pytest -m long`` runs all 10,000 Pluribus hands and 2,000 simulator hands.
"""

from __future__ import annotations

import random
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest
from pokerkit import HandHistory

from audit.ingest.phh import PhhRecord, hand_events, iter_phh_records
from audit.ingest.phh.export import hand_phh
from audit.store.versions import version_digest
from cli.main import main
from tests.audit.ingest.test_import_ggpoker import SAMPLE
from tests.poker_sim import simulate
from tests.pokerkit_oracle import pokerkit_replay


def pluribus(phh_root: Path) -> list[Path]:
    """All 10,000 Pluribus hands of the full set."""
    files = sorted((phh_root / "pluribus").rglob("*.phh"))
    assert len(files) == 10_000
    return files


def check_round_trip(path: Path) -> None:
    record = next(iter_phh_records(path))
    events = hand_events(record)
    text = hand_phh(events)
    exported = tomllib.loads(text, parse_float=Decimal)
    shared = [key for key in record.fields if key in exported]
    assert {k: exported[k] for k in shared} == {k: record.fields[k] for k in shared}, path
    assert {"variant", "antes", "actions", "finishing_stacks", "players"} <= set(shared)
    again = hand_events(PhhRecord(Path("export/x.phh"), "file", exported, text))
    assert version_digest(again) == version_digest(events), path
    replay = pokerkit_replay(text)
    assert replay is not None and replay[0] == replay[1], path


def check_simulated(seed: int) -> None:
    rng = random.Random(seed)
    hand = simulate(rng, rng.choice(["NT", "PO"]), hand_number=seed)
    replay = pokerkit_replay(hand_phh(hand.events))
    assert replay is not None and replay[0] == replay[1], seed


def test_pluribus_sample_round_trips_and_replays(phh_sample: Path) -> None:
    """The vendored sample's Pluribus hands (every clone); the long tier does all 10,000."""
    files = sorted((phh_sample / "pluribus").rglob("*.phh"))
    assert len(files) == 56
    for path in files:
        check_round_trip(path)


def test_simulated_sample_replays_in_pokerkit() -> None:
    for seed in range(200):
        check_simulated(seed)


@pytest.mark.long
def test_all_pluribus_and_simulated_hands(phh_root: Path) -> None:
    for path in pluribus(phh_root):
        check_round_trip(path)
    for seed in range(2_000):
        check_simulated(seed)


def test_export_command_writes_what_pokerkit_reads(tmp_path: Path, capsys) -> None:
    store = f"sqlite:///{tmp_path / 'store.db'}"
    (tmp_path / "complaint.txt").write_text(SAMPLE)
    ingest = ["ingest", "--header-zone", "UTC", str(tmp_path / "complaint.txt")]
    assert main(["--store", store, *ingest]) == 0
    out = tmp_path / "hand.phh"
    code = main(
        [
            "--store",
            store,
            "export",
            "--format",
            "phh",
            "--subject",
            "ggpoker/HD100000001",
            str(out),
        ]
    )
    assert code == 0
    fields = tomllib.loads(out.read_text(), parse_float=Decimal)
    assert fields["_fees"] == [{"kind": "jackpot", "amount": Decimal("0.02")}]
    assert fields["_rake"] == Decimal("0.5") and fields["currency"] == "USD"
    assert fields["players"] == ["4f1a9c2e", "b77e01d3", "Hero"]  # from the button's left
    assert (
        main(
            [
                "--store",
                store,
                "export",
                "--since",
                "2024-03-10",
                "--until",
                "2024-03-10",
                str(tmp_path / "day.phhs"),
            ]
        )
        == 0
    )
    assert len(list(HandHistory.loads_all((tmp_path / "day.phhs").read_text()))) == 1
    assert main(["--store", store, "export", "--subject", "nope", str(tmp_path / "x.phh")]) == 1
    assert main(["--store", store, "export", str(tmp_path / "x.phh")]) == 2
    assert "a .phh file holds one hand" in capsys.readouterr().err
