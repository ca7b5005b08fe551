"""Money in words, findings as sentences, who is owed what, and safe output
(``audit.notation.money``, ``audit.wording``, ``audit.show.finding_rows``, the nightly
report's HTML)."""

from __future__ import annotations

import csv
import io
import json
import random
import sys
import unicodedata
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from audit.notation.money import format_money
from audit.show.finding_rows import write_findings, write_owed_summary
from audit.wording import csv_safe, owed, owed_totals, sentence, terminal_safe
from replayer.casino import adjudicate_round
from replayer.findings import FindingKind
from replayer.poker import adjudicate_hand
from simulate.casino import BANKED_FAULTS, SIMULATORS, plant
from tests.poker_sim import HandBuilder

GG_TIES = "GG-2022 Política de mãos atadas"
HAND = "gg-nt-007/20250301-000080"


def row(finding: dict[str, Any], **context: Any) -> dict[str, Any]:
    """A finding row as ``current_findings`` yields it: record plus context."""
    base = {
        "finding_id": finding.get("finding_id", "f-" + finding["kind"]),
        "citation": "",
        "reason": "",
        "expected": None,
        "recorded": None,
        "difference": None,
        "detail": {},
        **finding,
    }
    return {**base, **context}


# A poker hand of the demo day: seat 2 short-paid 35 cents, the rake 10 cents over the cap.
MISPAID_POT = row(
    {
        "finding_id": "pot1",
        "kind": "mispaid_pot",
        "subject": HAND,
        "citation": GG_TIES,
        "reason": "payouts differ from the rules' outcome (seats 2)",
        "expected": {"2": 288},
        "recorded": {"2": 253},
        "difference": {"2": -35},
        "detail": {
            "event": "settlement",
            "pots": [
                {
                    "amount": 303,
                    "expected": {"2": 288},
                    "pot_index": 0,
                    "rake": 15,
                    "recorded": {"2": 253},
                    "winners": [2],
                }
            ],
            "rake_recorded": 50,
            "sequence": 42,
        },
    },
    subject_kind="poker",
    currency="EUR",
    table="gg-nt-007",
    players={"1": "gg-p0001", "2": "gg-p0123"},
    operator="gg",
)
RAKE_CAP = {
    **MISPAID_POT,
    "finding_id": "rake1",
    "kind": "rake_cap_breach",
    "citation": "MO-97/2010 art.16",
    "reason": "rake of 50 above the cap of 40",
    "expected": {"at_most": 40},
    "recorded": 50,
    "difference": None,
    "detail": {"event": "settlement", "sequence": 42},
}
PAYOUT = row(
    {
        "finding_id": "bet1",
        "kind": "mispaid_bet",
        "subject": "bac-01/20250301-00229",
        "citation": "GG-2022 live II 2.2",
        "reason": "wrong payout on bet b0 (banker 500): returned 970, expected 975",
        "expected": 975,
        "recorded": 970,
        "difference": -5,
        "detail": {"bet_id": "b0", "component": "payout", "player_id": "p0"},
    },
    subject_kind="banked",
    currency="EUR",
    table="bac-01",
    players={},
    operator="casino-lisboa",
)
COMMISSION = {
    **PAYOUT,
    "finding_id": "bet2",
    "reason": "commission on bet b0 is 30, expected 25",
    "expected": 25,
    "recorded": 30,
    "difference": 5,
    "detail": {"bet_id": "b0", "component": "commission"},
}


# -- money ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("minor", "currency", "text"),
    [
        (288, "EUR", "EUR 2.88"),
        (5, "EUR", "EUR 0.05"),
        (0, "EUR", "EUR 0.00"),
        (62500, "MOP", "MOP 625.00"),
        (112_560_000, "USD", "USD 1,125,600.00"),
        (100_000, "USD", "USD 1,000.00"),
        (1500, "JPY", "JPY 1,500"),
        (1_234_567, "KRW", "KRW 1,234,567"),
        (1234, "KWD", "KWD 1.234"),
        (-35, "EUR", "-EUR 0.35"),
        (-1_500, "JPY", "-JPY 1,500"),
        (22500, "XXX", "225 chips"),
        (1_011_250, "XXX", "10,112.5 chips"),
        (100, "XXX", "1 chip"),
        (50, "XXX", "0.5 chips"),
        (-22500, "XXX", "-225 chips"),
        (1500, None, "1,500 minor units"),
        (1, None, "1 minor unit"),
        (1500, "XAU", "1,500 minor units of XAU"),
    ],
)
def test_money_in_words(minor: int, currency: str | None, text: str) -> None:
    assert format_money(minor, currency) == text


def test_money_is_never_a_float() -> None:
    with pytest.raises(TypeError):
        format_money(2.88, "EUR")  # type: ignore[arg-type]
    # exact at any size: no binary float on the way
    assert format_money(10**20 + 1, "EUR") == "EUR 1,000,000,000,000,000,000.01"


# -- sentences ------------------------------------------------------------------------


def test_mispaid_pot_names_the_player_the_amounts_and_what_is_owed() -> None:
    assert sentence(MISPAID_POT) == (
        f'seat 2 (gg-p0123) was paid EUR 2.53; {GG_TIES} ("Tied hands") gives EUR 2.88: '
        "EUR 0.35 owed to the player"
    )


def test_mispaid_pot_one_clause_per_seat_both_directions() -> None:
    moved = {
        **MISPAID_POT,
        "expected": {"1": 0, "4": 45},
        "recorded": {"1": 45, "4": 0},
        "difference": {"1": 45, "4": -45},
        "players": {"1": "gg-p0195", "4": "gg-p0182"},
    }
    text = sentence(moved)
    assert text.startswith("seat 1 (gg-p0195) was paid EUR 0.45;")
    assert "EUR 0.45 overpaid, owed back to the house. Seat 4 (gg-p0182) was paid EUR 0.00" in text
    assert text.endswith("EUR 0.45 owed to the player")
    assert [(o.party, o.amount, o.direction) for o in owed(moved)] == [
        ("gg-p0195", 45, "to_house"),
        ("gg-p0182", 45, "to_player"),
    ]


def test_rake_over_the_cap_in_money() -> None:
    text = sentence(RAKE_CAP)
    assert text.startswith(
        "rake of EUR 0.50 taken, EUR 0.10 over the cap of EUR 0.40 (MO-97/2010 art.16)"
    )
    [alone] = owed(RAKE_CAP)  # read alone: the excess is owed to the hand's winners
    assert (alone.party, alone.amount, alone.direction) == (f"winners of {HAND}", 10, "to_player")


def test_rake_in_chips() -> None:
    chips = {**RAKE_CAP, "currency": "XXX", "expected": {"at_most": 40_000}, "recorded": 62_500}
    assert sentence(chips).startswith(
        "rake of 625 chips taken, 225 chips over the cap of 400 chips"
    )


def test_mispaid_bet_names_the_player_and_the_amounts() -> None:
    assert sentence(PAYOUT) == (
        "table bac-01 seat p0 was paid EUR 9.70 on bet b0; GG-2022 live II 2.2 gives "
        "EUR 9.75: EUR 0.05 owed to the player"
    )
    account = {
        **PAYOUT,
        "player_accounts": True,
        "detail": {**PAYOUT["detail"], "player_id": "c-77"},
    }
    assert sentence(account).startswith("c-77 was paid EUR 9.70 on bet b0")
    overpaid = {**PAYOUT, "expected": 7500, "recorded": 7501, "difference": 1}
    assert sentence(overpaid).endswith("EUR 0.01 overpaid, owed back to the house")
    assert "EUR 0.05 withheld too much, owed to player of bet b0 in" in sentence(COMMISSION)
    named = {**COMMISSION, "players": {"b0": "p0"}}  # the round names the bet's player
    assert "EUR 0.05 withheld too much, owed to table bac-01 seat p0" in sentence(named)
    assert "player of bet" not in sentence(named)


def test_bounty_void_refund_and_prize_name_the_player() -> None:
    bounty = row(
        {
            "kind": "mispaid_bounty",
            "subject": "mtt-1",
            "citation": "GG-2022 Bounty",
            "expected": 500,
            "recorded": 0,
            "difference": -500,
            "detail": {"eliminated_player_id": "gg-p0199", "player_id": "gg-p0116"},
        },
        currency="USD",
    )
    assert sentence(bounty) == (
        "gg-p0116 was paid USD 0.00 for the bounty on gg-p0199; GG-2022 Bounty gives "
        "USD 5.00: USD 5.00 owed to the player"
    )
    void = row(
        {
            "kind": "void_hand_not_refunded",
            "subject": "rou-02/1",
            "citation": "GG-2022 live IV 2.1.6",
            "expected": 500,
            "recorded": 0,
            "difference": -500,
            "detail": {"bet_id": "b0", "component": "payout", "player_id": "p0"},
        },
        currency="EUR",
    )
    assert "p0 got back EUR 0.00 of the EUR 5.00 stake on bet b0" in sentence(void)
    refund = row(
        {
            "kind": "refund_mismatch",
            "subject": "t-1",
            "citation": "GG-2022 Política de reembolso",
            "expected": 1704,
            "recorded": 1404,
            "difference": -300,
            "detail": {"incident_id": "inc-1", "player_id": "t01", "owed_to_player": 300},
        },
        currency="USD",
    )
    assert sentence(refund) == (
        't01 was given back USD 14.04; GG-2022 Política de reembolso ("Refunds after a server '
        'failure") requires USD 17.04: '
        "USD 3.00 still owed to the player (incident inc-1)"
    )
    prize = row(
        {
            "kind": "mispaid_prize",
            "subject": "mtt-2",
            "citation": "PT-217/2007 II n.º 115",
            "expected": 30000,
            "recorded": 0,
            "difference": -30000,
            "detail": {"player_id": "gg-p0007", "places": [2]},
        },
        currency="USD",
    )
    assert sentence(prize).startswith("gg-p0007 (finished 2nd) was paid USD 0.00 in cash;")


def test_findings_without_money_read_as_reason_and_citation() -> None:
    illegal = row(
        {
            "kind": "illegal_action",
            "subject": HAND,
            "citation": "GG-2022 Apostas",
            "reason": "seat 2: raise below the minimum",
        },
        players={"2": "gg-p0123"},
    )
    assert sentence(illegal) == "seat 2 (gg-p0123): raise below the minimum (GG-2022 Apostas)"
    quality = row(
        {
            "kind": "data_quality",
            "subject": "casino-a/t1/5",
            "citation": "casino-audit data quality: hand.completeness",
            "reason": "a hand\nwithout its end",
        }
    )
    assert sentence(quality) == (
        "a hand without its end (casino-audit data quality: hand.completeness)"
    )
    meters = row(
        {
            "kind": "meter_discrepancy",
            "subject": "slot-0004",
            "citation": "PT-217/2007 III.9",
            "detail": {"meter": "coin_in", "metered": 760, "event_sum": 710, "window": [3, 9]},
        },
        currency="EUR",
    )
    assert sentence(meters) == (
        "the coin_in meter advanced EUR 7.60 between sequences 3 and 9 while the events add "
        "up to EUR 7.10: EUR 0.50 more than the events (PT-217/2007 III.9)"
    )
    games = {**meters, "detail": {**meters["detail"], "meter": "games_played"}}
    assert "advanced 760 games" in sentence(games) and "EUR" not in sentence(games)
    unknown = {**meters, "currency": None}
    assert "50 meter units more than the events" in sentence(unknown)
    assert owed(meters) == owed(quality) == owed(illegal) == []


def test_a_bad_slot_reading_is_one_sentence_in_money_naming_its_meters() -> None:
    reading = row(
        {
            "kind": "meter_discrepancy",
            "subject": "slot-0009",
            "citation": "PT-217/2007 III.9; SAS meter practice",
            "detail": {
                "check": "reading",
                "sequence": 40,
                "window": [21, 40],
                "meters": ["coin_in", "games_played", "total_won"],
                "window_meters": {
                    "coin_in": {"metered": 1_250, "event_sum": 1_200, "rollover": True},
                    "games_played": {"metered": 12, "event_sum": 11, "rollover": False},
                },
                "composites": {"total_won": {"read": 900, "parts": 875}},
            },
        },
        currency="EUR",
    )
    assert sentence(reading) == (
        "the meter reading at sequence 40 (since the reading at 21): coin in advanced "
        "EUR 12.50 (after a rollover) where the events add up to EUR 12.00, EUR 0.50 more; "
        "games played advanced 12 games where the events add up to 11 games, 1 game more; "
        "total won reads EUR 9.00 where coin out + jackpot add up to EUR 8.75 "
        "(PT-217/2007 III.9 and SAS meter practice)"
    )
    single = row(
        {
            "kind": "meter_discrepancy",
            "subject": "slot-0009",
            "citation": "PT-217/2007 III.9; SAS meter practice",
            "detail": {
                "check": "single_play",
                "meter": "coin_out",
                "metered": 250_000,
                "event_sum": 100_000,
                "window": [7, 7],
            },
        },
        currency="EUR",
    )
    assert sentence(single) == (
        "one game won EUR 2,500.00 on the coin out meter, above the paytable's largest win "
        "of EUR 1,000.00 (PT-217/2007 III.9 and SAS meter practice)"
    )
    assert owed(reading) == owed(single) == []


# -- owed totals ----------------------------------------------------------------------


def test_a_seat_label_is_never_added_up_across_tables() -> None:
    """The same label at two tables is two players unless the tables declare accounts."""
    other = {**PAYOUT, "finding_id": "bet9", "subject": "bac-02/20250301-00001", "table": "bac-02"}
    labels = owed_totals([PAYOUT, other]).players
    assert set(labels) == {"table bac-01 seat p0", "table bac-02 seat p0"}
    assert owed(PAYOUT)[0].party == "table bac-01 seat p0"
    accounts = [{**r, "player_accounts": True} for r in (PAYOUT, other)]
    assert owed_totals(accounts).players["p0"]["EUR"].to_player == 10


def test_rake_and_payout_on_one_hand_are_not_counted_twice() -> None:
    totals = owed_totals([MISPAID_POT, RAKE_CAP])
    assert set(totals.players) == {"gg-p0123"}
    assert totals.players["gg-p0123"]["EUR"].to_player == 35
    assert totals.tables["gg-nt-007"]["EUR"].to_player == 35
    assert totals.operators["gg"]["EUR"].to_player == 35
    assert totals.currencies["EUR"].to_player == 35
    assert totals.not_counted == ["rake1"]
    alone = owed_totals([RAKE_CAP])  # no payout finding: the rake is all there is
    assert alone.currencies["EUR"].to_player == 10


def test_the_replayers_own_rake_and_payout_findings_count_once() -> None:
    # as tests/replayer/test_poker_pots.py::_raked: a pot of 1000, MO-97/2010 caps the rake at 5
    # big blinds = 10; 12 taken and the winner paid 988 instead of 990
    hand = HandBuilder(
        variant="NO", rulebook="mo-97-2010-omaha", stacks={1: 1000, 2: 1000, 3: 1000}
    )
    hand.post(1, "small_blind", 1).post(2, "big_blind", 2)
    hand.hole(1, "Ah Ad Kc Kd").hole(2, "Qh Jd Th 5s").hole(3, "?? ?? ?? ??")
    hand.act(3, "fold").act(1, "raise", 499).act(2, "call", 498)
    hand.board("2c 7s 9d").act(1, "check").act(2, "check")
    hand.board("3c").act(1, "check").act(2, "check").board("4d").act(1, "check").act(2, "check")
    hand.show(1, "Ah Ad Kc Kd").show(2, "Qh Jd Th 5s")
    events = hand.rake(12).award(1, 988).end().events
    found = [f.to_record() for f in adjudicate_hand(events).findings]
    # one fault, one finding: the payout is right for the rake taken (replayer v4)
    assert [f["kind"] for f in found] == ["rake_cap_breach"]
    rows = [row(f, currency="MOP", table="t", players={"1": "p1", "2": "p2"}) for f in found]
    totals = owed_totals(rows)
    assert totals.currencies["MOP"].to_player == 2
    assert totals.currencies["MOP"].to_house == 0
    assert any("MOP 0.02" in sentence(r) for r in rows)


def test_commission_inside_the_payout_and_incident_over_replay_count_once() -> None:
    totals = owed_totals([PAYOUT, COMMISSION])
    label = "table bac-01 seat p0"  # bac-01 does not declare player accounts
    assert set(totals.players) == {label}
    assert totals.players[label]["EUR"].to_player == 5 and totals.not_counted == ["bet2"]
    void = row(
        {
            "finding_id": "void1",
            "kind": "void_hand_not_refunded",
            "subject": "gg-nt-001/20250301-000030",
            "expected": {"1": 75},
            "recorded": {"1": 0},
            "difference": {"1": -75},
        },
        currency="EUR",
        players={"1": "gg-p0001"},
    )
    incident = row(
        {
            "finding_id": "inc1",
            "kind": "refund_mismatch",
            "subject": "gg-nt-001/20250301-000030",
            "expected": 75,
            "recorded": 0,
            "difference": -75,
            "detail": {"incident_id": "inc-1", "player_id": "gg-p0001", "owed_to_player": 75},
        },
        currency="EUR",
    )
    both = owed_totals([void, incident])
    assert both.players["gg-p0001"]["EUR"].to_player == 75
    assert both.counted == ["inc1"] and both.not_counted == ["void1"]


def test_the_sign_convention_holds_for_every_banked_money_finding() -> None:
    rng = random.Random("sign")
    start = datetime(2024, 5, 4, 18, 0, tzinfo=UTC)
    seen: set[str] = set()
    for game, simulate in sorted(SIMULATORS.items()):
        for index in range(60):
            planted = plant(simulate(rng, f"{game}-{index}", start), BANKED_FAULTS[index % 5])
            if planted is None:
                continue
            for finding in adjudicate_round(planted[0]).findings:
                record = row(finding.to_record(), currency="EUR")
                difference = record["difference"]
                if finding.kind is FindingKind.ILLEGAL_ACTION or not isinstance(difference, int):
                    continue
                assert difference == record["recorded"] - record["expected"]
                house_side = record["detail"].get("component") in ("commission", "cagnotte")
                [item] = owed(record)
                to_player = (difference > 0) if house_side else (difference < 0)
                assert item.direction == ("to_player" if to_player else "to_house")
                assert item.amount == abs(difference)
                seen.add(f"{finding.kind}:{record['detail'].get('component')}")
    assert {"mispaid_bet:payout", "void_hand_not_refunded:payout"} <= seen


# -- output formats -------------------------------------------------------------------


def test_jsonl_and_csv_carry_currency_and_integer_minor_units() -> None:
    out = io.StringIO()
    assert write_findings([MISPAID_POT, PAYOUT], "jsonl", out) == 2
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["currency"] for line in lines] == ["EUR", "EUR"]
    assert lines[0]["expected"] == {"2": 288} and lines[1]["difference"] == -5
    assert lines[0]["players"] == {"1": "gg-p0001", "2": "gg-p0123"}
    assert lines[0]["table"] == "gg-nt-007"
    assert lines[0]["owed"] == [
        {"party": "gg-p0123", "amount": 35, "currency": "EUR", "direction": "to_player"}
    ]
    out = io.StringIO()
    write_findings([MISPAID_POT, PAYOUT], "csv", out)
    header, first, second = list(csv.reader(io.StringIO(out.getvalue())))
    cells = dict(zip(header, second, strict=True))
    assert {"currency", "table", "players", "owed"} <= set(header)
    assert cells["currency"] == "EUR" and cells["table"] == "bac-01"
    assert (cells["expected"], cells["recorded"], cells["difference"]) == ("975", "970", "-5")
    assert json.loads(cells["owed"]) == [
        {"amount": 5, "currency": "EUR", "direction": "to_player", "party": "table bac-01 seat p0"}
    ]
    assert json.loads(dict(zip(header, first, strict=True))["players"])["2"] == "gg-p0123"


def test_csv_neutralises_formulas_but_keeps_negative_numbers() -> None:
    assert csv_safe('=HYPERLINK("http://x")') == '\'=HYPERLINK("http://x")'
    for cell in ("+1", "-A1", "@SUM(A1)", "\tx", "\rx", "  =1"):
        assert csv_safe(cell) == "'" + cell
    assert csv_safe("-35") == "-35" and csv_safe("-0.35") == "-0.35" and csv_safe(-35) == "-35"
    assert csv_safe("EUR 2.88") == "EUR 2.88" and csv_safe(None) == ""
    hostile = {
        **PAYOUT,
        "reason": "=cmd|' /C calc'!A0",
        "subject": "@evil",
        "detail": {"bet_id": "b0", "component": "payout", "player_id": "=2+5"},
    }
    out = io.StringIO()
    write_findings([hostile], "csv", out)
    header, cells = list(csv.reader(io.StringIO(out.getvalue())))
    by_name = dict(zip(header, cells, strict=True))
    assert by_name["replayer_reason"].startswith("'=") and by_name["subject"] == "'@evil"
    assert by_name["reason"] == csv_safe(sentence(hostile))  # in words: money, names
    assert by_name["difference"] == "-5"
    for cell in cells:
        assert not cell or (cell[0] not in "=+@\t\r" and not (cell[0] == "-" and cell != "-5"))


def test_terminal_output_escapes_a_hostile_player_name() -> None:
    assert terminal_safe("\x1b[31mred\x1b[0m\nnext\r\x07") == "\\e[31mred\\e[0m\\nnext\\r\\x07"
    assert terminal_safe("a\u202eb") == "a\\u202eb"
    hostile = {**MISPAID_POT, "players": {"2": "\x1b[2J\x1b[31mgg-p0123\nFAKE LINE"}}
    out = io.StringIO()
    assert write_findings([hostile], "table", out) == 1
    text = out.getvalue()
    assert "\x1b" not in text and text.count("\n") == 1
    assert "\\e[2J\\e[31mgg-p0123\\nFAKE LINE" in text and "EUR 0.35 owed to the player" in text


def test_terminal_safe_text_is_left_whole_only_when_nothing_needs_escaping() -> None:
    """Printable text is returned as is (the fast path): every character the escape
    writes out (control, line and paragraph separators, bidirectional, zero-width) is
    unprintable."""
    bidi = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    zero_width = "\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff"
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        needs = char in bidi + zero_width or unicodedata.category(char) in ("Cc", "Zl", "Zp")
        assert (terminal_safe(char) != char) == needs, hex(code)
    assert terminal_safe("A♠ 10♥ gg-p0123 €5,00") == "A♠ 10♥ gg-p0123 €5,00"
    assert terminal_safe("ok\u2028\u00adx") == "ok\\u2028\u00adx"
    assert terminal_safe("olga\u200b_p") == "olga\\u200b_p"  # not shown as olga_p


def test_rows_without_context_still_work() -> None:
    bare = {
        k: v for k, v in PAYOUT.items() if k not in ("currency", "table", "players", "operator")
    }
    bare.pop("subject_kind")
    out = io.StringIO()
    write_findings([bare], "table", out)
    assert "p0 was paid 970 minor units on bet b0" in out.getvalue()
    out = io.StringIO()
    write_findings([bare], "jsonl", out)
    line = json.loads(out.getvalue())
    assert line["currency"] is None and line["players"] == {} and line["table"] is None
    out = io.StringIO()
    write_findings([bare], "csv", out)
    assert out.getvalue().count("\n") == 2


def test_owed_summary_in_money_words() -> None:
    out = io.StringIO()
    assert write_owed_summary([MISPAID_POT, RAKE_CAP, PAYOUT, COMMISSION], out) == 2
    text = out.getvalue()
    assert "gg-p0123" in text and "EUR 0.35 owed to the player" in text
    assert "EUR 0.45" not in text and "EUR 0.10" not in text  # neither counted twice
    assert "casino-lisboa" in text and "EUR 0.05 owed to players" in text
    assert "EUR: EUR 0.40 owed to players, EUR 0.00 owed back to the house" in text


# -- the nightly report ---------------------------------------------------------------


def test_the_report_escapes_names_and_shows_sentences_and_owed(tmp_path: Path) -> None:
    from pipelines.report import DayData, ReportPaths, render

    evil = "<script>alert(1)</script>"
    hostile = {
        **MISPAID_POT,
        "players": {"2": evil},
        "table": "gg-nt-007<b>",
        "family": "poker",
        "source": "replay",
        "day": "2025-03-01",
    }
    rake = {**RAKE_CAP, **{k: hostile[k] for k in ("players", "table", "family", "source", "day")}}
    data = DayData(date(2025, 3, 1), rows=[hostile, rake])
    paths = ReportPaths(tmp_path / "report.html", tmp_path / "f.csv", tmp_path / "f.jsonl")
    page = render(data, paths, [], "sqlite:///s.db")
    assert "<script>" not in page and "gg-nt-007<b>" not in page
    assert "seat 2 (&lt;script&gt;alert(1)&lt;/script&gt;) was paid EUR 2.53" in page
    assert "<h2>Owed</h2>" in page and "EUR 0.35" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;</td><td>EUR</td>" in page
