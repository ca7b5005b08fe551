"""Incident investigation end to end: a simulated failure with planted refund mistakes
(``simulate.incident``) is ingested, then investigated through the API and the
``casino-audit incident`` commands; the investigation finds exactly what was planted."""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from audit.incidents.inflight import find_in_flight
from audit.incidents.investigation import append_findings, investigate
from audit.incidents.record import load_incident
from audit.incidents.report import render_text, to_json, write_csv
from audit.ingest.pipeline import ingest
from audit.judging import current_findings
from audit.notation.money import format_money
from audit.store import AuditStore
from cli.common import CannotRun
from cli.incident import add_parsers as add_incident_parser
from simulate.incident import IncidentManifest, generate_incident

DAY = date(2025, 3, 1)


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, IncidentManifest]:
    folder = tmp_path_factory.mktemp("incident-day")
    manifest = generate_incident(11, DAY, folder / "in")
    url = f"sqlite:///{folder / 'store.db'}"
    store = AuditStore(url)
    summary = ingest(store, [folder / "in"])
    store.close()
    assert summary.rejected == []
    return url, manifest


def _found(investigation) -> set[tuple]:
    return {
        (str(f.kind), f.subject, f.detail.get("player_id"), f.expected, f.recorded)
        for f in investigation.findings
    }


def _as_of(manifest: IncidentManifest) -> datetime:
    return datetime.fromisoformat(manifest.as_of)


def test_the_investigation_finds_exactly_the_planted_mistakes(day):
    url, manifest = day
    store = AuditStore(url)
    investigation = investigate(store, manifest.incident_id, as_of=_as_of(manifest))
    found = find_in_flight(store, load_incident(store, manifest.incident_id))
    store.close()
    assert _found(investigation) == manifest.expected_findings()
    assert len(investigation.findings) == len(manifest.expected_findings())
    assert {
        "poker": [s for s, _ in found.hands],
        "live": [s for s, _ in found.live_rounds],
        "rng": [s for s, _ in found.rng_rounds],
        "tournament": [s for s, _ in found.tournaments],
    } == manifest.in_flight
    owed = {
        f.detail["player_id"]: f.detail["owed_to_player"]
        for f in investigation.findings
        if str(f.kind) == "refund_mismatch" and f.subject.startswith("t-")
    }
    assert owed == {"t01": 300, "b1": 460, "b2": 384, "t04": -844, "t09": -1}


def test_before_the_24_hours_the_rng_bets_are_pending_not_owed(day):
    url, manifest = day
    store = AuditStore(url)
    early = investigate(store, manifest.incident_id, as_of=_as_of(manifest) - timedelta(hours=2))
    store.close()
    rng = {s.subject: s.status for s in early.subjects if s.family == "rng"}
    assert rng == {
        "rng-bj-1/0002": "resumed",
        "rng-bj-1/0003": "pending",
        "rng-bj-1/0004": "pending",
    }
    planted_rng = {f for f in manifest.expected_findings() if f[1].startswith("rng")}
    assert _found(early) == manifest.expected_findings() - planted_rng


def test_reports_are_deterministic_and_exports_agree(day):
    url, manifest = day
    store = AuditStore(url)
    first = investigate(store, manifest.incident_id, as_of=_as_of(manifest))
    second = investigate(store, manifest.incident_id, as_of=_as_of(manifest))
    store.close()
    assert to_json(first) == to_json(second)
    data = json.loads(to_json(first))
    assert len(data["findings"]) == len(manifest.expected_findings())
    out = io.StringIO()
    rows = list(csv.DictReader(io.StringIO(out.getvalue()))) if write_csv(first, out) else []
    owed_rows = {
        (r["subject"], r["player_id"]): int(r["owed_to_player"])
        for r in rows
        if r["owed_to_player"] != "0"
    }
    assert owed_rows == {
        (f.subject, f.detail["player_id"]): f.detail["owed_to_player"]
        for f in first.findings
        if str(f.kind) == "refund_mismatch"
    }
    assert all(r["finding_id"] for r in rows if r["owed_to_player"] != "0")
    text = render_text(first)
    assert "IN FLIGHT (8)" in text and "GG-2022 casino 2" in text


def test_findings_are_appended_once(day, tmp_path):
    url, manifest = day
    copy = tmp_path / "store.db"
    copy.write_bytes(Path(url.removeprefix("sqlite:///")).read_bytes())
    store = AuditStore(f"sqlite:///{copy}")
    investigation = investigate(store, manifest.incident_id, as_of=_as_of(manifest))
    assert append_findings(store, investigation) == 1
    assert append_findings(store, investigation) == 0
    stored = list(current_findings(store))
    store.close()
    assert {f["finding_id"] for f in stored} == {f.finding_id for f in investigation.findings}


def _cli(url: str, *argv: str) -> int:
    parser = argparse.ArgumentParser(prog="casino-audit")
    parser.add_argument("--store")
    add_incident_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["--store", url, *argv])
    try:
        return args.run(args)
    except CannotRun:
        return 2


def test_cli_records_amends_and_investigates(day, tmp_path, capsys):
    url, manifest = day
    copy = tmp_path / "store.db"
    copy.write_bytes(Path(url.removeprefix("sqlite:///")).read_bytes())
    url = f"sqlite:///{copy}"
    window = ["--start", manifest.window_start, "--end", manifest.window_end]
    assert (
        _cli(
            url,
            "incident",
            "record",
            "--id",
            "inc-cli",
            "--kind",
            "server_failure",
            *window,
            "--games",
            "rou-1",
            "--tables",
            *manifest.tables,
        )
        == 0
    )
    assert _cli(url, "incident", "record", "--id", "inc-cli", "--kind", "x", *window) == 2
    out = tmp_path / "report.json"
    assert (
        _cli(
            url,
            "incident",
            "investigate",
            "inc-cli",
            "--as-of",
            manifest.as_of,
            "--format",
            "json",
            "--out",
            str(out),
            "--fail-on-findings",
        )
        == 1
    )
    reported = json.loads(out.read_text())["subjects"]
    subjects = {s["subject"] for s in reported}
    assert subjects == {*manifest.in_flight["poker"], *manifest.in_flight["live"][1:]}
    # the tables were not hit after all: amend the scope to the roulette table only
    assert (
        _cli(
            url,
            "incident",
            "amend",
            "inc-cli",
            *window,
            "--games",
            "rou-1",
            "--reason",
            "poker servers were up",
        )
        == 0
    )
    capsys.readouterr()
    assert _cli(url, "incident", "investigate", "inc-cli", "--as-of", manifest.as_of) == 0
    text = capsys.readouterr().out
    assert "IN FLIGHT (1)" in text and "amended  poker servers were up" in text
    planted = next(p for p in manifest.planted if p.kind == "live_bet_not_refunded")
    ((_, _, player, required, recorded),) = planted.findings
    currency = next(s["currency"] for s in reported if s["subject"] == planted.subject)
    money = {n: format_money(v, currency) for n, v in (("req", required), ("rec", recorded))}
    owed = format_money(required - recorded, currency)
    assert f"{player} was given back {money['rec']}" in text
    assert f"requires {money['req']}: {owed} still owed to the player" in text
    assert f"{currency}: {owed} still owed" in text
    assert not re.search(r"\bpot \d", text)  # in-flight lines in money too
    assert _cli(url, "incident", "investigate", "no-such") == 2


def test_record_refuses_names_the_store_does_not_hold(store_url, tmp_path, capsys):
    manifest = generate_incident(11, DAY, tmp_path / "in")
    store = AuditStore(store_url)
    assert ingest(store, [tmp_path / "in"]).rejected == []
    store.close()
    window = ["--start", manifest.window_start, "--end", manifest.window_end]
    record = ["incident", "record", "--kind", "server_failure", *window]
    capsys.readouterr()
    refused = _cli(
        store_url, *record, "--id", "inc-typo", "--tables", "NT-12\x1b[2J", "--games", "rou-1"
    )
    assert refused == 2
    store = AuditStore(store_url)
    assert store.records_of("incident", "inc-typo") == []  # nothing recorded
    store.close()
    known = _cli(
        store_url, *record, "--id", "inc-ok", "--games", "rou-1", "--tables", *manifest.tables
    )
    assert known == 0
    ahead = _cli(
        store_url, *record, "--id", "inc-ahead", "--machines", "SM-404", "--allow-unknown-scope"
    )
    assert ahead == 0
    assert (
        "warning: --machines: SM-404 not in the store; known: none stored"
        in capsys.readouterr().err
    )


def test_the_refusal_names_the_unknown_and_the_known(store_url, tmp_path):
    from audit.incidents.scope import unknown_names

    manifest = generate_incident(11, DAY, tmp_path / "in")
    store = AuditStore(store_url)
    ingest(store, [tmp_path / "in"])
    problems = unknown_names(
        store, {"tables": ["NT-12\x1b[2J", *manifest.tables], "games": ["rou-1"]}
    )
    store.close()
    (problem,) = problems
    assert problem.startswith("--tables: NT-12\\e[2J not in the store; known: ")
    assert all(table in problem for table in manifest.tables)
    assert "\x1b" not in problem


def test_the_report_says_money_in_money_and_no_record_codes(day):
    """Issue 40 item 4: the in-flight lines name no event type or status code and show a
    hand's last step in its currency with the player's name (no ``seat 2 call 20000``)."""
    url, manifest = day
    store = AuditStore(url)
    investigation = investigate(store, manifest.incident_id, as_of=_as_of(manifest))
    store.close()
    text = render_text(investigation)
    in_flight = text.split("IN FLIGHT")[1].split("REQUIRED vs RECORDED")[0]
    codes = re.findall(r"\b[A-Z][a-z]+[A-Z][A-Za-z]+\b|\b[a-z]+_[a-z_]+\b", in_flight)
    assert not codes, codes
    for result in investigation.subjects:
        step = result.state.get("step") if result.family == "poker" else None
        if step:
            assert f"'{step['text']}'" not in in_flight
            assert step["words"] in in_flight
