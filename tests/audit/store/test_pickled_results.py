"""What one process hands another arrives whole, compiled or pure.

The console verifies the chain in a worker process and receives its ``ChainReport``; the
nightly's workers send back what they judged. The frozen dataclasses the build compiles
(mypyc gives them no ``__dict__``, and a frozen class refuses pickle's ``__setattr__``)
rebuild through ``replayer.frozen.rebuilt_by_init``: each object below, made by the code
that makes it in use, must come back equal through pickle, whichever build is installed.
"""

from __future__ import annotations

import pickle
import random
from datetime import UTC, datetime
from typing import Any

from audit.store import AuditStore
from replayer.casino import adjudicate_round
from replayer.casino.coup import Coup
from replayer.casino.garage import check_banker_runs
from replayer.casino.record import Bet
from replayer.casino.settlement import Expected
from replayer.findings import FindingKind
from replayer.poker import adjudicate_hand
from replayer.poker.settlement import Settlement
from replayer.poker.table import seat_table
from simulate.casino import SIMULATORS, plant
from tests.audit.store.test_store import hand
from tests.poker_sim import simulate


def _round_trip(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def test_a_verdict_with_findings_and_pots_comes_back_equal() -> None:
    verdicts = [
        adjudicate_hand(simulate(random.Random(seed), "NT", rulebook="gg-2022-cash-holdem").events)
        for seed in range(40)
    ]
    for verdict in verdicts:
        back = _round_trip(verdict)
        assert back == verdict and type(back) is type(verdict)
        assert back.pots == verdict.pots and back.findings == verdict.findings
    assert any(v.pots for v in verdicts)


def test_a_banked_round_s_verdict_steps_and_banker_runs_come_back_equal() -> None:
    """Every game's rounds, clean and planted (steps, expectations, findings), and a
    chemin de fer table's banker runs."""
    start = datetime(2024, 5, 4, 18, 0, tzinfo=UTC)
    for game, simulator in sorted(SIMULATORS.items()):
        rng = random.Random(f"pickled-{game}")
        rounds = [simulator(rng, f"{game}-{n}", start) for n in range(20)]
        planted = [plant(events, "overpaid") for events in rounds]
        for events in rounds + [p[0] for p in planted if p is not None]:
            verdict = adjudicate_round(events)
            back = _round_trip(verdict)
            assert back == verdict and type(back) is type(verdict)
            assert back.steps == verdict.steps and back.findings == verdict.findings
        if game == "chemin_de_fer":
            runs = check_banker_runs(rounds)
            assert _round_trip(runs) == runs
    bet = Bet("b1", "p1", "straight", 100, 3, (17,), None, True)
    assert _round_trip(bet) == bet
    expected = Expected(350, "GG-2022", "won", 5)
    assert _round_trip(expected) == expected
    coup = Coup(("AH", "9S"), ("KD", "2C"), ("player", "banker"), False)
    assert _round_trip(coup) == coup


def test_a_finding_comes_back_equal() -> None:
    from replayer.findings import Finding

    finding = Finding(FindingKind.MISPAID_POT, "h/1", "MO-97/2010 art.10", "why", 5, 4, -1, {})
    assert _round_trip(finding) == finding


def test_a_table_and_a_settlement_come_back_equal() -> None:
    events = simulate(random.Random(3), "NT", rulebook="gg-2022-cash-holdem").events
    table = seat_table(dict(events[0]))
    assert _round_trip(table) == table
    verdict = adjudicate_hand(events)
    settlement = Settlement([10, 0], None, True, True, verdict.pots, 0, 1, 0)
    assert _round_trip(settlement) == settlement


def test_a_chain_report_its_rows_and_checkpoints_come_back_equal(store_url: str) -> None:
    with AuditStore(store_url) as store:
        store.append([hand("p/1"), hand("p/2")])
        checkpoint = store.checkpoint()
        report = store.verify()
        rows = list(store.recorder.iter_chain_rows())
    assert report.ok and checkpoint is not None and rows
    assert _round_trip(report) == report
    assert _round_trip(checkpoint) == checkpoint
    assert [_round_trip(row) for row in rows] == rows
