"""``casino-audit show ID``: every kind of subject explained for an inspector
(``audit.show``), over one small store: a synthetic day (poker, banked rounds, slot
machines, tournaments, table declarations) plus hand-made subjects with planted faults
and hostile names, a stored collusion suspicion and an investigated incident."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from audit.explain import explanation, show_lines
from audit.families import family_named
from audit.ingest.avro_files import write_events
from audit.judging import current_findings
from audit.show.common import FIRST
from audit.show.model import Part, PokerStory, Role
from audit.store import AuditStore
from cli.main import main
from tests.three_handed import three_handed

DAY = date(2025, 3, 1)
NOON = datetime(2025, 3, 1, 12, tzinfo=UTC)
HOSTILE = "p2\x1b[31mred\x1b]0;owned\x07"
HOSTILE_SHOWN = "p2\\e[31mred\\e]0;owned\\x07"
HOSTILE_TABLE = "gg-x\x1b[2J"


def poker_hand(
    hand_id: str,
    *,
    table: str = "gg-x",
    award: int = 150,
    rulebook: str | None = "gg-2022-cash-holdem",
    variant: str = "NT",
    names: tuple[str, str, str] = ("p1", HOSTILE, "p3"),
    minute: int = 0,
) -> list[dict[str, Any]]:
    """Three-handed (``tests.three_handed``): seat 2 (the big blind) wins 150."""
    at = NOON + timedelta(minutes=minute)
    return three_handed(
        hand_id, at, table=table, players=names, award=award, rulebook=rulebook, variant=variant
    )


def declaration(table: str, rulebook: str, game: str, **terms: Any) -> dict[str, Any]:
    base = {
        "event_id": f"{table}#terms-0",
        "table_id": table,
        "sequence": 0,
        "occurred_at": datetime(2024, 1, 1, tzinfo=UTC),
        "type": "TableTermsDeclared",
        "effective_from": datetime(2024, 1, 1, tzinfo=UTC),
        "rulebook": rulebook,
        "operator": "Casino \x1b[5mBlink",
        "game": game,
        "currency": "EUR",
        "rake_min_bps": None,
        "rake_max_bps": None,
        "rake_cap": None,
        "rake_cap_big_blinds": None,
        "rake_cap_per": "hand",
        "no_flop_no_drop": False,
        "commission_bps": None,
        "cagnotte_bps": None,
        "min_bet": 100,
        "max_bet": None,
        "smallest_chip": 1,
        "source": None,
    }
    return {**base, **terms}


def coup(n: int, bank: int, *, banker: str = "ana", stake: int = 10_000) -> list[dict]:
    """A chemin de fer coup at table cdf-x the banker wins on naturals, settled right."""
    from simulate.casino import RoundWriter

    writer = RoundWriter(f"cdf-x/{n}", NOON + timedelta(minutes=n))
    writer.emit(
        "RoundOpened",
        rulebook="pt-217-2007-chemin-de-fer",
        table_id="cdf-x",
        game="chemin_de_fer",
        currency="EUR",
        min_bet=100,
        cagnotte_bps=500,
    )
    writer.emit("BetPlaced", bet_id="bank", player_id=banker, bet_type="bank", amount=bank)
    writer.emit("BetPlaced", bet_id="s0", player_id="rui", bet_type="ponto", amount=stake)
    for to, card in [("player", "2c"), ("banker", "9h"), ("player", "3d"), ("banker", "Kd")]:
        writer.emit("CardDealt", to=to, card=card)
    cagnotte = stake * 500 // 10_000
    writer.emit("CagnotteTaken", amount=cagnotte)
    writer.emit("PayoutMade", bet_id="bank", player_id=banker, amount=bank + stake - cagnotte)
    return writer.events


def slot_machine() -> list[dict[str, Any]]:
    """A machine's day: reconfigured at midday (a new paytable), one winning game lost."""
    import random

    from simulate.slots import machine_month

    events = machine_month(
        random.Random("show"),
        "slot-x",
        datetime(2025, 3, 1, tzinfo=UTC),
        days=1,
        games_per_day=60,
        readings_per_day=6,
    )
    lost = next(
        i
        for i, e in enumerate(events)
        if e["type"] == "GamePlayed" and e["win"] and not e["handpaid"] and i > len(events) // 2
    )
    middle = next(i for i, e in enumerate(events) if e["occurred_at"] >= NOON)
    config = {
        **events[0],
        "occurred_at": events[middle]["occurred_at"],
        "paytable_id": "pt-95",
        "theoretical_return_bps": 9500,
    }
    kept = [*events[:middle], config, *events[middle:lost], *events[lost + 1 :]]
    return [{**e, "sequence": i, "event_id": f"slot-x/{i}"} for i, e in enumerate(kept)]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from pipelines.night_units import unit
    from replayer.findings import Finding, FindingKind
    from tests.small_day import write_small_day

    base = tmp_path_factory.mktemp("show")
    day = base / "day"
    write_small_day(day, DAY)
    own = base / "own"
    own.mkdir()
    hands = poker_hand("gg-x/1", award=120) + poker_hand("gg-x/2", minute=5)
    hands += poker_hand(f"{HOSTILE_TABLE}/3", table=HOSTILE_TABLE, award=120, minute=10)
    hands += poker_hand("po-x/1", table="po-x", rulebook=None, variant="PO", minute=15)
    hands += poker_hand("ns-x/1", table="ns-x", rulebook=None, variant="NS", minute=20)
    write_events(own / "hands.avro", family_named("poker"), hands)
    tables = [
        declaration(
            "gg-x",
            "gg-2022-cash-holdem",
            "NT",
            rake_min_bps=500,
            rake_max_bps=500,
            no_flop_no_drop=True,
        ),
        declaration("mo-x", "mo-97-2010-omaha", "PO", rake_min_bps=200, rake_max_bps=600),
        declaration("cdf-x", "pt-217-2007-chemin-de-fer", "chemin_de_fer", cagnotte_bps=500),
    ]
    write_events(own / "tables.avro", family_named("table"), tables)
    coups = [coup(1, 100_000), coup(2, 50_000)]  # half the bank taken after one won coup
    write_events(own / "coups.avro", family_named("banked"), [e for c in coups for e in c])
    write_events(own / "slot.avro", family_named("slots"), slot_machine())
    url = f"sqlite:///{base / 'store.db'}"
    assert main(["--store", url, "ingest", str(day), str(own)]) == 0
    assert main(["--store", url, "replay"]) == 0

    store = AuditStore(url)
    pair = ("p1", HOSTILE)
    suspicion = Finding(
        FindingKind.COLLUSION_SUSPECTED,
        f"pair:{pair[0]}|{pair[1]}",
        "GG-2022 Política sobre mãos em jogo",
        "collusion score 7.10 over 140 shared hands (strongest: fold z=6.00)",
        expected={"score_below": 5.5},
        recorded=7.1,
        difference=1.6,
        detail={
            "players": list(pair),
            "features": {"flow": 2.0, "fold": 6.0, "soft": 1.0, "whipsaw": 0.0, "team": 3.0},
            "shared_hands": 140,
            "evidence_hands": ["gg-x/1", "gg-x/2", "gg-x/404"],
            "window": {"as_of": DAY.isoformat(), "days": 30},
        },
    )
    store.append([unit("collusion", DAY.isoformat(), [suspicion], figures={})])
    from audit.incidents.investigation import append_findings, investigate
    from audit.incidents.record import record_incident

    record_incident(
        store,
        "inc-x",
        kind="server_failure",
        window_start=NOON,
        window_end=NOON + timedelta(minutes=10),
        recorded_at=NOON + timedelta(hours=2),
        tables=["gg-x"],
        description="servers down \x1b[1m",
        reported_by="ops",
    )
    append_findings(store, investigate(store, "inc-x", as_of=NOON + timedelta(days=1)))
    rows = list(current_findings(store))
    yield {"url": url, "store": store, "rows": rows}
    store.close()


def show(built: dict[str, Any], subject: str) -> list[str]:
    lines = show_lines(built["store"], subject)
    assert lines is not None, subject
    text = "\n".join(lines)
    assert "\x1b" not in text and "\x07" not in text  # names are hostile input
    assert "FINDINGS:" in text and "VERDICT HISTORY" in text
    return lines


def with_findings(built: dict[str, Any], kind: str) -> str:
    return next(r["subject"] for r in built["rows"] if r["subject_kind"] == kind)


def test_a_mispaid_pot_names_the_player_the_amounts_and_what_is_owed(built) -> None:
    lines = show(built, "gg-x/1")
    text = "\n".join(lines)
    assert lines[0] == "POKER HAND gg-x/1"
    assert "rulebook    gg-2022-cash-holdem" in text and "currency    EUR" in text
    assert f"seat 2 ({HOSTILE_SHOWN}) posts the big blind of EUR 1.00" in text
    assert (
        f"seat 2 ({HOSTILE_SHOWN}): put in EUR 1.00; the rules pay EUR 1.50, recorded EUR 1.20: "
        "EUR 0.30 owed to the player"
    ) in text
    first = next(i for i, line in enumerate(lines) if line.startswith(FIRST))
    assert "mispaid_pot" in lines[first] and "settlement" in lines[first]
    assert "the hand ends" in lines[first + 1]
    finding = next(line for line in lines if "[mispaid_pot]" in line)
    assert HOSTILE_SHOWN in finding and "EUR 0.30" in finding and "owed to the player" in finding
    assert any(
        line.strip().startswith(("rule: GG-2022", "not written in the rules: GG-2022"))
        for line in lines
    )
    assert "(current)" in text and "the judgement above is the current stored verdict" in text


def test_a_mispaid_pot_is_data_the_console_renders(built) -> None:
    """``explanation``: the same hand as typed data (``audit.show.model``), which the
    console renders: seats, actions by street, settlement expected vs recorded, the
    first divergence; every line of the findings and history typed by its role."""
    explained = explanation(built["store"], "gg-x/1")
    assert explained is not None and len(explained.parts) == 1
    part = explained.parts[0]
    assert isinstance(part, Part) and isinstance(part.story, PokerStory)
    story = part.story
    assert [(s.seat, s.player, s.stack) for s in story.seats] == [
        ("1", "p1", "EUR 100.00"),
        ("2", HOSTILE_SHOWN, "EUR 100.00"),
        ("3", "p3", "EUR 100.00"),
    ]
    assert [c.text for c in story.seats[0].hole] == ["A♠", "K♦"]
    assert [c.suit for c in story.seats[0].hole] == ["s", "d"]
    actions = [a for street in story.streets for a in street.actions]
    assert [a.sequence for a in actions] == list(range(len(actions)))
    folds = [(a.seat, a.action) for a in actions if a.kind == "ActionTaken"]
    assert folds == [("3", "fold"), ("1", "fold")]
    marked = [a for a in actions if a.divergence]
    assert len(marked) == 1 and marked[0].sequence == story.first_divergence
    assert marked[0].divergence.startswith(FIRST) and marked[0].flags[0].kind == "mispaid_pot"
    payout = next(p for p in story.settlement.payouts if p.seat == "2")
    assert (payout.expected, payout.recorded) == ("EUR 1.50", "EUR 1.20")
    assert payout.difference == "EUR 0.30 owed to the player"
    assert [p.winners for p in story.settlement.pots] == [(f"seat 2 ({HOSTILE_SHOWN})",)]
    assert [line.role for line in part.findings][:2] == [Role.HEADING, Role.FINDING]
    assert part.history[0].role == Role.HEADING


def test_a_clean_hand_has_no_divergence(built) -> None:
    lines = show(built, "gg-x/2")
    assert not any(line.startswith(FIRST) for line in lines)
    assert "FINDINGS: 0 finding(s)" in lines


def test_hostile_table_and_operator_names_are_escaped(built) -> None:
    subject = f"{HOSTILE_TABLE}/3"
    text = "\n".join(show(built, subject))
    assert "POKER HAND gg-x\\e[2J/3" in text and "table       gg-x\\e[2J" in text
    assert "operator    Casino \\e[5mBlink" in "\n".join(show(built, "gg-x"))


def test_no_rulebook_says_which_rulebook_would_judge_it(built) -> None:
    text = "\n".join(show(built, "po-x/1"))
    assert "[no_rulebook]" in text
    assert "--rulebook gg-2022-cash-omaha or --rulebook mo-97-2010-omaha" in text
    text = "\n".join(show(built, "ns-x/1"))
    assert "no registered rulebook covers NS" in text


def test_a_banked_round_is_shown_step_by_step(built) -> None:
    subject = with_findings(built, "banked")
    lines = show(built, subject)
    text = "\n".join(lines)
    assert lines[0] == f"BANKED ROUND {subject}"
    assert "STEP BY STEP" in text and "SETTLEMENT PER BET" in text and "OUTCOME" in text
    assert sum(line.startswith(FIRST) for line in lines) == 1
    assert " EUR " in text or "USD " in text


def test_a_slot_machine_marks_where_the_meters_first_fail(built) -> None:
    lines = show(built, "slot-x")
    text = "\n".join(lines)
    assert "RECONFIGURED" in text and "paytable pt-93 -> pt-95" in text
    assert "theoretical return 93% -> 95%" in text and "paytable pt-95 (from #" in text
    first = [line for line in lines if line.startswith(FIRST)]
    assert len(first) == 1 and "meter_discrepancy" in first[0] and "in the window #" in first[0]
    assert "UTC" in first[0]
    after = lines[lines.index(first[0]) + 1]
    assert "DISCREPANCY" in after
    assert "coin out: the meters advanced EUR" in text
    assert "[meter_discrepancy]" in text


def test_a_tournament_shows_places_prizes_and_bounties_against_the_rules(built) -> None:
    subject = with_findings(built, "tournament")
    lines = show(built, subject)
    text = "\n".join(lines)
    assert lines[0] == f"TOURNAMENT {subject}"
    assert "payouts:" in text and "PLACES" in text and "PRIZES" in text and "BOUNTIES" in text
    assert sum(line.startswith(FIRST) for line in lines) == 1
    assert "<- the rules:" in text


def test_table_declarations_and_terms_outside_the_rulebook(built) -> None:
    lines = show(built, "mo-x")
    text = "\n".join(lines)
    assert lines[0] == "TABLE DECLARATIONS mo-x"
    assert "in force from 2024-01-01 00:00:00 UTC" in text and "rake 2% to 6% of each pot" in text
    assert any(line.startswith(FIRST) for line in lines)
    assert "[terms_outside_rulebook]" in text


def test_a_banker_run_lists_coups_and_the_garage(built) -> None:
    lines = show(built, "table:cdf-x")
    text = "\n".join(lines)
    assert lines[0] == "CHEMIN DE FER BANKER RUNS table:cdf-x"
    assert "cdf-x/1" in text and "garage taken EUR 595.00" in text
    first = next(line for line in lines if line.startswith(FIRST))
    assert "coup cdf-x/2" in first and "illegal_action" in first
    assert "[illegal_action]" in text
    assert "operator    Casino \\e[5mBlink" in text
    assert "operator    Casino \\e[5mBlink" in "\n".join(show(built, "cdf-x/2"))


def test_a_collusion_pair_shows_evidence_and_chip_flow(built) -> None:
    lines = show(built, f"pair:p1|{HOSTILE}")
    text = "\n".join(lines)
    assert lines[0] == f"COLLUSION SUSPECTED pair:p1|{HOSTILE_SHOWN}"
    assert "score 7.1 (suspected at 5.5 or more), over 140 shared hands" in text
    assert "folding to each other's bets" in text
    assert "casino-audit show gg-x/1" in text and "gg-x/404: not in the store" in text
    assert f"{HOSTILE_SHOWN} won EUR 0.50 from p1" in text  # the small blind, both hands
    assert f"p1 won EUR 0.00 from {HOSTILE_SHOWN}; {HOSTILE_SHOWN} won EUR 1.00 from p1" in text
    assert "[collusion_suspected]" in text


def test_an_incident_shows_its_events_and_investigation(built) -> None:
    lines = show(built, "inc-x")
    text = "\n".join(lines)
    assert lines[0] == "INCIDENT inc-x"
    assert "servers down \\e[1m" in text and "tables: gg-x" in text
    assert "INVESTIGATION (the latest stored)" in text and "as of 2025-03-02" in text


def test_unknown_subjects_are_none(built) -> None:
    store = built["store"]
    assert show_lines(store, "no-such-hand") is None
    assert show_lines(store, "pair:nobody|else") is None
    assert show_lines(store, "table:no-such-table") is None


def test_the_show_command_end_to_end(built, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--store", built["url"], "show", "gg-x/1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("POKER HAND gg-x/1\n") and "EUR 0.30 owed to the player" in out
    assert main(["--store", built["url"], "hand", "slot-x"]) == 0
    assert FIRST in capsys.readouterr().out
    assert main(["--store", built["url"], "show", "nothing-here"]) == 2
    assert "no subject 'nothing-here'" in capsys.readouterr().err


def test_every_stored_subject_with_findings_can_be_shown(built) -> None:
    judged = ("poker", "banked", "slots", "tournament", "table")
    for subject in sorted({r["subject"] for r in built["rows"] if r["subject_kind"] in judged}):
        lines = show(built, subject)
        assert any(line.startswith(FIRST) for line in lines), subject
